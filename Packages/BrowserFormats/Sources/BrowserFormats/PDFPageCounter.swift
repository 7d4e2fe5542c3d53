/// A PDF's version and page count from its bytes (ISO 32000-1 §7.7.3.3): each page is a dictionary with
/// `/Type /Page`, the page tree nodes say `/Type /Pages`. Pages stored inside compressed object streams (PDF 1.5+)
/// cannot be seen this way; then the count is left out rather than guessed.
public enum PDFPageCounter {
    /// Where "%PDF-" may begin: some writers put bytes before it, and readers accept it within 1 KB.
    public static let headerWindow = 1_024
    /// Pages counted at most: a bound for a hostile file full of page dictionaries.
    public static let maximumPages = 1_000_000

    /// The offset of "%PDF-" in the header window.
    public static func headerOffset(_ bytes: UnsafeRawBufferPointer) -> Int? {
        bytes.firstIndex(of: Array("%PDF-".utf8), from: 0, end: min(bytes.count, headerWindow + 5))
    }

    public static func version(_ bytes: UnsafeRawBufferPointer, headerOffset: Int) -> String {
        var end = headerOffset + 5
        while end < min(bytes.count, headerOffset + 9), let byte = bytes.byte(at: end),
              byte == UInt8(ascii: ".") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) { end += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(headerOffset + 5)..<end]), as: UTF8.self)
    }

    public static func pageCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        let needle = Array("/Type".utf8)
        var pages = 0
        var index = 0
        while pages < maximumPages, let found = bytes.firstIndex(of: needle, from: index) {
            index = found + needle.count
            // PDF whitespace (§7.2.2) may separate the key and its name, or nothing: "/Type/Page".
            var cursor = index
            while let byte = bytes.byte(at: cursor), [0x00, 0x09, 0x0A, 0x0C, 0x0D, 0x20].contains(byte) { cursor += 1 }
            guard bytes.matches("/Page", at: cursor) else { continue }
            // "/Pages" and any longer name are not a page: a name ends at whitespace or a delimiter.
            if let next = bytes.byte(at: cursor + 5), isRegularCharacter(next) { continue }
            pages += 1
        }
        return pages
    }

    /// Whether the file ends with "%%EOF" (within its last 1 KB, where writers put it).
    public static func hasEndMarker(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.firstIndex(of: Array("%%EOF".utf8), from: max(0, bytes.count - 1_024)) != nil
    }

    private static func isRegularCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00, 0x09, 0x0A, 0x0C, 0x0D, 0x20: false
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"): false
        default: true
        }
    }
}
