import BrowserHTTP
import Foundation

/// What a paired browser's cookie holds: proof that it was paired (through a one-time pairing link,
/// `PairingExchange`), without the token.
///
/// The cookie used to be the token itself; cookies are not scoped by port, so every other web server on the same
/// host name received the token, and a token copied from a cookie worked forever. A session value is
/// `<expiry>.<nonce>.<signature>`: a random 128-bit nonce, the Unix time it expires, and an HMAC-SHA-256 of both
/// keyed with the token (truncated to 128 bits). The server checks the signature and the expiry on every
/// request; nothing is stored, so a remembered token keeps its browsers paired across relaunches, and a new token
/// (delete the token file, or `pairingTokenFile = nil`) revokes every session at once. Another server on the
/// host that receives the cookie learns a credential for this server only, that expires.
enum BrowserSession {
    /// A session lasts at most this long, and never past the token's own expiry.
    static let lifetime: TimeInterval = 7 * 24 * 60 * 60
    private static let nonceBytes = 16
    private static let signatureBytes = 16

    /// A new session value, valid until `expires`.
    static func issue(token: PairingToken, expires: Date) -> String {
        var generator = SystemRandomNumberGenerator()
        let nonce = PairingToken.base64URL((0..<nonceBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let expiry = String(Int64(expires.timeIntervalSince1970.rounded(.down)))
        return "\(expiry).\(nonce).\(signature(token: token, expiry: expiry, nonce: nonce))"
    }

    /// Whether `value` has a session's shape (`<expiry>.<nonce>.<signature>`), checked without computing anything:
    /// `AccessPolicy` picks the one cookie whose signature it computes among those that do.
    static func isWellFormed(_ value: String) -> Bool {
        parts(of: value) != nil
    }

    private static func parts(of value: String) -> (expiry: Int64, expiryText: Substring, nonce: Substring, signature: Substring)? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let expiry = Int64(parts[0]), parts[1].utf8.count == 22, parts[2].utf8.count == 22 else {
            return nil
        }
        return (expiry, parts[0], parts[1], parts[2])
    }

    /// Whether `value` is a session this token issued that has not expired at `now`.
    static func accepts(_ value: String, token: PairingToken, now: Date) -> Bool {
        guard let parts = parts(of: value) else { return false }
        let expected = signature(token: token, expiry: String(parts.expiryText), nonce: String(parts.nonce))
        // The signature first, in constant time, so the comparison's timing says nothing about the expiry.
        guard ConstantTime.equals(expected.utf8, parts.signature.utf8) else { return false }
        return now.timeIntervalSince1970 < Double(parts.expiry)
    }

    private static func signature(token: PairingToken, expiry: String, nonce: String) -> String {
        let message = Array("cdb-session-v1|\(expiry)|\(nonce)".utf8)
        return PairingToken.base64URL(Array(SHA256.hmac(key: Array(token.value.utf8), message: message).prefix(signatureBytes)))
    }
}
