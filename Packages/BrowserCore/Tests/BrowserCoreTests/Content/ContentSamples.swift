import Foundation

/// Minimal files of each format, built byte by byte, so every test says exactly what it feeds the inspector.
enum ContentSamples {
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le24(_ value: Int) -> [UInt8] { [0, 8, 16].map { UInt8(value >> $0 & 0xFF) } }
    static func le32(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8(value >> $0 & 0xFF) } }
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func png(width: Int, height: Int, withEnd: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += be32(13) + ascii("IHDR") + be32(width) + be32(height) + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
        bytes += be32(1) + ascii("IDAT") + [0x00] + [0, 0, 0, 0]
        if withEnd { bytes += be32(0) + ascii("IEND") + [0xAE, 0x42, 0x60, 0x82] }
        return bytes
    }

    static func gif(width: Int, height: Int) -> [UInt8] {
        ascii("GIF89a") + le16(width) + le16(height) + [0x00, 0x00, 0x00] + [0x3B]
    }

    /// SOI, an APP0 segment, a baseline frame header (SOF0), a scan header and EOI.
    static func jpeg(width: Int, height: Int, withEnd: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0] + be16(16) + ascii("JFIF") + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        bytes += [0xFF, 0xDA] + be16(12) + [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0] + [0x12, 0x34]
        if withEnd { bytes += [0xFF, 0xD9] }
        return bytes
    }

    static func webp(chunk: String, payload: [UInt8]) -> [UInt8] {
        let body = ascii("WEBP") + ascii(chunk) + le32(payload.count) + payload
        return ascii("RIFF") + le32(body.count) + body
    }

    static func webpExtended(width: Int, height: Int) -> [UInt8] {
        webp(chunk: "VP8X", payload: [0, 0, 0, 0] + le24(width - 1) + le24(height - 1))
    }

    static func webpLossless(width: Int, height: Int) -> [UInt8] {
        let bits = (width - 1) | (height - 1) << 14
        return webp(chunk: "VP8L", payload: [0x2F] + le32(bits) + [0, 0, 0])
    }

    static func webpLossy(width: Int, height: Int) -> [UInt8] {
        webp(chunk: "VP8 ", payload: [0x50, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(width) + le16(height) + [0, 0])
    }

    static func tiff(width: Int, height: Int) -> [UInt8] {
        var bytes = ascii("II*\0") + le32(8) + le16(2)
        bytes += le16(256) + le16(3) + le32(1) + le16(width) + [0, 0]
        bytes += le16(257) + le16(4) + le32(1) + le32(height)
        return bytes + le32(0)
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(payload.count + 8) + ascii(type) + payload }

    /// ftyp, then meta (full box) → iprp → ipco → ispe (full box: width, height).
    static func isoImage(major: String, compatible: [String], width: Int, height: Int) -> [UInt8] {
        let ftyp = box("ftyp", ascii(major) + be32(0) + compatible.flatMap(ascii))
        let ispe = box("ispe", [0, 0, 0, 0] + be32(width) + be32(height))
        let meta = box("meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 24)) + box("iprp", box("ipco", ispe)))
        return ftyp + meta
    }

    static let pdf = ascii("""
        %PDF-1.7
        1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
        2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >> endobj
        3 0 obj << /Type /Page /Parent 2 0 R >> endobj
        4 0 obj <</Type/Page/Parent 2 0 R>> endobj
        5 0 obj << /Type
        /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj
        6 0 obj << /Type /PageLabel >> endobj
        trailer << /Root 1 0 R >>
        %%EOF

        """)
}

/// A property list value to write as `bplist00` (containers written before their children).
indirect enum PlistValue {
    case string(String)
    case utf16(String)
    case int(Int)
    case real(Double)
    case bool(Bool)
    case data([UInt8])
    case uid(Int)
    case array([PlistValue])
    case dict([(String, PlistValue)])
}

/// One object of a binary plist's object table, its references already numbers: what `BinaryPlistWriter`
/// writes, and what a test builds directly to make cycles and dangling references.
enum PlistObject {
    case string(String)
    case utf16(String)
    case int(Int)
    case real(Double)
    case bool(Bool)
    case data([UInt8])
    case uid(Int)
    case array([Int])
    case dict(keys: [Int], values: [Int])
}

/// A tiny `bplist00` writer for tests: 1-byte references, 2-byte offsets.
enum BinaryPlistWriter {
    static func write(_ value: PlistValue) -> Data {
        var objects: [PlistObject] = []
        _ = flatten(value, into: &objects)
        return write(objects: objects, top: 0)
    }

    private static func flatten(_ value: PlistValue, into objects: inout [PlistObject]) -> Int {
        let index = objects.count
        switch value {
        case .string(let text): objects.append(.string(text))
        case .utf16(let text): objects.append(.utf16(text))
        case .int(let number): objects.append(.int(number))
        case .real(let number): objects.append(.real(number))
        case .bool(let flag): objects.append(.bool(flag))
        case .data(let bytes): objects.append(.data(bytes))
        case .uid(let uid): objects.append(.uid(uid))
        case .array(let elements):
            objects.append(.array([]))
            let references = elements.map { flatten($0, into: &objects) }
            objects[index] = .array(references)
        case .dict(let pairs):
            objects.append(.array([]))
            let keys = pairs.map { flatten(.string($0.0), into: &objects) }
            let values = pairs.map { flatten($0.1, into: &objects) }
            objects[index] = .dict(keys: keys, values: values)
        }
        return index
    }

    /// `offsetOverrides` replaces entries of the offset table (to point objects outside the file).
    static func write(objects: [PlistObject], top: Int, offsetOverrides: [Int: Int] = [:]) -> Data {
        var bytes: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        func marker(_ type: UInt8, _ count: Int) -> [UInt8] {
            count < 15 ? [type << 4 | UInt8(count)]
                : count < 256 ? [type << 4 | 0x0F, 0x10, UInt8(count)] : [type << 4 | 0x0F, 0x11] + ContentSamples.be16(count)
        }
        for object in objects {
            offsets.append(bytes.count)
            switch object {
            case .string(let text): bytes += marker(0x5, text.utf8.count) + Array(text.utf8)
            case .utf16(let text):
                let units = Array(text.utf16)
                bytes += marker(0x6, units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            case .int(let number): bytes += [0x13] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: number >> ($0 * 8)) }
            case .real(let number):
                let bits = number.bitPattern
                bytes += [0x23] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: bits >> ($0 * 8)) }
            case .bool(let flag): bytes += [flag ? 0x09 : 0x08]
            case .data(let data): bytes += marker(0x4, data.count) + data
            case .uid(let uid): bytes += [0x80, UInt8(uid)]
            case .array(let references): bytes += marker(0xA, references.count) + references.map { UInt8($0) }
            case .dict(let keys, let values): bytes += marker(0xD, keys.count) + keys.map { UInt8($0) } + values.map { UInt8($0) }
            }
        }
        let table = bytes.count
        for (index, offset) in offsets.enumerated() { bytes += ContentSamples.be16(offsetOverrides[index] ?? offset) }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1]
        bytes += [0, 0, 0, 0] + ContentSamples.be32(objects.count)
        bytes += [0, 0, 0, 0] + ContentSamples.be32(top)
        bytes += [0, 0, 0, 0] + ContentSamples.be32(table)
        return Data(bytes)
    }

    /// An NSKeyedArchiver archive: `$objects` is "$null" then `objects`; the root is UID 1.
    static func keyedArchive(_ objects: [PlistValue]) -> Data {
        write(.dict([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .int(100_000)),
            ("$top", .dict([("root", .uid(1))])),
            ("$objects", .array([.string("$null")] + objects)),
        ]))
    }

    static func classDescription(_ names: [String]) -> PlistValue {
        .dict([("$classname", .string(names[0])), ("$classes", .array(names.map(PlistValue.string)))])
    }
}
