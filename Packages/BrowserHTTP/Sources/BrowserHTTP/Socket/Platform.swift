#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few C constants and calls whose Swift spelling differs between Glibc and Darwin,
/// wrapped here so the rest of the package is platform-independent.
enum Platform {
    #if canImport(Darwin)
    static let sockStream = SOCK_STREAM
    /// Darwin has no MSG_NOSIGNAL; sockets get SO_NOSIGPIPE instead (see `prepareSocket`).
    static let sendFlags: Int32 = 0
    #else
    static let sockStream = Int32(SOCK_STREAM.rawValue)
    /// Without it a write to a peer that reset the connection raises SIGPIPE and kills
    /// the whole app; with it `send` just fails with EPIPE.
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif

    static let pollIn = Int16(POLLIN)
    static let pollOut = Int16(POLLOUT)
    static let pollErr = Int16(POLLERR)
    static let pollHup = Int16(POLLHUP)
    static let pollNval = Int16(POLLNVAL)

    static var errno: Int32 {
        #if canImport(Glibc)
        Glibc.errno
        #else
        Darwin.errno
        #endif
    }

    static func errorMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func isWouldBlock(_ code: Int32) -> Bool {
        code == EAGAIN || code == EWOULDBLOCK
    }

    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// Non-blocking so no thread ever waits on one client, close-on-exec so a child
    /// process cannot inherit the server's sockets, and (Darwin) no SIGPIPE.
    static func prepareSocket(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    static var tcpNoDelay: (level: Int32, name: Int32) {
        (Int32(IPPROTO_TCP), Int32(TCP_NODELAY))
    }

    static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        Glibc.send(fd, buffer.baseAddress, buffer.count, sendFlags)
        #else
        Darwin.send(fd, buffer.baseAddress, buffer.count, sendFlags)
        #endif
    }

    static func recv(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        #if canImport(Glibc)
        Glibc.recv(fd, buffer.baseAddress, buffer.count, 0)
        #else
        Darwin.recv(fd, buffer.baseAddress, buffer.count, 0)
        #endif
    }

    /// Looks at the next byte without consuming it: 0 means the peer closed its side.
    static func peek(_ fd: Int32) -> Int {
        var byte: UInt8 = 0
        #if canImport(Glibc)
        return Glibc.recv(fd, &byte, 1, Int32(MSG_PEEK))
        #else
        return Darwin.recv(fd, &byte, 1, MSG_PEEK)
        #endif
    }

    static func shutdownWrite(_ fd: Int32) {
        #if canImport(Darwin)
        _ = shutdown(fd, SHUT_WR)
        #else
        _ = shutdown(fd, Int32(SHUT_WR))
        #endif
    }

    /// A monotonic clock in nanoseconds; wall-clock changes must not fire timeouts.
    static func nowNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
