/// The decoded query component of a request-target.
public struct HTTPQuery: Sendable, Equatable {
    /// Name/value pairs in the order received; names may repeat.
    public var items: [(name: String, value: String)]

    public init(items: [(name: String, value: String)] = []) {
        self.items = items
    }

    /// Decodes a raw query (without the leading `?`) the way browsers encode forms:
    /// split on `&`, then on the first `=`, `+` means space, then percent-decode as UTF-8.
    /// Empty pieces (`a=1&&b=2`) are skipped; a piece without `=` has the value "".
    public init(decoding rawQuery: some StringProtocol) throws(HTTPParseError) {
        try self.init(decodingBytes: Array(rawQuery.utf8))
    }

    init(decodingBytes bytes: [UInt8]) throws(HTTPParseError) {
        var items: [(name: String, value: String)] = []
        for piece in bytes.split(separator: ASCII.ampersand, omittingEmptySubsequences: true) {
            let name: ArraySlice<UInt8>
            let value: ArraySlice<UInt8>
            if let equals = piece.firstIndex(of: ASCII.equals) {
                name = piece[piece.startIndex..<equals]
                value = piece[piece.index(after: equals)...]
            } else {
                name = piece
                value = []
            }
            items.append(
                (
                    name: try PercentDecoding.decode(name, plusAsSpace: true),
                    value: try PercentDecoding.decode(value, plusAsSpace: true)
                ))
        }
        self.items = items
    }

    /// The first value for `name` (names compare exactly, case-sensitively).
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order (e.g. `?tag=a&tag=b`).
    public func values(_ name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    public var isEmpty: Bool { items.isEmpty }

    public static func == (lhs: HTTPQuery, rhs: HTTPQuery) -> Bool {
        lhs.items.elementsEqual(rhs.items) { $0.name == $1.name && $0.value == $1.value }
    }
}
