import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// The bytes of Binary values (`SQLiteStore.blob(of:attribute:)`), in the store of `SyntheticValueTests` plus a
/// value large enough to span many overflow pages: inline values without their external-storage marker, files
/// beside the store, and every way a value can be absent or unreadable.
struct SyntheticBlobTests {
    static let storeID = "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"

    /// 300 KB of a pattern, so any misplaced offset shows.
    static let large: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }

    static func id(_ key: Int64, _ entity: String = "Item") -> ObjectID {
        ObjectID(storeIdentifier: storeID, entity: entity, primaryKey: key)
    }

    static func open() throws -> (SyntheticStore, SQLiteStore) {
        let synthetic = try SyntheticValueTests.makeStore()
        let database = try RawDatabase(path: synthetic.storeURL.path)
        try database.run("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZPHOTO, ZRAW) VALUES (8, 1, 1, 'Large', ?, ?)",
                         [.blob([0x01] + large), .blob(large)])
        return (synthetic, try SyntheticValueTests.open(synthetic))
    }

    func reader(_ store: SQLiteStore, _ key: Int64, _ attribute: String) async throws -> any BlobReader {
        let lookup = try await store.blob(of: Self.id(key), attribute: attribute)
        guard case .value(let reader) = lookup else {
            Issue.record("no value for \(attribute) of p\(key): \(lookup)")
            throw CancellationError()
        }
        return reader
    }

    @Test func inlineValuesAreServedWithoutTheirMarkerInAnyRange() async throws {
        let (_, store) = try Self.open()
        let small = try await reader(store, 1, "photo")
        #expect(small.size == 5 && small.storage == .inline)
        #expect(try await small.read(0..<5) == Data([1, 2, 3, 4, 5]))
        #expect(try await small.read(3..<99) == Data([4, 5]))  // clamped to the value

        for attribute in ["photo", "raw"] {  // with a marker, and a plain Binary without one
            let large = try await reader(store, 8, attribute)
            #expect(large.size == Self.large.count, "\(attribute)")
            for range in [0..<65_536, 1..<2, 150_000..<215_536, 299_990..<300_000] {
                #expect(try await large.read(range) == Data(Self.large[range]), "\(attribute) \(range)")
            }
        }
        // A plain Binary keeps its first byte, even one that looks like a marker.
        let raw = try await reader(store, 1, "raw")
        #expect(raw.size == 3)
        #expect(try await raw.read(0..<3) == Data([0x01, 9, 9]))
    }

    @Test func externalValuesAreReadFromTheirFile() async throws {
        let (synthetic, store) = try Self.open()
        let external = try await reader(store, 2, "photo")
        #expect(external.size == 1234)
        #expect(external.storage == .external(fileName: "5F3C-EXTERNAL"))
        #expect(try await external.read(1200..<1300) == Data(repeating: 7, count: 34))
        _ = synthetic
    }

    @Test func absentRecordsAndValuesAreToldApart() async throws {
        let (_, store) = try Self.open()
        guard case .noValue = try await store.blob(of: Self.id(7), attribute: "photo") else {
            Issue.record("a NULL value is noValue")
            return
        }
        guard case .noRecord = try await store.blob(of: Self.id(99), attribute: "photo") else {
            Issue.record("an unknown primary key is noRecord")
            return
        }
        guard case .noRecord = try await store.blob(of: ObjectID(storeIdentifier: "OTHER", entity: "Item", primaryKey: 1), attribute: "photo") else {
            Issue.record("another store's ID is noRecord")
            return
        }
        // An empty value is a value of 0 bytes.
        let empty = try await reader(store, 6, "raw")
        #expect(empty.size == 0)
    }

    @Test("unreadable values are a 404 that says why", arguments: [
        (3 as Int64, "external file MISSING-FILE, which is missing from"),
        (4, "file-backed future value (marker 0x03) is not supported"),
        (5, "unknown external-storage marker 0x07 in 2 bytes"),
    ])
    func unreadableValues(key: Int64, message: String) async throws {
        let (_, store) = try Self.open()
        do {
            _ = try await store.blob(of: Self.id(key), attribute: "photo")
            Issue.record("p\(key) should fail")
        } catch let error as BrowserError {
            #expect(error.kind == .notFound)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func aNameInTheMarkerCannotLeaveTheExternalDataFolder() {
        for name in ["../Synthetic.sqlite", ".", "..", "a/b", ""] {
            #expect(ExternalStorageMarker(head: [0x02] + Array(name.utf8) + [0]) == .unreadable("external data reference has no valid file name"), "\(name)")
        }
        #expect(ExternalStorageMarker(head: [0x02] + Array("5F3C".utf8) + [0, 9, 9]) == .external(fileName: "5F3C"))
    }
}
