internal import BrowserFormats

/// Reads the headers of the raster image formats far enough to know their dimensions, and notices a file that
/// stops early. Only a header that really parses makes a value an image (see `ContentKind.rasterMIMEType`):
/// the magic bytes alone are not trusted.
struct ImageHeader {
    var kind: ContentKind
    var image: ImageInfo?
    var problems: [String] = []
    /// Set when the value is not the claimed format after all (e.g. an ISO media file that is a video).
    var label: String?
}

enum ImageHeaderParser {
    /// The image format `bytes` begins with, or nil. `complete` is false when only a head of the value was
    /// passed, so a missing end marker is not a sign of truncation.
    static func parse(_ bytes: UnsafeRawBufferPointer, complete: Bool) -> ImageHeader? {
        if bytes.count >= 8, bytes[0] == 0x89, bytes.matches("PNG\r\n\u{1A}\n", at: 1) { return png(bytes, complete: complete) }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return jpeg(bytes, complete: complete) }
        if bytes.matches("GIF87a") || bytes.matches("GIF89a") { return gif(bytes, complete: complete) }
        if bytes.matches("RIFF"), bytes.matches("WEBP", at: 8) { return webp(bytes, complete: complete) }
        if bytes.matches("ftyp", at: 4) { return ISOMediaHeaderParser.parse(bytes) }
        if bytes.matches("II*\0") || bytes.matches("MM\0*") { return tiff(bytes) }
        return nil
    }

    // PNG (RFC 2083 / ISO 15948): signature, then chunks of length, type, data, CRC; IHDR comes first and holds
    // width and height; IEND ends the file.
    private static func png(_ bytes: UnsafeRawBufferPointer, complete: Bool) -> ImageHeader? {
        guard bytes.matches("IHDR", at: 12), let width = bytes.uint32BE(at: 16), let height = bytes.uint32BE(at: 20),
              width > 0, height > 0
        else { return nil }
        var header = ImageHeader(kind: .png, image: ImageInfo(width: width, height: height))
        guard complete else { return header }
        var offset = 8
        var sawEnd = false
        while let length = bytes.uint32BE(at: offset), bytes.count - offset >= 12 {
            if bytes.matches("IEND", at: offset + 4) {
                sawEnd = true
                break
            }
            guard length <= bytes.count - offset - 12 else { break }
            offset += 12 + length
        }
        if !sawEnd { header.problems.append("PNG header parsed but the file is truncated (no IEND chunk)") }
        return header
    }

    // JPEG (ITU T.81 §B.1.1): segments FF xx with a 2-byte length, except the standalone markers; the frame
    // header (SOF0…SOF15 but DHT C4, JPG C8 and DAC CC) gives precision, height, width. FF D9 ends the image.
    private static func jpeg(_ bytes: UnsafeRawBufferPointer, complete: Bool) -> ImageHeader? {
        var offset = 2
        var image: ImageInfo?
        var ranOut = false
        while image == nil {
            guard let first = bytes.byte(at: offset) else {
                ranOut = true
                break
            }
            guard first == 0xFF else { break }
            var markerOffset = offset + 1
            while bytes.byte(at: markerOffset) == 0xFF { markerOffset += 1 } // fill bytes
            guard let marker = bytes.byte(at: markerOffset) else {
                ranOut = true
                break
            }
            offset = markerOffset + 1
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { continue }
            if marker == 0xD9 || marker == 0xDA { break } // end of image, or scan data before any frame header
            guard let length = bytes.uint16BE(at: offset), length >= 2 else {
                ranOut = bytes.count - offset < 2
                break
            }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard let height = bytes.uint16BE(at: offset + 3), let width = bytes.uint16BE(at: offset + 5) else {
                    ranOut = true
                    break
                }
                // A height of 0 means "defined by the DNL marker later"; the width cannot be 0.
                guard width > 0 else { return nil }
                image = ImageInfo(width: width, height: height)
            }
            offset += length
        }
        guard let image else {
            // JPEG magic but no frame header: still a JPEG to a viewer only when the file stopped before it.
            guard ranOut else { return nil }
            return ImageHeader(kind: .jpeg, problems: ["JPEG file is truncated before its frame header"])
        }
        var header = ImageHeader(kind: .jpeg, image: image)
        if complete, !(bytes.count >= 4 && bytes[bytes.count - 2] == 0xFF && bytes[bytes.count - 1] == 0xD9) {
            header.problems.append("JPEG header parsed but the file is truncated (no end-of-image marker)")
        }
        return header
    }

    // GIF89a spec §18: the logical screen descriptor follows the signature: width, height (little-endian).
    // The trailer 0x3B ends the file.
    private static func gif(_ bytes: UnsafeRawBufferPointer, complete: Bool) -> ImageHeader? {
        guard let width = bytes.uint16LE(at: 6), let height = bytes.uint16LE(at: 8), bytes.count >= 13 else {
            return ImageHeader(kind: .gif, problems: ["GIF file is truncated in its header"])
        }
        var header = ImageHeader(kind: .gif, image: ImageInfo(width: width, height: height))
        if complete, bytes[bytes.count - 1] != 0x3B {
            header.problems.append("GIF header parsed but the file is truncated (no trailer)")
        }
        return header
    }

    // WebP container (RFC 9649): RIFF size "WEBP", then a VP8 (lossy: frame tag, start code 9D 01 2A, 14-bit
    // sizes), VP8L (lossless: 0x2F, 14-bit sizes minus one) or VP8X (extended: 24-bit canvas sizes minus one) chunk.
    private static func webp(_ bytes: UnsafeRawBufferPointer, complete: Bool) -> ImageHeader? {
        var image: ImageInfo?
        if bytes.matches("VP8 ", at: 12) {
            if bytes.byte(at: 23) == 0x9D, bytes.byte(at: 24) == 0x01, bytes.byte(at: 25) == 0x2A,
               let width = bytes.uint16LE(at: 26), let height = bytes.uint16LE(at: 28) {
                image = ImageInfo(width: width & 0x3FFF, height: height & 0x3FFF)
            }
        } else if bytes.matches("VP8L", at: 12) {
            if bytes.byte(at: 20) == 0x2F, let bits = bytes.uint32LE(at: 21) {
                image = ImageInfo(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
            }
        } else if bytes.matches("VP8X", at: 12) {
            if let width = bytes.uint24LE(at: 24), let height = bytes.uint24LE(at: 27) {
                image = ImageInfo(width: width + 1, height: height + 1)
            }
        } else {
            return nil
        }
        guard let image, image.width > 0, image.height > 0 else {
            guard bytes.count < 30 else { return nil }
            return ImageHeader(kind: .webp, problems: ["WebP file is truncated in its header"])
        }
        var header = ImageHeader(kind: .webp, image: image)
        if complete, let riffSize = bytes.uint32LE(at: 4), riffSize + 8 > bytes.count {
            header.problems.append("WebP header parsed but the file is truncated")
        }
        return header
    }

    // TIFF 6.0 §2: byte order, 42, the first IFD's offset; entries of tag, type, count, value. ImageWidth (256)
    // and ImageLength (257) are SHORT or LONG.
    private static func tiff(_ bytes: UnsafeRawBufferPointer) -> ImageHeader? {
        let little = bytes[0] == 0x49
        func read(_ offset: Int, _ size: Int) -> Int? {
            (little ? bytes.littleEndian(at: offset, size: size) : bytes.bigEndian(at: offset, size: size)).map { Int($0) }
        }
        guard let ifd = read(4, 4), let entries = read(ifd, 2), ifd >= 8 else {
            return ImageHeader(kind: .tiff, problems: ["TIFF file is truncated before its first image directory"])
        }
        var width: Int?
        var height: Int?
        for index in 0..<min(entries, 4096) {
            let entry = ifd + 2 + index * 12
            guard let tag = read(entry, 2), let type = read(entry + 2, 2) else {
                return ImageHeader(kind: .tiff, problems: ["TIFF image directory is truncated"])
            }
            let value = type == 3 ? read(entry + 8, 2) : type == 4 ? read(entry + 8, 4) : nil
            if tag == 256 { width = value }
            if tag == 257 { height = value }
        }
        guard let width, let height else {
            return ImageHeader(kind: .tiff, problems: ["TIFF image directory has no width and height"])
        }
        return ImageHeader(kind: .tiff, image: ImageInfo(width: width, height: height))
    }
}
