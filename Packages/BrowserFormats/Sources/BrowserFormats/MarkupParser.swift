/// An element of a small XML document: a model's `contents` file or an XML property list.
public struct MarkupElement: Sendable, Hashable {
    public var name: String
    public var attributes: [String: String]
    public var children: [MarkupElement]
    /// The element's own character data (text and CDATA), entities decoded.
    public var text: String

    public func children(named name: String) -> [MarkupElement] {
        children.filter { $0.name == name }
    }

    public func firstChild(named name: String) -> MarkupElement? {
        children.first { $0.name == name }
    }
}

/// A minimal, non-validating XML parser for the XML documents the bricks read that are not property lists
/// (Xcode's `contents` model files; XML property lists have their own reader, `XMLPropertyList`).
///
/// Written here because Foundation's `XMLParser` lives in `FoundationXML` on Linux and needs libxml2 at run time.
/// It handles what those files contain: the XML declaration, a DOCTYPE, comments, processing instructions,
/// elements with single- or double-quoted attributes, character data, CDATA, and the predefined and numeric
/// character references. Namespaces are kept as part of names.
public struct MarkupParser {
    private let bytes: [UInt8]
    private var position = 0

    public static let maximumDepth = 256

    public static func parse(_ bytes: [UInt8]) throws(PropertyListError) -> MarkupElement {
        var parser = MarkupParser(bytes: bytes)
        return try parser.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    private mutating func document() throws(PropertyListError) -> MarkupElement {
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw PropertyListError("XML document has no root element") }
            if try skipMarkupDeclaration() { continue }
            guard bytes[position] == UInt8(ascii: "<") else {
                throw PropertyListError("XML document has text before its root element")
            }
            return try element(depth: 0)
        }
    }

    /// Skips `<?…?>`, `<!--…-->` and `<!DOCTYPE …>` at the current position; false when there is none.
    private mutating func skipMarkupDeclaration() throws(PropertyListError) -> Bool {
        if starts(with: "<?") {
            try skip(past: "?>")
            return true
        }
        if starts(with: "<!--") {
            try skip(past: "-->")
            return true
        }
        if starts(with: "<!DOCTYPE") {
            var depth = 0
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "]") { depth -= 1 }
                if byte == UInt8(ascii: ">") && depth <= 0 { return true }
            }
            throw PropertyListError("XML document ends inside its DOCTYPE")
        }
        return false
    }

    private mutating func element(depth: Int) throws(PropertyListError) -> MarkupElement {
        guard depth < Self.maximumDepth else { throw PropertyListError("XML document nests too deeply") }
        position += 1 // "<"
        let name = try self.name()
        var attributes: [String: String] = [:]
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw PropertyListError("XML document ends inside <\(name)>") }
            if starts(with: "/>") {
                position += 2
                return MarkupElement(name: name, attributes: attributes, children: [], text: "")
            }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                break
            }
            let attribute = try self.name()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw PropertyListError("XML attribute \(attribute) of <\(name)> has no value")
            }
            position += 1
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                throw PropertyListError("XML attribute \(attribute) of <\(name)> is not quoted")
            }
            let quote = bytes[position]
            position += 1
            let start = position
            while position < bytes.count && bytes[position] != quote { position += 1 }
            guard position < bytes.count else { throw PropertyListError("XML document ends inside an attribute") }
            attributes[attribute] = try decodeReferences(bytes[start..<position])
            position += 1
        }
        var children: [MarkupElement] = []
        var text: [UInt8] = []
        while true {
            guard position < bytes.count else { throw PropertyListError("XML element <\(name)> is not closed") }
            if starts(with: "</") {
                position += 2
                let closing = try self.name()
                guard closing == name else {
                    throw PropertyListError("XML element <\(name)> is closed by </\(closing)>")
                }
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                    throw PropertyListError("XML closing tag </\(name)> is malformed")
                }
                position += 1
                let decoded = try decodeReferences(text[...])
                return MarkupElement(name: name, attributes: attributes, children: children, text: decoded)
            }
            if starts(with: "<![CDATA[") {
                position += 9
                let start = position
                try skip(past: "]]>")
                // CDATA is literal: protect its ampersands from reference decoding.
                for byte in bytes[start..<position - 3] {
                    if byte == UInt8(ascii: "&") { text += Array("&amp;".utf8) } else { text.append(byte) }
                }
                continue
            }
            if try skipMarkupDeclaration() { continue }
            if bytes[position] == UInt8(ascii: "<") {
                children.append(try element(depth: depth + 1))
                continue
            }
            text.append(bytes[position])
            position += 1
        }
    }

    private mutating func name() throws(PropertyListError) -> String {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            let isDelimiter = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<")
            if isDelimiter { break }
            position += 1
        }
        guard position > start else { throw PropertyListError("XML document has an empty element or attribute name") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count,
              [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[position]) {
            position += 1
        }
    }

    private func starts(with literal: String) -> Bool {
        let pattern = Array(literal.utf8)
        guard bytes.count - position >= pattern.count else { return false }
        return bytes[position..<position + pattern.count].elementsEqual(pattern)
    }

    private mutating func skip(past literal: String) throws(PropertyListError) {
        while position < bytes.count {
            if starts(with: literal) {
                position += literal.utf8.count
                return
            }
            position += 1
        }
        throw PropertyListError("XML document ends before \(literal)")
    }

    /// The text of `raw` with its character references decoded; an unknown or unterminated one is an error.
    private func decodeReferences(_ raw: ArraySlice<UInt8>) throws(PropertyListError) -> String {
        let (text, unknown) = XMLCharacterReferences.decode(String(decoding: raw, as: UTF8.self))
        if let unknown { throw PropertyListError("XML document has an unknown or unterminated character reference \(unknown)") }
        return text
    }
}
