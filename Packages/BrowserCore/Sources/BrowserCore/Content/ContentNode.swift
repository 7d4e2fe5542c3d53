/// One node of a decoded structure: a JSON or property-list value, a keyed archive's object, a protobuf field.
///
/// `type` is one of "dict", "array", "set", "string", "int", "real", "bool", "date", "data", "null", "uid",
/// "object(ClassName)" (keyed archives), "varint", "fixed32", "fixed64", "string", "bytes", "message",
/// "strings" (protobuf: the message's longest strings, labelled by field path) or "invalid" (a reference the
/// data could not resolve). A "data" node whose bytes are a property list has its tree as its one child. `note`
/// says why a node was cut short ("cycle", "depth limit", "nesting limit", "node limit").
public struct ContentNode: Codable, Sendable, Equatable {
    /// The key in a dictionary, the index in an array, the field number in a protobuf message.
    public var label: String?
    public var type: String
    /// A one-line preview of a scalar (strings capped at `ContentLimits.maxStringPreview` characters).
    public var value: String?
    public var children: [ContentNode]
    /// How many children the container really has, when only some are shown.
    public var childCount: Int?
    public var note: String?

    public init(
        label: String? = nil, type: String, value: String? = nil, children: [ContentNode] = [],
        childCount: Int? = nil, note: String? = nil
    ) {
        self.label = label
        self.type = type
        self.value = value
        self.children = children
        self.childCount = childCount
        self.note = note
    }
}
