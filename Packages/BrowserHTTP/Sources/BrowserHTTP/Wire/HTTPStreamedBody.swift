public import Foundation

/// Produces a response body piece by piece while it is sent: for bodies too large to hold in memory (a blob,
/// an export), or not known in full when sending starts.
///
/// The server asks for the next piece only once the previous one has been handed to the socket (so a slow
/// client slows the producer down instead of letting pieces pile up in memory), never for two at once, and
/// not at all for `HEAD`. When the client leaves, or the server stops, the task asking is cancelled and no
/// further piece is asked for. A producer that throws ends the response early: the connection is closed
/// without the end of the body, so the client sees it incomplete (a status cannot be changed once sent).
public protocol HTTPBodyProducer: Sendable {
    /// The next piece, or nil when the body is complete. An empty piece is skipped.
    func nextChunk() async throws -> Data?
}

/// A body sent as it is produced. With a `length` it goes out with `Content-Length` (a producer that delivers
/// more or fewer bytes has the connection closed); without one, chunked on HTTP/1.1 (RFC 9112 §7.1) and
/// delimited by closing the connection on HTTP/1.0.
public struct HTTPStreamedBody: Sendable {
    public var length: Int?
    public var producer: any HTTPBodyProducer
    /// A body with no natural end (Server-Sent Events): it lasts as long as its client listens, so it counts
    /// against `HTTPServerLimits.maxOpenEndedStreams`, not against the downloads' `maxConcurrentStreams`.
    public var isOpenEnded: Bool

    public init(length: Int?, producer: any HTTPBodyProducer, isOpenEnded: Bool = false) {
        self.length = length
        self.producer = producer
        self.isOpenEnded = isOpenEnded
    }
}
