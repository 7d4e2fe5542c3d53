// NSPersistentCloudKitContainer's store options (iOS 13): what a store description carries when the store is mirrored
// to CloudKit. Only the members the adapter's tests use.

/// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontaineroptions
/// `class NSPersistentCloudKitContainerOptions` (iOS 13)
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
open class NSPersistentCloudKitContainerOptions: NSObject {
    /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontaineroptions/init(containeridentifier:)
    /// `init(containerIdentifier: String)`
    public init(containerIdentifier: String) { self.containerIdentifier = containerIdentifier }
    /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontaineroptions/containeridentifier
    /// `var containerIdentifier: String { get }`
    public let containerIdentifier: String
}

extension NSPersistentStoreDescription {
    /// https://developer.apple.com/documentation/coredata/nspersistentstoredescription/cloudkitcontaineroptions
    /// `var cloudKitContainerOptions: NSPersistentCloudKitContainerOptions? { get set }` (iOS 13)
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    public var cloudKitContainerOptions: NSPersistentCloudKitContainerOptions? {
        get { nil }
        set {}
    }
}
