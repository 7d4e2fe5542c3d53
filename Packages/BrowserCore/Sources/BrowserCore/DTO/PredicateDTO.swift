/// `GET /api/entities/:name/predicate`: what a text mode shows while a person types a predicate.
///
/// Always answered (200) for a known entity with valid list parameters: a predicate that does not read or does
/// not fit the model is reported in `errors`, with the span to underline, rather than as a 400.
public struct PredicateDTO: Encodable, Sendable, Hashable {
    /// The `where` text as sent.
    public var `where`: String
    /// The canonical text of the checked predicate (`PredicateText`); nil while it has errors or is empty.
    public var canonical: String?
    /// The checked tree in its JSON form (what `POST …/query` takes); nil while it has errors or is empty.
    public var tree: RecordFilter?
    public var errors: [PredicateErrorDTO]
    /// The whole view (entity, search and predicate, sort, limit) as Swift; nil while the predicate has errors.
    public var swift: FetchRequestCodeDTO?
}

/// One problem with predicate text; `offset` and `length` (UTF-16 code units) are absent when it concerns the
/// whole predicate (a limit) rather than one place.
public struct PredicateErrorDTO: Encodable, Sendable, Hashable {
    public var message: String
    public var offset: Int?
    public var length: Int?
}

/// "Copy as Swift" (`FetchRequestCode`).
public struct FetchRequestCodeDTO: Encodable, Sendable, Hashable {
    public var coreData: String
    public var swiftData: String?
    public var swiftDataUnavailable: [String]

    init(_ code: FetchRequestCode) {
        coreData = code.coreData
        swiftData = code.swiftData
        swiftDataUnavailable = code.swiftDataUnavailable
    }
}
