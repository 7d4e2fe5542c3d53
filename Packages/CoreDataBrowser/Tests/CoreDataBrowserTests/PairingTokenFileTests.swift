@testable import CoreDataBrowser
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// The attack this guards against (another local user swapping a symlink in a loop, 27 launches in 600 took their token)
    /// simulated in one process: a thread puts a symlink to a planted, private token file and a regular file back in
    /// place of ours, as fast as it can, while the token is loaded 600 times. Every check is made on the descriptor
    /// that is read, so the planted token is never taken, however the two interleave.
    @Test func aSymlinkSwappedInALoopIsNeverRead() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = PairingTokenFile.load(from: file)
        let file = file, folder = file.deletingLastPathComponent()
        let plantedToken = "planted-token-0123456789abcdef"
        let planted = directory.appendingPathComponent("planted")
        try Data(plantedToken.utf8).write(to: planted)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: planted.path)
        let ownToken = "own-token-0123456789abcdefghij"

        let stop = Atomic(false), swaps = Atomic(0), swapperDone = Atomic(false)
        let swapper = Thread {
            defer { swapperDone.value = true }
            let link = folder.appendingPathComponent(".swap-link").path
            let regular = folder.appendingPathComponent(".swap-regular").path
            while !stop.value {
                unlink(link)
                if symlink(planted.path, link) == 0, rename(link, file.path) == 0 { swaps.update { $0 += 1 } }
                let fd = open(regular, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                if fd >= 0 {
                    _ = ownToken.withCString { write(fd, $0, strlen($0)) }
                    close(fd)
                    if rename(regular, file.path) == 0 { swaps.update { $0 += 1 } }
                }
            }
        }
        swapper.start()
        // The loads run on a thread of their own too: seconds of busy work must not hold one of the few threads
        // Swift concurrency runs every other test's server on. At least 600 loads, and until the swapper has
        // swapped 2,000 times (6 s at most: a loaded machine swaps less).
        let outcomes = await withCheckedContinuation { (continuation: CheckedContinuation<[String: Int], Never>) in
            Thread {
                var outcomes: [String: Int] = [:]
                let giveUp = Date().addingTimeInterval(6)
                var loads = 0
                while loads < 600 || (swaps.value < 2_000 && Date() < giveUp) {
                    let loaded = PairingTokenFile.load(from: file).token.value
                    outcomes[loaded == plantedToken ? "planted" : loaded == ownToken ? "regular file read" : "replaced",
                             default: 0] += 1
                    loads += 1
                }
                stop.value = true
                while !swapperDone.value { usleep(1_000) }
                continuation.resume(returning: outcomes)
            }.start()
        }
        #expect(outcomes["planted"] == nil, "\(outcomes)")
        #expect(swaps.value >= 200, "the swapper ran (\(swaps.value) swaps)")
        // Both states were met: loads read the regular file, and loads found the link and replaced the token.
        #expect(outcomes["regular file read", default: 0] > 0 && outcomes["replaced", default: 0] > 0, "\(outcomes)")
    }

    /// A file, or a folder, that belongs to another user is not ours to trust (only root can make one here).
    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aFileOrFolderOfAnotherUserIsNotTrusted() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let nobody: uid_t = 65534
        let written = PairingTokenFile.load(from: file)
        #expect(chown(file.path, nobody, gid_t(nobody)) == 0)
        let reloaded = PairingTokenFile.load(from: file)
        #expect(reloaded.token != written.token)
        #expect(reloaded.expires != nil)  // replaced by one of ours (the folder is still ours)
        #expect(PairingTokenFile.load(from: file).token == reloaded.token)

        #expect(chown(file.deletingLastPathComponent().path, nobody, gid_t(nobody)) == 0)
        let inTheirFolder = PairingTokenFile.load(from: file)
        #expect(inTheirFolder.token != reloaded.token)  // nothing is read from a folder that is not ours…
        #expect(inTheirFolder.expires == nil)  // …and nothing remembered in it
    }
}

/// A value shared between the test and its swapper thread.
private final class Atomic<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
    func update(_ body: (inout Value) -> Void) { lock.lock(); body(&stored); lock.unlock() }
}
