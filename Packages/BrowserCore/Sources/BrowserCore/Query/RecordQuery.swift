import Foundation

/// A validated request for one page of an entity's records.
///
/// Built only by `RecordQuery.validated(_:for:)`, which checks every name against the schema, so a store can
/// trust `entity`, `sortKeys` and the attributes in `search` and `filter`.
public struct RecordQuery: Sendable, Hashable {
    public var entity: String
    /// The search box's text and where it looks, kept as the client asked it (not only as the filter it stands
    /// for), so a store can read a search its own way (`PagePlanner`'s search scan) and the service can tell a
    /// search that names a record by its ID (`BrowserService.recordsNamed`).
    public var search: RecordSearch?
    /// The predicate (`where`, or a JSON tree), checked against the model; ANDed after the search
    /// (`matchFilter` is both).
    public var filter: RecordFilter?
    /// Only the records reached from one record through a relationship ("related to <record>").
    public var scope: RelationshipScope?
    /// The keys the records are sorted by, in order, each with its direction (`sort=pageCount:desc,title`);
    /// empty for primary-key order (or an ordered relationship's order, in a scope).
    public var sortKeys: [SortKey]
    /// The primary key's direction, which always comes last so that equal values keep one order and consecutive
    /// pages never overlap or skip records: the whole order when `sortKeys` is empty (the `order` parameter), the
    /// last tie-break otherwise (the first key's direction, as `validated` sets it).
    public var tieBreak: SortOrder
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

    /// `tieBreak` defaults to the first key's direction (ascending without keys).
    public init(entity: String, search: RecordSearch? = nil, filter: RecordFilter? = nil, scope: RelationshipScope? = nil,
                sortKeys: [SortKey] = [], tieBreak: SortOrder? = nil, limit: Int = defaultLimit, offset: Int = 0) {
        self.entity = entity
        self.search = search
        self.filter = filter
        self.scope = scope
        self.sortKeys = sortKeys
        self.tieBreak = tieBreak ?? sortKeys.first?.order ?? .ascending
        self.limit = limit
        self.offset = offset
    }

    /// Every condition a record of the list matches: the search's, then the predicate. What a store filters by.
    public var matchFilter: RecordFilter? {
        switch (search?.filter, filter) {
        case (nil, let predicate): predicate
        case (let search?, nil): search
        case (let search?, let predicate?): .all([search, predicate])
        }
    }

    /// Neither searched nor filtered nor scoped: every record of the entity.
    public var isWholeEntity: Bool { search == nil && filter == nil && scope == nil }
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
    /// - `order`: `asc` or `desc`, default `asc`: the direction of keys without one, and of the primary key;
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
        var order = SortOrder.ascending
        if let rawOrder = parameters.order {
            guard let given = SortOrder(rawValue: rawOrder) else {
                throw .badRequest("order must be \"asc\" or \"desc\", got \"\(rawOrder)\"")
            }
            order = given
        }
        if let sort = parameters.sort, !sort.isEmpty {
            query.sortKeys = try SortKey.parse(sort, defaultOrder: order, for: entity)
        }
        // The primary key breaks ties in the first key's direction; without keys it is the order, in `order`'s.
        query.tieBreak = query.sortKeys.first?.order ?? order
        query.search = try RecordSearch.validated(text: parameters.search, attribute: parameters.searchAttribute, for: entity)
        query.filter = try checkedPredicate(parameters, for: entity, in: schema ?? StoreSchema(entities: [entity]))
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
