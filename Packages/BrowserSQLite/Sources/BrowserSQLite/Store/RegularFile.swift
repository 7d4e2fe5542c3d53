import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a scan or a user named, opened for reading only if it is a regular file.
///
/// Anything else can stop the process or read forever: `open(2)` of a FIFO (named pipe) for reading blocks until
/// a writer appears, which never happens for one planted beside a store as its `-wal`; a character device
/// (`/dev/zero`, a tty) never ends, or waits for input. So the path is checked with `stat` first (links followed:
/// a user may name a store through a symbolic link, and a scan filters links out itself with `lstat`), opened with
/// `O_NONBLOCK` (a FIFO swapped in after the check still cannot block the open), and the open descriptor is
/// checked again with `fstat`, so what is read is what was checked. On a regular file `O_NONBLOCK` changes nothing.
public final class RegularFile {
    /// Why a path was not opened, one phrase fit to follow "path: ".
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case missing
        /// Something else exists there: "a FIFO (named pipe)", "a directory"…
        case notRegular(kind: String)
        case tooLarge(bytes: Int, limit: Int)
        case unreadable(String)

        public var description: String {
            switch self {
            case .missing: "no such file"
            case .notRegular(let kind): "it is \(kind), not a regular file"
            case .tooLarge(let bytes, let limit): "it has \(bytes) bytes, more than the \(limit) read here"
            case .unreadable(let message): message
            }
        }
    }

    let descriptor: Int32
    /// The size when opened.
    let size: Int

    init(opening path: String) throws(Refusal) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Self.refusal(errno) }
        if let kind = Self.kindIfNotRegular(info.st_mode) { throw .notRegular(kind: kind) }
        let opened = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard opened >= 0 else { throw Self.refusal(errno) }
        guard fstat(opened, &info) == 0 else {
            let error = Self.refusal(errno)
            close(opened)
            throw error
        }
        if let kind = Self.kindIfNotRegular(info.st_mode) {
            close(opened)
            throw .notRegular(kind: kind)
        }
        descriptor = opened
        size = Int(info.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Up to `count` bytes from `offset`: fewer only at the end of the file.
    func read(at offset: Int, count: Int) throws(Refusal) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset + filled))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw Self.refusal(errno)
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }

    /// The file's first `count` bytes (fewer when it is shorter).
    public static func prefix(of path: String, count: Int) throws(Refusal) -> [UInt8] {
        try RegularFile(opening: path).read(at: 0, count: count)
    }

    /// The whole file, refused when it is larger than `limit` bytes.
    public static func contents(of path: String, limit: Int) throws(Refusal) -> [UInt8] {
        let file = try RegularFile(opening: path)
        guard file.size <= limit else { throw .tooLarge(bytes: file.size, limit: limit) }
        return try file.read(at: 0, count: file.size)
    }

    /// What is at `path` when it exists and is not a regular file ("a FIFO (named pipe)"), links followed; nil
    /// for a regular file or nothing at all. For the companions SQLite itself opens (`-wal`, `-shm`, `-journal`).
    public static func nonRegularKind(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return kindIfNotRegular(info.st_mode)
    }

    /// The same without following a link: a symbolic link is itself reported (for a scan, which never follows).
    public static func nonRegularKindOfEntry(at path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return kindIfNotRegular(info.st_mode)
    }

    private static func kindIfNotRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "an unknown kind of file"
        }
    }

    private static func refusal(_ code: Int32) -> Refusal {
        switch code {
        case ENOENT, ENOTDIR: .missing
        case EACCES, EPERM: .unreadable("permission denied")
        default: .unreadable(String(cString: strerror(code)))
        }
    }
}
