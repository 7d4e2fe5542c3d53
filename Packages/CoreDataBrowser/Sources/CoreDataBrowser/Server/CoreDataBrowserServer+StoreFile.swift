public import BrowserSQLite
public import Foundation

extension CoreDataBrowserServer {
    /// Serves a Core Data or SwiftData store file on every platform: read-only, or with writes when
    /// `options.readOnly` is false and the store allows them (`SQLiteStore.writeRefusal` says why not).
    ///
    /// This is how any `.sqlite` store is browsed without its app; a SwiftData app passes its container to
    /// `init(modelContainer:options:writes:)`, which serves its store files this way.
    ///
    /// ```swift
    /// let server = try CoreDataBrowserServer(storeURL: URL(fileURLWithPath: "/path/to/Library.sqlite"))
    /// try server.start()
    /// ```
    ///
    /// The model is `modelURL` when given (`.xcdatamodeld`, `.xcdatamodel`, `.momd` or `.mom`), else the one
    /// Core Data cached in the store, else inferred from its tables; `/api/health` says which. The store, its
    /// `-wal` and `-shm` are never modified unless `options.readOnly` is false (see `SQLiteStore.open(storeAt:model:writes:)`);
    /// then a backup is made beside the store before the first write (`writes` names another folder or hears of it).
    ///
    /// - Throws: `SQLiteStoreError` when the file is missing, not SQLite, not a Core Data store, corrupt, or
    ///   does not match `modelURL`.
    public convenience init(storeURL: URL, modelURL: URL? = nil, options: Options = .init(),
                            writes: StoreWriteOptions = .init()) throws(SQLiteStoreError) {
        self.init(stores: [try Self.storeFile(at: storeURL, model: modelURL, options: options, writes: writes)], options: options)
    }

    /// A store file opened as this initializer and `init(modelContainer:)` open it (with writes when
    /// `options.readOnly` is false), named after the file.
    static func storeFile(at url: URL, model modelURL: URL?, options: Options,
                          writes: StoreWriteOptions) throws(SQLiteStoreError) -> ServedStore {
        let store = try SQLiteStore.open(storeAt: url, model: modelURL, writes: options.readOnly ? nil : writes)
        return ServedStore(name: url.lastPathComponent, kind: .file, file: url, store: store)
    }
}
