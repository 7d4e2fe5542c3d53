public import Foundation

/// A response produced by a responder. The server adds the framing headers
/// (`Content-Length`, `Transfer-Encoding`, `Connection`) itself, so handlers never set them.
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Data
    /// A body produced while it is sent; when set, `body` is ignored. See `HTTPBodyProducer`.
    public var streamedBody: HTTPStreamedBody?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A UTF-8 `text/plain` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        data(Data(text.utf8), contentType: "text/plain; charset=utf-8", status: status)
    }

    /// A response whose body `producer` makes while it is sent (`length` nil: chunked).
    public static func stream(
        _ producer: any HTTPBodyProducer, length: Int?, contentType: String, status: HTTPStatus = .ok,
        isOpenEnded: Bool = false
    ) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: [HTTPHeaderName.contentType: contentType])
        response.streamedBody = HTTPStreamedBody(length: length, producer: producer, isOpenEnded: isOpenEnded)
        return response
    }

    /// Streamed bodies are equal when both are absent or have the same length: producers have no equality.
    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
            && lhs.streamedBody?.length == rhs.streamedBody?.length
            && (lhs.streamedBody == nil) == (rhs.streamedBody == nil)
    }

    /// A response with the given bytes and `Content-Type`.
    public static func data(_ data: Data, contentType: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeaderName.contentType: contentType], body: data)
    }
}
