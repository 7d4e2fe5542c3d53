import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Only regular files are opened: a FIFO (`mkfifo`, real ones here), a device or a directory where a store, a
/// companion, a model or a scanned file is expected gets a precise refusal at once. Before, opening a FIFO for
/// reading blocked until a writer came, so these tests would never have returned.
struct NonRegularFileTests {
    static func makeFIFO(_ url: URL) throws {
        guard mkfifo(url.path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    @Test func onlyRegularFilesAreRead() throws {
        let directory = TemporaryDirectory()
        let fifo = directory.path("pipe")
        try Self.makeFIFO(fifo)
        #expect(throws: RegularFile.Refusal.notRegular(kind: "a FIFO (named pipe)")) { try RegularFile.prefix(of: fifo.path, count: 16) }
        #expect(throws: RegularFile.Refusal.notRegular(kind: "a character device")) { try RegularFile.prefix(of: "/dev/zero", count: 16) }
        #expect(throws: RegularFile.Refusal.notRegular(kind: "a directory")) { try RegularFile.prefix(of: directory.url.path, count: 16) }
        #expect(throws: RegularFile.Refusal.missing) { try RegularFile.prefix(of: directory.path("none").path, count: 16) }
        // A link is followed (a user may name a store through one) and what it points to is checked.
        let link = directory.path("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fifo)
        #expect(throws: RegularFile.Refusal.notRegular(kind: "a FIFO (named pipe)")) { try RegularFile.prefix(of: link.path, count: 16) }
        let text = directory.path("text")
        try Data("hello, world".utf8).write(to: text)
        let textLink = directory.path("text-link")
        try FileManager.default.createSymbolicLink(at: textLink, withDestinationURL: text)
        #expect(try RegularFile.prefix(of: textLink.path, count: 5) == Array("hello".utf8))
        #expect(try RegularFile.contents(of: text.path, limit: 12) == Array("hello, world".utf8))
        #expect(throws: RegularFile.Refusal.tooLarge(bytes: 12, limit: 11)) { try RegularFile.contents(of: text.path, limit: 11) }
        #expect(RegularFile.nonRegularKindOfEntry(at: link.path) == "a symbolic link")
        #expect(RegularFile.nonRegularKind(at: link.path) == "a FIFO (named pipe)")
        #expect(RegularFile.nonRegularKind(at: text.path) == nil)
    }

    @Test func aFIFOAsTheStoreOrItsCompanionIsAPreciseError() throws {
        let synthetic = try SyntheticValueTests.makeStore()
        let wal = URL(fileURLWithPath: synthetic.storeURL.path + "-wal")
        try? FileManager.default.removeItem(at: wal)
        try Self.makeFIFO(wal)
        #expect(StoreFileErrorTests.openError(synthetic.storeURL) == .unreadable(
            path: wal.path, message: "it is a FIFO (named pipe), not a regular file; SQLite would open it as the store's -wal"))
        try FileManager.default.removeItem(at: wal)
        try Self.makeFIFO(URL(fileURLWithPath: synthetic.storeURL.path + "-journal"))
        #expect(StoreFileErrorTests.openError(synthetic.storeURL)?.description
            == "Cannot read \(synthetic.storeURL.path)-journal: it is a FIFO (named pipe), not a regular file; SQLite would open it as the store's -journal")

        let fifoStore = synthetic.directory.path("Pipe.sqlite")
        try Self.makeFIFO(fifoStore)
        #expect(StoreFileErrorTests.openError(fifoStore) == .notSQLite(path: fifoStore.path, reason: "it is a FIFO (named pipe), not a regular file"))
    }

    @Test func aFIFOAsTheModelIsAPreciseError() throws {
        let synthetic = try SyntheticValueTests.makeStore()
        let model = synthetic.directory.path("Model.mom")
        try Self.makeFIFO(model)
        #expect(StoreFileErrorTests.openError(synthetic.storeURL, model: model)
            == .modelUnreadable(path: model.path, reason: "it is a FIFO (named pipe), not a regular file"))
    }

    /// An external-data file swapped for a FIFO after its size was read: the read is refused, never blocked.
    @Test func anExternalDataFileSwappedForAFIFOIsRefused() async throws {
        let (synthetic, store) = try SyntheticBlobTests.open()
        let lookup = try await store.blob(of: SyntheticBlobTests.id(2), attribute: "photo")
        guard case .value(let reader) = lookup else {
            Issue.record("no external value: \(lookup)")
            return
        }
        let file = URL(fileURLWithPath: StoreFiles(path: synthetic.storeURL.path).externalDataDirectory)
            .appendingPathComponent("5F3C-EXTERNAL")
        try FileManager.default.removeItem(at: file)
        try Self.makeFIFO(file)
        await #expect(throws: BrowserError.notFound("The external data file 5F3C-EXTERNAL can no longer be read: it is a FIFO (named pipe), not a regular file")) {
            _ = try await reader.read(0..<10)
        }
    }

    /// A plain SQLite database (no Core Data tables in its main file) sends recognition to its `-wal`; a FIFO there
    /// is passed over instead of blocking the open. (The simulator scan's own FIFO cases: BrowserDesktopTests.)
    @Test func recognitionPassesOverAFIFOAsTheWal() throws {
        let directory = TemporaryDirectory()
        let database = directory.path("Cache.sqlite")
        try RawDatabase(path: database.path).execute("CREATE TABLE other (x)")
        try Self.makeFIFO(URL(fileURLWithPath: database.path + "-wal"))
        #expect(!StoreRecognition.isCoreDataStore(at: database.path))
        try Self.makeFIFO(directory.path("Store.sqlite"))
        #expect(!StoreRecognition.isCoreDataStore(at: directory.path("Store.sqlite").path))
    }
}
