/// The checksums the compressed containers carry: CRC-32 (gzip, RFC 1952 §8) and Adler-32 (zlib, RFC 1950 §9).
enum Checksums {
    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }

    static func adler32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
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
