/// The versions of a versioned model (an `.xcdatamodeld` or `.momd` the store was opened with), each with the
/// model it declares and whether it matches the store: what a developer needs when a migration fails.
public enum ModelVersions: Sendable {
    case unavailable(String)
    case versions([ModelVersion])
}

public struct ModelVersion: Sendable {
    /// How a version was found to match the store, or not.
    public enum StoreMatch: Sendable, Hashable {
        /// Its entity version hashes (a `.momd`'s `VersionInfo.plist`) equal the store's metadata.
        case versionHashes
        /// No hashes to compare (an `.xcdatamodel`'s XML has none): its entities, columns and relationship storage
        /// are exactly the store's tables, and its entity names the metadata's.
        case tables
        /// It does not match; the reason says how it differs.
        case mismatch(String)
    }

    public var name: String
    public var path: String
    /// `.xccurrentversion` / `VersionInfo.plist`'s current version.
    public var isCurrent: Bool
    /// The version the store is being read with.
    public var isUsed: Bool
    public var match: StoreMatch
    public var model: ModelDescription

    public init(name: String, path: String, isCurrent: Bool, isUsed: Bool, match: StoreMatch, model: ModelDescription) {
        self.name = name
        self.path = path
        self.isCurrent = isCurrent
        self.isUsed = isUsed
        self.match = match
        self.model = model
    }
}
