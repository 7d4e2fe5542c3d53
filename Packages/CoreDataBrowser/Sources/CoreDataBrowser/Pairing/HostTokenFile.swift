import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CoreDataBrowserServer.PairingTokenPolicy {
    /// `.token` with the first line of the file at `path` (`browser-demo --token-file`), refused like ssh refuses a
    /// key file that is not private: a token others on the machine could read, or replace, is no secret.
    ///
    /// The file is opened once and everything is checked on that open descriptor (`fstat`), then read from it, so
    /// what is checked is what is read: checking a path and then opening it again let the file change in between.
    /// A symbolic link is followed (a link into a secrets folder is a fair way to name the file) and the file it
    /// leads to is what must pass: a regular file (opened with `O_NONBLOCK`, so a FIFO cannot stall the start),
    /// owned by this user or root, with no read or write bits for group or others, at most
    /// `PairingTokenFile.maximumFileBytes` long.
    public static func token(inFile path: String) throws(HostTokenFileError) -> Self {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notAFile(path: path) }
        // The file a link leads to, for the messages only: the checks are on the descriptor.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            throw .notYours(path: target, owner: UInt32(info.st_uid))
        }
        let mode = UInt32(info.st_mode & 0o777)
        guard mode & 0o066 == 0 else { throw .notPrivate(path: target, mode: mode) }
        guard info.st_size <= PairingTokenFile.maximumFileBytes else { throw .tooLarge(path: path) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        let firstLine = String(decoding: bytes.prefix(filled), as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        return .token(firstLine.trimmingCharacters(in: .whitespaces))
    }
}

/// Why `PairingTokenPolicy.token(inFile:)` refused a token file; each description is one line that says what to do.
public enum HostTokenFileError: Error, Equatable, CustomStringConvertible, Sendable {
    case unreadable(path: String, reason: String)
    /// A FIFO, a directory, a device: only a regular file is read.
    case notAFile(path: String)
    /// Owned by another user (not root), who could change it.
    case notYours(path: String, owner: UInt32)
    /// Group or others may read or write it.
    case notPrivate(path: String, mode: UInt32)
    case tooLarge(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .notAFile(let path):
            "\(path) is not a regular file"
        case .notYours(let path, let owner):
            "\(path) belongs to another user (uid \(owner)), who could change the token: use a file of your own"
        case .notPrivate(let path, let mode):
            "other users can read or change \(path) (mode \(String(mode, radix: 8))): chmod 600 \(path)"
        case .tooLarge(let path):
            "\(path) is larger than \(PairingTokenFile.maximumFileBytes) bytes: it should hold only the token"
        }
    }
}
