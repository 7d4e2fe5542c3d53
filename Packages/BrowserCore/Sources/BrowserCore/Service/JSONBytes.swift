/// A JSON document written straight as UTF-8 bytes, byte for byte as `BrowserJSON`'s `JSONEncoder` (sorted keys,
/// slashes unescaped) writes the same values.
///
/// Foundation's encoder builds a tree of boxed values, then sorts and escapes it through existentials and
/// generic metadata: for a page of 100 records it cost several times what reading the page from the store did.
/// The rules copied here are those of swift-foundation's `JSONWriter` and `JSONEncoder` (`JSONBytesTests` compares
/// the two on every kind of value, so a toolchain that changes them fails a test rather than the API):
/// - strings: `"` and `\` escaped, `\b \f \n \r \t` for those controls, `\u00xx` (lower-case hex) for the other
///   controls below 0x20; everything else, `/`, DEL, U+2028/2029 and all non-ASCII, as its UTF-8 bytes;
/// - numbers: an integer's decimal digits; a float's `description` less a trailing `.0` (`100`, `-0`, `1e+20`);
/// - object keys in the lexicographic order of their UTF-8 bytes (`"B"` before `"a"`, `"10"` before `"2"`).
struct JSONBytes {
    private(set) var bytes: [UInt8]
    /// The sorted keys of the last dictionary written with each count of keys: the rows of a page almost always
    /// share their keys, so each row after the first is written in this order without sorting (an export's lines
    /// hold two dictionaries, attributes and relationships, mostly of different counts; see `appendObject(_:)`).
    private var recentKeyOrders: [Int: [String]] = [:]

    init(bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// Appends `value`'s JSON to `buffer` without copying it: an export writes a million lines into its buffers,
    /// through one `JSONBytes` that keeps its key orders from line to line.
    mutating func append(_ value: some JSONWritable, to buffer: inout [UInt8]) {
        swap(&bytes, &buffer)
        value.writeJSON(into: &self)
        swap(&bytes, &buffer)
    }

    // MARK: Scalars

    mutating func appendNull() {
        bytes.append(contentsOf: Self.null)
    }

    mutating func appendBool(_ flag: Bool) {
        bytes.append(contentsOf: flag ? Self.true : Self.false)
    }

    mutating func appendInteger(_ value: Int64) {
        DecimalText.appendInteger(value, to: &bytes)
    }

    /// A finite Double (JSONEncoder refuses the others; `AttributeValue` sends them as words).
    mutating func appendNumber(_ value: Double) {
        appendFloatingPointText(value.description)
    }

    /// A finite Float, printed from the Float itself: `0.1`, not the widened `0.10000000149011612`.
    mutating func appendNumber(_ value: Float) {
        appendFloatingPointText(value.description)
    }

    mutating func appendString(_ text: String) {
        bytes.append(Self.quote)
        var text = text
        text.withUTF8 { appendEscaped($0) }
        bytes.append(Self.quote)
    }

    /// A value already known to be JSON string content without escapes (digits, a timestamp, a UUID), quoted.
    mutating func appendQuoted(_ write: (inout [UInt8]) -> Void) {
        bytes.append(Self.quote)
        write(&bytes)
        bytes.append(Self.quote)
    }

    // MARK: Containers

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
    }

    /// A member of an object: its key, then its value. The caller writes members in sorted-key order: a struct's
    /// writer its keys in that order, a dictionary through `appendObject(_:)`.
    mutating func appendMember(_ key: String, _ value: some JSONWritable) {
        appendKey(key)
        value.writeJSON(into: &self)
    }

    /// A member's key and colon, after a comma unless it is the object's first member.
    private mutating func appendKey(_ key: String) {
        // A value never ends in `{`, so the last byte tells whether this is the first member.
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
    }

    /// A dictionary as an object, its keys sorted as JSONEncoder sorts them.
    mutating func appendObject(_ members: [String: some JSONWritable]) {
        let start = bytes.count
        if let order = recentKeyOrders[members.count] {
            // Same count and every key found means the same key set: the order holds. Otherwise start again.
            if appendMembers(members, in: order) { return }
            bytes.removeSubrange(start...)
        }
        let order = members.keys.sorted(by: Self.keyPrecedes)
        recentKeyOrders[members.count] = order
        appendMembers(members, in: order)
    }

    /// The object of `members` in `order`, or false (having written part of it) when `order` names a missing key.
    @discardableResult
    private mutating func appendMembers(_ members: [String: some JSONWritable], in order: [String]) -> Bool {
        beginObject()
        for key in order {
            // The dictionary's own key, byte for byte: `Dictionary` finds canonically equivalent keys alike ("é"
            // and "e\u{301}"), and a remembered order may hold the other spelling.
            guard let index = members.index(forKey: key), members[index].key.utf8.elementsEqual(key.utf8) else { return false }
            appendMember(key, members[index].value)
        }
        endObject()
        return true
    }

    mutating func appendArray(_ elements: [some JSONWritable]) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            element.writeJSON(into: &self)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// JSONEncoder's `sortedKeys` order: UTF-8 bytes compared lexicographically (not `String`'s `<`, which compares
    /// canonically equivalent forms alike: `"e\u{301}x"` sorts between `"e"` and `"f"` here).
    static func keyPrecedes(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    // MARK: Helpers

    private mutating func appendFloatingPointText(_ text: String) {
        let utf8 = text.utf8
        if utf8.count >= 2, utf8.last == UInt8(ascii: "0"), utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".") {
            bytes.append(contentsOf: utf8.dropLast(2))
        } else {
            bytes.append(contentsOf: utf8)
        }
    }

    /// Copies runs that need no escape whole; only `"`, `\` and controls below 0x20 are escaped.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte < 0x20 || byte == Self.quote || byte == Self.backslash else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            appendEscape(of: byte)
            runStart = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }

    private mutating func appendEscape(of byte: UInt8) {
        bytes.append(Self.backslash)
        switch byte {
        case Self.quote, Self.backslash: bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      Self.lowerHexDigits[Int(byte >> 4)], Self.lowerHexDigits[Int(byte & 0x0F)]])
        }
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let null = Array("null".utf8)
    private static let `true` = Array("true".utf8)
    private static let `false` = Array("false".utf8)
    private static let lowerHexDigits = Array("0123456789abcdef".utf8)
}
