/// The type of an attribute, named as Core Data's model editor names it.
///
/// The raw value is what `/api/entities` sends as an attribute's `type`, so a client can tell how to read a
/// value (a JSON string may be a `String`, a large `Integer 64`, a `Decimal` or a non-finite `Double`).
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case objectID = "ObjectID"
    /// A type this version does not know (a newer Core Data type code, or a column whose type could not be
    /// inferred). Its values are shown as they are stored.
    case undefined = "Undefined"

    /// Whether `CONTAINS[cd]` search applies to the attribute (the API's `searchAttr` and "all text" search).
    public var isSearchable: Bool { self == .string }

    /// Whether values are bytes a client can fetch whole (`/api/object/blob`) and have inspected
    /// (`/api/object/content`).
    public var holdsBytes: Bool { self == .binary || self == .transformable }

    /// Whether a list can be sorted by the attribute. Bytes (Binary, Transformable) have no order a person
    /// means, and an attribute of a type this version does not know (a SwiftData composite seen through a live
    /// context) cannot be sorted by Core Data at all: `NSSortDescriptor` on it raises an Objective-C exception
    /// that would end the app being inspected, so it is refused here, before any store runs it.
    public var isSortable: Bool {
        switch self {
        case .binary, .transformable, .undefined, .objectID: false
        default: true
        }
    }

    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }
}
