public import BrowserCore
public import Foundation

/// One store a server serves, as its host describes it: a name and a place in the switcher, and how to open it.
///
/// Opening is deferred to the first request that needs the store (or the first `/api/stores`), so a server
/// given every simulator's stores starts at once and a store that cannot be opened only affects itself.
public struct ServedStore: Sendable {
    public enum Kind: String, Sendable {
        /// A Core Data or SwiftData store file.
        case file
        /// An in-memory store (the demo library).
        case memory
        /// A running app's `NSManagedObjectContext`.
        case context
        /// Any other `BrowserStore`.
        case other = "store"
    }

    /// The preferred ID (`/api/stores/:store`); made unique by the server (a `-2` suffix) when two collide, and
    /// reduced to letters, digits, `.`, `_` and `-`.
    public var id: String
    public var name: String
    /// Outermost first: for example a simulator's device, then its app.
    public var group: [String]
    public var kind: Kind
    /// The store file, for its size and path in `/api/stores`.
    public var file: URL?
    public var open: @Sendable () async throws -> any BrowserStore
    /// `name` is the server's stand-in ("Store", "App context"), given by an initializer that cannot know the
    /// store's own name without opening it: the Bonjour advertisement asks the store instead (`AdvertisedStoreNames`).
    var nameIsStandIn = false

    public init(id: String? = nil, name: String, group: [String] = [], kind: Kind, file: URL? = nil,
                open: @escaping @Sendable () async throws -> any BrowserStore) {
        self.id = ServedStore.identifier(from: id ?? name)
        self.name = name
        self.group = group
        self.kind = kind
        self.file = file
        self.open = open
    }

    /// A store that is already open.
    public init(id: String? = nil, name: String, group: [String] = [], kind: Kind, file: URL? = nil,
                store: any BrowserStore) {
        self.init(id: id, name: name, group: group, kind: kind, file: file, open: { store })
    }

    /// The longest ID, in characters.
    static let maximumIdentifierLength = 64

    /// `text` as an ID: diacritics removed, ASCII letters and digits kept, runs of anything else become one `-`,
    /// a trailing `.sqlite`/`.store` dropped; "store" when nothing is left.
    static func identifier(from text: String) -> String {
        var stem = text.folding(options: [.diacriticInsensitive], locale: nil)
        for suffix in [".sqlite", ".store", ".sqlite3", ".db"] where stem.lowercased().hasSuffix(suffix) && stem.count > suffix.count {
            stem.removeLast(suffix.count)
        }
        var result = ""
        for scalar in stem.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "." {
                result.unicodeScalars.append(scalar)
            } else if !result.hasSuffix("-") {
                result.append("-")
            }
        }
        result = String(result.trimmingCharacters(in: CharacterSet(charactersIn: "-.")).prefix(maximumIdentifierLength))
        return result.isEmpty ? "store" : result
    }
}
