import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Writes through `SQLiteStore` on a store in Core Data's layout (`LibraryStore`), each checked three ways: the
/// store's own reader reads the change back, the raw tables say what was written, and the independent Python
/// checker (`WriteCheck`) confirms every invariant against a copy taken before the write.
struct StoreWriteTests {
    let synthetic: SyntheticStore
    let store: SQLiteStore
    let scratch = TemporaryDirectory()

    init() throws {
        synthetic = try LibraryStore.make()
        store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL, writes: StoreWriteOptions())
    }

    func id(_ entity: String, _ key: Int64) -> ObjectID {
        ObjectID(storeIdentifier: LibraryStore.uuid, entity: entity, primaryKey: key)
    }

    func raw(_ sql: String) throws -> [[Any?]] {
        try RawDatabase(path: synthetic.storeURL.path).rows(sql)
    }

    func version(_ entity: String, _ key: Int64) async throws -> Int64? {
        try await store.record(id(entity, key))?.version
    }

    func related(_ entity: String, _ key: Int64, _ relationship: String) async throws -> [Int64] {
        try await store.related(from: id(entity, key), through: relationship, limit: 50).records.map(\.id.primaryKey)
    }

    /// Runs `write` and then the checker against the store as it was before it.
    func checked<T>(_ write: () async throws -> T) async throws -> T {
        let before = try WriteCheck.snapshot(synthetic.storeURL, into: scratch)
        let result = try await write()
        let outcome = try await WriteCheck.run(model: synthetic.modelURL.appendingPathComponent("contents"), before: before, store: synthetic.storeURL)
        #expect(outcome.passed, "\(outcome.output)")
        return result
    }

    /// Runs `write`, which must fail with `kind`, and checks that nothing at all changed.
    func refused(_ kind: BrowserError.Kind, _ write: () async throws -> Void) async throws -> BrowserError? {
        let before = try WriteCheck.snapshot(synthetic.storeURL, into: scratch)
        var caught: BrowserError?
        do {
            try await write()
        } catch let error as BrowserError {
            caught = error
        }
        #expect(caught?.kind == kind, "\(String(describing: caught))")
        let outcome = try await WriteCheck.run(model: synthetic.modelURL.appendingPathComponent("contents"), before: before, store: synthetic.storeURL)
        #expect(outcome.passed && outcome.output.contains(" 0 records changed"), "\(outcome.output)")
        return caught
    }

    // MARK: Capabilities

    @Test func aStoreOpenedForWritesSaysSoAndReadsVersions() async throws {
        let description = try await store.describe()
        #expect(store.accessDescription == "in place (read-write: writes on)")
        #expect(description.capabilities == [.read, .write])
        #expect(description.writeRefusal == nil)
        #expect(try await version("Book", 1) == 1)
        #expect(try await store.schema().entity(named: "Book")?.relationship(named: "loans")?.deleteRule == .deny)
    }

    @Test func aStoreOpenedWithoutWritesNeitherWritesNorTouchesTheFile() async throws {
        let readOnly = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        #expect(readOnly.accessDescription == "in place (read-only)")
        let description = try await readOnly.describe()
        #expect(description.capabilities == .readOnly)
        #expect(description.writeRefusal == nil)
        #expect(try await readOnly.record(id("Book", 1))?.version == nil)
        await #expect(throws: BrowserError.self) {
            try await readOnly.update(id("Book", 1), expecting: 1, RecordChanges(attributes: ["title": .string("No")]))
        }
        #expect(try raw("SELECT ZTITLE FROM ZBOOK WHERE Z_PK = 1")[0][0] as? String == "First")
    }

    // MARK: Updates

    @Test func updatingAttributesWritesTheColumnsAndOneNewVersion() async throws {
        let published = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        let token = try await store.changeToken()
        try await checked {
            try await store.update(id("Book", 1), expecting: 1, RecordChanges(attributes: [
                "title": .string("First, revised"), "pages": .integer(120), "price": .decimal(Decimal(string: "12.34")!),
                "published": .date(published),
            ]))
        }
        let record = try #require(try await store.record(id("Book", 1)))
        #expect(record.values["title"] == .string("First, revised"))
        #expect(record.values["pages"] == .integer(120))
        #expect(record.values["price"] == .decimal(Decimal(string: "12.34")!))
        #expect(record.values["published"] == .date(published))
        #expect(record.version == 2)
        // Own commits do not move PRAGMA data_version: the token still changes, so open pages and /api/events see it.
        #expect(try await store.changeToken() != token)
        #expect(try await version("Book", 2) == 1)
        #expect(try await version("Author", 1) == 1)
    }

    @Test func anUpdateThatChangesNothingKeepsTheVersion() async throws {
        try await checked {
            try await store.update(id("Book", 1), expecting: 1, RecordChanges(attributes: ["title": .string("First"), "pages": .integer(100)]))
        }
        #expect(try await version("Book", 1) == 1)
    }

    @Test func settingAToOneMovesTheRecordBetweenOrderedInverses() async throws {
        // Book 4 joins Bob's books at their end; Bob and Book 4 change, Ann does not.
        try await checked {
            try await store.update(id("Book", 4), expecting: 1, RecordChanges(relationships: ["author": .toOne(id("Author", 2))]))
        }
        #expect(try await related("Author", 2, "books") == [3, 4])
        #expect(try await version("Author", 2) == 2)
        #expect(try await version("Author", 1) == 1)
        // Book 1 moves from Ann to Bob: all three change.
        try await checked {
            try await store.update(id("Book", 1), expecting: 1, RecordChanges(relationships: ["author": .toOne(id("Author", 2))]))
        }
        #expect(try await related("Author", 1, "books") == [2])
        #expect(try await related("Author", 2, "books") == [3, 4, 1])
        #expect(try await version("Author", 1) == 2)
        // Clearing it: Book 1 leaves Bob's books.
        try await checked {
            try await store.update(id("Book", 1), expecting: 2, RecordChanges(relationships: ["author": .toOne(nil)]))
        }
        #expect(try await related("Author", 2, "books") == [3, 4])
        #expect(try raw("SELECT ZAUTHOR, Z_FOK_AUTHOR FROM ZBOOK WHERE Z_PK = 1")[0].allSatisfy { $0 == nil })
    }

    @Test func aOneToOneKeepsBothColumnsAndTakesTheTargetFromItsOldPartner() async throws {
        try await checked {
            try await store.update(id("Author", 2), expecting: 1, RecordChanges(relationships: ["portrait": .toOne(id("Portrait", 1))]))
        }
        #expect(try raw("SELECT Z_PK, ZPORTRAIT FROM ZAUTHOR ORDER BY Z_PK").map { $0[1] as? Int64 } == [nil, 1])
        #expect(try raw("SELECT ZAUTHOR FROM ZPORTRAIT")[0][0] as? Int64 == 2)
        #expect(try await version("Author", 1) == 2)
        #expect(try await version("Portrait", 1) == 2)
    }

    @Test func replacingAnOrderedToManyReordersAddsAndTakes() async throws {
        // Ann's books become Loose, Second, First: Book 4 joins, the order keys follow the list.
        try await checked {
            try await store.update(id("Author", 1), expecting: 1, RecordChanges(relationships: [
                "books": .toMany([id("Book", 4), id("Book", 2), id("Book", 1)]),
            ]))
        }
        #expect(try await related("Author", 1, "books") == [4, 2, 1])
        // Bob takes Book 1 from Ann.
        try await checked {
            try await store.update(id("Author", 2), expecting: 1, RecordChanges(relationships: ["books": .toMany([id("AudioBook", 3), id("Book", 1)])]))
        }
        #expect(try await related("Author", 1, "books") == [4, 2])
        #expect(try await related("Author", 2, "books") == [3, 1])
    }

    @Test func replacingAManyToManyWritesTheJoinTableBothWays() async throws {
        // Book 1: blue, then red → just blue; Tag 1 (red) loses it.
        try await checked {
            try await store.update(id("Book", 1), expecting: 1, RecordChanges(relationships: ["tags": .toMany([id("Tag", 2)])]))
        }
        #expect(try await related("Book", 1, "tags") == [2])
        #expect(try await related("Tag", 1, "books") == [3])
        #expect(try await version("Tag", 1) == 2)
        // From the unordered side: Tag 2 gets Book 4; Book 4's ordered tags get it at their end.
        try await checked {
            try await store.update(id("Tag", 2), expecting: 1, RecordChanges(relationships: ["books": .toMany([id("Book", 1), id("Book", 4)])]))
        }
        #expect(try await related("Book", 4, "tags") == [2])
        // An ordered many-to-many reordered.
        try await checked {
            try await store.update(id("AudioBook", 3), expecting: 1, RecordChanges(relationships: ["tags": .toMany([id("Tag", 2), id("Tag", 1)])]))
        }
        #expect(try await related("AudioBook", 3, "tags") == [2, 1])
    }

    // MARK: Inserts

    @Test func insertingASubEntityTakesTheNextKeyAndLinksBothSides() async throws {
        let created = try await checked {
            try await store.insert(into: "AudioBook", RecordChanges(
                attributes: ["title": .string("Spoken"), "narrator": .string("Ida")],
                relationships: ["author": .toOne(id("Author", 2)), "tags": .toMany([id("Tag", 2), id("Tag", 1)])]))
        }
        #expect(created == id("AudioBook", 5))
        #expect(try raw("SELECT Z_ENT, Z_OPT FROM ZBOOK WHERE Z_PK = 5")[0].map { $0 as? Int64 } == [3, 1])
        #expect(try raw("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 2")[0][0] as? Int64 == 5)
        #expect(try await related("Author", 2, "books") == [3, 5])
        #expect(try await related("AudioBook", 5, "tags") == [2, 1])
        #expect(try await store.record(created)?.values["narrator"] == .string("Ida"))
        // A loan of it records the book's entity in Z2_BOOK.
        let loan = try await checked {
            try await store.insert(into: "Loan", RecordChanges(attributes: ["borrower": .string("Di")], relationships: ["book": .toOne(created)]))
        }
        #expect(try raw("SELECT ZBOOK, Z2_BOOK FROM ZLOAN WHERE Z_PK = \(loan.primaryKey)")[0].map { $0 as? Int64 } == [5, 3])
    }

    // MARK: Deletes

    @Test func deletingWithNullifyClearsTheInverses() async throws {
        let preview = try await store.deletionEffects(of: id("Tag", 1))
        let effects = try await checked { try await store.delete(id("Tag", 1), expecting: 1) }
        #expect(effects == preview)
        #expect(effects.clears == [RelationshipEffect(entity: "AudioBook", relationship: "tags", count: 1),
                                   RelationshipEffect(entity: "Book", relationship: "tags", count: 1)])
        #expect(try await related("Book", 1, "tags") == [2])
        #expect(try raw("SELECT count(*) FROM Z_2TAGS WHERE Z_6TAGS = 1")[0][0] as? Int64 == 0)
        #expect(try await store.record(id("Tag", 1)) == nil)
    }

    @Test func deletingWithCascadeDeletesTheTargetsAndClearsTheirs() async throws {
        let effects = try await checked { try await store.delete(id("Author", 2), expecting: 1) }
        #expect(effects.cascades == [EntityCount(entity: "AudioBook", count: 1)])
        #expect(effects.clears == [RelationshipEffect(entity: "Tag", relationship: "books", count: 1)])
        #expect(try await store.record(id("AudioBook", 3)) == nil)
        #expect(try await related("Tag", 1, "books") == [1])
    }

    /// A cascade that reaches 30,000 records: every book goes with its author, with its tag links; the tag that
    /// loses them gets one new version; nothing else changes (the checker compares every row with the copy before).
    @Test func aCascadeOfThirtyThousandRecordsDeletesThemAllAndUnlinksTheirTargets() async throws {
        let database = try RawDatabase(path: synthetic.storeURL.path)
        try database.execute("BEGIN")
        try database.execute("INSERT INTO ZAUTHOR VALUES (3, 1, 1, NULL, 'Prolific')")
        for key in Int64(1_001)...31_000 {
            try database.run("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, Z_FOK_AUTHOR, ZTITLE) VALUES (?, 2, 1, 3, ?, 'volume')",
                             [.integer(key), .integer(key)])
            try database.run("INSERT INTO Z_2TAGS VALUES (?, 2, ?)", [.integer(key), .integer(key)])
        }
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_ENT = 1; UPDATE Z_PRIMARYKEY SET Z_MAX = 31000 WHERE Z_ENT = 2")
        try database.execute("COMMIT")
        let booksBefore = try raw("SELECT count(*) FROM ZBOOK")[0][0] as? Int64
        let tagVersion = try await version("Tag", 2)

        let preview = try await store.deletionEffects(of: id("Author", 3))
        #expect(preview == DeletionEffects(id: id("Author", 3).uri, cascades: [EntityCount(entity: "Book", count: 30_000)],
                                           clears: [RelationshipEffect(entity: "Tag", relationship: "books", count: 1)]))
        let effects = try await checked { try await store.delete(id("Author", 3), expecting: 1) }
        #expect(effects == preview)
        #expect(try raw("SELECT count(*) FROM ZBOOK")[0][0] as? Int64 == booksBefore.map { $0 - 30_000 })
        #expect(try raw("SELECT count(*) FROM ZBOOK WHERE Z_PK > 1000 OR ZAUTHOR = 3")[0][0] as? Int64 == 0)
        #expect(try raw("SELECT count(*) FROM Z_2TAGS WHERE Z_2BOOKS > 1000")[0][0] as? Int64 == 0)
        #expect(try raw("SELECT count(*) FROM ZAUTHOR WHERE Z_PK = 3")[0][0] as? Int64 == 0)
        #expect(try await version("Tag", 2) == tagVersion.map { $0 + 1 })
        #expect(try await version("Tag", 1) == 1)
        #expect(try await related("Tag", 2, "books") == [1])
        #expect(try await store.count(of: "Author") == 2)
    }

    @Test func aDenyRuleRefusesTheDeleteAndWritesNothing() async throws {
        let preview = try await store.deletionEffects(of: id("Author", 1))
        #expect(preview.blockedBy == [RelationshipEffect(entity: "Book", relationship: "loans", count: 1)])
        let error = try await refused(.conflict) { _ = try await store.delete(id("Author", 1), expecting: 1) }
        #expect(error?.details == .blockedBy([RelationshipEffect(entity: "Book", relationship: "loans", count: 1)]))
        #expect(try await store.backupPath() != nil)
    }

    @Test func leavingARequiredInverseEmptyIsRefused() async throws {
        let error = try await refused(.conflict) {
            try await store.update(id("Book", 2), expecting: 1, RecordChanges(relationships: ["loans": .toMany([])]))
        }
        #expect(error?.details == .blockedBy([RelationshipEffect(entity: "Loan", relationship: "book", count: 1)]))
    }

    /// No Action (Shelf.items): the items keep naming the deleted shelf, as Core Data leaves them, and keep their
    /// versions; the checker sees exactly those references to a missing record and nothing else.
    @Test func noActionLeavesTheInverseNamingTheDeletedRecord() async throws {
        let shelves = try SyntheticStore(
            entities: [.init(number: 1, name: "Item"), .init(number: 2, name: "Shelf")],
            tables: ["CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHELF INTEGER, ZNAME VARCHAR )",
                     "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )"],
            modelXML: SyntheticStore.modelXML("""
                <entity name="Item" representedClassName="Item" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="items" inverseEntity="Shelf"/>
                </entity>
                <entity name="Shelf" representedClassName="Shelf" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Item" inverseName="shelf" inverseEntity="Item"/>
                </entity>
                """),
            uuid: LibraryStore.uuid
        ) { database in
            try database.execute("""
                INSERT INTO ZSHELF VALUES (1, 2, 1, 'top');
                INSERT INTO ZITEM VALUES (1, 1, 1, 1, 'cup'), (2, 1, 1, 1, 'jar');
                UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_ENT WHEN 1 THEN 2 ELSE 1 END;
                """)
        }
        let store = try SQLiteStore.open(storeAt: shelves.storeURL, model: shelves.modelURL, writes: StoreWriteOptions())
        let shelf = id("Shelf", 1)
        let preview = try await store.deletionEffects(of: shelf)
        #expect(preview == DeletionEffects(id: shelf.uri))
        let before = try WriteCheck.snapshot(shelves.storeURL, into: scratch)
        #expect(try await store.delete(shelf, expecting: 1) == preview)
        #expect(try RawDatabase(path: shelves.storeURL.path).rows("SELECT ZSHELF, Z_OPT FROM ZITEM ORDER BY Z_PK").map { $0.map { $0 as? Int64 } }
                == [[1, 1], [1, 1]])
        let outcome = try await WriteCheck.run(model: shelves.modelURL.appendingPathComponent("contents"), before: before, store: shelves.storeURL)
        #expect(outcome.output == "Item 1.shelf refers to Shelf 1, which does not exist\nItem 2.shelf refers to Shelf 1, which does not exist\n")
    }

    // MARK: Conflicts and bad targets

    @Test func aStaleVersionIsRefusedWithBothVersions() async throws {
        let error = try await refused(.conflict) {
            try await store.update(id("Book", 1), expecting: 7, RecordChanges(attributes: ["title": .string("Late")]))
        }
        #expect(error?.details == .versions(expected: 7, current: 1))
        _ = try await refused(.conflict) { _ = try await store.delete(id("Book", 4), expecting: 2) }
    }

    @Test func aRecordDeletedSinceItWasReadIsAConflictAndANeverSeenOneIsNotFound() async throws {
        _ = try await store.delete(id("Book", 4), expecting: 1)
        let deleted = try await refused(.conflict) {
            try await store.update(id("Book", 4), expecting: 1, RecordChanges(attributes: ["title": .string("Back")]))
        }
        #expect(deleted?.details == .deleted)
        _ = try await refused(.notFound) {
            try await store.update(id("Book", 99), expecting: 1, RecordChanges(attributes: ["title": .string("Never")]))
        }
    }

    @Test func aMissingTargetIsRefusedNamingTheRelationship() async throws {
        let error = try await refused(.unprocessable) {
            try await store.update(id("Book", 1), expecting: 1, RecordChanges(
                attributes: ["title": .string("Half")], relationships: ["author": .toOne(id("Author", 99))]))
        }
        #expect(error?.details == .fields([.relationship("author", "no record \(id("Author", 99).uri) in the store")]))
    }

    // MARK: Backup

    @Test func theFirstWriteMakesOneBackupOfTheStoreAsItWas() async throws {
        #expect(try await store.backupPath() == nil)
        try await store.update(id("Book", 1), expecting: 1, RecordChanges(attributes: ["title": .string("After")]))
        let path = try #require(try await store.backupPath())
        #expect(path.hasPrefix(synthetic.storeURL.deletingLastPathComponent().path + "/Synthetic.cdbrowser-backup-"))
        let backup = try RawDatabase(path: path)
        #expect(try backup.rows("SELECT ZTITLE FROM ZBOOK WHERE Z_PK = 1")[0][0] as? String == "First")
        #expect(try backup.rows("PRAGMA integrity_check")[0][0] as? String == "ok")
        try await store.update(id("Book", 1), expecting: 2, RecordChanges(attributes: ["title": .string("Again")]))
        #expect(try await store.backupPath() == path)
        let backups = try FileManager.default.contentsOfDirectory(atPath: synthetic.storeURL.deletingLastPathComponent().path)
            .filter { $0.contains("cdbrowser-backup") }
        // The backup and the ledger that records it (`BackupLedger`), for pruning.
        #expect(backups.sorted() == [".Synthetic.cdbrowser-backups", (path as NSString).lastPathComponent])
    }

    /// Files named like backups that this package did not record making are never removed, whatever the dates in
    /// their names (decoys dated in the future used to push real backups out); `StoreBackupTests` has the pruning.
    @Test func filesThatOnlyLookLikeBackupsAreLeftAlone() async throws {
        let folder = synthetic.storeURL.deletingLastPathComponent()
        let planted = (1...6).map { "Synthetic.cdbrowser-backup-2099010\($0)T120000Z.sqlite" }
            + ["Other.cdbrowser-backup-20260101T120000Z.sqlite", "Synthetic.cdbrowser-backup-notes.sqlite", "notes.txt"]
        for name in planted { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        try await store.update(id("Book", 1), expecting: 1, RecordChanges(attributes: ["title": .string("After")]))
        let made = try #require(try await store.backupPath())
        let remaining = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(remaining.isSuperset(of: planted + [(made as NSString).lastPathComponent]))
    }

    // MARK: The checker itself

    @Test func theCheckerCatchesAChangeWithoutANewVersionAndAOneSidedLink() async throws {
        let model = synthetic.modelURL.appendingPathComponent("contents")
        let before = try WriteCheck.snapshot(synthetic.storeURL, into: scratch)
        let database = try RawDatabase(path: synthetic.storeURL.path)
        try database.execute("UPDATE ZBOOK SET ZTITLE = 'Sneaky' WHERE Z_PK = 1")
        try database.execute("UPDATE ZPORTRAIT SET ZAUTHOR = 2 WHERE Z_PK = 1; UPDATE ZPORTRAIT SET Z_OPT = 2")
        let outcome = try await WriteCheck.run(model: model, before: before, store: synthetic.storeURL)
        #expect(!outcome.passed)
        #expect(outcome.output.contains("ZBOOK 1: Z_OPT 1 -> 1, expected 2 (changed)"))
        #expect(outcome.output.contains("Author 1.portrait holds Portrait 1, whose author does not hold it back"))
    }
}
