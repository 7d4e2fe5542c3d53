public import Foundation

/// A response produced by a responder. The server adds the framing headers
/// (`Content-Length`, `Connection`) itself, so handlers never set them.
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Data

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A UTF-8 `text/plain` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        data(Data(text.utf8), contentType: "text/plain; charset=utf-8", status: status)
    }

    /// A response with the given bytes and `Content-Type`.
    public static func data(_ data: Data, contentType: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: data)
    }
}
