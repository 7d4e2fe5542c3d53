import BrowserSQLite
import Foundation

/// `browser-demo simulators`: the stores `SimulatorStoreScan` finds, by device and app, each with the path to
/// pass to `--store`.
enum SimulatorListing {
    /// The listing's text, or nil with a message when the folder to scan does not exist.
    static func run(root: String?, macRoot: String?) -> Result<String, ListingError> {
        let devices = root.map { URL(fileURLWithPath: $0) } ?? SimulatorStoreScan.defaultDevicesRoot
        var isFolder: ObjCBool = false
        if root != nil, !FileManager.default.fileExists(atPath: devices.path, isDirectory: &isFolder) || !isFolder.boolValue {
            return .failure(ListingError(message: "--root \(devices.path): no such folder"))
        }
        if let macRoot, !FileManager.default.fileExists(atPath: macRoot, isDirectory: &isFolder) || !isFolder.boolValue {
            return .failure(ListingError(message: "--mac-root \(macRoot): no such folder"))
        }
        let scan = SimulatorStoreScan.scan(devicesRoot: devices, macContainersRoot: macRoot.map { URL(fileURLWithPath: $0) })
        var lines: [String] = []
        if scan.stores.isEmpty {
            lines.append("No Core Data or SwiftData stores under \(devices.path)" + (macRoot.map { " or \($0)" } ?? ""))
        }
        var lastDevice: String?
        var lastContainer: String?
        for store in scan.stores {
            let device = store.device.map { "\($0.name)" + ($0.system.map { " (\($0))" } ?? "") + " \($0.udid)" } ?? "macOS"
            if device != lastDevice {
                lines.append(device)
                lastDevice = device
                lastContainer = nil
            }
            let container = "\(store.container.identifier) [\(store.container.kind.rawValue)]"
            if container != lastContainer {
                lines.append("  " + container)
                lastContainer = container
            }
            let sizes = ByteCountFormatter.string(fromByteCount: store.bytes, countStyle: .file)
                + (store.walBytes > 0 ? " + \(ByteCountFormatter.string(fromByteCount: store.walBytes, countStyle: .file)) WAL" : "")
            lines.append("    \(store.relativePath) (\(sizes))")
            lines.append("      --store \"\(store.path)\"")
        }
        for note in scan.skipped {
            lines.append("skipped: \(note)")
        }
        return .success(lines.joined(separator: "\n"))
    }

    struct ListingError: Error {
        let message: String
    }
}
