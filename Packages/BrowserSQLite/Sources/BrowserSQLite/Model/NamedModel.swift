import BrowserCore
import BrowserFormats
import Foundation

/// Finds the model the user named and the version of it that describes the store.
///
/// Accepted: an `.xcdatamodeld` folder (versions of `.xcdatamodel`), an `.xcdatamodel` folder with its `contents`
/// XML, a compiled `.momd` folder (`.mom` per version and `VersionInfo.plist`), a `.mom` file.
/// The version is chosen as Core Data would accept it:
/// 1. a compiled version whose entity version hashes equal the store's `NSStoreModelVersionHashes`
///    (format doc §3; XML versions cannot be hashed: Apple's recipe is unpublished);
/// 2. else every version is matched to the tables (`StoreMapping`): among those the store fully explains, the
///    one whose entity names equal the store metadata's, then the one leaving fewest store columns unexplained,
///    then the current version (`.xccurrentversion` / `VersionInfo.plist`);
/// 3. else the store matches no version, and the error says how the current version differs.
enum NamedModel {
    struct Version {
        var name: String
        var path: String
        var hashes: [String: [UInt8]]?
        var load: @Sendable () throws(PropertyListError) -> ModelDefinition
    }

    struct Resolution {
        var mapping: StoreMapping
        var origin: ModelOrigin
        /// The version's model and its entity hashes (a `.momd`'s `VersionInfo.plist`), for `/api/model`.
        var model: ModelDefinition
        var hashes: [String: [UInt8]]?
        /// Every version that could be read, for `/api/model/versions` and `/api/model/diff`.
        var versions: [ModelVersion] = []
    }

    static func resolve(at url: URL, for catalog: StoreCatalog) throws(SQLiteStoreError) -> Resolution {
        let path = url.standardizedFileURL.path
        let (versions, current) = try versions(at: path)
        guard !versions.isEmpty else {
            throw .modelUnreadable(path: path, reason: "it contains no model version")
        }

        var evaluated: [(version: Version, mapping: StoreMapping, model: ModelDefinition)] = []
        var failures: [String] = []
        for version in versions {
            do {
                let model = try version.load()
                evaluated.append((version, StoreMapping.build(model: model, catalog: catalog), model))
            } catch {
                failures.append("\(version.name): \(error)")
            }
        }
        guard !evaluated.isEmpty else {
            throw .modelUnreadable(path: path, reason: failures.joined(separator: "; "))
        }
        func origin(_ version: Version) -> ModelOrigin {
            ModelOrigin(source: .file, name: version.name, path: version.path)
        }
        func listed(using used: String) -> [ModelVersion] {
            // In the order a person numbers them: "Model", "Model 2", … "Model 10"; v1.2.0 before v1.10.0.
            evaluated.sorted { $0.version.name.compare($1.version.name, options: .numeric) == .orderedAscending }.map { entry in
                ModelVersion(name: entry.version.name, path: entry.version.path, isCurrent: entry.version.name == current,
                             isUsed: entry.version.name == used, match: match(entry, catalog: catalog),
                             model: description(of: entry.model, hashes: entry.version.hashes, path: entry.version.path,
                                                storeHashes: catalog.versionHashes))
            }
        }

        if !catalog.versionHashes.isEmpty,
           let match = evaluated.first(where: { $0.version.hashes == catalog.versionHashes }) {
            guard !match.mapping.report.hasProblems else {
                throw .modelMismatch(modelPath: path, details: "version \(match.version.name) has the store's version hashes, but \(match.mapping.report.summary)")
            }
            return Resolution(mapping: match.mapping, origin: origin(match.version), model: match.model, hashes: match.version.hashes,
                              versions: listed(using: match.version.name))
        }

        let candidates = evaluated.enumerated().filter { !$0.element.mapping.report.hasProblems }
        if let best = candidates.min(by: { left, right in
            rank(left.element, index: left.offset, current: current)
                .lexicographicallyPrecedes(rank(right.element, index: right.offset, current: current))
        }) {
            return Resolution(mapping: best.element.mapping, origin: origin(best.element.version), model: best.element.model,
                              hashes: best.element.version.hashes, versions: listed(using: best.element.version.name))
        }
        if evaluated.count == 1 {
            throw .modelMismatch(modelPath: path, details: evaluated[0].mapping.report.summary)
        }
        let reference = evaluated.first { $0.version.name == current } ?? evaluated[evaluated.count - 1]
        throw .modelMismatch(
            modelPath: path,
            details: "none of its \(evaluated.count) versions matches; the current version \(reference.version.name) has \(reference.mapping.report.summary)"
        )
    }

    /// A version's model for `/api/model`: its hashes when the file holds them, else said to be unknown.
    static func description(of model: ModelDefinition, hashes: [String: [UInt8]]?, path: String,
                            storeHashes: [String: [UInt8]]) -> ModelDescription {
        let unknown = hashes != nil ? [:]
            : ["entity.versionHash": path.hasSuffix(".mom") ? ModelDefinition.Knowledge.momHashes : ModelDefinition.Knowledge.xmlHashes]
        return model.modelDescription(hashes: hashes, storeHashes: storeHashes, unknown: unknown)
    }

    /// Whether a version matches the store: by its version hashes when both sides have them (what Core Data
    /// compares), else by the tables (every entity, column and join table it needs is there, no column is left
    /// unexplained, and its entity names are the metadata's).
    private static func match(_ entry: (version: Version, mapping: StoreMapping, model: ModelDefinition),
                              catalog: StoreCatalog) -> ModelVersion.StoreMatch {
        if let hashes = entry.version.hashes, !catalog.versionHashes.isEmpty {
            if hashes == catalog.versionHashes { return .versionHashes }
            let differing = Set(hashes.keys).union(catalog.versionHashes.keys).filter { hashes[$0] != catalog.versionHashes[$0] }.sorted()
            return .mismatch("its version hashes differ from the store's for " + differing.joined(separator: ", "))
        }
        let report = entry.mapping.report
        if !report.hasProblems && report.unexplainedColumns.isEmpty && !report.namesDifferFromMetadata { return .tables }
        var reasons = report.summary.isEmpty ? [] : [report.summary]
        if !report.unexplainedColumns.isEmpty {
            reasons.append("store columns \(report.unexplainedColumns.prefix(6).joined(separator: ", ")) not in this version")
        }
        if reasons.isEmpty && report.namesDifferFromMetadata { reasons.append("its entity names differ from the store's metadata") }
        return .mismatch(reasons.joined(separator: "; "))
    }

    /// Lower is better: names as in the metadata, fewest unexplained columns, the current version, the later one.
    private static func rank(_ entry: (version: Version, mapping: StoreMapping, model: ModelDefinition), index: Int, current: String?) -> [Int] {
        [entry.mapping.report.namesDifferFromMetadata ? 1 : 0,
         entry.mapping.report.unexplainedColumns.count,
         entry.version.name == current ? 0 : 1,
         -index]
    }

    // MARK: Finding versions

    /// The largest model file read (a compiled model of hundreds of entities is a few megabytes). Only regular
    /// files are read (`RegularFile`): a FIFO named as the model would block the open.
    static let maximumFileBytes = 64 << 20

    private static func versions(at path: String) throws(SQLiteStoreError) -> (versions: [Version], current: String?) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .modelUnreadable(path: path, reason: "no such file or folder")
        }
        if !isDirectory.boolValue {
            return ([try fileVersion(at: path)], nil)
        }
        let entries = ((try? manager.contentsOfDirectory(atPath: path)) ?? []).sorted()
        func child(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

        let xmlVersions = entries.filter { $0.hasSuffix(".xcdatamodel") }
        if path.hasSuffix(".xcdatamodeld") || !xmlVersions.isEmpty {
            var current: String?
            if let bytes = try? RegularFile.contents(of: child(".xccurrentversion"), limit: maximumFileBytes),
               let name = (try? PropertyList.read(bytes))?["_XCCurrentVersionName"]?.string {
                current = (name as NSString).deletingPathExtension
            }
            var versions: [Version] = []
            for entry in xmlVersions {
                versions.append(try xmlVersion(at: child(entry)))
            }
            return (versions, current ?? (versions.count == 1 ? versions[0].name : nil))
        }

        let compiled = entries.filter { $0.hasSuffix(".mom") }
        if path.hasSuffix(".momd") || !compiled.isEmpty || entries.contains("VersionInfo.plist") {
            var current: String?
            var hashes: [String: [String: [UInt8]]] = [:]
            if let bytes = try? RegularFile.contents(of: child("VersionInfo.plist"), limit: maximumFileBytes),
               let info = try? PropertyList.read(bytes) {
                current = info["NSManagedObjectModel_CurrentVersionName"]?.string
                for (version, entities) in info["NSManagedObjectModel_VersionHashes"]?.dictionary ?? [:] {
                    var byEntity: [String: [UInt8]] = [:]
                    for (entity, hash) in entities.dictionary ?? [:] { byEntity[entity] = hash.data }
                    hashes[version] = byEntity
                }
            }
            var versions: [Version] = []
            for entry in compiled {
                var version = try fileVersion(at: child(entry))
                version.hashes = hashes[version.name]
                versions.append(version)
            }
            return (versions, current)
        }

        if entries.contains("contents") {
            return ([try xmlVersion(at: path)], nil)
        }
        if entries.contains("elements") {
            throw .modelUnreadable(path: path, reason: "it is in Xcode 3's binary model format (elements/layout), which is not supported; open the store without a model to use the model inferred from its tables")
        }
        throw .modelUnreadable(path: path, reason: "not a Core Data model (expected an .xcdatamodeld, .xcdatamodel or .momd folder or a .mom file)")
    }

    private static func xmlVersion(at path: String) throws(SQLiteStoreError) -> Version {
        let contents = (path as NSString).appendingPathComponent("contents")
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        guard FileManager.default.fileExists(atPath: contents) else {
            if FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("elements")) {
                throw .modelUnreadable(path: path, reason: "it is in Xcode 3's binary model format (elements/layout), which is not supported; open the store without a model to use the model inferred from its tables")
            }
            throw .modelUnreadable(path: path, reason: "it has no contents file")
        }
        return Version(name: name, path: path, hashes: nil) { () throws(PropertyListError) -> ModelDefinition in
            let bytes: [UInt8]
            do { bytes = try RegularFile.contents(of: contents, limit: maximumFileBytes) } catch {
                throw PropertyListError("cannot read \(contents): \(error)")
            }
            return try XMLModelReader.read(bytes)
        }
    }

    private static func fileVersion(at path: String) throws(SQLiteStoreError) -> Version {
        var name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if name == "contents" {
            // An .xcdatamodel's contents file named directly: the version is the folder's name.
            name = (((path as NSString).deletingLastPathComponent as NSString).lastPathComponent as NSString).deletingPathExtension
        }
        let bytes: [UInt8]
        do { bytes = try RegularFile.contents(of: path, limit: maximumFileBytes) } catch {
            throw .modelUnreadable(path: path, reason: error.description)
        }
        if bytes.starts(with: Array("bplist0".utf8)) {
            return Version(name: name, path: path, hashes: nil) { () throws(PropertyListError) -> ModelDefinition in
                try CompiledModelReader.read(try PropertyList.read(bytes))
            }
        }
        if bytes.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }) == UInt8(ascii: "<") {
            return Version(name: name, path: path, hashes: nil) { () throws(PropertyListError) -> ModelDefinition in
                try XMLModelReader.read(bytes)
            }
        }
        throw .modelUnreadable(path: path, reason: "not a compiled model (.mom) or a model's contents XML")
    }
}
