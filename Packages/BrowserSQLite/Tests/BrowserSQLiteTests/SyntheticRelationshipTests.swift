import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Layouts the fixtures lack, in stores written here in Core Data's layout (format doc §7–§8): a two-level
/// inheritance whose sibling sub-entities declare the same attribute name (columns `ZTITLE`, `ZTITLE1`), and an
/// ordered many-to-many with sparse order keys.
struct SyntheticRelationshipTests {
    static let uuid = "5E1F0000-0000-4000-8000-00000000CAFE"

    // MARK: Inheritance with colliding column names

    /// Media (1) ← Book (2) ← Ebook (4); Media ← Film (3). Book and Film both declare `title`: Book, the lower
    /// entity number, gets `ZTITLE`, Film gets `ZTITLE1`. Ebook inherits Book's column.
    static let inheritanceModel = SyntheticStore.modelXML("""
        <entity name="Media" representedClassName="Media" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Book" representedClassName="Book" parentEntity="Media" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Film" representedClassName="Film" parentEntity="Media" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="minutes" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
        </entity>
        <entity name="Ebook" representedClassName="Ebook" parentEntity="Book" syncable="YES">
            <attribute name="format" optional="YES" attributeType="String"/>
        </entity>
        """)

    static func makeInheritanceStore(table: String = "CREATE TABLE ZMEDIA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMINUTES INTEGER, ZFORMAT VARCHAR, ZNAME VARCHAR, ZTITLE VARCHAR, ZTITLE1 VARCHAR )") throws -> SyntheticStore {
        try SyntheticStore(
            entities: [.init(number: 1, name: "Media"), .init(number: 2, name: "Book", parent: 1),
                       .init(number: 3, name: "Film", parent: 1), .init(number: 4, name: "Ebook", parent: 2)],
            tables: [table],
            modelXML: inheritanceModel,
            uuid: uuid
        ) { database in
            guard table.contains("ZTITLE1") else { return }
            let insert = "INSERT INTO ZMEDIA (Z_PK, Z_ENT, Z_OPT, ZNAME, ZTITLE, ZTITLE1, ZMINUTES, ZFORMAT) VALUES (?, ?, 1, ?, ?, ?, ?, ?)"
            try database.run(insert, [.integer(1), .integer(1), .text("plain media"), .null, .null, .null, .null])
            try database.run(insert, [.integer(2), .integer(2), .text("a book"), .text("Book Title"), .null, .null, .null])
            try database.run(insert, [.integer(3), .integer(3), .text("a film"), .null, .text("Film Title"), .integer(121), .null])
            try database.run(insert, [.integer(4), .integer(4), .text("an ebook"), .text("Ebook Title"), .null, .null, .text("EPUB")])
            try database.run(insert, [.integer(5), .integer(3), .text("another film"), .null, .text("Ébook? No, a film"), .integer(90), .null])
        }
    }

    @Test func siblingsWithTheSameAttributeNameReadTheirOwnColumns() async throws {
        let synthetic = try Self.makeInheritanceStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        #expect(store.mapping.entities["Book"]?.attribute(named: "title")?.column == "ZTITLE")
        #expect(store.mapping.entities["Film"]?.attribute(named: "title")?.column == "ZTITLE1")
        #expect(store.mapping.entities["Ebook"]?.attribute(named: "title")?.column == "ZTITLE")

        // Counts include the subtree (Z_ENT in the entity's sub-entities).
        #expect(try await store.count(of: "Media") == 5)
        #expect(try await store.count(of: "Book") == 2)
        #expect(try await store.count(of: "Ebook") == 1)
        #expect(try await store.count(of: "Film") == 2)

        func record(_ entity: String, _ key: Int64) async throws -> StoredRecord {
            try #require(try await store.record(ObjectID(storeIdentifier: Self.uuid, entity: entity, primaryKey: key)))
        }
        #expect(try await record("Film", 3).values["title"] == .string("Film Title"))
        #expect(try await record("Film", 3).values["minutes"] == .integer(121))
        #expect(try await record("Book", 2).values["title"] == .string("Book Title"))
        let ebook = try await record("Ebook", 4)
        #expect(ebook.values["title"] == .string("Ebook Title"))
        #expect(ebook.values["format"] == .string("EPUB"))
        #expect(ebook.values["name"] == .string("an ebook"))

        // A Media page lists every row as its concrete entity, each reading its own columns.
        let media = try await store.page(RecordQuery(entity: "Media"))
        #expect(media.records.map(\.id.entity) == ["Media", "Book", "Film", "Ebook", "Film"])
        #expect(media.records[2].values["title"] == .string("Film Title"))
        #expect(media.records[3].values["title"] == .string("Ebook Title"))

        // Search and sort on Film.title use ZTITLE1, not Book's ZTITLE.
        let film = try #require(try await store.schema().entity(named: "Film"))
        let search = try RecordQuery.validated(RecordQueryParameters(search: "ebook", searchAttribute: "title"), for: film)
        #expect(try await store.page(search).records.map(\.id.primaryKey) == [5])
        let sorted = try RecordQuery.validated(RecordQueryParameters(sort: "title", order: "desc"), for: film)
        #expect(try await store.page(sorted).records.map(\.id.primaryKey) == [5, 3])
    }

    @Test func aMissingCollisionColumnIsReportedNotGuessed() throws {
        // The same model over a table without ZTITLE1: Film.title has nowhere to live.
        let synthetic = try Self.makeInheritanceStore(table: "CREATE TABLE ZMEDIA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMINUTES INTEGER, ZFORMAT VARCHAR, ZNAME VARCHAR, ZTITLE VARCHAR )")
        #expect {
            try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        } throws: { error in
            guard case .modelMismatch(_, let details) = error as? SQLiteStoreError else { return false }
            return details.contains("ZMEDIA.ZTITLE1")
        }
    }

    // MARK: Ordered many-to-many

    /// Playlist (1) `songs` ordered ↔ Song (2) `playlists`. Join table `Z_1SONGS (Z_1PLAYLISTS, Z_2SONGS,
    /// Z_FOK_2SONGS)`: the songs of a playlist in `Z_FOK_2SONGS` order (sparse keys).
    static let playlistModel = SyntheticStore.modelXML("""
        <entity name="Playlist" representedClassName="Playlist" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="songs" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Song" inverseName="playlists" inverseEntity="Song"/>
        </entity>
        <entity name="Song" representedClassName="Song" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="playlists" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
        </entity>
        """)

    static func makePlaylistStore(joinTable: String) throws -> SyntheticStore {
        try SyntheticStore(
            entities: [.init(number: 1, name: "Playlist"), .init(number: 2, name: "Song")],
            tables: [
                "CREATE TABLE ZPLAYLIST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
                "CREATE TABLE ZSONG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )",
                "CREATE TABLE \(joinTable) ( Z_1PLAYLISTS INTEGER, Z_2SONGS INTEGER, Z_FOK_2SONGS INTEGER, PRIMARY KEY (Z_1PLAYLISTS, Z_2SONGS) )",
            ],
            modelXML: playlistModel,
            uuid: uuid
        ) { database in
            try database.run("INSERT INTO ZPLAYLIST VALUES (1, 1, 1, 'Road trip')", [])
            try database.run("INSERT INTO ZPLAYLIST VALUES (2, 1, 1, 'Quiet')", [])
            for (key, title) in [(1, "Alpha"), (2, "Bravo"), (3, "Charlie"), (4, "Delta")] {
                try database.run("INSERT INTO ZSONG VALUES (?, 2, 1, ?)", [.integer(Int64(key)), .text(title)])
            }
            // Road trip plays Delta, Alpha, Charlie (keys 2048, 3072, 4096 in insertion-unrelated order);
            // Quiet plays Charlie then Bravo.
            let link = "INSERT INTO \(joinTable) (Z_1PLAYLISTS, Z_2SONGS, Z_FOK_2SONGS) VALUES (?, ?, ?)"
            try database.run(link, [.integer(1), .integer(3), .integer(4096)])
            try database.run(link, [.integer(1), .integer(1), .integer(3072)])
            try database.run(link, [.integer(1), .integer(4), .integer(2048)])
            try database.run(link, [.integer(2), .integer(2), .integer(1_049_600)])
            try database.run(link, [.integer(2), .integer(3), .integer(1_048_576)])
        }
    }

    @Test("ordered many-to-many follows the order keys, whichever side names the join table",
          arguments: ["Z_1SONGS", "Z_2PLAYLISTS"])
    func orderedManyToMany(joinTable: String) async throws {
        let synthetic = try Self.makePlaylistStore(joinTable: joinTable)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        func playlist(_ key: Int64) -> ObjectID { ObjectID(storeIdentifier: Self.uuid, entity: "Playlist", primaryKey: key) }
        func song(_ key: Int64) -> ObjectID { ObjectID(storeIdentifier: Self.uuid, entity: "Song", primaryKey: key) }

        let roadTrip = try await store.related(from: playlist(1), through: "songs", limit: 20)
        #expect(roadTrip.total == 3)
        #expect(roadTrip.records.map(\.id.primaryKey) == [4, 1, 3])
        let quiet = try await store.related(from: playlist(2), through: "songs", limit: 1)
        #expect(quiet.total == 2)
        #expect(quiet.records.map(\.id.primaryKey) == [3])

        // The inverse (unordered) side lists playlists in primary-key order.
        let charlie = try await store.related(from: song(3), through: "playlists", limit: 20)
        #expect(charlie.records.map(\.id.primaryKey) == [1, 2])
        #expect(try await store.related(from: song(2), through: "playlists", limit: 20).records.map(\.id.primaryKey) == [2])

        // A record's detail (one read transaction) holds what the separate calls give.
        for id in [playlist(1), playlist(2), song(3)] {
            let names = id.entity == "Playlist" ? ["songs"] : ["playlists"]
            let detail = try #require(try await store.detail(of: id, relationships: names, limit: 1))
            #expect(detail.record == (try await store.record(id)))
            #expect(detail.related == [names[0]: try await store.related(from: id, through: names[0], limit: 1)])
        }
        #expect(try await store.detail(of: playlist(99), relationships: ["songs"], limit: 20) == nil)

        // Through the service, as /api/object renders it: ordered, in order, with counts.
        let service = BrowserService(store: store, readOnly: true)
        let object = try await service.object(id: playlist(1).uri)
        let songs = try #require(object.relationships.first { $0.name == "songs" })
        #expect(songs.ordered && songs.toMany)
        #expect(songs.count == 3)
        #expect(songs.items.map(\.summary) == ["Delta", "Alpha", "Charlie"])

        // A detail's relationship counts are kept until the data changes, then counted again.
        try ReadCacheTests.write("INSERT INTO \(joinTable) (Z_1PLAYLISTS, Z_2SONGS, Z_FOK_2SONGS) VALUES (1, 2, 5120)", to: synthetic)
        let grown = try #require(try await store.detail(of: playlist(1), relationships: ["songs"], limit: 20))
        #expect(grown.related["songs"]?.total == 4)
        #expect(grown.related["songs"]?.records.map(\.id.primaryKey) == [4, 1, 3, 2])
    }
}
