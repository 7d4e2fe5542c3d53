#if canImport(CoreData)
import CoreData

/// Whether a store of the app is mirrored to CloudKit by `NSPersistentCloudKitContainer`, and so why the browser does
/// not write to it unless the host allows it (`ManagedContextStore(allowsEditsThatSyncToICloud:)`, the server's
/// `Options.allowsEditsThatSyncToICloud`): an edit there is exported to the user's iCloud database and reaches every
/// device signed in to it, which is more than a debugging session should change by default.
///
/// How a mirrored store is recognised from a context (decision): the context reaches the stores, not the container
/// or its store descriptions. A description's `cloudKitContainerOptions`
/// (developer.apple.com/documentation/coredata/nspersistentstoredescription/cloudkitcontaineroptions) is kept in its
/// `options` under "NSPersistentCloudKitContainerOptionsKey", which the store is added with and keeps in
/// `NSPersistentStore.options`; a store the container mirrors also carries "NSPersistentStoreMirroringOptionsKey"
/// (Core Data's own log of a mirrored store's options lists both, next to `NSPersistentHistoryTrackingKey`). Neither
/// key is a public constant, so they are named here; either one marks the store as mirrored. Should a future SDK
/// rename them, mirroring would go unnoticed: the macOS test that sets `cloudKitContainerOptions` is what would
/// fail.
enum CloudKitMirroring {
    static let containerOptionsKey = "NSPersistentCloudKitContainerOptionsKey"
    static let mirroringOptionsKey = "NSPersistentStoreMirroringOptionsKey"

    /// Why writes are refused, naming the mirrored store and its CloudKit container; nil when no store is mirrored.
    static func refusal(_ stores: [NSPersistentStore]) -> String? {
        guard let mirrored = stores.first(where: isMirrored) else { return nil }
        let name = mirrored.url?.lastPathComponent ?? mirrored.identifier ?? "the app's store"
        let container = (mirrored.options?[containerOptionsKey] as? NSPersistentCloudKitContainerOptions)?.containerIdentifier
        return "an edit would sync to the user's iCloud: \(name) is mirrored to CloudKit"
            + (container.map { " (container \($0))" } ?? "")
            + " by NSPersistentCloudKitContainer. To edit it anyway, create the server with "
            + "Options.allowsEditsThatSyncToICloud = true"
    }

    static func isMirrored(_ store: NSPersistentStore) -> Bool {
        guard let options = store.options else { return false }
        return options[containerOptionsKey] != nil || options[mirroringOptionsKey] != nil
    }
}

#endif
