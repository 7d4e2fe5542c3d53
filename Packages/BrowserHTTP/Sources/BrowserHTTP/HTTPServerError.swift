/// Errors thrown by `HTTPServer.start()` and `HTTPServer.reopenListener()`.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `start()` was called while the server is running.
    case alreadyRunning
    /// The host is not a numeric IPv4/IPv6 address or "localhost".
    case invalidHost(String)
    /// socket() failed.
    case socketFailed(reason: String)
    /// bind() failed — typically "Address already in use" when the port is taken.
    case bindFailed(port: UInt16, reason: String)
    /// listen() failed.
    case listenFailed(port: UInt16, reason: String)
    /// `start(portCandidates:)` got an empty sequence.
    case noPortCandidates
    /// `reopenListener()` was called while the server is not running.
    case notRunning

    public var description: String {
        switch self {
        case .alreadyRunning: "The server is already running"
        case .invalidHost(let host): "Invalid host '\(host)': expected a numeric IP address"
        case .socketFailed(let reason): "Could not create a socket: \(reason)"
        case .bindFailed(let port, let reason): "Could not bind port \(port): \(reason)"
        case .listenFailed(let port, let reason): "Could not listen on port \(port): \(reason)"
        case .noPortCandidates: "No port candidates given"
        case .notRunning: "The server is not running"
        }
    }
}
