import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A parsed response as read off the wire.
struct RawResponse: Sendable {
    var statusLine: String
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// The exact bytes of head and body as received.
    var raw: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var bodyText: String { String(decoding: body, as: UTF8.self) }
    var rawText: String { String(decoding: raw, as: UTF8.self) }
}

enum ReadOutcome: Equatable, Sendable {
    case data
    /// The server closed the connection (FIN or reset).
    case closed
    case timedOut
}

/// A test client on raw sockets: sends exact bytes and parses responses itself, so tests
/// see precisely what the server put on the wire.
///
/// Reads block (with a timeout), so the async methods run them on a GCD thread: blocking
/// a thread of the Swift concurrency pool could starve the server's handler tasks,
/// which run on that same small pool (2 threads on a 2-core machine).
///
/// `@unchecked Sendable`: one test uses a client at a time, one call after another; the
/// only reason it crosses threads is that hop to GCD.
final class RawClient: @unchecked Sendable {
    let fd: Int32
    private var pending: [UInt8] = []
    private(set) var peerClosed = false

    /// Connects to 127.0.0.1:`port` from `source` (any 127.x.y.z address works on Linux, which routes the
    /// whole 127/8 block to loopback: how tests play several client machines).
    /// `readTimeout` bounds each wait for bytes. It is a deadline for a server that never answers, not a timing
    /// expectation: 30 s, because a loaded 2-core CI machine once took more than 5 s to answer a request after a
    /// 4 MiB response (CI failed on it); a correct server answers in milliseconds.
    init(port: UInt16, from source: String? = nil, readTimeout: TimeInterval = 30) throws {
        DescriptorLimit.raised
        fd = try Self.connectedSocket(port: port, from: source)
        setReadTimeout(readTimeout)
    }

    /// A socket connected to 127.0.0.1:`port`, closed here when binding or connecting fails. Made before `self`
    /// is whole on purpose: an initializer that throws after every stored property is set still runs `deinit`,
    /// which would close the descriptor a second time — by then possibly another test's socket or file with the
    /// same number (all test targets share one process).
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
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                _ = closeSocket(fd)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            _ = closeSocket(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return fd
    }

    deinit {
        _ = closeSocket(fd)
    }

    /// Ends the connection in both directions now (the descriptor is closed when the client goes away).
    func shutdownBoth() {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    func setReadTimeout(_ seconds: TimeInterval) {
        var timeout = timeval(
            tv_sec: Int(seconds), tv_usec: .init(Int((seconds - Double(Int(seconds))) * 1_000_000)))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends every byte; returns false if the server already closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let flags: Int32 = 0
            #else
            let flags = Int32(MSG_NOSIGNAL)
            #endif
            let written = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Darwin)
                Darwin.send(fd, buffer.baseAddress, buffer.count, flags)
                #else
                Glibc.send(fd, buffer.baseAddress, buffer.count, flags)
                #endif
            }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    private static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    /// Reads one chunk of whatever the server sends next.
    @discardableResult
    func readMore() async -> ReadOutcome {
        await Self.offPool { self.blockingReadMore() }
    }

    /// Reads until the server closes; returns everything received (including bytes
    /// already buffered), or nil if the read timeout passed first.
    func readUntilClose() async -> [UInt8]? {
        await Self.offPool { self.blockingReadUntilClose() }
    }

    /// Waits for the server to close the connection: `.closed` if it did so without
    /// sending anything more, `.data` if bytes came instead, `.timedOut` otherwise.
    func waitForClose() async -> ReadOutcome {
        await Self.offPool { self.blockingWaitForClose() }
    }

    /// Parses one response. `bodyless` is for HEAD requests (Content-Length describes a
    /// body that is not sent). Returns nil if the connection closed or timed out first.
    func readResponse(bodyless: Bool = false) async -> RawResponse? {
        await Self.offPool { self.blockingReadResponse(bodyless: bodyless) }
    }

    private func blockingReadMore() -> ReadOutcome {
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

    private func blockingReadUntilClose() -> [UInt8]? {
        while true {
            switch blockingReadMore() {
            case .data: continue
            case .closed:
                defer { pending = [] }
                return pending
            case .timedOut: return nil
            }
        }
    }

    private func blockingWaitForClose() -> ReadOutcome {
        guard pending.isEmpty else { return .data }
        let outcome = blockingReadMore()
        return outcome == .closed && !pending.isEmpty ? .data : outcome
    }

    private func blockingReadResponse(bodyless: Bool) -> RawResponse? {
        var headEnd: Int?
        while true {
            headEnd = findHeadEnd()
            if headEnd != nil { break }
            if blockingReadMore() != .data { return nil }
        }
        let headBytes = Array(pending[0..<headEnd!])
        let lines = String(decoding: headBytes, as: UTF8.self)
            .components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let statusLine = lines.first else { return nil }
        let statusParts = statusLine.split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (
                    name: String(line[..<colon]),
                    value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                ))
        }
        let lengthHeader = headers.first { $0.name.lowercased() == "content-length" }?.value
        let bodyLength = bodyless ? 0 : (lengthHeader.flatMap { Int($0) } ?? 0)
        while pending.count < headEnd! + bodyLength {
            if blockingReadMore() != .data { return nil }
        }
        let total = headEnd! + bodyLength
        let raw = Array(pending[0..<total])
        pending.removeFirst(total)
        return RawResponse(
            statusLine: statusLine, status: status, headers: headers,
            body: Array(raw[headEnd!...]), raw: raw)
    }

    private func findHeadEnd() -> Int? {
        guard pending.count >= 4 else { return nil }
        for index in 0...(pending.count - 4)
        where pending[index] == 13 && pending[index + 1] == 10 && pending[index + 2] == 13
            && pending[index + 3] == 10
        {
            return index + 4
        }
        return nil
    }

    /// The next `count` bytes exactly (consumed), or nil if the connection closed or timed out first.
    func readExactly(_ count: Int) async -> [UInt8]? {
        await Self.offPool {
            while self.pending.count < count {
                if self.blockingReadMore() != .data { return nil }
            }
            defer { self.pending.removeFirst(count) }
            return Array(self.pending[0..<count])
        }
    }

    /// Bytes received but not consumed by `readResponse`.
    var unconsumed: [UInt8] { pending }
}

private func closeSocket(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
    Darwin.close(fd)
    #else
    Glibc.close(fd)
    #endif
}
