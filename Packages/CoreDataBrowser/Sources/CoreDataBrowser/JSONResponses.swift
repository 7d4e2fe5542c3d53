import BrowserCore
import BrowserHTTP
import Foundation

/// Turns service results into JSON responses, and renders every error the server sends as `{"error": …}`.
/// Statuses are decided by `BrowserError.statusCode` (BrowserCore); the router renders a thrown error through
/// `errorStatus` below.
enum JSONResponses {
    static let contentType = "application/json; charset=utf-8"

    static func ok(_ value: some Encodable) -> HTTPResponse {
        do {
            return noStore(.data(try BrowserJSON.encode(value), contentType: contentType))
        } catch {
            return self.error(.internalServerError, "Could not encode the response: \(error)")
        }
    }

    /// Store data never lands in a browser's disk cache (or a proxy's): every JSON answer is `no-store`.
    private static func noStore(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.set(HTTPHeaderName.cacheControl, "no-store")
        return response
    }

    /// `{"error": "<message>"}`; also renders the HTTP layer's own errors (400, 404, 405, 413, …), so every
    /// error the server sends has the same shape.
    /// A route's thrown error as the router answers it: a `BrowserError` with the status BrowserCore gave it,
    /// anything else (which the service never lets out) as a store failure.
    @Sendable static func errorStatus(_ error: any Error) -> (HTTPStatus, String)? {
        let error = BrowserError.wrapping(error)
        return (HTTPStatus(code: error.statusCode), error.message)
    }

    @Sendable static func error(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        let body = (try? BrowserJSON.encode(["error": message])) ?? Data(#"{"error":"internal error"}"#.utf8)
        return noStore(.data(body, contentType: contentType, status: status))
    }
}

