internal import BrowserFormats

/// Tells the text formats that begin with markup apart: RTF (`{\rtf`), HTML, an XML property list and other
/// XML. Looks only at the start of the text; the XML plist is then really parsed by `XMLPropertyList`.
enum MarkupSniffer {
    enum Markup: Equatable {
        case rtf
        case html
        case xmlPlist
        /// The root element's name when it could be read.
        case xml(root: String?)
    }

    /// How far into the text the doctype or root element is looked for.
    private static let headBytes = 1_024

    /// `start` is the first byte after a BOM and leading whitespace.
    static func classify(_ bytes: UnsafeRawBufferPointer, start: Int) -> Markup? {
        if bytes.matches("{\\rtf", at: start) { return .rtf }
        guard bytes.byte(at: start) == UInt8(ascii: "<") else { return nil }
        let headEnd = min(bytes.count, start + headBytes)
        let head = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<headEnd]), as: UTF8.self).lowercased()
        if head.contains("<!doctype html") || head.contains("<html") || head.hasPrefix("<head") || head.hasPrefix("<body") {
            return .html
        }
        if head.contains("<!doctype plist") || head.contains("<plist") { return .xmlPlist }
        // XML: a declaration, or an element (a name start after "<"), and the document ends with ">".
        var end = bytes.count
        while end > start, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        let isDeclared = head.hasPrefix("<?xml")
        guard isDeclared || bytes[end - 1] == UInt8(ascii: ">") else { return nil }
        let root = rootElement(head)
        guard isDeclared || root != nil else { return nil }
        return .xml(root: root)
    }

    /// The first element's name, after declarations, comments and doctype.
    private static func rootElement(_ head: String) -> String? {
        var rest = Substring(head)
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            if let first = after.first, first.isLetter || first == "_" {
                let name = after.prefix { $0.isLetter || $0.isNumber || "_-.:".contains($0) }
                return String(name)
            }
            guard let close = after.firstIndex(of: ">") else { return nil }
            rest = after[after.index(after: close)...]
        }
        return nil
    }
}
