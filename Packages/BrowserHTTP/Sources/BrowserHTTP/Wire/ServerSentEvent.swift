public import Foundation

/// One message of a Server-Sent Events stream (`text/event-stream`, HTML Living Standard §9.2 "Server-sent
/// events"), encoded for a streamed response body (`HTTPBodyProducer`). Each message ends with a blank line; a
/// data or comment text with line breaks becomes one field line per line, as the format requires (a bare line
/// break inside a field would end it).
public enum ServerSentEvent: Sendable, Hashable {
    /// A `message`-type event (`name` nil) or a named one, with an optional ID the client sends back as
    /// `Last-Event-ID` when it reconnects. An ID never holds a line break or NUL (the client would drop it).
    case event(id: String? = nil, name: String? = nil, data: String)
    /// A comment line, ignored by clients: a heartbeat that keeps proxies and the connection from idling out.
    case comment(String)
    /// How long the client waits before reconnecting after the stream ends.
    case retry(milliseconds: Int)

    public static let contentType = "text/event-stream; charset=utf-8"

    public var encoded: Data {
        var text = ""
        switch self {
        case .event(let id, let name, let data):
            if let id { text += "id: \(Self.singleLine(id))\n" }
            if let name { text += "event: \(Self.singleLine(name))\n" }
            for line in Self.lines(data) { text += "data: \(line)\n" }
        case .comment(let comment):
            for line in Self.lines(comment) { text += ": \(line)\n" }
        case .retry(let milliseconds):
            text += "retry: \(max(0, milliseconds))\n"
        }
        return Data((text + "\n").utf8)
    }

    /// The text's lines, split at CRLF, LF or CR (the three line ends the format knows).
    private static func lines(_ text: String) -> [Substring] {
        text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "\r", omittingEmptySubsequences: false) }
    }

    /// A field value that must stay on one line: line ends and NUL removed.
    private static func singleLine(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" && $0 != "\0" })
    }
}
