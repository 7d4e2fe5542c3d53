public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection to a server on loopback that sends exact bytes and parses responses itself, so a test controls
/// every byte (hostile input, a `Host` that URLSession would never send, a request cut in half) and sees exactly what
/// the server put on the wire: heads, `Content-Length` bodies, chunked bodies read whole or chunk by chunk, closes.
/// The one raw client of every test target (BrowserHTTP's and the assembly's), for servers built on BrowserHTTP.
///
/// Reads block with a timeout, so each runs on a thread of its own (`Thread.detachNewThread`): blocking the small
/// Swift concurrency pool would starve the server's own handler tasks. Not on `DispatchQueue.global()`: on Linux that
/// is the same pool of threads (dispatch's default root queue, as wide as the machine has cores), and a few reads
/// waiting there stalled every suite of the test process for as long as their timeout.
///
/// `@unchecked Sendable`: a test uses one client from one task, one call after another; it crosses threads only for
/// that hop.
public final class RawHTTPClient: @unchecked Sendable {
    /// A response as read off the wire.
    public struct Response: Sendable {
        public let statusLine: String
        public let status: Int
        public let headers: [(name: String, value: String)]
        /// The body (empty for a head read with `bodyless`, or of a chunked response read with `readHead`).
        public let body: [UInt8]
        /// The exact bytes of head and body as received.
        public let raw: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public func headers(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
        public var rawText: String { String(decoding: raw, as: UTF8.self) }

        /// The body as a JSON object; throws when it is not one.
        public func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                throw NotAJSONObject(text: text)
            }
            return object
        }
    }

    public struct NotAJSONObject: Error, CustomStringConvertible {
        public let text: String
        public var description: String { "not a JSON object: \(text.prefix(200))" }
    }

    /// What came back for one request: a response, a close without one, or nothing within the read timeout.
    public enum Outcome: Sendable {
        case response(Response)
        case closed
        case timedOut

        public var status: Int? { response?.status }

        public var response: Response? {
            if case .response(let response) = self { return response }
            return nil
        }
    }

    /// What one read from the socket gave.
    public enum ReadOutcome: Equatable, Sendable {
        case data
        /// The server closed the connection (FIN or reset).
        case closed
        case timedOut
    }

    /// A chunked response (RFC 9112 §7.1) read to its end: its head, the chunks' data, and whether the last chunk
    /// came (false when the server closed the connection before it: a body cut short).
    public struct ChunkedResponse: Sendable {
        public let head: Response
        public let body: [UInt8]
        public let complete: Bool
    }

    /// One piece of a chunked body: its data, its last chunk, or a connection closed (or silent) before either.
    public enum Chunk: Sendable, Equatable {
        case data([UInt8])
        case end
        case cut
    }

    private let fd: Int32
    private var pending: [UInt8] = []
    public private(set) var peerClosed = false

    /// Connects to 127.0.0.1:`port` from `source` (any 127.x.y.z address works on Linux, which routes the whole 127/8
    /// block to loopback: how tests play several client machines).
    ///
    /// `readTimeout` bounds each wait for bytes; it never delays a passing test: 30 s by default, because on a loaded
    /// 2-core CI machine the server's handlers can wait seconds for the cooperative pool while CPU-heavy suites run
    /// beside (CI once failed on a 5 s deadline). Tests that expect silence pass a short timeout of their own.
    public init(port: UInt16, from source: String? = nil, readTimeout: TimeInterval = 30) throws {
        DescriptorLimit.raised
        fd = try Self.connectedSocket(port: port, from: source)
        setReadTimeout(readTimeout)
    }

    /// A socket connected to 127.0.0.1:`port`, closed here when binding or connecting fails. Made before `self` is
    /// whole on purpose: an initializer that throws after every stored property is set still runs `deinit`, which
    /// would close the descriptor a second time — by then possibly another test's socket or file with the same
    /// number (all test targets share one process).
    private static func connectedSocket(port: UInt16, from source: String?) throws -> Int32 {
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ECONNREFUSED)
        }
        return fd
    }

    deinit { close(fd) }

    public func setReadTimeout(_ seconds: TimeInterval) {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: .init(Int((seconds - Double(Int(seconds))) * 1_000_000)))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Ends the connection in both directions now (the descriptor is closed when the client goes away).
    public func shutdownBoth() {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    // MARK: Sending

    /// Sends every byte; false once the server has closed the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let flags: Int32 = 0
            #else
            let flags = Int32(MSG_NOSIGNAL)
            #endif
            let written = bytes[offset...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, flags) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends a whole request on a fresh connection and reads its response.
    public static func exchange(_ request: String, port: UInt16) async throws -> Outcome {
        try await exchange(Array(request.utf8), port: port)
    }

    public static func exchange(_ request: [UInt8], port: UInt16) async throws -> Outcome {
        let client = try RawHTTPClient(port: port)
        client.send(request)
        return await client.read(bodyless: request.starts(with: Array("HEAD ".utf8)))
    }

    // MARK: Reading (each read on a thread of its own)

    private static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    /// Reads one response (`bodyless` for HEAD: its `Content-Length` describes a body that is not sent).
    public func read(bodyless: Bool = false) async -> Outcome {
        await Self.offPool { self.blockingRead(bodyless: bodyless) }
    }

    /// One response, or nil when the connection closed or the read timed out first.
    public func readResponse(bodyless: Bool = false) async -> Response? {
        await read(bodyless: bodyless).response
    }

    /// Reads one chunk of whatever the server sends next.
    @discardableResult
    public func readMore() async -> ReadOutcome {
        await Self.offPool { self.fill() }
    }

    /// Reads until the server closes; returns everything received (bytes already buffered included), or nil if
    /// the read timeout passed first.
    public func readUntilClose() async -> [UInt8]? {
        await Self.offPool {
            while true {
                switch self.fill() {
                case .data: continue
                case .closed:
                    defer { self.pending = [] }
                    return self.pending
                case .timedOut: return nil
                }
            }
        }
    }

    /// Waits for the server to close the connection: `.closed` if it did so without sending anything more, `.data`
    /// if bytes came instead, `.timedOut` otherwise.
    public func waitForClose() async -> ReadOutcome {
        await Self.offPool {
            guard self.pending.isEmpty else { return .data }
            let outcome = self.fill()
            return outcome == .closed && !self.pending.isEmpty ? .data : outcome
        }
    }

    /// The next `count` bytes exactly (consumed), or nil if the connection closed or timed out first.
    public func readExactly(_ count: Int) async -> [UInt8]? {
        await Self.offPool {
            while self.pending.count < count {
                if self.fill() != .data { return nil }
            }
            defer { self.pending.removeFirst(count) }
            return Array(self.pending[0..<count])
        }
    }

    /// Bytes received but not consumed yet.
    public var unconsumed: [UInt8] { pending }

    /// Reads one response whose body is chunked, to its end; nil when no response head came.
    public func readChunked() async -> ChunkedResponse? {
        await Self.offPool {
            guard case .response(let head) = self.blockingRead(bodyless: true) else { return nil }
            var body: [UInt8] = []
            while true {
                switch self.blockingNextChunk() {
                case .data(let data): body += data
                case .end: return ChunkedResponse(head: head, body: body, complete: true)
                case .cut: return ChunkedResponse(head: head, body: body + self.pending, complete: false)
                }
            }
        }
    }

    /// The head of a response whose body is then read chunk by chunk with `nextChunk` (an event stream).
    public func readHead() async -> Response? {
        await Self.offPool { self.blockingRead(bodyless: true).response }
    }

    public func nextChunk() async -> Chunk {
        await Self.offPool { self.blockingNextChunk() }
    }

    // MARK: Parsing

    private func fill() -> ReadOutcome {
        if peerClosed { return .closed }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending.append(contentsOf: buffer[0..<count])
                return .data
            }
            if count == 0 {
                peerClosed = true
                return .closed
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .timedOut }
            peerClosed = true  // ECONNRESET and friends
            return .closed
        }
    }

    private func blockingRead(bodyless: Bool) -> Outcome {
        var headEnd: Int?
        while true {
            headEnd = findHeadEnd()
            if headEnd != nil { break }
            switch fill() {
            case .data: continue
            case .closed: return .closed
            case .timedOut: return .timedOut
            }
        }
        let end = headEnd!
        let lines = String(decoding: pending[0..<end], as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let statusLine = lines.first else { return .closed }
        let statusParts = statusLine.split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return .closed }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let length = bodyless ? 0 : headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        while pending.count < end + length {
            if fill() != .data { return .closed }
        }
        let raw = Array(pending[0..<end + length])
        pending.removeFirst(end + length)
        return .response(Response(statusLine: statusLine, status: status, headers: headers, body: Array(raw[end...]), raw: raw))
    }

    private func findHeadEnd() -> Int? {
        guard pending.count >= 4 else { return nil }
        for index in 0...(pending.count - 4)
        where pending[index] == 13 && pending[index + 1] == 10 && pending[index + 2] == 13 && pending[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private func blockingNextChunk() -> Chunk {
        func line() -> [UInt8]? {
            while true {
                if let end = pending.indices.dropLast().first(where: { pending[$0] == 13 && pending[$0 + 1] == 10 }) {
                    let text = Array(pending[..<end])
                    pending.removeFirst(end + 2)
                    return text
                }
                if fill() != .data { return nil }
            }
        }
        guard let sizeLine = line(),
              let size = Int(String(decoding: sizeLine, as: UTF8.self).split(separator: ";").first ?? "", radix: 16)
        else { return .cut }
        if size == 0 {
            _ = line()  // the empty line after the last chunk (no trailers)
            return .end
        }
        while pending.count < size + 2 {
            if fill() != .data { return .cut }
        }
        let data = Array(pending[0..<size])
        pending.removeFirst(size + 2)
        return .data(data)
    }
}
