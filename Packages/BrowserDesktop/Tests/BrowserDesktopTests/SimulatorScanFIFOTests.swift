@testable import BrowserDesktop
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A FIFO (named pipe) where the scan expects a file — named like a store, a store's `-wal`, a container's metadata
/// plist or a device's `device.plist` — is never opened (opening one for reading blocks until a writer comes, which
/// once hung the scan and every request) and is said in `skipped`, with what it is.
struct SimulatorScanFIFOTests {
    static func makeFIFO(_ url: URL) throws {
        guard mkfifo(url.path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    @Test func aScanPassesOverFIFOsAndSaysSo() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("simulators-fifo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let devices = root.appendingPathComponent("Devices")
        let device = devices.appendingPathComponent("AAAA")
        let container = device.appendingPathComponent("data/Containers/Data/Application/1111")
        try FileManager.default.createDirectory(at: container.appendingPathComponent("Library"), withIntermediateDirectories: true)
        let plist = try PropertyListSerialization.data(fromPropertyList: ["UDID": "AAAA", "name": "iPhone 16"], format: .xml, options: 0)
        try plist.write(to: device.appendingPathComponent("device.plist"))
        try Self.makeFIFO(container.appendingPathComponent("Library/Cache.sqlite-wal"))
        try Self.makeFIFO(container.appendingPathComponent("Library/Store.sqlite"))
        try Self.makeFIFO(container.appendingPathComponent(SimulatorStoreScan.metadataPlist))
        // A second device whose device.plist is a FIFO.
        let other = devices.appendingPathComponent("BBBB")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Self.makeFIFO(other.appendingPathComponent("device.plist"))

        let scan = SimulatorStoreScan.scan(devicesRoot: devices)
        #expect(scan.stores.isEmpty)
        let fifo = "it is a FIFO (named pipe), not a regular file"
        #expect(scan.skipped.sorted() == [
            "\(container.path)/\(SimulatorStoreScan.metadataPlist): \(fifo)",
            "\(container.path)/Library/Cache.sqlite-wal: \(fifo)",
            "\(container.path)/Library/Store.sqlite: \(fifo)",
            "\(other.path)/device.plist: \(fifo)",
        ].sorted())
    }
}
