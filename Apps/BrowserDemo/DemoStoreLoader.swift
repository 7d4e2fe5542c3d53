import BrowserCore
import BrowserDesktop
import BrowserMemory
import BrowserSQLite
import CoreDataBrowser
import Foundation

/// Picks the stores `browser-demo` serves: the in-memory demo library, the store files of `--store` (`--model`
/// for one), or every simulator's stores (`simulators`).
enum DemoStoreLoader {
    /// What to serve, and how to look for stores again when the server is asked to (simulators only).
    struct Loaded {
        var stores: [ServedStore]
        var rescan: (@Sendable () async -> [ServedStore])?
    }

    /// Stores given by `--store` are opened here, so a file that cannot be served stops `browser-demo` before it
    /// listens; a simulator's are opened when first browsed, so one bad store never stops the others. With
    /// `--writable` every store file is opened for writes, and the backup made before its first write is printed.
    /// - Throws: `SQLiteStoreError` (one line naming the file and what is wrong), or `LoadError`; `main` prints it
    ///   and exits 1.
    static func load(_ arguments: DemoArguments) async throws -> Loaded {
        if arguments.simulators {
            let scan = try SimulatorScanSource(root: arguments.simulatorsRoot, macRoot: arguments.macContainersRoot,
                                               writes: writes(arguments))
            let (stores, skipped) = scan.scan()
            print(stores.isEmpty
                ? "No Core Data or SwiftData store under \(scan.description) yet; the store switcher's Rescan looks again"
                : "Serving \(stores.count) store\(stores.count == 1 ? "" : "s") found under \(scan.description)"
                    + (arguments.writable ? " (each opened when first browsed; --writable: written where it is safe)" : " (read-only; each opened when first browsed)"))
            // What the scan passed over (an unreadable folder, the file limit), so a store it missed is noticed;
            // as `--list` prints them.
            for note in skipped { print("skipped: \(note)") }
            return Loaded(stores: stores, rescan: { scan.scan().stores })
        }
        guard !arguments.storePaths.isEmpty else {
            if arguments.writable { print("Writes on (--writable): the demo library's edits live in memory until the server stops") }
            return Loaded(stores: [ServedStore(id: "demo", name: "Demo library", kind: .memory,
                                               store: try await DemoLibrary.makeStore())])
        }
        var stores: [ServedStore] = []
        for path in arguments.storePaths {
            let url = URL(fileURLWithPath: path)
            let store = try SQLiteStore.open(storeAt: url, model: arguments.modelPath.map { URL(fileURLWithPath: $0) },
                                             writes: writes(arguments))
            let origin = store.modelOrigin
            print("Serving \(store.url.standardizedFileURL.path) (\(store.accessDescription)); model: \(origin.source.rawValue)"
                  + (origin.name.map { " \"\($0)\"" } ?? "") + (origin.path.map { " from \($0)" } ?? ""))
            if let refusal = store.writeRefusal {
                print("Not writing \(store.url.standardizedFileURL.path) (--writable): \(refusal)")
            }
            stores.append(ServedStore(name: url.lastPathComponent, kind: .file, file: url, store: store))
        }
        return Loaded(stores: stores, rescan: nil)
    }

    /// `--writable`: store files are opened for writes, and the backup of each is announced when it is made.
    static func writes(_ arguments: DemoArguments) -> StoreWriteOptions? {
        guard arguments.writable else { return nil }
        return StoreWriteOptions(backupMade: { path in
            print("Backed up the store before its first write: \(path)")
            fflush(nil)
        })
    }
}

/// The simulators' (and macOS apps') stores as served stores: grouped by device and app, each opened when first
/// browsed, with an ID that stays the same between scans (its app, its file name and a hash of its path).
struct SimulatorScanSource: Sendable, CustomStringConvertible {
    let devices: URL
    let macContainers: URL?
    let writes: StoreWriteOptions?

    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    init(root: String?, macRoot: String?, writes: StoreWriteOptions? = nil) throws(LoadError) {
        self.writes = writes
        devices = root.map { URL(fileURLWithPath: $0) } ?? SimulatorStoreScan.defaultDevicesRoot
        macContainers = SimulatorStoreScan.macContainersRoot(given: macRoot.map { URL(fileURLWithPath: $0) },
                                                             devicesRootGiven: root != nil)
        var isFolder: ObjCBool = false
        if root != nil, !FileManager.default.fileExists(atPath: devices.path, isDirectory: &isFolder) || !isFolder.boolValue {
            throw LoadError(description: "--root \(devices.path): no such folder")
        }
        if let macRoot, !FileManager.default.fileExists(atPath: macRoot, isDirectory: &isFolder) || !isFolder.boolValue {
            throw LoadError(description: "--mac-root \(macRoot): no such folder")
        }
    }

    var description: String { devices.path + (macContainers.map { " and \($0.path)" } ?? "") }

    /// The stores found, and what the scan passed over (`SimulatorStoreScan.skipped`).
    func scan() -> (stores: [ServedStore], skipped: [String]) {
        let scan = SimulatorStoreScan.scan(devicesRoot: devices, macContainersRoot: macContainers)
        let stores = scan.stores.map { found in
            let device = found.device.map { $0.name + ($0.system.map { " (\($0))" } ?? "") } ?? "macOS"
            let url = URL(fileURLWithPath: found.path)
            let app = found.container.identifier.split(separator: ".").last.map(String.init) ?? found.container.identifier
            return ServedStore(
                id: "\(app)-\(url.lastPathComponent)-\(StableDigest.hex(found.path))", name: found.relativePath,
                group: [device, "\(found.container.identifier) [\(found.container.kind.rawValue)]"], kind: .file,
                file: url, open: { [writes] in try SQLiteStore.open(storeAt: url, writes: writes) })
        }
        return (stores, scan.skipped)
    }
}
