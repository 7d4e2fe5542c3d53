/// Anything that turns a request into a response: a router, a single handler, a
/// middleware wrapping another responder.
///
/// Called concurrently from Swift concurrency tasks, one per request, hence Sendable.
/// The server discards the result if the client disconnected or the server stopped
/// meanwhile; the task is then cancelled, so long handlers may check
/// `Task.isCancelled`.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse
}

/// Adapts a closure to `HTTPResponder`.
public struct HTTPResponderClosure: HTTPResponder {
    private let body: @Sendable (HTTPRequest) async -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.body = body
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await body(request)
    }
}
