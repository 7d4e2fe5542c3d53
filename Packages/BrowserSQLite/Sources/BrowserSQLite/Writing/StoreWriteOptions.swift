public import Foundation

/// What a host that asks for writes to a store file (`SQLiteStore.open(storeAt:model:writes:)`) decides: where
/// the backup made before the first write goes, and who hears of it. Without these options a store file is only
/// read: nothing is written to a user's store unless the user asked for it.
public struct StoreWriteOptions: Sendable {
    /// The folder for the backup (`StoreBackup`); nil puts it beside the store.
    public var backupFolder: URL?
    /// Called once, with the backup's path, when it has been made (the CLI prints it).
    public var backupMade: (@Sendable (String) -> Void)?

    public init(backupFolder: URL? = nil, backupMade: (@Sendable (String) -> Void)? = nil) {
        self.backupFolder = backupFolder
        self.backupMade = backupMade
    }
}
