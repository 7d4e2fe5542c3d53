/// Decides from a request's head alone whether the server reads the rest of it, before any body byte is read and
/// before `100 Continue` is sent.
///
/// Why a hook of its own rather than a check in the responder: the responder runs once the whole request has been
/// read, so a client without credentials could make the server receive (and hold) a whole body, and an interim
/// `100 Continue` invited it to. The admission runs on the event-loop thread as soon as the head is decoded (for a
/// request without a body, once it is complete); a refusal is sent and the connection closed, the body never read.
/// Its verdict also tells the server which connections belong to someone who has shown credentials: those keep the
/// slots reserved for them (`HTTPServerLimits.reservedAuthenticatedConnections`).
///
/// Runs on the event-loop thread, which serves every connection: it must be cheap and bounded whatever the head
/// holds (the decoder already bounds list elements and cookies), and must never block or wait.
public protocol HTTPAdmission: Sendable {
    func admit(_ head: HTTPRequest) -> HTTPAdmissionVerdict
}

public enum HTTPAdmissionVerdict: Sendable {
    /// The request carries valid credentials (or the server needs none): read it and answer it. Its connection
    /// counts as authenticated from now on (`HTTPRequest.isAuthenticated` is set).
    case authenticated
    /// Read it and answer it, but it has shown no credentials (a route anyone may call): its connection stays
    /// with the unauthenticated ones.
    case anonymous
    /// Answer this instead, without reading the body, and close the connection.
    case refused(HTTPResponse)
}
