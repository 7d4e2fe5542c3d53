@testable import CoreDataBrowser
import Foundation
import Testing

/// A generated token is remembered between launches for seven days, then replaced.
struct PairingTokenFileTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-\(UUID().uuidString)")
    var file: URL { directory.appendingPathComponent("nested/app.pairing-token") }

    @Test func aNewTokenIsWrittenPrivatelyAndReadBackUntilItExpires() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let now = Date()
        let first = PairingTokenFile.load(from: file, now: now)
        #expect(first.expires?.timeIntervalSince(now) == PairingTokenFile.lifetime)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(try String(contentsOf: file, encoding: .utf8) == first.token.value)

        let relaunch = PairingTokenFile.load(from: file, now: now.addingTimeInterval(6 * 24 * 3600))
        #expect(relaunch.token == first.token)

        let weekLater = PairingTokenFile.load(from: file, now: now.addingTimeInterval(PairingTokenFile.lifetime + 60))
        #expect(weekLater.token != first.token)
        #expect(try String(contentsOf: file, encoding: .utf8) == weekLater.token.value)
        // Only the token file is left behind (no temporary files).
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["app.pairing-token"])
    }

    @Test("a damaged file is replaced", arguments: ["", "short", "not a token at all, has spaces", String(repeating: "x", count: 300)])
    func aDamagedFileIsReplaced(contents: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
        let loaded = PairingTokenFile.load(from: file)
        #expect(loaded.token.value != contents)
        #expect(try String(contentsOf: file, encoding: .utf8) == loaded.token.value)
    }

    @Test func aFileFromTheFutureIsNotTrusted() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = PairingTokenFile.load(from: file, now: Date())
        let earlier = PairingTokenFile.load(from: file, now: Date().addingTimeInterval(-3600))
        #expect(earlier.token != written.token)
    }

    @Test func anUnwritableLocationGivesTheGeneratedTokenUnremembered() throws {
        let session = try #require(PairingToken(validating: "session-token-0123456789ab"))
        let loaded = PairingTokenFile.load(from: URL(fileURLWithPath: "/proc/no-such-dir/app.pairing-token"), generate: { session })
        #expect(loaded.token == session)
        #expect(loaded.expires == nil) // nothing remembered it, so nothing expires it
    }

    @Test func aFileOthersCanReadIsNotTrusted() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = PairingTokenFile.load(from: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let reloaded = PairingTokenFile.load(from: file)
        #expect(reloaded.token != written.token)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8) == reloaded.token.value)
    }

    @Test func aSymlinkInPlaceOfTheFileIsNotFollowed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = PairingTokenFile.load(from: file)
        // Another user's token, private to them but reachable through a link planted where ours was.
        let planted = directory.appendingPathComponent("planted")
        try Data("planted-token-0123456789abcdef".utf8).write(to: planted)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: planted.path)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: planted)
        let reloaded = PairingTokenFile.load(from: file)
        #expect(reloaded.token.value != "planted-token-0123456789abcdef")
        #expect(reloaded.token != written.token)
        #expect(try String(contentsOf: planted, encoding: .utf8) == "planted-token-0123456789abcdef")
    }

    @Test func aFolderOthersCanWriteToRemembersNothing() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = PairingTokenFile.load(from: file)
        #expect(written.expires != nil)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: file.deletingLastPathComponent().path)
        let reloaded = PairingTokenFile.load(from: file)
        #expect(reloaded.token != written.token) // the file there is not trusted…
        #expect(reloaded.expires == nil) // …and nothing new is remembered in it
    }
}
