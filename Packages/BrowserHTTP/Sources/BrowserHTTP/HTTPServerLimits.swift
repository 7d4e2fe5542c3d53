public import Foundation

/// Resource limits protecting the server from oversized or slow clients.
///
/// Size limits are enforced while bytes arrive, so an oversized request fails as soon as
/// it crosses the limit instead of being buffered first. Exceeding one answers with the
/// documented status and closes the connection.
public struct HTTPServerLimits: Sendable, Equatable {
    /// Maximum request-line length in bytes, excluding its CRLF.
    /// Default 8 KiB (RFC 9112 §3 recommends supporting at least 8000 octets).
    /// Exceeded → **414 URI Too Long**.
    public var maxRequestLineBytes = 8 * 1024

    /// Maximum size of the whole header section in bytes: every field line including
    /// its line ending, plus the empty line that ends the section (not the request line).
    /// Default 32 KiB. Exceeded → **431 Request Header Fields Too Large**.
    public var maxHeaderBytes = 32 * 1024

    /// Maximum number of header field lines. Default 100.
    /// Exceeded → **431 Request Header Fields Too Large**.
    public var maxHeaderCount = 100

    /// Maximum `Content-Length` accepted. Checked when the header section is complete,
    /// before any body byte is read; memory is never reserved from the client's claim.
    /// Default 1 MiB. Exceeded → **413 Content Too Large**.
    public var maxBodyBytes = 1024 * 1024

    /// Seconds allowed to receive one whole request, counted from its first byte. Also
    /// bounds how long a fresh connection may stay silent before its first request.
    /// Default 10 s. Exceeded with part of a request received → **408 Request Timeout**
    /// then close; exceeded on a silent fresh connection → closed without a response.
    public var requestTimeout: TimeInterval = 10

    /// Seconds an idle keep-alive connection (between requests) is kept open.
    /// Default 30 s. Exceeded → closed silently (RFC 9112 §9.5 allows closing idle
    /// connections at any time).
    public var keepAliveIdleTimeout: TimeInterval = 30

    /// Seconds a response may make no write progress (client not reading) before the
    /// connection is dropped. Default 30 s. Exceeded → closed; nothing more can be sent.
    public var writeTimeout: TimeInterval = 30

    /// Maximum simultaneously open client connections. Default 512.
    /// Exceeded → the new connection gets **503 Service Unavailable** and is closed.
    public var maxConnections = 512

    public init() {}
}
