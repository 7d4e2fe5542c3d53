#if canImport(CoreData)
import BrowserCore
import BrowserCoreData
import CoreData
import Testing

/// A store whose description carries `cloudKitContainerOptions` (what `NSPersistentCloudKitContainer` mirrors) is not
/// written, even with writes on, unless the host allows edits that sync to iCloud; reads are untouched.
///
/// macOS job only: compiled on Linux against the stand-in, never run here.
@Suite struct CloudKitMirroringTests {
    private let container = "iCloud.com.example.CoreDataBrowserTests"

    private func makeStack() async throws -> TestStack {
        // CloudKit mirroring needs history tracking, so an app's mirrored store always has it.
        let stack = try TestStack(historyTracking: true, cloudKitContainer: container)
        try await stack.seed { TestLibrary.insert(into: $0) }
        return stack
    }

    private func tags(_ stack: TestStack) async throws -> Int {
        try await stack.container.performBackgroundTask { context in
            try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Tag"))
        }
    }

    private let newTag = Data(#"{"attrs": {"name": "synced?"}}"#.utf8)

    @Test func writesAreRefusedWithTheReasonAndNothingIsWritten() async throws {
        let stack = try await makeStack()
        let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext), readOnly: false)
        let health = try await service.health()
        #expect(health.capabilities == ["read"])
        let reason = try #require(health.writeRefusal)
        #expect(reason.contains("an edit would sync to the user's iCloud"))
        #expect(reason.contains(container) && reason.contains("Options.allowsEditsThatSyncToICloud"))

        do {
            _ = try await service.insert(into: "Tag", body: newTag)
            Issue.record("a write to a mirrored store went through")
        } catch {
            #expect(error.statusCode == 403)
            #expect(error.message.contains("an edit would sync to the user's iCloud"))
        }
        #expect(try await tags(stack) == 4)
        // Reading is not affected.
        #expect(try await service.records(of: "Tag", parameters: .init()).total == 4)
    }

    @Test func theHostCanAllowEditsThatSyncToICloud() async throws {
        let stack = try await makeStack()
        let store = ManagedContextStore(context: stack.container.viewContext, allowsEditsThatSyncToICloud: true)
        let service = BrowserService(store: store, readOnly: false)
        #expect(try await service.health().capabilities == ["read", "write"])
        _ = try await service.insert(into: "Tag", body: newTag)
        #expect(try await tags(stack) == 5)
    }

    @Test func aStoreWithoutCloudKitOptionsIsWritten() async throws {
        let stack = try TestStack(historyTracking: true)
        try await stack.seed { TestLibrary.insert(into: $0) }
        let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext), readOnly: false)
        #expect(try await service.health().writeRefusal == nil)
        _ = try await service.insert(into: "Tag", body: newTag)
        #expect(try await tags(stack) == 5)
    }
}

#endif
