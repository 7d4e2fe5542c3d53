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

    /// Maximum comma-separated elements in one header field, all its field lines together (RFC 9110 §5.3: repeated
    /// lines form one list), `Cookie` excepted (see `maxCookiesPerRequest`). Default 64: a browser's longest lists
    /// (`Accept`, `Accept-Language`) hold about ten. Counted while the head is decoded, so a 30 KB
    /// `Connection: x,x,…` costs one pass over its bytes on the event-loop thread, not one string per element in
    /// every later look-up. Exceeded → **431 Request Header Fields Too Large**.
    public var maxListElementsPerHeader = 64

    /// Maximum cookies (`name=value` pairs of every `Cookie` line together). Default 180, the most a browser keeps
    /// for one host, so a host name shared with other development servers (`localhost`) still fits. Exceeded →
    /// **431 Request Header Fields Too Large**.
    public var maxCookiesPerRequest = 180

    /// Maximum `Content-Length` accepted. Checked when the header section is complete,
    /// before any body byte is read; memory is never reserved from the client's claim.
    /// Default 1 MiB. Exceeded → **413 Content Too Large**.
    public var maxBodyBytes = 1024 * 1024

    /// Seconds allowed to receive one whole request, counted from its first byte.
    /// Default 10 s. Exceeded → **408 Request Timeout** then close.
    public var requestTimeout: TimeInterval = 10

    /// Seconds an idle keep-alive connection (between requests) is kept open.
    /// Default 30 s. Exceeded → closed silently (RFC 9112 §9.5 allows closing idle
    /// connections at any time).
    public var keepAliveIdleTimeout: TimeInterval = 30

    /// Seconds a response may make no write progress (client not reading) before the
    /// connection is dropped. Default 30 s. Exceeded → closed; nothing more can be sent.
    public var writeTimeout: TimeInterval = 30

    /// Seconds a fresh connection may stay silent before its first request byte.
    /// Default 5 s, shorter than `keepAliveIdleTimeout`: a connection that has sent nothing has not shown it
    /// holds the token, and idle sockets are what a client on the network uses to fill the connection slots.
    /// Exceeded → closed without a response.
    public var firstRequestTimeout: TimeInterval = 5

    /// Maximum simultaneously open client connections. Default 512, lowered at `start()` to what the
    /// process's descriptor limit allows (see `reservedDescriptors`).
    /// Exceeded → the new connection gets **503 Service Unavailable** and is closed.
    public var maxConnections = 512

    /// Maximum simultaneously open connections from one client address (IPv4-mapped IPv6 addresses count
    /// as their IPv4 address). Default 32: a browser opens at most six per server, so one client using several
    /// tabs stays far below it, while a single machine on the network cannot take every slot.
    /// Exceeded → the new connection gets **503 Service Unavailable** and is closed.
    public var maxConnectionsPerAddress = 32

    /// Connection slots kept for connections that have shown their credentials (`HTTPAdmissionVerdict.authenticated`):
    /// connections that have not share the others, so clients without the token, from however many addresses, never
    /// hold every slot. Default 32, at most half the admitted connections (see `ConnectionBudget`); none without an
    /// admission (`HTTPServer.Configuration.admission`), since then no client can show credentials.
    public var reservedAuthenticatedConnections = 32

    /// New connections one address may open per second, sustained, beyond a burst of `maxConnectionsPerAddress`;
    /// a connection that shows its credentials gives its share back, so only connections that never do (a client
    /// without the token reconnecting as fast as it can, to displace others) are limited. Default 16.
    /// Exceeded → the new connection gets **503 Service Unavailable** and is closed.
    public var newConnectionsPerAddressPerSecond: Double = 16

    /// Descriptors left to the host process when the connection cap is derived from its limit
    /// (`RLIMIT_NOFILE`'s soft limit): the server never holds more than `limit − reservedDescriptors`
    /// sockets, so an app under macOS's default soft limit of 256 keeps descriptors for its own files, its
    /// store and its network. Default 96.
    public var reservedDescriptors = 96

    /// Maximum responses with a streamed body (`HTTPStreamedBody`: blobs, exports) being sent at once.
    /// Default 32. Exceeded → **503 Service Unavailable** instead of the stream (the connection stays open).
    public var maxConcurrentStreams = 32

    /// Maximum open-ended streams (`HTTPStreamedBody.isOpenEnded`: event streams, one per browser tab) at once.
    /// Default 64: a team debugging one build, each with a few tabs, fits (one stream costs a connection and a
    /// subscriber; the store is polled once for all of them), while `maxConnectionsPerAddress` still keeps one
    /// machine from holding them all. Exceeded → **503 Service Unavailable** instead of the stream. They never
    /// count against `maxConcurrentStreams`, so open tabs cannot block downloads.
    public var maxOpenEndedStreams = 64

    public init() {}
}
