import BrowserCore
import BrowserHTTP
import Foundation

/// The stores one server serves: each opened on its first use, with its own API router (service, change feed),
/// listed by `GET /api/stores`, and found again by a rescan when the host gave one.
///
/// An actor: requests for a store that is still opening wait for the same opening (one `Task` per store), and a
/// rescan replaces the list between requests, never under one.
actor ServedStores {
    /// A store once open: what its routes need.
    struct Opened: Sendable {
        let store: any BrowserStore
        let router: any HTTPResponder
    }

    private struct Entry {
        let served: ServedStore
        /// Unique among the served stores.
        let id: String
        /// Started by the first request that needs the store; a failure stays until the next rescan.
        var opening: Task<Opened, any Error>?
        /// The opening ended with an error: a rescan tries again.
        var failed = false
    }

    private var entries: [Entry] = []
    private let rescan: (@Sendable () async -> [ServedStore])?
    private let routes: @Sendable (any BrowserStore) -> any HTTPResponder

    /// `routes` builds one store's API router once it is open.
    init(stores: [ServedStore], rescan: (@Sendable () async -> [ServedStore])?,
         routes: @escaping @Sendable (any BrowserStore) -> any HTTPResponder) {
        self.rescan = rescan
        self.routes = routes
        entries = Self.entries(for: stores, keeping: [])
    }

    /// The IDs in order; the first store is the one the routes without `/stores/:store` mean.
    var ids: [String] { entries.map(\.id) }

    /// The store with this ID (nil: the first), opened if it was not.
    func opened(_ id: String?) async throws(BrowserError) -> Opened {
        let found = if let id { entries.firstIndex { $0.id == id } } else { entries.indices.first }
        guard let index = found else {
            throw entries.isEmpty
                ? .notFound("This server has no store to serve; GET /api/stores?refresh=1 looks for new ones")
                : .notFound("No store \"\(id ?? "")\" on this server; GET /api/stores lists them")
        }
        let entry = entries[index]
        do {
            return try await opening(at: index).value
        } catch {
            markFailed(entry.id)
            throw .storeFailure("The store \(entry.served.name) cannot be opened: \(BrowserError.wrapping(error).message)")
        }
    }

    /// Called after an await: a rescan may have replaced the entries meanwhile, so the entry is found by its ID.
    private func markFailed(_ id: String) {
        if let index = entries.firstIndex(where: { $0.id == id }) { entries[index].failed = true }
    }

    private func opening(at index: Int) -> Task<Opened, any Error> {
        if let task = entries[index].opening { return task }
        let open = entries[index].served.open
        let routes = routes
        let task = Task<Opened, any Error> {
            let store = try await open()
            return Opened(store: store, router: routes(store))
        }
        entries[index].opening = task
        return task
    }

    /// The names the Bonjour advertisement lists, in order (`AdvertisedStoreNames`): a store the server named
    /// itself is opened (the shared opening) and described for its own name; the others are not opened.
    func advertisedStoreNames() async -> [String] {
        // The openings are taken before the first await: a rescan may replace `entries` meanwhile.
        let pending = entries.indices.map { index in
            (served: entries[index].served, opening: entries[index].served.nameIsStandIn ? opening(at: index) : nil)
        }
        var names: [String] = []
        for (served, opening) in pending {
            var description: StoreDescription?
            if let opening { description = try? await opening.value.store.describe() }
            names += AdvertisedStoreNames.names(of: served, description: description)
        }
        return names
    }

    /// `GET /api/stores`: every store with what is known of it, opening each (the list is what a person picks
    /// from, so a store that cannot be opened says why there). With `refresh`, rescans first.
    func list(refresh: Bool) async -> StoreListDTO {
        if refresh, let rescan {
            let found = await rescan()
            entries = Self.entries(for: found, keeping: entries)
        }
        var summaries: [StoreSummaryDTO] = []
        for index in entries.indices {
            summaries.append(await summary(at: index))
        }
        return StoreListDTO(stores: summaries, refreshable: rescan != nil)
    }

    private func summary(at index: Int) async -> StoreSummaryDTO {
        let entry = entries[index]
        var summary = StoreSummaryDTO(id: entry.id, name: entry.served.name, group: entry.served.group,
                                      kind: entry.served.kind.rawValue, path: entry.served.file?.path)
        if let file = entry.served.file {
            summary.bytes = Self.size(of: file.path)
            summary.walBytes = Self.size(of: file.path + "-wal") ?? 0
        }
        let store: any BrowserStore
        do {
            store = try await opening(at: index).value.store
        } catch {
            markFailed(entry.id)
            summary.error = BrowserError.wrapping(error).message
            return summary
        }
        do {
            summary.model = try await store.describe().model
            summary.entityCount = try await store.schema().entities.count
            if case .page = try await store.history(HistoryQuery(limit: 1)) {
                summary.historyTracked = true
            } else {
                summary.historyTracked = false
            }
        } catch {
            summary.error = BrowserError.wrapping(error).message
        }
        return summary
    }

    private static func size(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    }

    /// The entries for `stores`, in their order, with unique IDs (a `-2`, `-3`… suffix on a repeated one). An
    /// entry of `kept` with the same ID and file keeps its opened store (and its open change feeds); one whose
    /// opening failed is tried again.
    private static func entries(for stores: [ServedStore], keeping kept: [Entry]) -> [Entry] {
        var used = Set<String>()
        var result: [Entry] = []
        for served in stores {
            var id = served.id
            var suffix = 2
            while used.contains(id) {
                id = "\(served.id)-\(suffix)"
                suffix += 1
            }
            used.insert(id)
            if let previous = kept.first(where: { $0.id == id && $0.served.file == served.file && $0.served.kind == served.kind }),
               !previous.failed {
                result.append(previous)
            } else {
                result.append(Entry(served: served, id: id))
            }
        }
        return result
    }
}
