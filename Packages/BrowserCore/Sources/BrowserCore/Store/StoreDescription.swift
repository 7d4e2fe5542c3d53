public import Foundation

/// What `/api/health` says about a store.
public struct StoreDescription: Sendable, Hashable {
    /// A one-line description, e.g. "In-memory demo store" or the store file's path.
    public var summary: String
    /// Where the model came from, for adapters that had to find one (a model file, the store's cache, inference).
    public var model: ModelOrigin?
    public var capabilities: StoreCapabilities
    /// The store's UUID, the host of its object IDs (`x-coredata://<UUID>/…`): lets a search for `p37` name a
    /// record. Nil when the adapter cannot tell before reading a record.
    public var storeIdentifier: String?
    /// Why a store that could write (`browser-demo --writable`, `Options.readOnly = false`) does not: a store
    /// with history tracking, a snapshot copy, a model without delete rules. Nil when it writes or never could.
    public var writeRefusal: String?
    /// The store files read, when the store reads files: a store file, or a live context's persistent stores
    /// that have one. What a host that named no store is known by (a Bonjour advertisement's store names).
    public var files: [URL]

    public init(summary: String, model: ModelOrigin? = nil, capabilities: StoreCapabilities = .readOnly,
                storeIdentifier: String? = nil, writeRefusal: String? = nil, files: [URL] = []) {
        self.summary = summary
        self.model = model
        self.capabilities = capabilities
        self.storeIdentifier = storeIdentifier
        self.writeRefusal = writeRefusal
        self.files = files
    }
}

/// The model a store is read with, and where it came from.
public struct ModelOrigin: Sendable, Hashable, Codable {
    public enum Source: String, Sendable, Hashable, Codable {
        /// A model file the user named.
        case file
        /// The model Core Data cached in the store (`Z_MODELCACHE`).
        case storeCache = "store-cache"
        /// Inferred from the store's tables: names are exact, types come from declared SQL types.
        case inferred
        /// The live `NSManagedObjectModel` of a running context, or a model built in code.
        case live
    }

    public var source: Source
    /// The model or version name, when known.
    public var name: String?
    /// The file the model was read from, when there is one.
    public var path: String?

    public init(source: Source, name: String? = nil, path: String? = nil) {
        self.source = source
        self.name = name
        self.path = path
    }
}

/// What a store can do. Writes are offered only by stores that have `write` and only when the host turned
/// read-only off; `/api/health` lists the capabilities in effect.
public struct StoreCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let read = StoreCapabilities(rawValue: 1 << 0)
    public static let write = StoreCapabilities(rawValue: 1 << 1)

    public static let readOnly: StoreCapabilities = [.read]

    /// The names `/api/health` uses, in a fixed order.
    public var names: [String] {
        var names: [String] = []
        if contains(.read) { names.append("read") }
        if contains(.write) { names.append("write") }
        return names
    }
}

/// An opaque value that changes whenever the store's data changes (SQLite's `data_version`, a history token,
/// a counter). Clients and caches compare tokens to know whether what they hold is still current.
public struct ChangeToken: Sendable, Hashable, Codable {
    public var value: String
    public init(_ value: String) { self.value = value }
}
