public import BrowserSQLite
public import Foundation

extension CoreDataBrowserServer {
    /// Serves a Core Data or SwiftData store file on every platform: read-only, or with writes when
    /// `options.readOnly` is false and the store allows them (`SQLiteStore.writeRefusal` says why not).
    ///
    /// This is how a SwiftData app uses the browser (pass its `ModelContainer`'s store URL, by default
    /// `…/Library/Application Support/default.store`), and how any `.sqlite` store is browsed without its app.
    ///
    /// ```swift
    /// let url = container.configurations.first!.url
    /// let server = try CoreDataBrowserServer(storeURL: url)
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
        let store = try SQLiteStore.open(storeAt: storeURL, model: modelURL, writes: options.readOnly ? nil : writes)
        self.init(stores: [ServedStore(name: storeURL.lastPathComponent, kind: .file, file: storeURL, store: store)],
                  options: options)
    }
}
