import BrowserCore

/// Where one entity's records and values live in the store: the result of matching the model to the tables.
struct EntityMapping: Sendable {
    var name: String
    var number: Int64
    /// The root entity's table, which holds the rows of the whole inheritance tree (format doc §5).
    var table: String
    /// The numbers of the entity and its descendants: its rows are the table's rows with `Z_ENT` among them.
    var subtreeNumbers: [Int64]
    /// The entity is its table's root, so every row of the table is one of its records (no `Z_ENT` filter).
    var coversWholeTable: Bool
    /// Every attribute, inherited ones first, composite elements as `composite.element`.
    var attributes: [AttributeMapping]
    var relationships: [String: RelationshipMapping]
    /// The table's upper-cased columns an index orders every row by (`StoreCatalog.Table.orderedColumns`).
    var orderedColumns: Set<String> = []

    func attribute(named name: String) -> AttributeMapping? {
        attributes.first { $0.name == name }
    }

    /// Whether an index of the table reads its rows in `column`'s order.
    func isIndexed(_ column: String) -> Bool {
        orderedColumns.contains(column.uppercased())
    }
}

struct AttributeMapping: Sendable, Hashable {
    var name: String
    var kind: AttributeKind
    var isOptional: Bool
    var storage: ColumnStorage
    var allowsExternalStorage: Bool
    var valueTransformerName: String? = nil

    var column: String? {
        if case .column(let name) = storage { return name }
        return nil
    }
}

/// A property's column, or why it has none.
enum ColumnStorage: Sendable, Hashable {
    case column(String)
    /// The column the model implies does not exist; the message says which, for the value shown instead.
    case missing(String)
}

struct RelationshipMapping: Sendable, Hashable {
    var name: String
    /// The declared destination; records reached may be of its sub-entities.
    var destination: String
    var destinationSubtree: [Int64]
    var isToMany: Bool
    var isOrdered: Bool
    var inverse: String?
    var storage: RelationshipStorage
    /// What the model says of the relationship, for writes: nil delete rule when it does not say.
    var deleteRule: ModelRelationship.DeleteRule? = nil
    var isOptional: Bool = true
    /// 0 when the model sets no minimum; nil maximum for an unbounded to-many.
    var minCount: Int = 0
    var maxCount: Int? = nil

    var schema: RelationshipSchema {
        RelationshipSchema(name: name, destination: destination, isToMany: isToMany, isOrdered: isOrdered, inverse: inverse,
                           deleteRule: deleteRule)
    }
}

/// How a relationship is stored (format doc §8).
enum RelationshipStorage: Sendable, Hashable {
    /// A to-one: the target's `Z_PK` in a column of the source's table, with the target's `Z_ENT` in `entityColumn`
    /// when the destination has sub-entities (`ZPAGE.ZBOOK` + `ZPAGE.Z1_BOOK`).
    case foreignKey(column: String, entityColumn: String?)
    /// A to-one stored only on the other side (a one-to-one whose own column is absent): the destination row whose
    /// `column` holds the source's `Z_PK`.
    case inverseForeignKey(column: String)
    /// A to-many whose targets hold the source's `Z_PK` in `column` of the destination table: the inverse to-one's
    /// foreign key (one-to-many), or `Z<n><R>` of a to-many without inverse. Ordered by `orderColumn` (`Z_FOK_…`).
    case targetsReferToSource(column: String, orderColumn: String?)
    /// Many-to-many through a join table `Z_<n><R>`: `sourceColumn` holds the source's keys, `targetColumn` the
    /// targets'; `orderColumn` orders the targets. A relationship that is its own inverse uses the `REFLEXIVE`
    /// column and is read in both directions.
    case joinTable(table: String, sourceColumn: String, targetColumn: String, orderColumn: String?, reflexive: Bool)
    /// The storage the model implies is not in the store; the message says what is missing.
    case missing(String)
}
