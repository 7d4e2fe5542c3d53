import Foundation
#if canImport(os)
import os
#endif

/// Where the server's lines go (the URLs it listens at, whether a token is needed, warnings): the one place the
/// assembly writes them.
///
/// On Apple platforms, the unified log (`os.Logger`, subsystem the host's bundle ID, else "CoreDataBrowser";
/// category "CoreDataBrowser"), so they show in Xcode's console and in Console.app for a device, filtered by
/// subsystem or category. A process without a bundle ID (a command-line tool such as `browser-demo` on a Mac, or
/// `swift run`) also prints them to standard output, where its user looks. Elsewhere (Linux) they are printed.
///
/// **The pairing token is logged private** (`privacy: .private(mask: .hash)`): the unified log is kept on the
/// device and copied into every sysdiagnose, which is shared far more widely than the device, and the token is
/// all that guards the store on the network. The rest of a URL (address and port) is public. So Console.app shows
/// `http://192.168.1.42:8080/?token=<mask.hash: …>`; the full URL is in `RunningInfo.urls` (show it in the app,
/// as the iOS demo does), and in the log where private data is recorded (a debugger attached, or Apple's
/// private-data logging profile). Printed lines carry the whole URL: standard output is the terminal's.
enum BrowserLog {
    /// The prefix of every printed line (the unified log has the category instead).
    static let prefix = "CoreDataBrowser: "

    /// The unified log's subsystem: the host's bundle ID, else "CoreDataBrowser".
    static var subsystem: String { Bundle.main.bundleIdentifier ?? "CoreDataBrowser" }

    /// Whether lines are printed too (or only, where there is no unified log).
    static var prints: Bool {
        #if canImport(os)
        Bundle.main.bundleIdentifier == nil
        #else
        true
        #endif
    }

    /// Something the developer wants to see (a URL, the name advertised): the log's notice level.
    static func notice(_ line: String) {
        #if canImport(os)
        logger.notice("\(line, privacy: .public)")
        #endif
        if prints { print(prefix + line) }
    }

    /// Something that did not work or needs the developer's action: the log's error level.
    static func warning(_ line: String) {
        #if canImport(os)
        logger.warning("\(line, privacy: .public)")
        #endif
        if prints { print(prefix + line) }
    }

    /// A URL the server listens at, its pairing token (the `secret` it ends with, when it carries one) private.
    static func url(_ url: URL, secret: String?) {
        let text = url.absoluteString
        #if canImport(os)
        let (visible, hidden) = split(text, secret: secret)
        if let hidden {
            logger.notice("\(visible, privacy: .public)\(hidden, privacy: .private(mask: .hash))")
        } else {
            logger.notice("\(visible, privacy: .public)")
        }
        #endif
        if prints { print(prefix + text) }
    }

    /// `text` cut into what may be logged publicly and the secret it ends with (nil when it carries none). A URL
    /// that holds the secret anywhere but at its end is withheld whole rather than logged with the secret public.
    static func split(_ text: String, secret: String?) -> (visible: String, hidden: String?) {
        guard let secret, !secret.isEmpty, text.contains(secret) else { return (text, nil) }
        guard text.hasSuffix(secret), !text.dropLast(secret.count).contains(secret) else { return ("", text) }
        return (String(text.dropLast(secret.count)), secret)
    }

    #if canImport(os)
    /// Made for each line (`os_log_create` keeps the log object per subsystem and category), so nothing is
    /// shared between threads whatever the SDK declares `Logger`'s sendability to be.
    private static var logger: Logger { Logger(subsystem: subsystem, category: "CoreDataBrowser") }
    #endif
}
