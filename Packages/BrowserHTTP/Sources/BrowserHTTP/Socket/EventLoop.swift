import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread multiplexing the listening socket and every client connection with
/// `poll()`.
///
/// Why a poll thread rather than a thread per connection or DispatchSources: a single
/// owner thread makes all connection state single-threaded (no locks, no races between
/// read, write, timeout and close), timeouts are plain deadline comparisons, and
/// closing a descriptor can never race with a dispatch source still watching it.
/// Blocking work never happens here: responders run in Swift concurrency tasks and
/// hand their response back through `post(_:)`.
///
/// `@unchecked Sendable`: tasks call `post(_:)`, which only touches the lock-guarded
/// `inbox` and the wake pipe. Everything else is confined to the loop thread.
final class EventLoop: @unchecked Sendable {
    /// Messages sent to the loop thread from other threads.
    enum Message: Sendable {
        case response(connectionID: UInt64, HTTPResponse)
        /// The next piece of a streamed body, its end, or the producer's failure.
        case chunk(connectionID: UInt64, StreamedPiece)
        /// Close the listening socket and bind the same address and port again; the callback gets the error
        /// when that failed (the loop then keeps retrying on its own).
        case reopenListener(@Sendable (HTTPServerError?) -> Void)
        /// Tests only: shut the listening socket down under the loop, as iOS does to a suspended app's.
        case breakListenerForTesting
        /// Tests only: every `accept()` on the current listener fails with ECONNABORTED, as on the defunct listener
        /// of a suspended iOS app, which poll() may still report readable; a rebind clears it.
        case abortAcceptsForTesting
        /// Tests only: the loop stops watching the current listener, as when a defunct listener reports nothing at
        /// all; connections then wait unanswered until the listener is bound again (`reopenListener`).
        case muteListenerForTesting(@Sendable () -> Void)
        case stop
    }

    private struct Inbox {
        var messages: [Message] = []
        /// False once the loop has shut down; late responses are then dropped, and the
        /// wake pipe is never written after it was closed (its number may be reused).
        var isOpen = true
        /// A wake byte is already in the pipe, so posting again need not write one.
        var wakePending = false
    }

    let limits: HTTPServerLimits
    let budget: ConnectionBudget
    let errorRenderer: @Sendable (HTTPStatus, String) -> HTTPResponse
    let admission: (any HTTPAdmission)?
    let responder: any HTTPResponder

    /// The listening socket, or -1 while it is dead and being bound again.
    private var listener: Int32
    private let listenerHost: String
    private let listenerPort: UInt16
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let inbox = Locked(Inbox())
    private let finished = DispatchSemaphore(value: 0)

    enum StreamedPiece: Sendable {
        case data(Data)
        case end
        case failed
    }

    // Loop-thread state.
    /// Responses with a streamed body being sent, for `limits.maxConcurrentStreams`.
    var activeStreams = 0
    /// Open-ended streams (event streams) being sent, for `limits.maxOpenEndedStreams`.
    var activeOpenEndedStreams = 0
    private var connections: [UInt64: HTTPConnection] = [:]
    private var nextConnectionID: UInt64 = 0
    /// Connections counted against `budget.admitted` (503-rejected ones are not).
    private var admittedCount = 0
    /// Admitted connections per client address, for `budget.perAddress`.
    private var admittedPerAddress: [PeerAddress: Int] = [:]
    /// Admitted connections that have not shown credentials, for `budget.unauthenticated`, and per address, for
    /// `SlotReclaiming`'s fair share.
    private var unauthenticatedCount = 0
    private var unauthenticatedPerAddress: [PeerAddress: Int] = [:]
    /// New connections each address may still open (`HTTPServerLimits.newConnectionsPerAddressPerSecond`).
    private var reconnectAllowance: ReconnectAllowance
    /// `accept()` failures with ECONNABORTED since the last accepted connection. A few are one client's
    /// reset each; a run of them is a defunct listener (iOS after suspension), which would otherwise keep
    /// poll() reporting it readable and the loop spinning.
    private var consecutiveAborts = 0
    private static let abortsMeaningDeadListener = 32
    /// When a dead listener could not be bound again, the next attempt is made at this time.
    private var listenerRetryAt: UInt64 = 0
    /// Tests only (`abortAcceptsForTesting`): the listener whose accepts are made to fail.
    private var abortingListener: Int32 = -1
    private var abortProbe: Int32 = -1
    /// Tests only (`muteListenerForTesting`): the current listener is not polled.
    private var listenerMuted = false
    /// How many times a listening socket was bound, the first one included: read by tests (through
    /// `HTTPServer.listenerBindings`) to tell a real rebind from a call that did nothing.
    let listenerBindings = Locked(1)
    private static let listenerRetryInterval: UInt64 = 1_000_000_000
    /// Set when accept() fails persistently (e.g. out of descriptors), so the still-readable listener
    /// is not polled in a busy loop until some may have been freed.
    private var acceptPausedUntil: UInt64 = 0
    /// Time spent on connections without credentials per pass of the loop (one is always handled), and where the
    /// next pass starts among them. 2 ms: a browser's request never waits long behind heads of strangers.
    private static let unauthenticatedTimePerPass: UInt64 = 2_000_000
    private var unauthenticatedTurn = 0
    /// One receive buffer shared by all connections; the loop reads one socket at a time.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    /// Takes ownership of `listener`, which is closed when the loop stops.
    init(
        listener: Int32, host: String, port: UInt16, limits: HTTPServerLimits,
        errorRenderer: @escaping @Sendable (HTTPStatus, String) -> HTTPResponse,
        admission: (any HTTPAdmission)?, responder: any HTTPResponder
    ) throws(HTTPServerError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw .socketFailed(reason: Platform.errorMessage(Platform.errno))
        }
        for fd in fds {
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        self.wakeRead = fds[0]
        self.wakeWrite = fds[1]
        self.listener = listener
        self.listenerHost = host
        self.listenerPort = port
        self.limits = limits
        // Without an admission no client can show credentials before its first request: nothing is reserved.
        var budgetLimits = limits
        if admission == nil { budgetLimits.reservedAuthenticatedConnections = 0 }
        self.budget = ConnectionBudget(limits: budgetLimits, descriptorLimit: ConnectionBudget.processDescriptorLimit)
        self.errorRenderer = errorRenderer
        self.admission = admission
        self.responder = responder
        self.reconnectAllowance = ReconnectAllowance(
            burst: budget.perAddress, perSecond: limits.newConnectionsPerAddressPerSecond)
    }

    deinit {
        readBuffer.deallocate()
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "BrowserHTTP.EventLoop"
        thread.start()
    }

    /// Closes the listener and every connection, then returns once the loop thread has
    /// done so. Responses still being computed are discarded.
    func stop() {
        post(.stop)
        finished.wait()
    }

    /// Thread-safe: queues a message for the loop thread and wakes it up.
    func post(_ message: Message) {
        inbox.withLock { inbox in
            guard inbox.isOpen else { return }
            inbox.messages.append(message)
            if !inbox.wakePending {
                inbox.wakePending = true
                var byte: UInt8 = 1
                _ = write(wakeWrite, &byte, 1)
            }
        }
    }

    // MARK: - Loop thread

    private func run() {
        var pollFDs: [pollfd] = []
        var polled: [HTTPConnection] = []
        while true {
            let now = Platform.nowNanoseconds()
            pollFDs.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            pollFDs.append(pollfd(fd: wakeRead, events: Platform.pollIn, revents: 0))
            if listener < 0 && now >= listenerRetryAt { reopenListener() }
            let pollListener = listener >= 0 && now >= acceptPausedUntil && !listenerMuted
            if pollListener {
                pollFDs.append(pollfd(fd: listener, events: Platform.pollIn, revents: 0))
            }
            var nextDeadline = pollListener || listenerMuted ? UInt64.max : (listener < 0 ? listenerRetryAt : acceptPausedUntil)
            for connection in connections.values {
                if let deadline = connection.deadline { nextDeadline = min(nextDeadline, deadline) }
                let events = connection.pollEvents
                guard events != 0 else { continue }
                pollFDs.append(pollfd(fd: connection.fd, events: events, revents: 0))
                polled.append(connection)
            }
            let timeout: Int32
            if nextDeadline == .max {
                timeout = -1
            } else if nextDeadline <= now {
                timeout = 0
            } else {
                // Round up so the loop does not wake just before the deadline and spin.
                timeout = Int32(clamping: (nextDeadline - now + 999_999) / 1_000_000)
            }

            let ready = poll(&pollFDs, nfds_t(pollFDs.count), timeout)
            if ready < 0 && Platform.errno != EINTR {
                // Not expected with valid descriptors; back off rather than spin.
                usleep(10_000)
                continue
            }

            if ready > 0 && pollFDs[0].revents != 0 {
                if handleMessages() { return }
            }
            var index = 1
            if pollListener {
                let revents = ready > 0 ? pollFDs[1].revents : 0
                if listenerMuted {
                    // Muted by a message handled in this same pass (tests).
                } else if revents & (Platform.pollErr | Platform.pollHup | Platform.pollNval) != 0 {
                    reopenListener()
                } else if revents != 0 {
                    acceptConnections()
                }
                index = 2
            }
            if ready > 0 {
                // Connections that have shown credentials first, then the others, taken in turn, for at most
                // `unauthenticatedTimePerPass`: the owner's request is not queued behind every head that clients without
                // the token sent in the same moment (the rest stay readable and are served in the next passes).
                for (offset, connection) in polled.enumerated() where connection.isAuthenticated {
                    handle(connection, revents: pollFDs[index + offset].revents)
                }
                let passEnds = Platform.nowNanoseconds() &+ Self.unauthenticatedTimePerPass
                var served = 0
                for step in 0..<polled.count where served == 0 || Platform.nowNanoseconds() < passEnds {
                    let offset = (unauthenticatedTurn + step) % polled.count
                    let connection = polled[offset]
                    let revents = pollFDs[index + offset].revents
                    guard !connection.isAuthenticated, revents != 0 else { continue }
                    handle(connection, revents: revents)
                    served += 1
                    unauthenticatedTurn = offset + 1
                }
            }
            fireTimeouts()
        }
    }

    private func handle(_ connection: HTTPConnection, revents: Int16) {
        // A connection handled earlier in this pass may have closed it.
        if revents != 0 && !connection.isClosed {
            connection.handle(revents: revents)
        }
    }

    /// Returns true when the loop must exit.
    private func handleMessages() -> Bool {
        // Drain the pipe before taking messages: a post racing with this sees
        // wakePending == false afterwards and writes a fresh byte, so nothing is missed.
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &scratch, scratch.count) > 0 {}
        let messages = inbox.withLock { inbox in
            inbox.wakePending = false
            defer { inbox.messages.removeAll() }
            return inbox.messages
        }
        for message in messages {
            switch message {
            case .response(let id, let response):
                // The connection may be gone (client vanished); the response is dropped.
                connections[id]?.responseReady(response)
            case .chunk(let id, let piece):
                connections[id]?.pieceReady(piece)
            case .reopenListener(let reply):
                reply(reopenListener())
            case .breakListenerForTesting:
                _ = shutdown(listener, Int32(SHUT_RDWR))
            case .muteListenerForTesting(let done):
                listenerMuted = true
                done()
            case .abortAcceptsForTesting:
                abortingListener = listener
                // A connection that is waiting makes poll() report the listener readable, as iOS's defunct one does.
                if let address = SocketAddress(host: listenerHost == "0.0.0.0" ? "127.0.0.1" : listenerHost, port: listenerPort) {
                    let probe = socket(address.family, Platform.sockStream, 0)
                    if probe >= 0 {
                        Platform.prepareSocket(probe)
                        _ = address.withSockaddr { connect(probe, $0, $1) }
                        abortProbe = probe
                    }
                }
            case .stop:
                shutDown()
                return true
            }
        }
        return false
    }

    private func acceptConnections() {
        // Bounded so a connection flood cannot starve existing connections.
        for _ in 0..<64 {
            let fd: Int32
            let peer: PeerAddress?
            let outcome: ListeningSocket.AcceptResult = listener == abortingListener ? .aborted : ListeningSocket.accept(listener)
            switch outcome {
            case .accepted(let accepted, let address):
                (fd, peer) = (accepted, address)
                consecutiveAborts = 0
            case .wouldBlock: return
            case .retry: continue
            case .aborted:
                consecutiveAborts += 1
                guard consecutiveAborts >= Self.abortsMeaningDeadListener else { continue }
                reopenListener()
                return
            case .listenerDead:
                reopenListener()
                return
            case .backOff:
                acceptPausedUntil = Platform.nowNanoseconds() + 100_000_000
                return
            }
            let fromAddress = peer.map { admittedPerAddress[$0, default: 0] } ?? 0
            var admitted = false
            var refusal = "Too many connections"
            if let peer, !reconnectAllowance.take(for: peer, now: Platform.nowNanoseconds()) {
                refusal = "Too many new connections from this address; try again in a moment"
            } else {
                if fromAddress >= budget.perAddress {
                    if admittedCount < budget.admitted { refusal = "Too many connections from this address" }
                } else if admittedCount < budget.admitted && unauthenticatedCount < budget.unauthenticated {
                    admitted = true
                } else if let yielding = reclaimableConnection(forNewcomerFrom: peer) {
                    // Full: clients without the token filling the slots must not keep the owner out (SlotReclaiming).
                    yielding.close()  // `remove` frees its slot
                    admitted = true
                }
                // Only an admitted connection uses up an allowance.
                if !admitted, let peer { reconnectAllowance.giveBack(for: peer) }
            }
            // Rejected connections still need a moment to receive their 503; cap them
            // too, beyond which new connections are closed without a word.
            guard admitted || connections.count < budget.total else {
                Platform.close(fd)
                continue
            }
            nextConnectionID += 1
            let connection = HTTPConnection(
                id: nextConnectionID, fd: fd, peer: admitted ? peer : nil, admitted: admitted, loop: self)
            connections[connection.id] = connection
            if admitted {
                admittedCount += 1
                unauthenticatedCount += 1
                // Counted afresh: a reclaimed connection from the same address was just subtracted.
                if let peer {
                    admittedPerAddress[peer, default: 0] += 1
                    unauthenticatedPerAddress[peer, default: 0] += 1
                }
                connection.start()
            } else {
                connection.reject(.serviceUnavailable, refusal)
            }
        }
    }

    /// The connection whose slot a newcomer takes when there is none free, or nil (SlotReclaiming's two rules).
    private func reclaimableConnection(forNewcomerFrom peer: PeerAddress?) -> HTTPConnection? {
        if let unauthenticated = SlotReclaiming.unauthenticatedConnectionToClose(
            forNewcomerFrom: peer, among: connections.values, unauthenticatedPerAddress: unauthenticatedPerAddress) {
            return unauthenticated
        }
        // Only a free slot overall helps when the unauthenticated pool is full.
        guard admittedCount >= budget.admitted, unauthenticatedCount < budget.unauthenticated else { return nil }
        return SlotReclaiming.authenticatedConnectionToClose(
            forNewcomerFrom: peer, among: connections.values, admittedPerAddress: admittedPerAddress)
    }

    /// A connection showed credentials for the first time: it leaves the unauthenticated pool, and its address gets
    /// back the allowance the connection took.
    func connectionAuthenticated(_ connection: HTTPConnection) {
        guard connection.admitted, !connection.isAuthenticated else { return }
        unauthenticatedCount -= 1
        if let peer = connection.peer {
            Self.decrement(&unauthenticatedPerAddress, peer)
            reconnectAllowance.giveBack(for: peer)
        }
    }

    private static func decrement(_ counts: inout [PeerAddress: Int], _ peer: PeerAddress) {
        guard let count = counts[peer] else { return }
        counts[peer] = count > 1 ? count - 1 : nil
    }

    private func fireTimeouts() {
        let now = Platform.nowNanoseconds()
        for connection in connections.values {
            if let deadline = connection.deadline, deadline <= now {
                connection.deadlinePassed()
            }
        }
    }

    /// Called by a connection when it has closed its descriptor.
    func remove(_ connection: HTTPConnection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        if connection.admitted { admittedCount -= 1 }
        if connection.admitted && !connection.isAuthenticated { unauthenticatedCount -= 1 }
        if let peer = connection.peer {
            Self.decrement(&admittedPerAddress, peer)
            if !connection.isAuthenticated { Self.decrement(&unauthenticatedPerAddress, peer) }
        }
        acceptPausedUntil = 0  // a descriptor was freed
    }

    /// Closes the listening socket and binds the same address and port again, keeping every open
    /// connection. On failure (the port was taken meanwhile) the loop retries every second.
    @discardableResult
    private func reopenListener() -> HTTPServerError? {
        if listener >= 0 { Platform.close(listener) }
        listener = -1
        consecutiveAborts = 0
        acceptPausedUntil = 0
        abortingListener = -1
        listenerMuted = false
        if abortProbe >= 0 { Platform.close(abortProbe) }
        abortProbe = -1
        do {
            listener = try ListeningSocket.open(host: listenerHost, port: listenerPort).fd
            listenerBindings.withLock { $0 += 1 }
            return nil
        } catch {
            listenerRetryAt = Platform.nowNanoseconds() + Self.listenerRetryInterval
            return error
        }
    }

    private func shutDown() {
        inbox.withLock { inbox in
            inbox.isOpen = false
            inbox.messages.removeAll()
        }
        for connection in Array(connections.values) {
            connection.close()
        }
        if listener >= 0 { Platform.close(listener) }
        if abortProbe >= 0 { Platform.close(abortProbe) }
        Platform.close(wakeRead)
        Platform.close(wakeWrite)
        finished.signal()
    }
}
