import Foundation

/// Small, real PNG images for the demo books' `cover` attribute, so the content viewers have a picture to show.
///
/// Written here rather than stored as files: a PNG is a signature and three chunks (RFC 2083), and its pixels may
/// sit in "stored" (uncompressed) deflate blocks (RFC 1951 §3.2.4) inside a zlib stream (RFC 1950), so no
/// compressor is needed. Each cover is a two-tone band picture whose colours come from the book's title.
enum DemoCover {
    static let width = 48
    static let height = 72

    /// A deliberate test value: the hostile-markup book's "cover" is an SVG document with a script. The server must
    /// never let a browser run it on our origin (it is served as a sandboxed `application/octet-stream` download;
    /// a browser test opens it directly and checks that nothing ran).
    static let hostileSVG = Data("""
        <svg xmlns="http://www.w3.org/2000/svg" width="48" height="72"><script>document.title = 'pwned';         fetch('/api/entities').then(() => { document.title = 'pwned by fetch' });</script>        <rect width="48" height="72" fill="red"/></svg>
        """.utf8)

    static func png(for title: String) -> Data {
        let seed = title.unicodeScalars.reduce(UInt32(2166136261)) { ($0 ^ $1.value) &* 16777619 }  // FNV-1a
        let background = [UInt8(truncatingIfNeeded: seed), UInt8(truncatingIfNeeded: seed >> 8), UInt8(truncatingIfNeeded: seed >> 16)]
        let band = background.map { 255 - $0 }
        var pixels: [UInt8] = []
        pixels.reserveCapacity((width * 3 + 1) * height)
        for row in 0..<height {
            pixels.append(0)  // filter type "None"
            let color = (row / 12) % 2 == 0 ? background : band
            for _ in 0..<width { pixels += color }
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits per channel, RGB, deflate, adaptive filtering, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header) + chunk("IDAT", zlibStored(pixels)) + chunk("IEND", [])
        return Data(png)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    /// A zlib stream of stored deflate blocks (at most 65,535 bytes each), then the Adler-32 of the data.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
