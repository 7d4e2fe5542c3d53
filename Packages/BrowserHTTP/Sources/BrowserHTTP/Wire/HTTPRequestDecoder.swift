import Foundation

/// Incremental HTTP/1.1 request decoder (RFC 9112), independent of sockets.
///
/// Feed it byte chunks as they arrive with `feed(_:)`, then call `nextRequest()` until
/// it returns nil (needs more bytes). Several pipelined requests in one chunk come out
/// one per call, in order; bytes after the current request stay buffered.
///
/// Limits are checked on every call against the bytes received so far, so an oversized
/// request line or header section fails as soon as it crosses the limit, without
/// waiting for a line ending that may never come.
///
/// After an error the decoder stays in `.failed` and keeps throwing it: the framing of
/// anything that follows cannot be trusted, so the connection must be closed.
struct HTTPRequestDecoder {
    typealias Error = HTTPParseError

    enum State: Equatable {
        /// Waiting for (the rest of) a request line.
        case requestLine
        /// Request line parsed; reading field lines.
        case headers
        /// Header section complete and the request has a body; nothing of it is decoded until `allowBody()`
        /// (`pausesBeforeBody` only): the server first decides from the head alone whether it wants the body.
        case awaitingBodyPermission(expected: Int)
        /// Header section complete; waiting for `expected` body bytes.
        case body(expected: Int)
        /// A fatal error occurred; every later call rethrows it.
        case failed(HTTPParseError)
    }

    private(set) var state: State = .requestLine
    let limits: HTTPServerLimits
    /// Stop after the head of a request with a body, until `allowBody()` (see `headAwaitingBodyPermission`).
    let pausesBeforeBody: Bool

    private var buffer: [UInt8] = []
    /// Start of the unconsumed bytes in `buffer`.
    private var readIndex = 0
    /// How many unconsumed bytes were already searched for LF without finding one, so a
    /// line arriving one byte at a time is not rescanned from its start each time.
    private var scannedCount = 0

    // The request being assembled while in `.headers` / `.body`.
    private var pending: HTTPRequest?
    private var headerBytes = 0
    private var headerCount = 0
    /// List elements so far per lowercased field name, for `maxListElementsPerHeader`.
    private var listElementCounts: [String: Int] = [:]
    private var cookieCount = 0
    /// The current request asked for `100 Continue` before sending its body.
    private var continueRequested = false

    init(limits: HTTPServerLimits = HTTPServerLimits(), pausesBeforeBody: Bool = false) {
        self.limits = limits
        self.pausesBeforeBody = pausesBeforeBody
    }

    /// The head of the request whose body waits for `allowBody()`, or nil.
    var headAwaitingBodyPermission: HTTPRequest? {
        guard case .awaitingBodyPermission = state else { return nil }
        return pending
    }

    /// Lets the body of the request in `headAwaitingBodyPermission` be decoded.
    mutating func allowBody() {
        guard case .awaitingBodyPermission(let expected) = state else { return }
        state = .body(expected: expected)
    }

    /// Appends received bytes. Nothing is parsed until `nextRequest()`.
    mutating func feed<C: Collection<UInt8>>(_ bytes: C) {
        buffer.append(contentsOf: bytes)
    }

    /// What the server feeds (its receive buffer): copied as one block. The generic version copies a raw buffer
    /// byte by byte in an unoptimized build, a cost paid for every byte a client without the token sends.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Bytes received but not yet consumed by a returned request.
    var bufferedByteCount: Int { buffer.count - readIndex }

    /// True once any byte of a request has arrived that has not been returned yet —
    /// the server uses it to choose between the idle and the request timeout.
    var isMidRequest: Bool {
        state != .requestLine || bufferedByteCount > 0
    }

    /// Returns the next complete request, or nil if more bytes are needed.
    mutating func nextRequest() throws(HTTPParseError) -> HTTPRequest? {
        do {
            return try decodeNext()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func decodeNext() throws(HTTPParseError) -> HTTPRequest? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .requestLine:
                skipLeadingEmptyLines()
                guard let line = try nextLine(limit: limits.maxRequestLineBytes, onOverflow: .requestLineTooLong)
                else { return nil }
                pending = try Self.parseRequestLine(line.content)
                headerBytes = 0
                headerCount = 0
                listElementCounts.removeAll(keepingCapacity: true)
                cookieCount = 0
                state = .headers
            case .headers:
                // The section limit counts all field lines and the final empty line, so
                // the space left for the current line is what the section has not used.
                guard let line = try nextLine(
                    limit: limits.maxHeaderBytes - headerBytes, countingTerminator: true,
                    onOverflow: .headerSectionTooLarge)
                else { return nil }
                headerBytes += line.lengthWithTerminator
                if line.content.isEmpty {
                    if let request = try finishHead() { return request }
                } else {
                    headerCount += 1
                    guard headerCount <= limits.maxHeaderCount else { throw .tooManyHeaders }
                    let field = try Self.parseFieldLine(line.content)
                    try countListElements(field)
                    pending?.headers.add(field.name, field.value)
                }
            case .awaitingBodyPermission:
                return nil
            case .body(let expected):
                guard bufferedByteCount >= expected else { return nil }
                pending?.body = Data(buffer[readIndex..<readIndex + expected])
                consume(expected)
                return completeRequest()
            }
        }
    }

    // MARK: - Lines

    private struct Line {
        var content: ArraySlice<UInt8>
        var lengthWithTerminator: Int
    }

    /// RFC 9112 §2.2: a server SHOULD ignore at least one empty line received before the
    /// request-line (some clients send an extra CRLF after a POST body).
    private mutating func skipLeadingEmptyLines() {
        while readIndex < buffer.count {
            if buffer[readIndex] == ASCII.lf {
                consume(1)
            } else if buffer[readIndex] == ASCII.cr, readIndex + 1 < buffer.count,
                buffer[readIndex + 1] == ASCII.lf
            {
                consume(2)
            } else {
                return
            }
        }
    }

    /// Extracts the next line if its LF has arrived.
    ///
    /// Line endings are CRLF; a bare LF is also accepted (RFC 9112 §2.2 allows a
    /// recipient to recognize a single LF). A CR not followed by LF stays in the
    /// content, where the control-character checks reject it.
    ///
    /// - Parameters:
    ///   - limit: maximum line length — without the line ending, or with it when
    ///     `countingTerminator` is set.
    ///   - onOverflow: thrown as soon as the buffered bytes prove the line is too long.
    private mutating func nextLine(
        limit: Int, countingTerminator: Bool = false, onOverflow: HTTPParseError
    ) throws(HTTPParseError) -> Line? {
        let searchStart = readIndex + scannedCount
        // Over raw bytes (see `ASCII.firstIndex`).
        let found = buffer.withUnsafeBufferPointer { bytes in
            ASCII.firstIndex(of: ASCII.lf, in: UnsafeBufferPointer(rebasing: bytes[searchStart...])).map { $0 + searchStart }
        }
        guard let lf = found else {
            scannedCount = bufferedByteCount
            // Without a line ending yet, decide whether the line can still fit.
            var length = bufferedByteCount
            if countingTerminator {
                length += 1  // the LF that must still come
            } else if length > 0, buffer.last == ASCII.cr {
                length -= 1  // a trailing CR may be the start of the CRLF
            }
            if length > limit { throw onOverflow }
            return nil
        }
        var contentEnd = lf
        if contentEnd > readIndex, buffer[contentEnd - 1] == ASCII.cr { contentEnd -= 1 }
        let lengthWithTerminator = lf + 1 - readIndex
        let length = countingTerminator ? lengthWithTerminator : contentEnd - readIndex
        if length > limit { throw onOverflow }
        let content = buffer[readIndex..<contentEnd]
        consume(lengthWithTerminator)
        return Line(content: content, lengthWithTerminator: lengthWithTerminator)
    }

    private mutating func consume(_ count: Int) {
        readIndex += count
        scannedCount = 0
        // Compact once the consumed prefix dominates, keeping appends amortized O(1)
        // without shifting the buffer after every pipelined request.
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 16 * 1024)
            readIndex = 0
        } else if readIndex >= 4096, readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }

    // MARK: - Request line (RFC 9112 §3)

    /// request-line = method SP request-target SP HTTP-version
    static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPRequest {
        // Controls (NUL, bare CR, HTAB, ...) are never valid here; rejecting them keeps
        // the lenient-whitespace smuggling tricks of RFC 9112 §3 out.
        guard !line.contains(where: ASCII.isControl) else { throw .malformedRequestLine }
        let parts = line.split(separator: ASCII.space, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts.contains(where: \.isEmpty) else { throw .malformedRequestLine }
        guard ASCII.isToken(parts[0]) else { throw .invalidMethod }
        let version = try parseVersion(parts[2])
        guard let target = ASCII.strictUTF8(parts[1]) else { throw .invalidRequestTarget }
        let method = HTTPMethod(rawValue: String(decoding: parts[0], as: UTF8.self))
        return try HTTPRequest(method: method, target: target, version: version)
    }

    /// HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3). A well-formed version
    /// other than 1.0/1.1 is 505; anything else is a malformed request line.
    static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> String {
        let version = String(decoding: bytes, as: UTF8.self)
        let utf8 = Array(bytes)
        guard utf8.count == 8, version.hasPrefix("HTTP/"), ASCII.isDigit(utf8[5]),
            utf8[6] == UInt8(ascii: "."), ASCII.isDigit(utf8[7])
        else { throw .malformedRequestLine }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw .unsupportedVersion(version)
        }
        return version
    }

    // MARK: - Field lines (RFC 9112 §5)

    /// A parsed field line, with the separators its value holds (for `countListElements`).
    struct FieldLine {
        var name: String
        var value: String
        var commas: Int
        var semicolons: Int
    }

    /// field-line = field-name ":" OWS field-value OWS
    ///
    /// The value is checked and its separators counted in one pass over raw bytes: header bytes arrive before
    /// anyone is known to hold the token, so a 30 KB line must cost one cheap scan, not one generic pass per check.
    static func parseFieldLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> FieldLine {
        // A line starting with whitespace is obs-fold (or whitespace after the request
        // line, §2.2); a server MUST reject it or unfold it (§5.2). Rejecting is simpler
        // and no modern client folds.
        if line.first == ASCII.space || line.first == ASCII.tab { throw .obsoleteLineFolding }
        let parsed: (name: Range<Int>, value: Range<Int>, commas: Int, semicolons: Int, ascii: Bool)? =
            line.withUnsafeBufferPointer { bytes in
                guard let colon = ASCII.firstIndex(of: ASCII.colon, in: bytes) else { return nil }
                // No whitespace is allowed between name and colon (RFC 9112 §5.1); the token
                // check rejects it along with every other non-token byte.
                guard colon > 0, bytes[..<colon].allSatisfy(ASCII.isTokenChar) else { return nil }
                var start = colon + 1
                var end = bytes.count
                while start < end, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
                while end > start, bytes[end - 1] == ASCII.space || bytes[end - 1] == ASCII.tab { end -= 1 }
                // field-value allows HTAB, visible ASCII and obs-text; NUL, CR, LF and other
                // controls are rejected (RFC 9110 §5.5).
                var commas = 0
                var semicolons = 0
                var ascii = true
                var index = start
                while index < end {
                    let byte = bytes[index]
                    if byte < 0x20 {
                        guard byte == ASCII.tab else { return nil }
                    } else if byte == ASCII.comma {
                        commas += 1
                    } else if byte == ASCII.semicolon {
                        semicolons += 1
                    } else if byte >= 0x7F {
                        guard byte != 0x7F else { return nil }
                        ascii = false
                    }
                    index += 1
                }
                return (0..<colon, start..<end, commas, semicolons, ascii)
            }
        guard let parsed else { throw .malformedHeader }
        let base = line.startIndex
        let name = line[(base + parsed.name.lowerBound)..<(base + parsed.name.upperBound)]
        let value = line[(base + parsed.value.lowerBound)..<(base + parsed.value.upperBound)]
        let text = parsed.ascii
            ? value.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
            : decodeFieldValue(value)
        return FieldLine(
            name: String(decoding: name, as: UTF8.self), value: text, commas: parsed.commas,
            semicolons: parsed.semicolons)
    }

    /// Field values are octets; UTF-8 is what clients send in practice, and ISO-8859-1
    /// (which maps every byte) is the historical fallback, so nothing is lost or replaced.
    static func decodeFieldValue(_ bytes: ArraySlice<UInt8>) -> String {
        if let string = ASCII.strictUTF8(bytes) { return string }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// Bounds what later look-ups of lists (`Connection`, `Expect`, cookies) can cost, from the separators
    /// `parseFieldLine` counted. Every comma counts, empty elements included (they still cost a look-up its split);
    /// `Cookie` pairs are separated by ";" (RFC 6265 §4.2.1) and counted against their own limit.
    private mutating func countListElements(_ field: FieldLine) throws(HTTPParseError) {
        if HTTPHeaders.namesMatch(field.name, HTTPHeaderName.cookie) {
            cookieCount += field.semicolons + 1
            guard cookieCount <= limits.maxCookiesPerRequest else { throw .tooManyCookies }
            return
        }
        let key = String(decoding: field.name.utf8.map(ASCII.lowercased), as: UTF8.self)
        let total = listElementCounts[key, default: 0] + field.commas + 1
        guard total <= limits.maxListElementsPerHeader else { throw .tooManyListElements }
        listElementCounts[key] = total
    }

    // MARK: - Message framing

    /// Validates the completed header section and decides how the body is framed
    /// (RFC 9112 §6.3). Returns the request when it has no body.
    private mutating func finishHead() throws(HTTPParseError) -> HTTPRequest? {
        guard let request = pending else { throw .malformedRequestLine }
        let headers = request.headers

        // RFC 9112 §3.2: a server MUST respond 400 to an HTTP/1.1 request without Host
        // and to any request with more than one Host field line.
        let hostCount = headers.values(for: HTTPHeaderName.host).count
        if hostCount > 1 || (hostCount == 0 && request.version == "HTTP/1.1") {
            throw .invalidHost
        }
        // One authority for every check that reads it (`HTTPRequest.authority`): an absolute-form target must name
        // the host `Host` names (ASCII case-insensitively; a client sending one fills in the other from it).
        if let targetAuthority = request.targetAuthority, let host = headers[HTTPHeaderName.host],
           !HTTPHeaders.namesMatch(targetAuthority, host) {
            throw .hostMismatch
        }

        // RFC 9112 §6.3 item 3: Transfer-Encoding together with Content-Length may be an
        // attempt at request smuggling and MUST be treated as an error; the connection is
        // closed afterwards. Transfer-Encoding alone would mean a chunked body, which this
        // server does not decode (501, RFC 9112 §6.1).
        if headers.contains(HTTPHeaderName.transferEncoding) {
            throw headers.contains(HTTPHeaderName.contentLength)
                ? .transferEncodingWithContentLength : .unsupportedTransferEncoding
        }

        let length = try Self.contentLength(headers)
        // Checked before reading any body byte, and nothing is reserved from it.
        guard length <= limits.maxBodyBytes else { throw .bodyTooLarge }
        if length == 0 {
            return completeRequest()
        }
        // RFC 9110 §10.1.1: a client sending "Expect: 100-continue" waits for an interim
        // response before the body (curl does for larger uploads). Ignored for HTTP/1.0.
        continueRequested =
            request.version == "HTTP/1.1"
            && headers.listElements(for: HTTPHeaderName.expect).contains { HTTPHeaders.namesMatch(String($0), "100-continue") }
        state = pausesBeforeBody ? .awaitingBodyPermission(expected: length) : .body(expected: length)
        return nil
    }

    /// True once per request if the client is waiting for `100 Continue` before sending
    /// its body; the caller should then send the interim response.
    mutating func takeContinueRequest() -> Bool {
        defer { continueRequested = false }
        return continueRequested
    }

    /// Content-Length = 1*DIGIT (RFC 9110 §8.6). Repeated identical values (as separate
    /// lines or a list, e.g. "5, 5") are accepted as the RFC allows; differing, empty,
    /// signed or non-numeric values are errors (RFC 9112 §6.3 item 5). Values too large
    /// for Int saturate so they fail the body limit (413) instead of overflowing.
    static func contentLength(_ headers: HTTPHeaders) throws(HTTPParseError) -> Int {
        let values = headers.values(for: HTTPHeaderName.contentLength)
        guard !values.isEmpty else { return 0 }
        var result: Int?
        for value in values {
            for element in value.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = element.trimmingOWS.utf8
                guard !digits.isEmpty, digits.allSatisfy(ASCII.isDigit) else {
                    throw .invalidContentLength
                }
                var number = 0
                for digit in digits {
                    let (times10, overflow1) = number.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - 0x30))
                    if overflow1 || overflow2 {
                        number = Int.max
                        break
                    }
                    number = sum
                }
                if let result, result != number { throw .invalidContentLength }
                result = number
            }
        }
        return result ?? 0
    }

    private mutating func completeRequest() -> HTTPRequest? {
        let request = pending
        pending = nil
        continueRequested = false
        state = .requestLine
        return request
    }
}
