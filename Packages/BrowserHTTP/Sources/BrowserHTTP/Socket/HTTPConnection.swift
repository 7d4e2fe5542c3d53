import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection: a state machine driven by the event loop.
///
/// Not Sendable and never touched outside the loop thread; the responder's task only
/// sends the response back to the loop by connection id.
///
/// Requests on a connection are handled strictly one after another, so pipelined
/// requests are answered in order (RFC 9112 §9.3.2). While a request is being handled
/// or answered, the socket is not read: pipelined bytes wait in the decoder or in the
/// kernel, which bounds memory per connection and gives TCP backpressure.
final class HTTPConnection {
    enum State {
        /// Waiting for request bytes.
        case reading
        /// The responder is running in this task.
        case handling(Task<Void, Never>)
        /// A streamed body's producer is making its next piece in this task.
        case producing(Task<Void, Never>)
        /// Sending `outbound`, then doing `then`.
        case writing(then: AfterWrite)
        /// The final response was sent and our side shut down; reading and discarding
        /// until the client closes, so unread request bytes do not make the kernel send
        /// a reset that could destroy the response before the client read it.
        case draining
        case closed
    }

    enum AfterWrite {
        /// A final response that ends the connection: lingering close.
        case close
        /// A final response on a persistent connection: decode the next request.
        case nextRequest
        /// An interim `100 Continue`: go on reading the body of the current request.
        case continueReading
        /// A piece of a streamed body: ask the producer for the next one.
        case nextPiece
    }

    /// The streamed body being sent, between its pieces.
    private struct Stream {
        let producer: any HTTPBodyProducer
        let framing: HTTPResponseEncoder.BodyFraming
        /// For `.contentLength`: bytes still owed.
        var remaining: Int
        /// What follows the body's end.
        let then: AfterWrite
        /// Counted against `maxOpenEndedStreams` rather than `maxConcurrentStreams`.
        let isOpenEnded: Bool
    }

    /// What happens when `deadline` passes.
    private enum DeadlineKind {
        /// No request bytes pending: close silently.
        case idle
        /// Part of a request received: answer 408 and close.
        case request
        /// The client stopped reading the response: close.
        case write
        /// Lingering close: stop waiting for the client to close.
        case drain
    }

    let id: UInt64
    let fd: Int32
    /// Counted against the connection caps (false for connections rejected with 503).
    let admitted: Bool
    /// The client's address, counted against the per-address cap (nil when rejected or unknown).
    let peer: PeerAddress?
    private unowned let loop: EventLoop

    private(set) var state: State = .reading
    private(set) var deadline: UInt64?
    /// A request on it has shown credentials (`HTTPAdmissionVerdict.authenticated`): it holds one of the slots kept
    /// for such connections and is never closed for a newcomer while an unauthenticated one is left (`SlotReclaiming`).
    private(set) var isAuthenticated = false

    /// Counted in the unauthenticated pool, and may give its slot to a newcomer (`SlotReclaiming`'s first rule):
    /// whatever it has sent, unless a request of it is being answered.
    var isUnauthenticatedAndReclaimable: Bool {
        guard admitted, !isAuthenticated else { return false }
        switch state {
        case .reading, .writing, .draining: return true
        case .handling, .producing, .closed: return false
        }
    }

    /// Nothing is being answered on it, and nothing of a request is pending: it waits for its first or next request
    /// with no bytes of one received or waiting in the kernel, or its last answer was sent and it only waits for the
    /// client to close (lingering close). An upload in progress or a request about to be read is never idle.
    var isIdleForReclaiming: Bool {
        switch state {
        case .reading: return !decoder.isMidRequest && Platform.peek(fd) <= 0
        case .draining: return true
        case .handling, .producing, .writing, .closed: return false
        }
    }
    private var deadlineKind: DeadlineKind = .idle
    private var decoder: HTTPRequestDecoder
    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    private var drainedBytes = 0
    /// While the responder runs, the socket is watched only to notice the client leaving; once it shows
    /// pipelined bytes instead, watching stops until the next request (they stay in the kernel meanwhile).
    private var watchingForHangUp = false
    private var stream: Stream?

    // About the request being handled, needed to encode its response.
    private var requestMethod: HTTPMethod?
    private var requestVersion = "HTTP/1.1"
    private var requestKeepAlive = false
    /// The admission's verdict on the request being read, once given (for a request with a body, as soon as its head
    /// was decoded): not asked again when the request completes.
    private var currentRequestAuthenticated: Bool?

    /// Upper bound on lingering close; it only protects the response, so it is short.
    private static let drainTimeout: TimeInterval = 2
    private static let maxDrainBytes = 1024 * 1024

    /// Answers after which the connection is closed even when the client asked to keep it: the client sent
    /// something malformed (400), lacks the credentials (401) or named another host (421). Keeping such a
    /// connection open would only let a client without the token hold one of the connection slots.
    static let statusesEndingTheConnection: Set<Int> = [400, 401, 421]

    init(id: UInt64, fd: Int32, peer: PeerAddress?, admitted: Bool, loop: EventLoop) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.admitted = admitted
        self.loop = loop
        // The decoder stops after a head with a body: the admission decides before a byte of it is decoded.
        self.decoder = HTTPRequestDecoder(limits: loop.limits, pausesBeforeBody: true)
    }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    var pollEvents: Int16 {
        switch state {
        case .reading, .draining: Platform.pollIn
        case .writing: Platform.pollOut
        case .handling, .producing: watchingForHangUp ? Platform.pollIn : 0
        case .closed: 0
        }
    }

    /// A fresh connection may stay silent for `firstRequestTimeout`.
    func start() {
        setDeadline(.idle, after: loop.limits.firstRequestTimeout)
    }

    /// Answers a connection over the limit without reading its request.
    func reject(_ status: HTTPStatus, _ message: String) {
        sendError(status, message)
    }

    // MARK: - Events

    func handle(revents: Int16) {
        switch state {
        case .reading:
            readRequestBytes()
        case .draining:
            drain()
        case .writing:
            flush()
        case .handling, .producing:
            noticeHangUp(revents: revents)
        case .closed:
            break
        }
    }

    func deadlinePassed() {
        deadline = nil
        switch deadlineKind {
        case .idle, .write, .drain:
            close()
        case .request:
            guard case .reading = state else { return }
            sendError(.requestTimeout, "Timed out waiting for the request")
        }
    }

    /// The responder finished; ignored unless this connection is still waiting for it.
    func responseReady(_ response: HTTPResponse) {
        guard case .handling = state else { return }
        let handlerWantsClose = response.headers.listElements(for: HTTPHeaderName.connection)
            .contains { HTTPHeaders.namesMatch(String($0), "close") }
        let keepAlive = requestKeepAlive && !handlerWantsClose
            && !Self.statusesEndingTheConnection.contains(response.status.code)
        if let streamed = response.streamedBody {
            startStream(response, streamed, keepAlive: keepAlive)
            return
        }
        send(
            HTTPResponseEncoder.encode(
                response, requestMethod: requestMethod, requestVersion: requestVersion,
                keepAlive: keepAlive),
            then: keepAlive ? .nextRequest : .close)
    }

    /// The client closed (or reset) its side while its request is being handled: nobody will read the answer,
    /// so the responder's task is cancelled (a store stops its query on cancellation) and the connection
    /// closed. Like nginx, a client that half-closes after sending its request is taken as gone.
    private func noticeHangUp(revents: Int16) {
        if revents & (Platform.pollErr | Platform.pollHup | Platform.pollNval) != 0 {
            close()
            return
        }
        let peeked = Platform.peek(fd)
        if peeked == 0 || (peeked < 0 && !Self.isTransient(Platform.errno)) {
            close()
        } else if peeked > 0 {
            watchingForHangUp = false  // pipelined bytes: read after the response
        }
    }

    // MARK: - Streamed bodies

    private func startStream(_ response: HTTPResponse, _ streamed: HTTPStreamedBody, keepAlive: Bool) {
        let isHead = requestMethod == .HEAD
        let framing: HTTPResponseEncoder.BodyFraming
        if let length = streamed.length {
            framing = .contentLength(length)
        } else if requestVersion == "HTTP/1.1" {
            framing = .chunked
        } else {
            framing = .untilClose
        }
        // Without a length, an HTTP/1.0 body ends with the connection.
        let keepAlive = keepAlive && framing != .untilClose
        let head = HTTPResponseEncoder.encodeHead(
            response, framing: framing, requestVersion: requestVersion, keepAlive: keepAlive)
        guard response.status.allowsBody, !isHead else {
            send(head, then: keepAlive ? .nextRequest : .close)
            return
        }
        let admitted = streamed.isOpenEnded
            ? loop.activeOpenEndedStreams < loop.limits.maxOpenEndedStreams
            : loop.activeStreams < loop.limits.maxConcurrentStreams
        guard admitted else {
            let refusal = loop.errorRenderer(.serviceUnavailable, streamed.isOpenEnded
                ? "Too many live connections at once (one per open tab); close a tab and reload"
                : "Too many downloads at once; try again when one has finished")
            send(
                HTTPResponseEncoder.encode(
                    refusal, requestMethod: requestMethod, requestVersion: requestVersion, keepAlive: keepAlive),
                then: keepAlive ? .nextRequest : .close)
            return
        }
        if streamed.isOpenEnded { loop.activeOpenEndedStreams += 1 } else { loop.activeStreams += 1 }
        var remaining = 0
        if case .contentLength(let length) = framing { remaining = length }
        stream = Stream(producer: streamed.producer, framing: framing, remaining: remaining,
                        then: keepAlive ? .nextRequest : .close, isOpenEnded: streamed.isOpenEnded)
        send(head, then: .nextPiece)
    }

    /// Asks the producer for the next piece in a task; the answer comes back through the loop.
    private func askForNextPiece() {
        guard let stream else { return }
        let id = id
        let loop = loop
        let producer = stream.producer
        watchingForHangUp = true
        state = .producing(
            Task {
                let piece: EventLoop.StreamedPiece
                do {
                    piece = try await producer.nextChunk().map { .data($0) } ?? .end
                } catch {
                    piece = .failed
                }
                loop.post(.chunk(connectionID: id, piece))
            })
    }

    /// A piece arrived; ignored unless this connection is still waiting for it.
    func pieceReady(_ piece: EventLoop.StreamedPiece) {
        guard case .producing = state, var stream else { return }
        switch piece {
        case .data(let data) where data.isEmpty:
            askForNextPiece()
        case .data(let data):
            switch stream.framing {
            case .contentLength:
                // More than announced would corrupt the next response on this connection.
                guard data.count <= stream.remaining else { return close() }
                stream.remaining -= data.count
                self.stream = stream
                send(Array(data), then: .nextPiece)
            case .chunked:
                send(HTTPResponseEncoder.chunk(data), then: .nextPiece)
            case .untilClose:
                send(Array(data), then: .nextPiece)
            }
        case .end:
            endStream()
            switch stream.framing {
            case .contentLength:
                // Fewer bytes than announced: only closing tells the client the body is incomplete.
                guard stream.remaining == 0 else { return close() }
                send([], then: stream.then)
            case .chunked:
                send(HTTPResponseEncoder.lastChunk, then: stream.then)
            case .untilClose:
                send([], then: .close)
            }
        case .failed:
            close()
        }
    }

    private func endStream() {
        guard let ended = stream else { return }
        stream = nil
        if ended.isOpenEnded { loop.activeOpenEndedStreams -= 1 } else { loop.activeStreams -= 1 }
    }

    // MARK: - Reading

    private func readRequestBytes() {
        let count = Platform.recv(fd, loop.readBuffer)
        if count > 0 {
            decoder.feed(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
            // The request timeout runs from the first byte of a request.
            if deadlineKind == .idle, decoder.isMidRequest {
                setDeadline(.request, after: loop.limits.requestTimeout)
            }
            decodeNextRequest()
        } else if count == 0 {
            // The client closed. Whatever was partially received cannot be answered.
            close()
        } else if !Self.isTransient(Platform.errno) {
            close()
        }
    }

    /// Starts handling the next buffered request, or keeps reading.
    private func decodeNextRequest() {
        guard case .reading = state, let request = nextAdmittedRequest() else { return }
        requestMethod = request.method
        requestVersion = request.version
        requestKeepAlive = request.isKeepAlive
        deadline = nil  // the responder takes as long as it takes
        watchingForHangUp = true
        let id = id
        let loop = loop
        let responder = loop.responder
        state = .handling(
            Task {
                let response = await responder.respond(to: request)
                loop.post(.response(connectionID: id, response))
            })
    }

    /// The next whole request once the admission let it through; nil when more bytes are needed, or when the
    /// connection is being answered instead (a decoding error, a refusal, an interim `100 Continue`).
    private func nextAdmittedRequest() -> HTTPRequest? {
        do {
            var request = try decoder.nextRequest()
            if request == nil, let head = decoder.headAwaitingBodyPermission {
                // Before any body byte is decoded or `100 Continue` promised: a refused client never sends its body.
                guard admit(head) else { return nil }
                decoder.allowBody()
                request = try decoder.nextRequest()  // the body may have come with the head
                if request == nil, decoder.takeContinueRequest() {
                    send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), then: .continueReading)
                    return nil
                }
            }
            guard var request else { return nil }
            if currentRequestAuthenticated == nil, !admit(request) { return nil }
            request.isAuthenticated = currentRequestAuthenticated == true
            currentRequestAuthenticated = nil
            return request
        } catch {
            sendError(error.status, error.message)
            return nil
        }
    }

    /// Asks the server's admission about a request from its head; false when it was refused: the refusal is being
    /// sent and the connection closes after it.
    private func admit(_ head: HTTPRequest) -> Bool {
        switch loop.admission?.admit(head) ?? .authenticated {
        case .authenticated:
            currentRequestAuthenticated = true
            if !isAuthenticated {
                loop.connectionAuthenticated(self)  // reads the pool it leaves: before the flag changes
                isAuthenticated = true
            }
            return true
        case .anonymous:
            currentRequestAuthenticated = false
            return true
        case .refused(let response):
            currentRequestAuthenticated = nil
            send(
                HTTPResponseEncoder.encode(
                    response, requestMethod: head.method, requestVersion: head.version, keepAlive: false),
                then: .close)
            return false
        }
    }

    // MARK: - Writing

    /// Renders an error with the configured renderer and closes after sending it: after
    /// a framing error or timeout the rest of the byte stream cannot be trusted.
    private func sendError(_ status: HTTPStatus, _ message: String) {
        let response = loop.errorRenderer(status, message)
        send(
            HTTPResponseEncoder.encode(
                response, requestMethod: nil, requestVersion: "HTTP/1.1", keepAlive: false),
            then: .close)
    }

    private func send(_ bytes: [UInt8], then next: AfterWrite) {
        outbound = bytes
        outboundOffset = 0
        state = .writing(then: next)
        setDeadline(.write, after: loop.limits.writeTimeout)
        // Try at once: the socket is almost always writable, saving a poll round trip.
        flush()
    }

    /// Writes as much as the socket accepts; on EAGAIN the loop polls for POLLOUT.
    private func flush() {
        guard case .writing(let next) = state else { return }
        while outboundOffset < outbound.count {
            let written = outbound.withUnsafeBytes { bytes in
                Platform.send(fd, UnsafeRawBufferPointer(rebasing: bytes[outboundOffset...]))
            }
            if written > 0 {
                outboundOffset += written
                setDeadline(.write, after: loop.limits.writeTimeout)  // progress
            } else if written < 0 && Platform.errno == EINTR {
                continue
            } else if written < 0 && Platform.isWouldBlock(Platform.errno) {
                return
            } else {
                // EPIPE / ECONNRESET: the client is gone (SIGPIPE is suppressed).
                close()
                return
            }
        }
        outbound = []
        outboundOffset = 0
        switch next {
        case .close:
            beginLingeringClose()
        case .continueReading:
            state = .reading
            setDeadline(.request, after: loop.limits.requestTimeout)
        case .nextPiece:
            deadline = nil  // the producer takes as long as it takes; the client's leaving is noticed
            askForNextPiece()
        case .nextRequest:
            state = .reading
            if decoder.isMidRequest {
                setDeadline(.request, after: loop.limits.requestTimeout)
            } else {
                setDeadline(.idle, after: loop.limits.keepAliveIdleTimeout)
            }
            // Pipelined requests may already be buffered.
            decodeNextRequest()
        }
    }

    // MARK: - Closing

    private func beginLingeringClose() {
        Platform.shutdownWrite(fd)
        state = .draining
        setDeadline(.drain, after: min(Self.drainTimeout, loop.limits.requestTimeout))
    }

    private func drain() {
        let count = Platform.recv(fd, loop.readBuffer)
        if count > 0 {
            drainedBytes += count
            if drainedBytes > Self.maxDrainBytes { close() }
        } else if count == 0 || !Self.isTransient(Platform.errno) {
            close()
        }
    }

    /// Closes the socket and forgets the connection; a running responder is cancelled
    /// and its response will be dropped.
    func close() {
        if case .closed = state { return }
        if case .handling(let task) = state { task.cancel() }
        if case .producing(let task) = state { task.cancel() }
        endStream()
        state = .closed
        deadline = nil
        Platform.close(fd)
        loop.remove(self)
    }

    private func setDeadline(_ kind: DeadlineKind, after seconds: TimeInterval) {
        deadlineKind = kind
        let nanoseconds = max(0, seconds) * 1_000_000_000
        deadline = Platform.nowNanoseconds() &+ UInt64(min(nanoseconds, Double(UInt64.max / 2)))
    }

    private static func isTransient(_ code: Int32) -> Bool {
        code == EINTR || Platform.isWouldBlock(code)
    }
}
