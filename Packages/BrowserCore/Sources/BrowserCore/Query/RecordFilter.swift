/// A structured condition on records: what the API's `search` becomes, what a `where=` predicate is parsed into,
/// and what the predicate builder sends.
///
/// Stores evaluate it (SQL, `NSPredicate` built from expressions, Swift); none receives a predicate string.
/// Adding an operator is adding a case here, to the validation, and to each store's translation.
///
/// ## What a store may rely on
/// A store only ever receives a tree checked against the schema (`RecordQuery` is built only by its validation):
/// - every name exists: a key path is zero or more to-one relationships followed by one attribute, or, with an
///   `.object`, `.objects` or `nil` operand, ending in a to-one relationship;
/// - a quantified condition names a to-many relationship of the entity; its comparison's key path is read from
///   the relationship's destination entity, and is empty (the related record itself) only with an `.object` or
///   `.objects` operand (`ANY tags == <ID>`: the record is related to that one);
/// - a `@count` names a to-many relationship, reached through zero or more to-one relationships
///   (`series.study.albums`: the names joined with dots);
/// - a `.keyPath` operand names an attribute of the same record as the compared key path, both without
///   relationship steps, of comparable types (numbers with numbers, dates with dates, otherwise the same type);
/// - each value has the case of its attribute's type: `.integer` (Integer 16/32/64), `.double` (Double and
///   Float), `.decimal`, `.date`, `.boolean`, `.string`, `.uuid`, `.uri`; `.null` only as the operand of `==`
///   and `!=`;
/// - operators fit the type: text operators (`CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`) and options only on
///   String attributes; `<`, `<=`, `>`, `>=`, `BETWEEN` only on numbers and dates; `IN` on strings, numbers,
///   dates, UUIDs and URIs; Binary and Transformable attributes only with `== nil` / `!= nil`; attributes of
///   undefined type (a composite as a whole) never.
///
/// ## What it means (every store answers the same)
/// Two-valued logic, as Core Data's own SQL and in-memory evaluation give:
/// - a missing value (`NULL`, or a key path through a nil to-one relationship) satisfies `== nil` and `!= v`
///   (for any non-nil `v`) and nothing else: `<`, `CONTAINS`, `IN`, `BETWEEN`… are false for it;
/// - `.not` is plain negation of that answer (so `NOT (pageCount > 300)` holds for a missing pageCount);
/// - `ANY` holds when at least one related record satisfies the comparison (false when none is related),
///   `ALL` when every related record does (true when none is related), `NONE` when none does (true when none
///   is related);
/// - `[c]`, `[d]` and `[cd]` compare `TextFolding`'s folded forms (case folded, diacritics removed, or both);
///   without options text compares exactly, code point by code point;
/// - `LIKE`: `*` matches any run of characters and `?` exactly one, the whole value must match, no other
///   character is special (no regular expressions: a pattern's cost is linear in the value times the pattern);
/// - `BETWEEN {a, b}` holds for `a <= v <= b`;
/// - `@count` compares the number of related records (0 when none is related); a `@count` through a nil to-one
///   is a missing value (it satisfies `!=` only);
/// - two key paths compared (`.keyPath`): `==` holds when both are missing or both equal, `!=` when they differ
///   (one missing and not the other included); `<`, `<=`, `>`, `>=` are false when either is missing.
public indirect enum RecordFilter: Sendable, Hashable {
    /// Every condition holds (an empty list matches every record).
    case all([RecordFilter])
    /// At least one condition holds (an empty list matches no record).
    case any([RecordFilter])
    case not(RecordFilter)
    /// A key path of the entity compared with a constant: `pageCount > 300`, `author.name BEGINSWITH[c] "k"`,
    /// `title == nil`, `author == <object ID>`.
    case comparison(FilterComparison)
    /// A comparison over the records a to-many relationship reaches: `ANY tags.name == "x"`.
    case quantified(FilterQuantifier, relationship: String, FilterComparison)
    /// The number of records a to-many relationship reaches: `tags.@count == 0`, also through to-one
    /// relationships (`series.study.albums.@count > 0`: `relationship` is the names joined with dots). The operator
    /// is one of `==`, `!=`, `<`, `<=`, `>`, `>=`.
    case count(relationship: String, FilterOperator, Int)

    /// A text search the way the search box asks it: `name CONTAINS[cd] text`.
    public static func contains(_ attribute: String, _ text: String) -> RecordFilter {
        .comparison(FilterComparison(FilterKeyPath(attribute), .contains, options: .caseAndDiacriticInsensitive,
                                     .value(.string(text))))
    }

    /// `name == value`.
    public static func equals(_ attribute: String, _ value: AttributeValue) -> RecordFilter {
        .comparison(FilterComparison(FilterKeyPath(attribute), .equals, .value(value)))
    }
}

/// Names from the entity to a value: zero or more to-one relationships, then an attribute (or a to-one
/// relationship, compared with an object ID or nil). Empty inside a quantified comparison with record IDs: the
/// related record itself (`SELF`).
public struct FilterKeyPath: Sendable, Hashable, CustomStringConvertible {
    public var components: [String]

    public init(_ components: [String]) {
        self.components = components
    }

    public init(_ single: String) {
        self.components = [single]
    }

    /// The relationships followed before the last name.
    public var relationships: ArraySlice<String> { components.dropLast() }
    /// The last name: the attribute compared (or the to-one relationship compared with an object).
    public var last: String { components.last ?? "" }

    public var description: String { components.joined(separator: ".") }
}

/// One comparison: key path, operator, options, operand.
public struct FilterComparison: Sendable, Hashable {
    public var keyPath: FilterKeyPath
    public var op: FilterOperator
    public var options: FilterOptions
    public var operand: FilterOperand

    public init(_ keyPath: FilterKeyPath, _ op: FilterOperator, options: FilterOptions = [], _ operand: FilterOperand) {
        self.keyPath = keyPath
        self.op = op
        self.options = options
        self.operand = operand
    }
}

/// Core Data's comparison operators, spelt as in its predicate format syntax.
public enum FilterOperator: String, Sendable, Hashable, CaseIterable {
    case equals = "=="
    case notEquals = "!="
    case lessThan = "<"
    case lessThanOrEqual = "<="
    case greaterThan = ">"
    case greaterThanOrEqual = ">="
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case like = "LIKE"
    /// With a `.list` operand.
    case `in` = "IN"
    /// With a `.range` operand.
    case between = "BETWEEN"
}

/// `[c]`, `[d]`, `[cd]`.
public struct FilterOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let caseInsensitive = FilterOptions(rawValue: 1)
    public static let diacriticInsensitive = FilterOptions(rawValue: 2)
    public static let caseAndDiacriticInsensitive: FilterOptions = [.caseInsensitive, .diacriticInsensitive]
}

/// What a comparison compares its key path's value with.
public enum FilterOperand: Sendable, Hashable {
    /// One value; `.null` is `nil`.
    case value(AttributeValue)
    /// `IN {a, b, …}`.
    case list([AttributeValue])
    /// `BETWEEN {low, high}`.
    case range(AttributeValue, AttributeValue)
    /// An object ID URI (`x-coredata://…/Author/p12`), for a key path ending in a to-one relationship.
    case object(String)
    /// `IN {<ID>, <ID>, …}`: object ID URIs, for a key path ending in a to-one relationship.
    case objects([String])
    /// Another attribute of the same record: `lastServerTimeStamp > clearedTimeStamp`.
    case keyPath(FilterKeyPath)
}

/// `ANY`, `ALL`, `NONE` over a to-many relationship.
public enum FilterQuantifier: String, Sendable, Hashable, CaseIterable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}
