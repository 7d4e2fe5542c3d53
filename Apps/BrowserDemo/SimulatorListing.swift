import BrowserDesktop
import Foundation

/// `browser-demo simulators`: the stores `SimulatorStoreScan` finds, by device and app, each with the path to
/// pass to `--store`.
enum SimulatorListing {
    /// The listing's text for the folders `source` scans.
    static func run(_ source: SimulatorScanSource) -> String {
        let devices = source.devices
        let macRoot = source.macContainers?.path
        let scan = SimulatorStoreScan.scan(devicesRoot: devices, macContainersRoot: source.macContainers)
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
        return lines.joined(separator: "\n")
    }
}
