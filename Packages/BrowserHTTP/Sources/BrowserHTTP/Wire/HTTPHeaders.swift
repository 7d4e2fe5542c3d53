/// An ordered list of header fields.
///
/// Order and duplicates are preserved because both carry meaning on the wire
/// (RFC 9110 §5.3: repeated field lines form one comma-separated list, and
/// `Set-Cookie` cannot be combined at all). Lookups compare names ASCII
/// case-insensitively (RFC 9110 §5.1).
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable,
    CustomStringConvertible
{
    public typealias Element = (name: String, value: String)

    private var fields: [Element] = []

    public init() {}

    public init(_ fields: [(name: String, value: String)]) {
        self.fields = fields
    }

    /// Literal order is kept, so `["A": "1", "B": "2"]` is sent as written.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value for `name`; setting replaces all values (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set {
            if let newValue { set(name, newValue) } else { remove(name) }
        }
    }

    /// Every value for `name`, in received order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field line, keeping existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` with one field, at the position of the first one.
    public mutating func set(_ name: String, _ value: String) {
        if let index = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
            fields[index].value = value
            var seen = false
            fields.removeAll { field in
                guard Self.namesMatch(field.name, name) else { return false }
                defer { seen = true }
                return seen
            }
        } else {
            fields.append((name: name, value: value))
        }
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// Comma-separated list elements across all field lines named `name`
    /// (RFC 9110 §5.6.1), trimmed and with empty elements dropped.
    func listElements(for name: String) -> [Substring] {
        values(for: name).flatMap { value in
            value.split(separator: ",").map(\.trimmingOWS).filter { !$0.isEmpty }
        }
    }

    /// Header names are ASCII, so comparing lowercased UTF-8 bytes avoids the cost and
    /// locale/Unicode subtleties of `String.lowercased()` / `caseInsensitiveCompare`.
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8) { ASCII.lowercased($0) == ASCII.lowercased($1) }
    }
}

extension Substring {
    /// Removes optional whitespace (SP / HTAB, RFC 9110 §5.6.3) at both ends.
    var trimmingOWS: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
