import BrowserCore
import BrowserMemory
import BrowserSQLite
@testable import CoreDataBrowser
import Foundation
import Testing

/// The store names the Bonjour advertisement is built from (`stores=`): a host's names as given, and the store's
/// own name where the server named it itself (`init(store:)`'s "Store", `init(context:)`'s "App context").
struct AdvertisedStoreNamesTests {
    @Test func aStoreTheServerNamedIsAdvertisedByItsOwnName() async throws {
        let store = InMemoryStore(schema: StoreSchema(entities: [EntitySchema(name: "Note", attributes: [])]),
                                  summary: "Reading list")
        let server = CoreDataBrowserServer(store: store, options: .forTests())
        #expect(await server.advertisedStoreNames() == ["Reading list"])
    }

    @Test func theHostsNamesAreKeptAndTheirStoresNotOpened() async throws {
        let openings = StoreRoutingTests.Openings()
        let server = CoreDataBrowserServer(stores: [
            ServedStore(name: "Notes.sqlite", kind: .file, open: { await openings.opened("Notes"); throw StoreRoutingTests.Unopenable() }),
            ServedStore(name: "Tasks", kind: .memory, open: { await openings.opened("Tasks"); return try await StoreRoutingTests.store("Task", []) }),
        ], options: .forTests())
        #expect(await server.advertisedStoreNames() == ["Notes.sqlite", "Tasks"])
        #expect(await openings.counts.isEmpty)
    }

    /// A live context (Apple-only, so its description is given here) lists each persistent store's file.
    @Test func aStandInNameGivesWayToTheStoresFilesThenItsSummary() {
        var served = ServedStore(name: "App context", kind: .context, store: InMemoryStore(schema: StoreSchema(entities: [])))
        served.nameIsStandIn = true
        let context = StoreDescription(summary: "Live Core Data context (private-queue reader): …", files: [
            URL(fileURLWithPath: "/Containers/Data/Application/1234/Library/Application Support/Model.sqlite"),
            URL(fileURLWithPath: "/Containers/Shared/AppGroup/5678/Shared, Cloud.sqlite"),
        ])
        #expect(AdvertisedStoreNames.names(of: served, description: context) == ["Model.sqlite", "Shared, Cloud.sqlite"])
        #expect(AdvertisedStoreNames.names(of: served, description: StoreDescription(summary: "/tmp/x/Books.store")) == ["Books.store"])
        #expect(AdvertisedStoreNames.names(of: served, description: StoreDescription(summary: "Demo library")) == ["Demo library"])
        // A store that could not be described keeps the stand-in rather than advertising nothing.
        #expect(AdvertisedStoreNames.names(of: served, description: nil) == ["App context"])
        #expect(AdvertisedStoreNames.names(of: served, description: StoreDescription(summary: "")) == ["App context"])
    }

    @Test(.enabled(if: StoreFixtures.present, "needs shared/fixtures/coredata"))
    func aStoreFileIsAdvertisedByTheFilesName() async throws {
        let copy = try StoreFixtures.copy("coredataplus/SampleModel2/SampleModel2_V2.sqlite")
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let opened = CoreDataBrowserServer(store: try SQLiteStore.open(storeAt: copy), options: .forTests())
        #expect(await opened.advertisedStoreNames() == ["SampleModel2_V2.sqlite"])
        let byURL = try CoreDataBrowserServer(storeURL: copy, options: .forTests())
        #expect(await byURL.advertisedStoreNames() == ["SampleModel2_V2.sqlite"])
    }

    @Test func aLoopbackServerIsNotAdvertised() throws {
        var options = CoreDataBrowserServer.Options.forTests(bind: .loopback)
        options.advertise = true
        let refusal = try #require(CoreDataBrowserServer.advertisingRefusal(options))
        #expect(refusal.contains("listens on 127.0.0.1 only"))
        options.bindAddress = .allInterfaces
        #if canImport(CoreData)
        #expect(CoreDataBrowserServer.advertisingRefusal(options) == nil)
        #else
        #expect(CoreDataBrowserServer.advertisingRefusal(options)?.contains("does nothing here") == true)
        #endif
    }
}
