import BrowserCore
import Foundation

/// The store names a Bonjour advertisement lists (`stores=`): the host's name for each store, or, where the server
/// named a store itself ("Store" for `init(store:)`, "App context" for `init(context:)`), the store's own — its
/// files' names (a live context lists each persistent store's file), else its summary. Kept apart from the
/// Apple-only publisher so the choice is compiled and tested everywhere.
enum AdvertisedStoreNames {
    /// The names `served` is advertised by; `description` (asked only for a stand-in name) is nil when the store
    /// could not be described, and the stand-in is kept.
    static func names(of served: ServedStore, description: StoreDescription?) -> [String] {
        guard served.nameIsStandIn, let description else { return [served.name] }
        if !description.files.isEmpty { return description.files.map(\.lastPathComponent) }
        let summary = description.summary
        if summary.isEmpty { return [served.name] }
        // An adapter whose summary is its file's path (and that lists no files) is known by the file's name.
        return [summary.hasPrefix("/") ? URL(fileURLWithPath: summary).lastPathComponent : summary]
    }
}
