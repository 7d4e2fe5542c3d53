import Foundation

/// An HTTP/1.1 server (RFC 9112) over POSIX sockets.
///
/// One event-loop thread multiplexes every connection with non-blocking sockets;
/// requests are answered by the responder in Swift concurrency tasks, so a slow
/// handler never blocks other connections. See `HTTPServerLimits` for the protections
/// against oversized and slow clients.
///
/// ```swift
/// var router = HTTPRouter()
/// router.add(.GET, "/hello/:name") { _, parameters in .text("Hello \(parameters["name"] ?? "")") }
/// let server = HTTPServer(configuration: .init(port: 8080), responder: router)
/// let port = try server.start()
/// ```
///
/// Thread-safe: `start()`/`stop()` may be called from any thread and are serialized.
public final class HTTPServer: Sendable {
    public struct Configuration: Sendable {
        /// Numeric address to bind: "127.0.0.1" (this device only) or "0.0.0.0" (every
        /// interface); IPv6 ("::1", "::") and "localhost" also work. No DNS lookups.
        public var host: String
        /// 0 lets the system pick a free port; `start()` returns the real one.
        public var port: UInt16
        public var limits: HTTPServerLimits
        /// Renders the responses the server produces itself (400, 408, 413, 414, 431,
        /// 501, 503, 505).
        public var errorRenderer: @Sendable (HTTPStatus, String) -> HTTPResponse
        /// Decides from each request's head whether its body is read and it is answered (see `HTTPAdmission`).
        /// nil: every request is read and answered, and counts as authenticated.
        public var admission: (any HTTPAdmission)?

        public init(
            host: String = "127.0.0.1",
            port: UInt16 = 0,
            limits: HTTPServerLimits = HTTPServerLimits(),
            errorRenderer: @escaping @Sendable (HTTPStatus, String) -> HTTPResponse = HTTPErrorRenderer.plainText,
            admission: (any HTTPAdmission)? = nil
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.errorRenderer = errorRenderer
            self.admission = admission
        }
    }

    private struct RunState {
        var loop: EventLoop?
        var port: UInt16?
    }

    public let configuration: Configuration
    private let responder: any HTTPResponder
    private let state = Locked(RunState())
    /// Serializes whole start/stop operations (which block while binding or waiting for
    /// the loop to finish) so a concurrent start cannot interleave with a stop.
    private let lifecycle = NSLock()

    public init(configuration: Configuration, responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
    }

    deinit {
        stop()
    }

    /// Whether the server is accepting connections.
    public var isRunning: Bool {
        state.withLock { $0.loop != nil }
    }

    /// The bound port while running, nil otherwise.
    public var port: UInt16? {
        state.withLock { $0.port }
    }

    /// Binds `configuration.port` and starts serving; returns the bound port.
    ///
    /// Binding and listening happen synchronously, so a taken port throws here
    /// (`.bindFailed`). Can be called again after `stop()`.
    @discardableResult
    public func start() throws(HTTPServerError) -> UInt16 {
        try start(port: configuration.port)
    }

    /// Tries each port in order and starts on the first one that can be bound, e.g.
    /// `start(portCandidates: 8080...8090)`. Only `.bindFailed` moves on to the next
    /// candidate; other errors are thrown at once. Throws the last `.bindFailed` when
    /// every port is taken, `.noPortCandidates` for an empty sequence.
    @discardableResult
    public func start(portCandidates: some Sequence<UInt16>) throws(HTTPServerError) -> UInt16 {
        var lastError = HTTPServerError.noPortCandidates
        for candidate in portCandidates {
            do {
                return try start(port: candidate)
            } catch {
                guard case .bindFailed = error else { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    private func start(port requestedPort: UInt16) throws(HTTPServerError) -> UInt16 {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        guard !isRunning else { throw .alreadyRunning }
        let (listener, port) = try ListeningSocket.open(host: configuration.host, port: requestedPort)
        let loop: EventLoop
        do {
            loop = try EventLoop(
                listener: listener, host: configuration.host, port: port, limits: configuration.limits,
                errorRenderer: configuration.errorRenderer, admission: configuration.admission, responder: responder)
        } catch {
            Platform.close(listener)
            throw error
        }
        loop.start()
        state.withLock { $0 = RunState(loop: loop, port: port) }
        return port
    }

    /// Closes the listening socket and binds the same address and port again; open connections stay.
    ///
    /// For when the system may have invalidated the listener: iOS defuncts the listening sockets of a
    /// suspended app, after which nothing can connect; call this when the app returns to the foreground.
    /// The server also does it by itself when it notices a dead listener (poll reports an error on it, or
    /// `accept()` keeps failing), and keeps retrying every second while the port cannot be bound.
    /// Throws `.notRunning`, or the bind error (the server then keeps retrying in the background).
    public func reopenListener() throws(HTTPServerError) {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        guard let loop = state.withLock({ $0.loop }) else { throw .notRunning }
        let outcome = Locked<HTTPServerError?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.post(.reopenListener { error in
            outcome.withLock { $0 = error }
            done.signal()
        })
        done.wait()
        if let error = outcome.withLock({ $0 }) { throw error }
    }

    /// Tests only: shuts the listening socket down under the running loop, as iOS does to a suspended app's,
    /// so the dead-listener path can be exercised on Linux.
    func breakListenerForTesting() {
        state.withLock { $0.loop }?.post(.breakListenerForTesting)
    }

    /// Tests only: from now on every `accept()` on the current listener fails with ECONNABORTED while poll() reports
    /// it readable, as on the defunct listener of a suspended iOS app.
    func abortAcceptsForTesting() {
        state.withLock { $0.loop }?.post(.abortAcceptsForTesting)
    }

    /// Tests only: the loop stops watching its listener, as when a defunct listener reports nothing at all; nothing
    /// new is answered until the listener is bound again (`reopenListener()`). Returns once the loop has done so.
    func muteListenerForTesting() {
        guard let loop = state.withLock({ $0.loop }) else { return }
        let done = DispatchSemaphore(value: 0)
        loop.post(.muteListenerForTesting { done.signal() })
        done.wait()
    }

    /// Tests only: how many listening sockets the running server has bound (1 after `start()`, one more for each
    /// rebind); 0 when stopped.
    var listenerBindings: Int {
        state.withLock { $0.loop }?.listenerBindings.withLock { $0 } ?? 0
    }

    /// Closes the listener and every open connection and returns once they are closed.
    /// Responses still being computed are discarded (their tasks are cancelled).
    /// Does nothing if the server is not running.
    public func stop() {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        let loop = state.withLock { state in
            defer { state = RunState() }
            return state.loop
        }
        loop?.stop()
    }
}
