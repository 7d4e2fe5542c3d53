@testable import BrowserDesktop
import Foundation
import Testing

/// `SimulatorStoreScan` on a CoreSimulator tree built here from fixture stores: two devices, apps, an App Group
/// and a macOS container; stores recognised by content whatever their names; a plain SQLite database, other
/// files and the stores' companions passed over; a folder that cannot be listed does not stop the scan.
@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct SimulatorStoreScanTests {
    let root: URL
    var devices: URL { root.appendingPathComponent("Devices") }
    var macContainers: URL { root.appendingPathComponent("Containers") }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("simulators-\(UUID().uuidString)")
        try build()
    }

    func write(_ plist: [String: Any], to url: URL, binary: Bool) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: binary ? .binary : .xml, options: 0)
        try data.write(to: url)
    }

    /// Copies a fixture store and its companions to `destination` (the name may differ from the fixture's).
    func place(_ fixture: String, at destination: URL) throws {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            let source = Fixtures.url(fixture + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: destination.path + suffix))
            }
        }
    }

    func container(_ device: String, _ kind: String, _ uuid: String, identifier: String?) throws -> URL {
        let url = devices.appendingPathComponent("\(device)/data/Containers/\(kind)/\(uuid)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        if let identifier {
            try write(["MCMMetadataIdentifier": identifier], to: url.appendingPathComponent(SimulatorStoreScan.metadataPlist), binary: true)
        }
        return url
    }

    func build() throws {
        try write(["UDID": "AAAA", "name": "iPhone 16", "runtime": "com.apple.CoreSimulator.SimRuntime.iOS-18-2"],
                  to: devices.appendingPathComponent("AAAA/device.plist"), binary: true)
        try write(["UDID": "BBBB", "name": "iPad Air", "runtime": "com.apple.CoreSimulator.SimRuntime.iOS-17-5"],
                  to: devices.appendingPathComponent("BBBB/device.plist"), binary: false)
        // Not a device: no device.plist.
        try FileManager.default.createDirectory(at: devices.appendingPathComponent(".DS_Store_folder"), withIntermediateDirectories: true)

        let cart = try container("AAAA", "Data/Application", "1111", identifier: "com.example.CartKit")
        try place("cartkit/swiftdata/CartKitSwiftData_v1.sqlite", at: cart.appendingPathComponent("Library/Application Support/default.store"))
        // Other files beside it are not stores (a plain SQLite database is StoreRecognitionTests' case, in
        // BrowserSQLite, which can write one).
        try FileManager.default.createDirectory(at: cart.appendingPathComponent("Library/Caches"), withIntermediateDirectories: true)
        try Data("SQLite format 3".utf8).write(to: cart.appendingPathComponent("Library/Caches/truncated.sqlite"))
        try Data("hello".utf8).write(to: cart.appendingPathComponent("Documents.txt"))

        let group = try container("AAAA", "Shared/AppGroup", "2222", identifier: "group.com.example.cart")
        // No extension at all: recognised by content.
        try place("cartkit/coredata/CartStorage_v1.sqlite", at: group.appendingPathComponent("Library/CartStorage"))

        let posts = try container("BBBB", "Data/Application", "3333", identifier: nil)
        try place("wibosco-migration/CoreDataMigration_Example_WAL.sqlite", at: posts.appendingPathComponent("Documents/Posts.sqlite"))
        let locked = posts.appendingPathComponent("Library/Locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try place("restkit-seed/RKSeedDatabase.sqlite", at: posts.appendingPathComponent("Library/Zeta/Seed.sqlite"))
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        // A link to another container's store is not followed (the store is found once, where it is).
        try FileManager.default.createSymbolicLink(at: posts.appendingPathComponent("Linked"), withDestinationURL: group)

        let mac = macContainers.appendingPathComponent("com.example.MacNotes/Data/Library/Application Support")
        try place("bookmigration/Model1.sqlite", at: mac.appendingPathComponent("Notes.sqlite"))
    }

    @Test func findsEveryStoreGroupedByDeviceAndApp() throws {
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: devices.appendingPathComponent("BBBB/data/Containers/Data/Application/3333/Library/Locked").path)
            try? FileManager.default.removeItem(at: root)
        }
        let scan = SimulatorStoreScan.scan(devicesRoot: devices, macContainersRoot: macContainers)
        let found = scan.stores.map { "\($0.device?.name ?? "Mac") | \($0.device?.system ?? "-") | \($0.container.kind.rawValue) | \($0.container.identifier) | \($0.relativePath)" }
        #expect(found == [
            "Mac | - | macOS app | com.example.MacNotes | Library/Application Support/Notes.sqlite",
            "iPad Air | iOS 17.5 | app | 3333 | Documents/Posts.sqlite",
            "iPad Air | iOS 17.5 | app | 3333 | Library/Zeta/Seed.sqlite",
            "iPhone 16 | iOS 18.2 | app | com.example.CartKit | Library/Application Support/default.store",
            "iPhone 16 | iOS 18.2 | app group | group.com.example.cart | Library/CartStorage",
        ])
        // Sizes come from the files; the WAL-only store's data is in its -wal.
        let posts = try #require(scan.stores.first { $0.path.hasSuffix("Posts.sqlite") })
        #expect(posts.walBytes > 0 && posts.bytes > 0)
        // Looking wrote nothing beside the stores: the WAL store shipped without a -shm still has none.
        #expect(!FileManager.default.fileExists(atPath: posts.path + "-shm"))
        // When the scan runs as a user who cannot list the locked folder, that is noted and the rest is found
        // (root lists it anyway, and the expectations above hold either way; as root,
        // scripts/checks/demo-cli/check.sh runs `browser-demo simulators --list` as nobody on such a tree).
        if getuid() != 0 {
            #expect(scan.skipped.contains { $0.hasSuffix("Locked: cannot be read") })
        }
    }

    @Test func aMissingRootIsAnEmptyScan() {
        defer { try? FileManager.default.removeItem(at: root) }
        let scan = SimulatorStoreScan.scan(devicesRoot: root.appendingPathComponent("nowhere"))
        #expect(scan.stores.isEmpty && scan.skipped.isEmpty)
        #expect(SimulatorStoreScan.systemName(fromRuntime: "com.apple.CoreSimulator.SimRuntime.watchOS-11-0") == "watchOS 11.0")
    }
}

/// Which macOS containers folder `browser-demo simulators` scans: the one given, else this Mac's own
/// `~/Library/Containers` when it exists and no simulators folder was given.
struct SimulatorMacContainersDefaultTests {
    @Test func aMacScansItsOwnContainersUnlessAFolderIsGiven() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("mac-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let containers = home.appendingPathComponent("Library/Containers")
        // No such folder (a Mac without sandboxed apps' data): nothing to add.
        #expect(SimulatorStoreScan.macContainersRoot(given: nil, devicesRootGiven: false, home: home, onMac: true) == nil)
        try FileManager.default.createDirectory(at: containers, withIntermediateDirectories: true)
        // Compared by path: Foundation adds a trailing slash to a URL of a folder that exists.
        #expect(SimulatorStoreScan.macContainersRoot(given: nil, devicesRootGiven: false, home: home, onMac: true)?.path == containers.path)
        // --root: the tree given is scanned alone; elsewhere than a Mac there are no containers.
        #expect(SimulatorStoreScan.macContainersRoot(given: nil, devicesRootGiven: true, home: home, onMac: true) == nil)
        #expect(SimulatorStoreScan.macContainersRoot(given: nil, devicesRootGiven: false, home: home, onMac: false) == nil)
        let given = URL(fileURLWithPath: "/elsewhere/Containers")
        #expect(SimulatorStoreScan.macContainersRoot(given: given, devicesRootGiven: true, home: home, onMac: false) == given)
    }
}
