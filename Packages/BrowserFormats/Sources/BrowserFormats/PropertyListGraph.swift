/// A property list as a table of objects that refer to each other by index: how the binary format stores it
/// (and how keyed archives use it), and what the XML reader builds. Containers hold references, not values, so
/// reading never recurses and a list that contains itself is only a cycle for whoever walks it to cut.
/// `BinaryPropertyList` and `XMLPropertyList` are the two graphs; `PropertyList.read` turns either into a
/// `PropertyListValue` tree, and BrowserCore's content trees walk them object by object.
public protocol PropertyListGraph {
    /// Reference of the top object.
    var topReference: Int { get }
    /// The object `reference` names, read shallowly; nil when the reference or the object is out of bounds.
    func object(_ reference: Int) -> PropertyListObject?
    /// The `position`th reference of a container's list; nil when out of bounds.
    func reference(in list: PropertyListObject.References, at position: Int) -> Int?
    /// `body` applied to all the bytes of data object `reference`, when the graph has them (a binary list
    /// always; an XML list for the data its parse was asked to keep); nil otherwise.
    func withData<Result>(_ reference: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result?
}

/// One property-list object, with containers as lists of references. Strings and data are read up to the
/// graph's preview limit (`Int.max`: whole).
public enum PropertyListObject: Sendable, Hashable {
    /// Where a container's references are: `count` of them from `start` (the graph knows how they are stored).
    public struct References: Sendable, Hashable {
        public var start: Int
        public var count: Int

        public init(start: Int, count: Int) {
            self.start = start
            self.count = count
        }
    }

    case null
    case bool(Bool)
    /// Integers as text: binary plists hold up to 128-bit values, XML ones any number of digits.
    case integer(String)
    case real(Double)
    /// Seconds since 2001-01-01 (Apple's reference date).
    case date(Double)
    /// Byte count and the first bytes, up to the preview limit.
    case data(count: Int, head: [UInt8])
    /// The text (cut at the preview limit, with "…" when cut) and its real length (binary: in code units, XML: in
    /// characters).
    case string(String, length: Int)
    case uid(Int)
    case array(References)
    case set(References)
    /// Keys and values, pairwise.
    case dictionary(keys: References, values: References)
}

extension PropertyListGraph {
    /// The value of a dictionary's entry named `key`, looking at its first `maxKeys` keys.
    public func entry(_ key: String, in object: PropertyListObject?, maxKeys: Int = 64) -> PropertyListObject? {
        guard case .dictionary(let keys, let values)? = object else { return nil }
        for position in 0..<min(keys.count, maxKeys) {
            guard let keyReference = reference(in: keys, at: position),
                  case .string(let name, _)? = self.object(keyReference), name == key,
                  let valueReference = reference(in: values, at: position)
            else { continue }
            return self.object(valueReference)
        }
        return nil
    }

    /// The text of a string object.
    public func string(_ object: PropertyListObject?) -> String? {
        if case .string(let text, _)? = object { return text }
        return nil
    }
}
