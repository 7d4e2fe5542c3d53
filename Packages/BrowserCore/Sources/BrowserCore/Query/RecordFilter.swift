/// A structured condition on records: what the API's `search` becomes, and what a predicate builder will send.
///
/// Stores evaluate it (SQL, `NSPredicate`, Swift); none receives a predicate string. Adding an operator is
/// adding a case here and to each store's translation.
public indirect enum RecordFilter: Sendable, Hashable {
    /// Every condition holds (an empty list matches every record).
    case all([RecordFilter])
    /// At least one condition holds (an empty list matches no record).
    case any([RecordFilter])
    case not(RecordFilter)
    case comparison(attribute: String, FilterOperator, AttributeValue)
}

public enum FilterOperator: String, Sendable, Hashable {
    /// `CONTAINS[cd]`: substring, case- and diacritic-insensitive over all of Unicode (see `TextFolding`).
    case containsFolded = "contains"
    /// `==`: the stored value equals the given one (used to find a record by a pasted UUID).
    case equals = "=="
}
