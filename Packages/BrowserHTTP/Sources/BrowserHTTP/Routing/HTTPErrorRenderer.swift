/// Built-in renderers turning an error status and message into a response.
///
/// The server and the router take the renderer as a closure so an application can
/// render errors in its own format (e.g. JSON for an API) everywhere consistently.
public enum HTTPErrorRenderer {
    /// Renders `"<code> <reason>\n<message>\n"` as `text/plain; charset=utf-8`.
    public static let plainText: @Sendable (HTTPStatus, String) -> HTTPResponse = { status, message in
        .text("\(status.code) \(status.reason)\n\(message)\n", status: status)
    }
}
