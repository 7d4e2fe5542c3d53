#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates the non-blocking listening socket.
enum ListeningSocket {
    /// Binds and listens synchronously so `start()` can report a taken port at once.
    /// Returns the descriptor and the port actually bound.
    static func open(host: String, port: UInt16) throws(HTTPServerError) -> (fd: Int32, port: UInt16) {
        guard let address = SocketAddress(host: host, port: port) else { throw .invalidHost(host) }
        let fd = socket(address.family, Platform.sockStream, 0)
        guard fd >= 0 else { throw .socketFailed(reason: Platform.errorMessage(Platform.errno)) }
        // SO_REUSEADDR lets a restarted server bind while old connections sit in
        // TIME_WAIT. SO_REUSEPORT is deliberately not set: it would let a second server
        // bind the same port silently instead of reporting it as taken.
        Platform.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
        Platform.prepareSocket(fd)
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let reason = Platform.errorMessage(Platform.errno)
            Platform.close(fd)
            throw .bindFailed(port: port, reason: reason)
        }
        // Probed before listen(): on Linux our own listening socket would make the probe fail.
        if let boundPort = SocketAddress.boundPort(of: fd), let taken = takenLocalAddress(besides: address, port: boundPort) {
            Platform.close(fd)
            throw .bindFailed(port: port, reason: "another process listens on this port at \(taken.numericHost)")
        }
        // SOMAXCONN: bursts of connections (a browser opens several at once, tests open
        // hundreds) should queue in the kernel rather than be refused.
        guard listen(fd, SOMAXCONN) == 0 else {
            let reason = Platform.errorMessage(Platform.errno)
            Platform.close(fd)
            throw .listenFailed(port: port, reason: reason)
        }
        guard let actualPort = SocketAddress.boundPort(of: fd) else {
            let reason = Platform.errorMessage(Platform.errno)
            Platform.close(fd)
            throw .listenFailed(port: port, reason: reason)
        }
        return (fd, actualPort)
    }

    /// A local address on which another socket already listens on a wildcard bind's port, or nil.
    ///
    /// Darwin lets a wildcard bind with SO_REUSEADDR share a port with another process's socket bound to one
    /// specific address (127.0.0.1, or the Wi-Fi address); connections to that address then reach the other
    /// process, so a URL we print for this device would open someone else's server. Linux refuses that bind
    /// itself, and the probes agree. Each probe binds one local address of the same family (the loopback address,
    /// then every address of an interface that is up, as `getifaddrs(3)` lists them) with SO_REUSEADDR, which still
    /// conflicts with a listener on that exact address, and is closed at once. An address added to an interface
    /// after `start()` is not probed; neither is one outside the interfaces' own (Linux routes all of 127/8 to `lo`,
    /// but refuses the wildcard bind beside a listener there itself).
    static func takenLocalAddress(besides address: SocketAddress, port: UInt16) -> SocketAddress? {
        guard address.isWildcard else { return nil }
        let loopback = SocketAddress(host: address.family == AF_INET6 ? "::1" : "127.0.0.1", port: port)
        let candidates = (loopback.map { [$0] } ?? []) + SocketAddress.localAddresses(family: address.family, port: port)
        return candidates.first { isTaken($0) }
    }

    /// Whether binding `address` with SO_REUSEADDR fails because the address and port are in use.
    private static func isTaken(_ address: SocketAddress) -> Bool {
        let probe = socket(address.family, Platform.sockStream, 0)
        guard probe >= 0 else { return false }
        defer { Platform.close(probe) }
        Platform.setOption(probe, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
        let bound = address.withSockaddr { bind(probe, $0, $1) }
        return bound != 0 && Platform.errno == EADDRINUSE
    }

    enum AcceptResult {
        case accepted(Int32, PeerAddress?)
        /// No connection pending.
        case wouldBlock
        /// A transient failure for one connection (e.g. it was reset before accept).
        case retry
        /// EMFILE/ENFILE and other persistent failures: pause accepting for a moment.
        case backOff
        /// The listening socket itself no longer works (shut down, closed, or defunct: what iOS does to the
        /// sockets of a suspended app); it must be closed and bound again.
        case listenerDead
        /// The connection was aborted before it could be accepted. Normally one client's reset; every call
        /// failing this way is also how iOS reports a defunct listener, so the loop counts them.
        case aborted
    }

    static func accept(_ listener: Int32) -> AcceptResult {
        var peer = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutableBytes(of: &peer) { raw in
            let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            #if canImport(Glibc)
            return Glibc.accept(listener, address, &length)
            #else
            return Darwin.accept(listener, address, &length)
            #endif
        }
        guard fd >= 0 else {
            let code = Platform.errno
            if Platform.isWouldBlock(code) { return .wouldBlock }
            if code == ECONNABORTED { return .aborted }
            if code == EINTR || code == EPROTO { return .retry }
            if code == EINVAL || code == EBADF || code == ENOTSOCK { return .listenerDead }
            return .backOff
        }
        // Accepted sockets do not reliably inherit O_NONBLOCK (Linux never does).
        Platform.prepareSocket(fd)
        let noDelay = Platform.tcpNoDelay
        // Responses are written in one go; Nagle would only delay the last segment.
        Platform.setOption(fd, level: noDelay.level, name: noDelay.name, value: 1)
        return .accepted(fd, PeerAddress(peer))
    }
}
