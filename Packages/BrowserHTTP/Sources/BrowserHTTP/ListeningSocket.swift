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

    enum AcceptResult {
        case accepted(Int32)
        /// No connection pending.
        case wouldBlock
        /// A transient failure for one connection (e.g. it was reset before accept).
        case retry
        /// EMFILE/ENFILE and other persistent failures: pause accepting for a moment.
        case backOff
    }

    static func accept(_ listener: Int32) -> AcceptResult {
        #if canImport(Glibc)
        let fd = Glibc.accept(listener, nil, nil)
        #else
        let fd = Darwin.accept(listener, nil, nil)
        #endif
        guard fd >= 0 else {
            let code = Platform.errno
            if Platform.isWouldBlock(code) { return .wouldBlock }
            if code == EINTR || code == ECONNABORTED || code == EPROTO { return .retry }
            return .backOff
        }
        // Accepted sockets do not reliably inherit O_NONBLOCK (Linux never does).
        Platform.prepareSocket(fd)
        let noDelay = Platform.tcpNoDelay
        // Responses are written in one go; Nagle would only delay the last segment.
        Platform.setOption(fd, level: noDelay.level, name: noDelay.name, value: 1)
        return .accepted(fd)
    }
}
