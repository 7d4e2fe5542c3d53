import BrowserHTTP
import Foundation

/// The pairing token requests must carry and when it expires, shared by the running server's `AccessPolicy` and
/// `CoreDataBrowserServer.renewPairingToken()`, which replaces both while requests are being answered.
final class PairingCredentials: Sendable {
    private let value: Locked<(token: PairingToken?, expires: Date?)>

    init(token: PairingToken?, expires: Date?) {
        value = Locked((token, expires))
    }

    var current: (token: PairingToken?, expires: Date?) { value.withLock { $0 } }

    func replace(token: PairingToken, expires: Date?) {
        value.withLock { $0 = (token, expires) }
    }
}
