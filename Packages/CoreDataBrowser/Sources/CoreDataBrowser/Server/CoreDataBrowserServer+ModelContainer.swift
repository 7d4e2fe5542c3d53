#if canImport(SwiftData)
public import BrowserSQLite
public import Foundation
public import SwiftData

extension CoreDataBrowserServer {
    /// Why a `ModelContainer` could not be served.
    public enum ModelContainerError: Error, CustomStringConvertible, Sendable {
        /// Every configuration of the container is stored in memory only: there is no file to read.
        case storedInMemoryOnly
        /// A configuration's store file could not be opened (missing, not a Core Data store, corrupt…).
        case storeUnreadable(URL, SQLiteStoreError)

        public var description: String {
            switch self {
            case .storedInMemoryOnly:
                "Every ModelConfiguration of this ModelContainer is stored in memory only (isStoredInMemoryOnly): "
                    + "the browser reads the store files, so there is nothing to serve. Use an on-disk configuration."
            case .storeUnreadable(let url, let error):
                "Cannot read the SwiftData store \(url.path): \(error)"
            }
        }
    }

    /// Serves a SwiftData app's data: each on-disk configuration of `modelContainer` (`ModelConfiguration.url`,
    /// by default `…/Library/Application Support/default.store`) through the store-file reader, as
    /// `init(storeURL:modelURL:options:writes:)` does (one store per file; with several, the UI's switcher).
    ///
    /// ```swift
    /// #if DEBUG
    /// let server = try CoreDataBrowserServer(modelContainer: container)
    /// try server.start()
    /// #endif
    /// ```
    ///
    /// Live as the app saves: each request reads in a new SQLite read transaction, which sees every commit
    /// SwiftData has made to the store's write-ahead log, and an open page refreshes itself when the store's
    /// data version moves (`/api/events`). **Edits a `ModelContext` has not saved yet are not visible**: they live
    /// in that context until `save()`, or until autosave (`ModelContext.autosaveEnabled`, on for a SwiftUI
    /// `mainContext`) saves them at a moment SwiftData chooses, typically after UI events; call `save()` to see
    /// them at once. The model is the one Core Data caches in the store (SwiftData stores are Core Data stores).
    ///
    /// Configurations stored in memory only (`isStoredInMemoryOnly`) are skipped with a logged line; when every
    /// configuration is, this throws `.storedInMemoryOnly`. Writes follow `options.readOnly` and `writes` as for
    /// a store file: they go to the file, behind SwiftData's back, and the app's contexts see them only when they
    /// fetch again.
    @available(iOS 17, macOS 14, tvOS 17, *)
    public convenience init(modelContainer: ModelContainer, options: Options = .init(),
                            writes: StoreWriteOptions = .init()) throws(ModelContainerError) {
        // `configurations` is a Set: ordered by path so the stores (and their IDs) are the same on every launch.
        let configurations = modelContainer.configurations.sorted { $0.url.path < $1.url.path }
        var served: [ServedStore] = []
        var files: Set<String> = []
        for configuration in configurations {
            guard !configuration.isStoredInMemoryOnly else {
                BrowserLog.warning(Self.inMemoryNote)
                continue
            }
            let url = configuration.url
            // Two configurations may share one file; it is served once.
            guard files.insert(url.standardizedFileURL.path).inserted else { continue }
            do throws(SQLiteStoreError) {
                served.append(try Self.storeFile(at: url, model: nil, options: options, writes: writes))
            } catch {
                throw .storeUnreadable(url, error)
            }
        }
        guard !served.isEmpty else { throw .storedInMemoryOnly }
        self.init(stores: served, options: options)
    }

    /// The line logged for a configuration that is skipped because it keeps its models in memory.
    static let inMemoryNote = "a ModelConfiguration of this ModelContainer is stored in memory only "
        + "(isStoredInMemoryOnly): its models are not served, because the browser reads store files"
}
#endif
