import Foundation

/// A validated request for one page of an entity's records.
///
/// Built only by `RecordQuery.validated(_:for:)`, which checks every name against the schema, so a store can
/// trust `entity`, `sort` and the attributes in `filter`.
public struct RecordQuery: Sendable, Hashable {
    public var entity: String
    public var filter: RecordFilter?
    /// Only the records reached from one record through a relationship ("related to <record>").
    public var scope: RelationshipScope?
    public var sort: SortKey?
    /// Further keys, after `sort`, for records equal on it (`sort=pageCount:desc,title`); empty for one key.
    /// The primary key still breaks the last tie.
    public var thenSort: [SortKey] = []
    /// Primary-key order when `sort` is nil; the tie-breaker's direction otherwise (the first key's direction).
    public var order: SortOrder
    public var limit: Int
    public var offset: Int
    /// A list's preview length (`ValuePreview`): text values longer than this many bytes of UTF-8 may come cut
    /// (`AttributeValue.truncatedText`), and a store that can cuts them as it reads. Nil: whole values (an
    /// export's pages, a record's detail).
    public var valuePreviewBytes: Int?

    public static let defaultLimit = 100
    /// The most records one page may hold; larger `limit` values are capped, not refused.
    public static let maximumLimit = 500
    /// The longest search text, in characters: enough for any value a person pastes, and it bounds the work of
    /// matching it against every row (refused, not cut, so a result never silently answers another question).
    public static let maximumSearchLength = 1_000
    /// The most sort keys a list may have.
    public static let maximumSortKeys = 4

    /// `sort` then `thenSort`: every key in order.
    public var sortKeys: [SortKey] { (sort.map { [$0] } ?? []) + thenSort }

    public init(entity: String, filter: RecordFilter? = nil, scope: RelationshipScope? = nil, sort: SortKey? = nil,
                order: SortOrder = .ascending, limit: Int = defaultLimit, offset: Int = 0) {
        self.entity = entity
        self.filter = filter
        self.scope = scope
        self.sort = sort
        self.order = order
        self.limit = limit
        self.offset = offset
    }
}

/// The raw query parameters of `/api/entities/:name`, as the client sent them (nil when absent).
public struct RecordQueryParameters: Sendable, Hashable {
    public var search: String?
    public var searchAttribute: String?
    public var sort: String?
    public var order: String?
    public var limit: String?
    public var offset: String?
    /// `relatedTo` and `via`: list only the records this record (an ID URI) reaches through relationship `via`.
    public var relatedTo: String?
    public var via: String?
    /// `where`: predicate text (`PredicateParser`'s syntax), ANDed with the search.
    public var predicateText: String?
    /// The tree of a `POST …/query` body, not yet checked against the model; at most one of it and `where`.
    public var predicate: RecordFilter?

    public init(search: String? = nil, searchAttribute: String? = nil, sort: String? = nil, order: String? = nil,
                limit: String? = nil, offset: String? = nil, relatedTo: String? = nil, via: String? = nil,
                predicateText: String? = nil, predicate: RecordFilter? = nil) {
        self.search = search
        self.searchAttribute = searchAttribute
        self.sort = sort
        self.order = order
        self.limit = limit
        self.offset = offset
        self.relatedTo = relatedTo
        self.via = via
        self.predicateText = predicateText
        self.predicate = predicate
    }

    /// Reads the parameters by their API names (`search`, `searchAttr`, `sort`, `order`, `limit`, `offset`,
    /// `relatedTo`, `via`, `where`).
    public init(lookup: (String) -> String?) {
        self.init(
            search: lookup("search"), searchAttribute: lookup("searchAttr"), sort: lookup("sort"),
            order: lookup("order"), limit: lookup("limit"), offset: lookup("offset"),
            relatedTo: lookup("relatedTo"), via: lookup("via"), predicateText: lookup("where")
        )
    }
}

extension RecordQuery {
    /// Checks the parameters against the entity and builds the query. Every rule of the API lives here:
    /// - `limit`: a positive integer, default 100, capped at 500;
    /// - `offset`: a non-negative integer, default 0;
    /// - `sort`: an attribute of the entity (inherited ones included) whose type has an order (`isSortable`);
    /// - `order`: `asc` or `desc`, default `asc`;
    /// - `searchAttr`: a String attribute; without it `search` looks in every String attribute;
    /// - an empty `search` is no filter; a longer one than `maximumSearchLength` is refused;
    /// - `where` (or a JSON tree): parsed, then checked against `schema` (`RecordFilter.validated`; without a
    ///   schema, against `entity` alone, so no relationship can be followed), and ANDed after the search; an
    ///   empty `where` is no filter.
    public static func validated(_ parameters: RecordQueryParameters, for entity: EntitySchema,
                                 in schema: StoreSchema? = nil) throws(BrowserError) -> RecordQuery {
        var query = RecordQuery(entity: entity.name)

        if let rawLimit = parameters.limit {
            guard let limit = Int(rawLimit), limit > 0 else {
                throw .badRequest("limit must be a positive integer, got \"\(rawLimit)\"")
            }
            query.limit = min(limit, maximumLimit)
        }
        if let rawOffset = parameters.offset {
            guard let offset = Int(rawOffset), offset >= 0 else {
                throw .badRequest("offset must be a non-negative integer, got \"\(rawOffset)\"")
            }
            query.offset = offset
        }
        if let rawOrder = parameters.order {
            guard let order = SortOrder(rawValue: rawOrder) else {
                throw .badRequest("order must be \"asc\" or \"desc\", got \"\(rawOrder)\"")
            }
            query.order = order
        }
        if let sort = parameters.sort, !sort.isEmpty {
            let keys = try SortKey.parse(sort, defaultOrder: query.order, for: entity)
            query.sort = keys.first
            query.thenSort = Array(keys.dropFirst())
            // The tie-breaker follows the first key, as it does for one key and `order`.
            if let first = keys.first { query.order = first.order }
        }

        var searchAttributes = entity.searchableAttributes
        if let name = parameters.searchAttribute, !name.isEmpty {
            guard let attribute = entity.attribute(named: name) else {
                throw .badRequest("Cannot search \(entity.name) by \"\(name)\": it is not an attribute of \(entity.name)")
            }
            guard attribute.type.isSearchable else {
                throw .badRequest("Cannot search \(entity.name).\(name): it is a \(attribute.type.rawValue) attribute, not a String")
            }
            searchAttributes = [attribute]
        }
        if let text = parameters.search, text.count > maximumSearchLength {
            throw .badRequest("search is \(text.count) characters long; at most \(maximumSearchLength) are allowed")
        }
        if let text = parameters.search, !text.isEmpty {
            var conditions = searchAttributes.map {
                RecordFilter.contains($0.name, text)
            }
            // A pasted UUID also finds the records whose UUID attributes hold it (stored as 16 bytes, so text
            // search cannot see them).
            if parameters.searchAttribute?.isEmpty ?? true,
               let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) {
                conditions += entity.attributes.filter { $0.type == .uuid }.sorted { $0.name < $1.name }.map {
                    RecordFilter.equals($0.name, .uuid(uuid))
                }
            }
            query.filter = conditions.count == 1 ? conditions[0] : .any(conditions)
        }
        if let predicate = try checkedPredicate(parameters, for: entity, in: schema ?? StoreSchema(entities: [entity])) {
            query.filter = query.filter.map { .all([$0, predicate]) } ?? predicate
        }
        return query
    }

    /// The `where` text or the JSON tree, parsed and checked; nil when neither is given (or the text is blank).
    static func checkedPredicate(_ parameters: RecordQueryParameters, for entity: EntitySchema,
                                 in schema: StoreSchema) throws(BrowserError) -> RecordFilter? {
        var unchecked = parameters.predicate
        if let text = parameters.predicateText, !text.allSatisfy(\.isWhitespace) {
            guard unchecked == nil else { throw .badRequest("Give the predicate once: as where= or as the body's tree, not both") }
            do {
                unchecked = try PredicateParser.parse(text).filter
            } catch {
                throw .badRequest("where: \(error.description)")
            }
        }
        guard let unchecked else { return nil }
        return try RecordFilter.validated(unchecked, for: entity, in: schema)
    }
}
