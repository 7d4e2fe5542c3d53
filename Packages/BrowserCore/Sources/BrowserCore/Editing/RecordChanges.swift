/// What one write sets on a record: the body of `PATCH /api/object` or `POST /api/entities/:name` after
/// `RecordChangesValidation` checked it against the model.
///
/// What a store may rely on: every name is a property of the record's entity; every attribute value has the case
/// of its attribute's type (`.null` clears an optional one); no value breaks the model's optional, minimum and
/// maximum rules; every relationship target is an ID of this store whose entity is the destination or one of its
/// sub-entities (whether the record exists is for the store to check); a to-many lists no ID twice and respects
/// the model's minimum and maximum counts. Properties not named are left as they are (an insert gives them the
/// model's default values, which validation has already filled in).
public struct RecordChanges: Sendable, Hashable {
    public var attributes: [String: AttributeValue]
    public var relationships: [String: RelationshipContents]

    public init(attributes: [String: AttributeValue] = [:], relationships: [String: RelationshipContents] = [:]) {
        self.attributes = attributes
        self.relationships = relationships
    }

    public var isEmpty: Bool { attributes.isEmpty && relationships.isEmpty }
}

/// A relationship's whole new content: a to-one's target (nil clears it), a to-many's records (in order for an
/// ordered one). A write replaces the content; the store keeps the inverse side in step, as Core Data does.
public enum RelationshipContents: Sendable, Hashable {
    case toOne(ObjectID?)
    case toMany([ObjectID])

    public var targets: [ObjectID] {
        switch self {
        case .toOne(let target): target.map { [$0] } ?? []
        case .toMany(let targets): targets
        }
    }
}
