import Foundation

/// Serializes a response head and body for the wire (RFC 9112 §4, §6).
enum HTTPResponseEncoder {
    /// Headers owned by the server: it frames every message itself, so values set by a
    /// handler would be wrong or dangerous (a stray `Transfer-Encoding` would break
    /// framing for the client).
    private static let framingHeaders = [HTTPHeaderName.contentLength, HTTPHeaderName.transferEncoding, HTTPHeaderName.connection]

    /// How the body's end is marked on the wire.
    enum BodyFraming: Equatable {
        case contentLength(Int)
        /// RFC 9112 §7.1: pieces of known size, then a zero-size one.
        case chunked
        /// HTTP/1.0 without a length: the body ends when the connection closes.
        case untilClose
    }

    /// - Parameters:
    ///   - requestMethod: for HEAD the body is omitted but Content-Length still
    ///     announces the GET body length (RFC 9110 §9.3.2).
    ///   - keepAlive: false adds `Connection: close`; an HTTP/1.0 client that asked for
    ///     keep-alive gets `Connection: keep-alive`, since 1.0 closes by default.
    static func encode(
        _ response: HTTPResponse, requestMethod: HTTPMethod?, requestVersion: String, keepAlive: Bool
    ) -> [UInt8] {
        var length = response.body.count
        // An explicit HEAD handler cannot produce the body, but may announce its size.
        if requestMethod == .HEAD, response.body.isEmpty,
            let declared = response.headers[HTTPHeaderName.contentLength].flatMap({ Int($0) }), declared >= 0
        {
            length = declared
        }
        var bytes = encodeHead(
            response, framing: .contentLength(length), requestVersion: requestVersion, keepAlive: keepAlive)
        if response.status.allowsBody, requestMethod != .HEAD {
            bytes.append(contentsOf: response.body)
        }
        return bytes
    }

    /// The status line and header section, with the framing headers `framing` calls for.
    static func encodeHead(
        _ response: HTTPResponse, framing: BodyFraming, requestVersion: String, keepAlive: Bool
    ) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status.code) \(sanitizedReason(response.status.reason))\r\n"
        for (name, value) in response.headers
        where !framingHeaders.contains(where: { HTTPHeaders.namesMatch($0, name) }) {
            // Skipping fields that are not valid on the wire prevents response splitting
            // through a header value that came from user data.
            guard ASCII.isToken(name.utf8),
                !value.utf8.contains(where: { ASCII.isControl($0) && $0 != ASCII.tab })
            else { continue }
            head += "\(name): \(value)\r\n"
        }
        // RFC 9110 §8.6: no Content-Length in 1xx/204; for 304 it would have to describe
        // the unsent representation, so it is omitted too.
        if response.status.allowsBody {
            switch framing {
            case .contentLength(let length): head += "Content-Length: \(length)\r\n"
            case .chunked: head += "Transfer-Encoding: chunked\r\n"
            case .untilClose: break
            }
        }
        if !keepAlive {
            head += "Connection: close\r\n"
        } else if requestVersion == "HTTP/1.0" {
            head += "Connection: keep-alive\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// One piece of a chunked body: its size in hex, the bytes, CRLF.
    static func chunk(_ data: Data) -> [UInt8] {
        var bytes = Array("\(String(data.count, radix: 16))\r\n".utf8)
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: [ASCII.cr, ASCII.lf])
        return bytes
    }

    /// The zero-size piece that ends a chunked body, with no trailer section.
    static let lastChunk = Array("0\r\n\r\n".utf8)

    private static func sanitizedReason(_ reason: String) -> String {
        String(reason.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
    }
}
