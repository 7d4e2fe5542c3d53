@testable import CoreDataBrowser
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `PairingTokenPolicy.token(inFile:)` (`browser-demo --token-file`) on real files: a private regular file of ours,
/// also through a link, gives its first line; a file others can read, a FIFO, a folder, another user's file or a
/// missing one is refused with a message saying what to do.
struct HostTokenFileTests {
    static let token = "host-token-file-0123456789abcdef"
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("host-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ text: String, mode: mode_t = 0o600) throws -> String {
        let path = folder.appendingPathComponent(name).path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        chmod(path, mode)
        return path
    }

    func refusal(_ path: String) -> HostTokenFileError? {
        do {
            _ = try CoreDataBrowserServer.PairingTokenPolicy.token(inFile: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aPrivateFileGivesItsFirstLineAlsoThroughALink() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try file("token", "  \(Self.token)  \nsecond line\n")
        #expect(try CoreDataBrowserServer.PairingTokenPolicy.token(inFile: path) == .token(Self.token))
        let link = folder.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(try CoreDataBrowserServer.PairingTokenPolicy.token(inFile: link) == .token(Self.token))
    }

    @Test func aFileOthersCanReadOrWriteIsRefusedNamingWhatTheLinkLeadsTo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try file("token", Self.token, mode: 0o644)
        let link = folder.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        #expect(refusal(link) == .notPrivate(path: resolved, mode: 0o644))
        #expect(refusal(link)?.description == "other users can read or change \(resolved) (mode 644): chmod 600 \(resolved)")
        chmod(path, 0o620)
        #expect(refusal(path) == .notPrivate(path: resolved, mode: 0o620))
    }

    @Test func onlyARegularFileIsRead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened without blocking, then refused: no writer ever comes.
        #expect(refusal(fifo) == .notAFile(path: fifo))
        #expect(refusal(folder.path) == .notAFile(path: folder.path))
        let missing = folder.appendingPathComponent("missing").path
        #expect(refusal(missing) == .unreadable(path: missing, reason: "No such file or directory"))
        let large = try file("large", String(repeating: "a", count: PairingTokenFile.maximumFileBytes + 1))
        #expect(refusal(large) == .tooLarge(path: large))
    }

    /// Needs root to give a file away; as any other user the rule is the same code path and cannot be staged.
    @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
    func anotherUsersFileIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try file("token", Self.token)
        #expect(chown(path, 65534, 65534) == 0)
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        #expect(refusal(path) == .notYours(path: resolved, owner: 65534))
        // Root's own file is accepted (a token provisioned by an administrator).
        #expect(chown(path, 0, 0) == 0)
        #expect(try CoreDataBrowserServer.PairingTokenPolicy.token(inFile: path) == .token(Self.token))
    }
}
