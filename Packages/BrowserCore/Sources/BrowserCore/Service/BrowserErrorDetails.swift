/// What an error carries beyond its message, for a client to show it where it belongs: the field a value was
/// refused for, the versions a write raced with, the relationships that block a delete. Encoded beside `error`
/// in the error's JSON body (docs/API.md "Editing").
public enum BrowserErrorDetails: Sendable, Hashable {
    /// 422: one problem per field (`attrs.title`, `relationships.author`, `version`).
    case fields([FieldProblem])
    /// 409: the record changed since the client read it (`version`) — nothing was written.
    case versions(expected: Int64, current: Int64)
    /// 409: a Deny delete rule: the relationships that still hold records.
    case blockedBy([RelationshipEffect])
    /// 409: the record was deleted since the client read it.
    case deleted
}

/// Why one field of a write was refused.
public struct FieldProblem: Error, Sendable, Hashable, Codable {
    /// Where in the body: `attrs.<name>`, `relationships.<name>`, or `version`.
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public static func attribute(_ name: String, _ message: String) -> FieldProblem {
        FieldProblem(field: "attrs.\(name)", message: message)
    }

    public static func relationship(_ name: String, _ message: String) -> FieldProblem {
        FieldProblem(field: "relationships.\(name)", message: message)
    }
}
