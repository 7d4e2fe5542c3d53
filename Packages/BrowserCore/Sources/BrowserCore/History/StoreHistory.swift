public import Foundation

/// What a store answers for a `HistoryQuery`: a page of its persistent history, or why it has none.
public enum StoreHistory: Sendable, Hashable {
    case page(HistoryPage)
    /// The store keeps no history (tracking was never on) or cannot read it; the text says which, for the user.
    case unavailable(String)
}

/// A page of transactions, in the query's order.
public struct HistoryPage: Sendable, Hashable {
    public var transactions: [HistoryTransaction]
    /// More transactions exist beyond the page in the query's direction (older for `newestFirst`, newer for
    /// `oldestFirst`).
    public var hasMore: Bool
    /// Every author and context name the history mentions, for a client's filter menus.
    public var authors: [String]
    public var contextNames: [String]
    /// What the client should know about how the changes were read (for example that the changed properties are
    /// given as numbers because their layout is not documented).
    public var notes: [String]

    public init(transactions: [HistoryTransaction], hasMore: Bool, authors: [String] = [], contextNames: [String] = [],
                notes: [String] = []) {
        self.transactions = transactions
        self.hasMore = hasMore
        self.authors = authors
        self.contextNames = contextNames
        self.notes = notes
    }
}

/// One saved transaction: who saved, when, and what changed.
public struct HistoryTransaction: Sendable, Hashable {
    /// The store's number for the transaction, in commit order.
    public var number: Int64
    public var timestamp: Date?
    public var author: String?
    public var bundleID: String?
    public var processID: String?
    public var contextName: String?
    /// The transaction's changes (those of the query's entities), `changeOffset` on, at most `changeLimit`.
    public var changes: [HistoryChange]
    /// How many changes (of the query's entities) the transaction holds in all.
    public var changeCount: Int

    public init(number: Int64, timestamp: Date?, author: String? = nil, bundleID: String? = nil, processID: String? = nil,
                contextName: String? = nil, changes: [HistoryChange], changeCount: Int) {
        self.number = number
        self.timestamp = timestamp
        self.author = author
        self.bundleID = bundleID
        self.processID = processID
        self.contextName = contextName
        self.changes = changes
        self.changeCount = changeCount
    }
}

/// One object's insert, update or delete in a transaction.
public struct HistoryChange: Sendable, Hashable {
    /// Core Data's `NSPersistentHistoryChangeType`, with its raw values.
    public enum Kind: Int, Sendable, Hashable {
        case insert = 0
        case update = 1
        case delete = 2

        public var name: String {
            switch self {
            case .insert: "insert"
            case .update: "update"
            case .delete: "delete"
            }
        }
    }

    public var kind: Kind
    public var id: ObjectID
    /// The names of the properties an update changed, when the store can tell them.
    public var changedProperties: [String]?
    /// The positions of the bits set in the update's property bitmap, when the store has only that.
    public var changedPropertyBits: [Int]?
    /// The values Core Data kept of a deleted object (attributes marked "preserve after deletion"), by name.
    public var tombstone: [String: AttributeValue]?

    public init(kind: Kind, id: ObjectID, changedProperties: [String]? = nil, changedPropertyBits: [Int]? = nil,
                tombstone: [String: AttributeValue]? = nil) {
        self.kind = kind
        self.id = id
        self.changedProperties = changedProperties
        self.changedPropertyBits = changedPropertyBits
        self.tombstone = tombstone
    }
}
