import BrowserHTTP
import Foundation

/// The one-time codes of the printed pairing links (`/?pair=<code>`): each pairs one browser, once, within
/// `lifetime`, and is then gone.
///
/// The link used to carry the long-lived token itself, and a browser keeps every visited URL in its history
/// (and sync, and its address-bar suggestions) for months: whoever read that history later held the store. A
/// code that was spent on its first use, or expired minutes later, opens nothing; the token stays for scripts
/// (`Authorization: Bearer`) and the browser keeps a session cookie (`BrowserSession`).
///
/// Codes carry 128 random bits like tokens (`PairingToken.generate()`). Nothing is written anywhere: a relaunch
/// prints a new link, and the browsers already paired keep their cookies.
final class PairingCodes: Sendable {
    /// Long enough to copy a link from the console and open it; short enough that a link seen on a shared screen
    /// or left in a log is dead soon after. A developer who comes back later asks for a new one by opening the old
    /// link (`redeem` prints one).
    static let lifetime: TimeInterval = 10 * 60
    /// Codes waiting to be used at once; beyond that the oldest goes (each redemption or refused attempt prints at
    /// most one new code, so this only bounds memory).
    static let maximumOutstanding = 16

    /// Unused codes and when each expires, oldest first.
    private let outstanding = Locked<[(code: String, expires: Date)]>([])
    /// Told a code issued for someone whose link was spent, to print its links (`CoreDataBrowserServer`).
    private let announce: @Sendable (_ code: String, _ port: UInt16) -> Bool
    private let boundPort = Locked<UInt16>(0)

    /// - Parameter announce: shows a new code's links to the person at the console; false when nothing was shown.
    init(announce: @escaping @Sendable (_ code: String, _ port: UInt16) -> Bool = { _, _ in false }) {
        self.announce = announce
    }

    /// The port the links name, known once the server is listening.
    var port: UInt16 {
        get { boundPort.withLock { $0 } }
        set { boundPort.withLock { $0 = newValue } }
    }

    /// A new code, valid for `lifetime` from `now`.
    func issue(now: Date = Date()) -> String {
        let code = PairingToken.generate().value
        outstanding.withLock { outstanding in
            outstanding.removeAll { $0.expires <= now }
            outstanding.append((code, now.addingTimeInterval(Self.lifetime)))
            if outstanding.count > Self.maximumOutstanding { outstanding.removeFirst() }
        }
        return code
    }

    /// Forgets every unused code (the token was replaced: the links printed for it must die with it).
    func revokeAll() {
        outstanding.withLock { $0.removeAll() }
    }

    enum Redemption: Equatable {
        /// The code was valid and is now spent; a new link was printed for the next browser when `announced`.
        case paired
        /// Unknown, spent or expired. `announced`: a new link was just printed at the console (there was no unused
        /// one left to open).
        case refused(announced: Bool)
    }

    /// Spends `code` if it is outstanding and unexpired (compared in constant time). When it is not, and no unused
    /// code is left, a new one is issued and announced, so the developer finds a fresh link in the console.
    func redeem(_ code: String, now: Date = Date()) -> Redemption {
        let (spent, noneLeft) = outstanding.withLock { outstanding in
            outstanding.removeAll { $0.expires <= now }
            let index = outstanding.firstIndex { ConstantTime.equals($0.code, code) }
            if let index { outstanding.remove(at: index) }
            return (index != nil, outstanding.isEmpty)
        }
        if spent { return .paired }
        guard noneLeft else { return .refused(announced: false) }
        return .refused(announced: announce(issue(now: now), port))
    }
}
