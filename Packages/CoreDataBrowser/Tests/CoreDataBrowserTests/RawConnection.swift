import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection to 127.0.0.1 that sends exact bytes and parses responses itself, so a test controls
/// every byte (hostile input, a `Host` that URLSession would never send) and sees exactly what came back.
///
/// Reads block with a timeout, so each runs on a thread of its own (`Thread.detachNewThread`): blocking the small
/// Swift concurrency pool would starve the server's own handler tasks. Not on `DispatchQueue.global()`: on Linux
/// that is the same pool of threads (dispatch's default root queue, as wide as the machine has cores), and a few
/// reads waiting there stalled every suite of the test process for as long as their timeout. `@unchecked Sendable`: a test uses one connection from one task.
final class RawConnection: @unchecked Sendable {
    struct Response: Sendable {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        func headers(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        }
    }

    /// What came back for one request: a response, a close without one, or nothing within the timeout.
    enum Outcome: Sendable {
        case response(Response)
        case closed
        case timedOut

        var status: Int? {
            if case .response(let response) = self { return response.status }
            return nil
        }
    }

    private let fd: Int32
    private var pending: [UInt8] = []
    private var peerClosed = false

    /// `readTimeout` bounds a wait, it never delays a passing test: 30 s by default, because on a loaded 2-core CI
    /// machine the server's handlers can wait seconds for the cooperative pool while CPU-heavy suites run beside.
    /// Tests that expect silence pass a short timeout of their own.
    init(port: UInt16, readTimeout: TimeInterval = 30) throws {
        DescriptorLimit.raised
        fd = try Self.connectedSocket(port: port)
        var timeout = timeval(tv_sec: Int(readTimeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A socket connected to 127.0.0.1:`port`, closed here when connecting fails. Made before `self` is whole on
    /// purpose: an initializer that throws after every stored property is set still runs `deinit`, which would
    /// close the descriptor a second time — by then possibly another test's socket or file with the same number.
    private static func connectedSocket(port: UInt16) throws -> Int32 {
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    deinit { close(fd) }

    /// Sends every byte; false once the server has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
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
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads one response (`bodyless` for HEAD).
    func read(bodyless: Bool = false) async -> Outcome {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.blockingRead(bodyless: bodyless)) }
        }
    }

    /// Waits until the server closes the connection, discarding anything it sends; false on timeout.
    func waitForClose() async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                while true {
                    switch self.fill() {
                    case .data: continue
                    case .closed: return continuation.resume(returning: true)
                    case .timedOut: return continuation.resume(returning: false)
                    }
                }
            }
        }
    }

    /// A chunked response (RFC 9112 §7.1) read to its end: its head, the chunks' data, and whether the last chunk
    /// came (false when the server closed the connection before it: a body cut short).
    struct ChunkedResponse: Sendable {
        let head: Response
        let body: [UInt8]
        let complete: Bool
    }

    /// Reads one response whose body is chunked; nil when no response head came.
    func readChunked() async -> ChunkedResponse? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.blockingReadChunked()) }
        }
    }

    private func blockingReadChunked() -> ChunkedResponse? {
        guard case .response(let head) = blockingRead(bodyless: true) else { return nil }
        var body: [UInt8] = []
        while true {
            switch blockingNextChunk() {
            case .data(let data): body += data
            case .end: return ChunkedResponse(head: head, body: body, complete: true)
            case .cut: return ChunkedResponse(head: head, body: body + pending, complete: false)
            }
        }
    }

    /// One piece of a chunked body: its data, its last chunk, or a connection closed (or silent) before either.
    enum Chunk: Sendable, Equatable {
        case data([UInt8])
        case end
        case cut
    }

    /// The head of a response whose body is read chunk by chunk with `nextChunk` (an event stream).
    func readHead() async -> Response? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                guard case .response(let head) = self.blockingRead(bodyless: true) else { return continuation.resume(returning: nil) }
                continuation.resume(returning: head)
            }
        }
    }

    func nextChunk() async -> Chunk {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.blockingNextChunk()) }
        }
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
        guard let sizeLine = line(), let size = Int(String(decoding: sizeLine, as: UTF8.self).split(separator: ";").first ?? "", radix: 16)
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

    /// Sends a whole request on a fresh connection and reads its response.
    static func exchange(_ request: String, port: UInt16) async throws -> Outcome {
        try await exchange(Array(request.utf8), port: port)
    }

    static func exchange(_ request: [UInt8], port: UInt16) async throws -> Outcome {
        let connection = try RawConnection(port: port)
        connection.send(request)
        return await connection.read(bodyless: request.starts(with: Array("HEAD ".utf8)))
    }

    private enum Fill { case data, closed, timedOut }

    private func fill() -> Fill {
        if peerClosed { return .closed }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending.append(contentsOf: buffer[0..<count])
                return .data
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .timedOut }
            peerClosed = true
            return .closed
        }
    }

    private func blockingRead(bodyless: Bool) -> Outcome {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            if pending.count >= 4 {
                headEnd = (0...(pending.count - 4)).first { pending[$0..<$0 + 4].elementsEqual(terminator) }.map { $0 + 4 }
            }
            if headEnd == nil {
                switch fill() {
                case .data: continue
                case .closed: return .closed
                case .timedOut: return .timedOut
                }
            }
        }
        let head = String(decoding: pending[0..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return .closed }
        var headers: [(name: String, value: String)] = []
        for line in head.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let length = bodyless ? 0 : headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        while pending.count < headEnd! + length {
            if fill() != .data { return .closed }
        }
        let body = Array(pending[headEnd!..<headEnd! + length])
        pending.removeFirst(headEnd! + length)
        return .response(Response(status: status, headers: headers, body: body))
    }
}
