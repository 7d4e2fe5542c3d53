/// What `GET /api/history` asks a store for: a page of persistent-history transactions, or the changes of one.
///
/// Transactions are numbered by the store in commit order (Core Data's `ATRANSACTION.Z_PK`, the history token's
/// number on a live context), so a number is a cursor: `before` pages back in time, `after` follows new ones.
public struct HistoryQuery: Sendable, Hashable {
    /// Which transactions, and in which order.
    public enum Window: Sendable, Hashable {
        /// The newest transactions older than `before` (all when nil), newest first: the timeline.
        case newestFirst(before: Int64?)
        /// The transactions after `after`, oldest first: following along from a known point.
        case oldestFirst(after: Int64)
        /// One transaction, its changes from `changeOffset` on.
        case transaction(Int64)
    }

    public var window: Window = .newestFirst(before: nil)
    /// At most this many transactions.
    public var limit = HistoryQuery.defaultLimit
    /// Only transactions with a change to one of these entities (an entity and its sub-entities); only those
    /// changes are listed. Nil: every entity.
    public var entities: [String]?
    /// Only transactions by this author / from this context name (exact match).
    public var author: String?
    public var contextName: String?
    /// The changes listed per transaction: `changeOffset ..< changeOffset + changeLimit`; the transaction says
    /// how many it has, so a client can page through a transaction of 100,000 changes.
    public var changeOffset = 0
    public var changeLimit = HistoryQuery.defaultChangeLimit

    public static let defaultLimit = 50
    public static let maximumLimit = 500
    public static let defaultChangeLimit = 50
    public static let maximumChangeLimit = 1_000

    public init(window: Window = .newestFirst(before: nil), limit: Int = HistoryQuery.defaultLimit) {
        self.window = window
        self.limit = limit
    }
}

/// The raw query parameters of `GET /api/history`, as the client sent them.
public struct HistoryQueryParameters: Sendable, Hashable {
    public var before: String?
    public var after: String?
    public var transaction: String?
    public var limit: String?
    public var entity: String?
    public var author: String?
    public var context: String?
    public var changeOffset: String?
    public var changeLimit: String?

    /// Reads the parameters by their API names (`before`, `after`, `transaction`, `limit`, `entity`, `author`,
    /// `context`, `changeOffset`, `changeLimit`).
    public init(lookup: (String) -> String?) {
        before = lookup("before")
        after = lookup("after")
        transaction = lookup("transaction")
        limit = lookup("limit")
        entity = lookup("entity")
        author = lookup("author")
        context = lookup("context")
        changeOffset = lookup("changeOffset")
        changeLimit = lookup("changeLimit")
    }
}

extension HistoryQuery {
    /// Checks the parameters against the model and builds the query. Every rule of the API lives here:
    /// - at most one of `before`, `after` and `transaction`, each a non-negative integer (a transaction number);
    /// - `limit`: a positive integer, default 50, capped at 500; `changeLimit` likewise (default 50, cap 1,000);
    ///   `changeOffset` a non-negative integer;
    /// - `entity`: an entity of the model (its sub-entities' changes count too);
    /// - an empty `author`, `context` or `entity` is no filter.
    public static func validated(_ parameters: HistoryQueryParameters, in schema: StoreSchema) throws(BrowserError) -> HistoryQuery {
        var query = HistoryQuery()
        let cursors = [("before", parameters.before), ("after", parameters.after), ("transaction", parameters.transaction)]
            .filter { $0.1 != nil }
        guard cursors.count <= 1 else {
            throw .badRequest("Pass at most one of before, after and transaction, got \(cursors.map(\.0).joined(separator: " and "))")
        }
        if let (name, raw) = cursors.first, let raw {
            guard let number = Int64(raw), number >= 0 else {
                throw .badRequest("\(name) must be a transaction number (a non-negative integer), got \"\(raw)\"")
            }
            switch name {
            case "before": query.window = .newestFirst(before: number)
            case "after": query.window = .oldestFirst(after: number)
            default: query.window = .transaction(number)
            }
        }
        query.limit = try positive("limit", parameters.limit, default: defaultLimit, cap: maximumLimit)
        query.changeLimit = try positive("changeLimit", parameters.changeLimit, default: defaultChangeLimit, cap: maximumChangeLimit)
        if let raw = parameters.changeOffset {
            guard let offset = Int(raw), offset >= 0 else {
                throw .badRequest("changeOffset must be a non-negative integer, got \"\(raw)\"")
            }
            query.changeOffset = offset
        }
        if let name = parameters.entity, !name.isEmpty {
            guard let entity = schema.entity(named: name) else {
                throw .notFound("No entity named \"\(name)\"")
            }
            query.entities = schema.subtree(of: entity.name).sorted()
        }
        query.author = parameters.author.flatMap { $0.isEmpty ? nil : $0 }
        query.contextName = parameters.context.flatMap { $0.isEmpty ? nil : $0 }
        return query
    }

    private static func positive(_ name: String, _ raw: String?, default value: Int, cap: Int) throws(BrowserError) -> Int {
        guard let raw else { return value }
        guard let number = Int(raw), number > 0 else {
            throw .badRequest("\(name) must be a positive integer, got \"\(raw)\"")
        }
        return min(number, cap)
    }
}
