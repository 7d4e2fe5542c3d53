import BrowserSQLite
public import Foundation

/// Every Core Data and SwiftData store of the simulators' apps, found by content (`StoreRecognition`), grouped by
/// device and app — what `browser-demo simulators` serves, so nobody types a path of three UUIDs again.
///
/// The layout read (Xcode's CoreSimulator, the same on every macOS version that ships it):
/// - `<Devices>/<UDID>/device.plist`: `name` ("iPhone 16") and `runtime`
///   (`com.apple.CoreSimulator.SimRuntime.iOS-18-2`);
/// - `<UDID>/data/Containers/Data/Application/<UUID>/`: one app's data container;
/// - `<UDID>/data/Containers/Shared/AppGroup/<UUID>/`: an App Group's container;
/// - each container's `.com.apple.mobile_container_manager.metadata.plist` names it (`MCMMetadataIdentifier`:
///   the bundle ID or the group ID).
/// macOS apps' sandbox containers (`~/Library/Containers/<bundle ID>/Data/`) are scanned the same way (by
/// default on a Mac, `macContainersRoot(given:devicesRootGiven:)`).
///
/// The scan never follows symbolic links, goes at most `maximumDepth` folders into a container, reads at most
/// `maximumFiles` file headers, opens only regular files (`RegularFile`: a FIFO, a socket or a device is noted in
/// `skipped`, never opened, since opening a FIFO blocks until someone writes to it), and passes over what it
/// cannot read (noted in `skipped`), so one locked folder does not hide the rest.
public struct SimulatorStoreScan: Sendable {
    public struct Device: Sendable, Hashable {
        public var udid: String
        public var name: String
        /// "iOS 18.2", from the runtime identifier; nil when the device says none.
        public var system: String?
    }

    public enum ContainerKind: String, Sendable, Hashable {
        case app
        case appGroup = "app group"
        case macApp = "macOS app"
    }

    public struct Container: Sendable, Hashable {
        public var kind: ContainerKind
        /// The bundle or group ID, else the container folder's name.
        public var identifier: String
        public var path: String
    }

    public struct Store: Sendable, Hashable {
        /// Nil for a macOS app's container.
        public var device: Device?
        public var container: Container
        public var path: String
        /// The path inside its container, for display (`Library/Application Support/default.store`).
        public var relativePath: String
        public var bytes: Int64
        public var walBytes: Int64
    }

    public var stores: [Store] = []
    /// Folders or files that could not be read, with why.
    public var skipped: [String] = []

    static let maximumDepth = 8
    static let maximumFiles = 20_000
    static let metadataPlist = ".com.apple.mobile_container_manager.metadata.plist"
    /// A `device.plist` or container metadata file is a few hundred bytes; larger ones are not read.
    static let maximumPlistBytes = 1 << 20

    /// `~/Library/Developer/CoreSimulator/Devices`.
    public static var defaultDevicesRoot: URL {
        FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Library/Developer/CoreSimulator/Devices")
    }

    /// `~/Library/Containers`.
    public static var defaultMacContainersRoot: URL {
        FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Library/Containers")
    }

    /// The macOS apps' containers a scan includes: `given` (`--mac-root`) when there is one; else, on a Mac and
    /// when no devices folder was given either, `home`'s `Library/Containers` if it exists. A devices folder given
    /// (`--root`: a tree built for a test, another machine's copy) is scanned alone, so nothing of this Mac's
    /// is mixed into it.
    public static func macContainersRoot(given: URL?, devicesRootGiven: Bool,
                                         home: URL = FileManager.default.homeDirectoryForCurrentUser,
                                         onMac: Bool = runsOnMac) -> URL? {
        if let given { return given }
        guard onMac, !devicesRootGiven else { return nil }
        let containers = home.appendingPathComponent("Library/Containers")
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: containers.path, isDirectory: &isFolder) && isFolder.boolValue
            ? containers : nil
    }

    /// Whether this is macOS, where apps' sandbox containers are.
    public static var runsOnMac: Bool {
        #if os(macOS)
        true
        #else
        false
        #endif
    }

    /// Scans the simulators under `devicesRoot` and, when given, macOS containers under `macContainersRoot`.
    public static func scan(devicesRoot: URL, macContainersRoot: URL? = nil) -> SimulatorStoreScan {
        var scan = SimulatorStoreScan()
        var budget = maximumFiles
        for udid in scan.folders(in: devicesRoot.path) {
            let devicePath = (devicesRoot.path as NSString).appendingPathComponent(udid)
            guard let device = scan.device(at: devicePath, udid: udid) else { continue }
            for (kind, relative) in [(ContainerKind.app, "data/Containers/Data/Application"),
                                     (.appGroup, "data/Containers/Shared/AppGroup")] {
                let parent = (devicePath as NSString).appendingPathComponent(relative)
                for folder in scan.folders(in: parent) {
                    let path = (parent as NSString).appendingPathComponent(folder)
                    let container = Container(kind: kind, identifier: identifier(of: path) ?? folder, path: path)
                    scan.collect(in: container, device: device, budget: &budget)
                }
            }
        }
        if let macContainersRoot {
            for folder in scan.folders(in: macContainersRoot.path) {
                let path = (macContainersRoot.path as NSString).appendingPathComponent(folder)
                let data = (path as NSString).appendingPathComponent("Data")
                let container = Container(kind: .macApp, identifier: identifier(of: path) ?? folder, path: data)
                scan.collect(in: container, device: nil, budget: &budget)
            }
        }
        scan.stores.sort { ($0.device?.name ?? "", $0.container.identifier, $0.path) < ($1.device?.name ?? "", $1.container.identifier, $1.path) }
        return scan
    }

    // MARK: Reading the tree

    /// The names of the real (not linked) folders in `path`, sorted; an unreadable `path` is noted.
    private mutating func folders(in path: String) -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path).sorted().filter {
                kind(of: (path as NSString).appendingPathComponent($0)) == .typeDirectory
            }
        } catch {
            skipped.append("\(path): cannot be read")
            return []
        }
    }

    private func kind(of path: String) -> FileAttributeType? {
        // attributesOfItem does not follow a symbolic link: a link is `.typeSymbolicLink`, never a folder.
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    private mutating func device(at path: String, udid: String) -> Device? {
        let plistPath = (path as NSString).appendingPathComponent("device.plist")
        let plist: [String: Any]
        do {
            guard let read = try Self.dictionary(at: plistPath) else {
                skipped.append("\(plistPath): not a readable property list")
                return nil
            }
            plist = read
        } catch .missing {
            return nil
        } catch {
            skipped.append("\(plistPath): \(error)")
            return nil
        }
        return Device(udid: plist["UDID"] as? String ?? udid, name: plist["name"] as? String ?? udid,
                      system: (plist["runtime"] as? String).flatMap(Self.systemName))
    }

    /// `com.apple.CoreSimulator.SimRuntime.iOS-18-2` → `iOS 18.2`.
    static func systemName(fromRuntime runtime: String) -> String? {
        guard let last = runtime.split(separator: ".").last else { return nil }
        let parts = last.split(separator: "-")
        guard let platform = parts.first, parts.count > 1 else { return String(last) }
        return "\(platform) \(parts.dropFirst().joined(separator: "."))"
    }

    private static func identifier(of container: String) -> String? {
        (try? dictionary(at: (container as NSString).appendingPathComponent(metadataPlist)))?["MCMMetadataIdentifier"] as? String
    }

    /// A property list file's top-level dictionary (binary or XML, as CoreSimulator writes them), nil for anything
    /// else; only a regular file is opened (a FIFO named like one would block the scan), at most `maximumPlistBytes`.
    private static func dictionary(at path: String) throws(RegularFile.Refusal) -> [String: Any]? {
        let bytes = try RegularFile.contents(of: path, limit: maximumPlistBytes)
        return (try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)) as? [String: Any]
    }

    /// Every store file below the container (companions and the external-data folders passed over).
    private mutating func collect(in container: Container, device: Device?, budget: inout Int) {
        var pending: [(path: String, depth: Int)] = [(container.path, 0)]
        while let (folder, depth) = pending.popLast() {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            } catch {
                if folder != container.path || FileManager.default.fileExists(atPath: folder) {
                    skipped.append("\(folder): cannot be read")
                }
                continue
            }
            for name in names {
                let path = (folder as NSString).appendingPathComponent(name)
                switch kind(of: path) {
                case .typeDirectory? where depth < Self.maximumDepth && !name.hasSuffix("_SUPPORT"):
                    pending.append((path, depth + 1))
                case .typeRegular? where Self.isCompanion(name), .typeSymbolicLink?, .typeDirectory?, nil:
                    continue
                case .typeRegular?:
                    guard budget > 0 else {
                        if skipped.last != "file limit reached" { skipped.append("file limit reached") }
                        return
                    }
                    budget -= 1
                    guard StoreRecognition.isCoreDataStore(at: path) else { continue }
                    stores.append(Store(
                        device: device, container: container, path: path,
                        relativePath: String(path.dropFirst(container.path.count + 1)),
                        bytes: Self.size(of: path), walBytes: Self.size(of: path + "-wal")))
                default:
                    // A FIFO, socket or device, a store's name or a companion's: never opened, but said, since a
                    // store beside it may be missing from the list for it (its `-wal` cannot be read).
                    skipped.append("\(path): \(RegularFile.Refusal.notRegular(kind: RegularFile.nonRegularKindOfEntry(at: path) ?? "not a regular file"))")
                }
            }
        }
    }

    private static func isCompanion(_ name: String) -> Bool {
        name.hasSuffix("-wal") || name.hasSuffix("-shm") || name.hasSuffix("-journal")
    }

    private static func size(of path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
