/// `GET /api/history`: the store's persistent history, a page of transactions (docs/API.md).
public struct HistoryPageDTO: Encodable, Sendable, Hashable {
    /// False when the store keeps no history; `reason` then says why and `transactions` is empty.
    public var available: Bool
    public var reason: String?
    public var transactions: [HistoryTransactionDTO]
    /// `before` for the next older page (newest-first listings), nil at the oldest transaction.
    public var older: Int64?
    /// `after` to ask for transactions newer than this page (oldest-first listings and the newest page).
    public var newer: Int64?
    public var authors: [String]
    public var contexts: [String]
    public var notes: [String]

    public init(available: Bool, reason: String? = nil, transactions: [HistoryTransactionDTO] = [], older: Int64? = nil,
                newer: Int64? = nil, authors: [String] = [], contexts: [String] = [], notes: [String] = []) {
        self.available = available
        self.reason = reason
        self.transactions = transactions
        self.older = older
        self.newer = newer
        self.authors = authors
        self.contexts = contexts
        self.notes = notes
    }
}

public struct HistoryTransactionDTO: Encodable, Sendable, Hashable {
    public var id: Int64
    /// ISO 8601, to the millisecond (as every date of the API).
    public var timestamp: String?
    public var author: String?
    public var bundleID: String?
    public var processID: String?
    public var contextName: String?
    public var changeCount: Int
    /// The offset of `changes[0]` among the transaction's changes.
    public var changeOffset: Int
    public var changes: [HistoryChangeDTO]
}

public struct HistoryChangeDTO: Encodable, Sendable, Hashable {
    /// `insert`, `update` or `delete`.
    public var type: String
    public var entity: String
    /// The object's ID URI (a deleted object's ID no longer finds a record).
    public var id: String
    /// The record's display name (as lists name it), for a change whose record is still in the store.
    public var summary: String?
    /// The names of the properties an update changed (sorted); nil when the store cannot tell them.
    public var changed: [String]?
    /// An update's changed properties as bit positions of the store file's per-change bitmap, only when the
    /// bitmap could not be decoded into names (`notes` says why).
    public var changedBits: [Int]?
    public var tombstone: [String: AttributeValue]?
}

extension HistoryTransactionDTO {
    init(_ transaction: HistoryTransaction, changeOffset: Int) {
        id = transaction.number
        timestamp = transaction.timestamp.map(ISO8601Timestamp.string(from:))
        author = transaction.author
        bundleID = transaction.bundleID
        processID = transaction.processID
        contextName = transaction.contextName
        changeCount = transaction.changeCount
        self.changeOffset = changeOffset
        changes = transaction.changes.map {
            HistoryChangeDTO(type: $0.kind.name, entity: $0.id.entity, id: $0.id.uri, summary: nil, changed: $0.changedProperties,
                             changedBits: $0.changedPropertyBits, tombstone: $0.tombstone)
        }
    }
}
