/// A record's identity in Core Data's URI form: `x-coredata://<store UUID>/<Entity>/p<primary key>`.
///
/// Every adapter uses this form, so an ID copied from the running app and one read from its store file are the
/// same string (`NSManagedObjectID.uriRepresentation()` produces it for saved objects).
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The store's UUID (`Z_METADATA.Z_UUID`, `NSStoreUUIDKey`).
    public let storeIdentifier: String
    /// The record's concrete entity.
    public let entity: String
    /// The primary key, unique within the root entity's table (`Z_PK`).
    public let primaryKey: Int64

    public static let scheme = "x-coredata"

    public init(storeIdentifier: String, entity: String, primaryKey: Int64) {
        self.storeIdentifier = storeIdentifier
        self.entity = entity
        self.primaryKey = primaryKey
    }

    /// Parses the URI form. Throws a 400 `BrowserError` that says what is wrong with it.
    public init(uri: String) throws(BrowserError) {
        let prefix = Self.scheme + "://"
        guard uri.hasPrefix(prefix) else {
            throw .badRequest("Malformed id \"\(uri)\": expected x-coredata://<store>/<Entity>/p<number>")
        }
        let parts = uri.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].isEmpty, parts[2].hasPrefix("t") {
            throw .badRequest("Id \"\(uri)\" is a temporary object ID; only saved objects can be browsed")
        }
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasPrefix("p"),
              let key = Int64(parts[2].dropFirst()), key > 0,
              parts[2].dropFirst().allSatisfy({ $0.isASCII && $0.isNumber })
        else {
            throw .badRequest("Malformed id \"\(uri)\": expected x-coredata://<store>/<Entity>/p<number>")
        }
        self.init(storeIdentifier: String(parts[0]), entity: String(parts[1]), primaryKey: key)
    }

    public var uri: String { Self.uriPrefix(storeIdentifier: storeIdentifier, entity: entity) + String(primaryKey) }

    /// `x-coredata://<store>/<Entity>/p`: every ID of one entity of one store, without its key.
    public static func uriPrefix(storeIdentifier: String, entity: String) -> String {
        "\(scheme)://\(storeIdentifier)/\(entity)/p"
    }

    public var description: String { uri }

    /// `p<primary key>`: the short form in export file names and default summaries.
    public var shortForm: String { Self.shortForm(primaryKey: primaryKey) }

    public static func shortForm(primaryKey: Int64) -> String { "p\(primaryKey)" }
}
