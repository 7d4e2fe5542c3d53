import BrowserHTTP
import Foundation

/// The secret a browser presents to use a server that listens beyond loopback.
///
/// Generated tokens carry 128 bits from `SystemRandomNumberGenerator`, which the Swift standard library
/// documents as cryptographically secure on every platform (`arc4random_buf` on Apple platforms, `getrandom`
/// on Linux). They are written in base64url (RFC 4648 §5) without padding, so they go into a URL, a cookie
/// and an `Authorization` header without any escaping: 22 characters.
struct PairingToken: Sendable, Equatable {
    let value: String

    /// 128 bits: guessing is hopeless even at millions of requests per second.
    static let randomByteCount = 16
    /// A host-supplied token must be at least as long as a generated one.
    static let minimumLength = 22
    static let maximumLength = 256

    /// Accepts a host-supplied token, or nil when it is too short or holds characters that would need escaping
    /// in a URL or cookie. Allowed: A–Z a–z 0–9 `-` `_` `.` `~` (RFC 3986 unreserved characters).
    init?(validating text: String) {
        guard (Self.minimumLength...Self.maximumLength).contains(text.utf8.count),
            text.utf8.allSatisfy(Self.isUnreserved)
        else { return nil }
        value = text
    }

    private init(trusted value: String) {
        self.value = value
    }

    static func generate() -> PairingToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<randomByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return PairingToken(trusted: base64URL(bytes))
    }

    /// Constant-time comparison, so response timing does not reveal how much of a guess is right.
    func matches(_ candidate: String) -> Bool {
        ConstantTime.equals(value, candidate)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Base64url (RFC 4648 §5) without padding: URL-, cookie- and header-safe as it is.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
