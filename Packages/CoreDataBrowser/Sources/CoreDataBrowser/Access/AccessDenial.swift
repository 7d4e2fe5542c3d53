import BrowserHTTP

/// Why `AccessPolicy` refused a request before routing. `status` is the one place these become statuses.
enum AccessDenial: Equatable, Sendable {
    /// No valid session cookie and no valid `Authorization: Bearer` token.
    case missingToken
    /// A pairing link's code that is spent, expired or unknown (`PairingExchange`); `newLinkPrinted`: the server
    /// just printed a fresh link at its console.
    case spentPairingLink(newLinkPrinted: Bool)
    /// The pairing token is past its expiry (a remembered token lives 7 days); so are the sessions it signed.
    case expiredToken
    /// The `Host` names something this server does not answer to (DNS rebinding, a stray proxy).
    case unknownHost(String?)
    /// A state-changing request from another site's page (cross-site request forgery).
    case crossOrigin
    /// A pairing exchange whose body is not declared as one short code (`PairingExchange.maximumCodeBytes`):
    /// anyone may post one, so nothing longer is ever read.
    case pairingBodyTooLarge

    var status: HTTPStatus {
        switch self {
        case .missingToken, .expiredToken, .spentPairingLink: .unauthorized
        case .unknownHost: .misdirectedRequest
        case .crossOrigin: .forbidden
        case .pairingBodyTooLarge: .payloadTooLarge
        }
    }

    var message: String {
        switch self {
        case .missingToken:
            "This server needs pairing. Open the pairing link the app printed in its console (it ends with ?pair=…), "
                + "or send Authorization: Bearer <token>."
        case .spentPairingLink(let printed):
            Self.spentLinkAdvice(printed)
        case .expiredToken:
            "This server's pairing token has expired (tokens are remembered for 7 days). Restart the app (or call "
                + "start() again after stop()) for a new one, then open the URL it prints."
        case .unknownHost(let host):
            "This server does not answer to the host name \"\(host ?? "")\". Use one of the URLs the app printed, "
                + "or add the name to Options.allowedHostNames."
        case .crossOrigin:
            "Requests that change data must come from this server's own pages."
        case .pairingBodyTooLarge:
            "A pairing exchange sends one code of at most \(PairingExchange.maximumCodeBytes) bytes, with its Content-Length."
        }
    }

    /// Each link pairs one browser, once, within minutes (`PairingCodes.lifetime`).
    private static func spentLinkAdvice(_ newLinkPrinted: Bool) -> String {
        "This pairing link was already used, or is more than \(Int(PairingCodes.lifetime / 60)) minutes old: each link "
            + "pairs one browser, once. " + (newLinkPrinted
                ? "A new link has just been printed in the app's console (Xcode's debug area, or the terminal running "
                    + "browser-demo): open that one."
                : "Open the newest link printed in the app's console (Xcode's debug area, or the terminal running "
                    + "browser-demo); opening this old one again prints a new link once none is left unused.")
    }

    /// A short page for browser navigations (`/`, `/lab`, files): a person reads it, not a script. The text is
    /// fixed (a host name from the request is never echoed into HTML).
    var page: String {
        let advice: String
        switch self {
        case .missingToken:
            advice = "This CoreDataBrowser server needs pairing. Open the pairing link the app printed in its console: "
                + "it ends with <code>?pair=…</code>. Your browser then stays paired."
        case .spentPairingLink(let printed):
            advice = Self.spentLinkAdvice(printed)
        case .expiredToken:
            advice = "This CoreDataBrowser server's pairing token has expired (tokens are remembered for 7 days). "
                + "Restart the app for a new one, then open the URL it prints in its console."
        case .unknownHost:
            advice = "This CoreDataBrowser server does not answer to this host name. Use one of the URLs the app "
                + "printed in its console when the server started."
        case .crossOrigin:
            advice = "Requests that change data must come from this server's own pages."
        case .pairingBodyTooLarge:
            advice = "A pairing exchange sends one short code."
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>CoreDataBrowser: \(status.code) \(status.reason)</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body style="font: 16px/1.5 system-ui, sans-serif; max-width: 40em; margin: 4em auto; padding: 0 1em">
            <h1 style="font-size: 1.3em">\(status.code) \(status.reason)</h1>
            <p>\(advice)</p>
            </body></html>

            """
    }
}
