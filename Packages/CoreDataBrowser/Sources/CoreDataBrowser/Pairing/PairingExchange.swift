import BrowserHTTP
import Foundation

/// How a browser turns a printed pairing link (`/lab?pair=<code>`) into a session cookie, in two steps:
///
/// 1. `GET <any page>?pair=<code>` answers a small page of ours (no store data, whoever asks) whose script posts the
///    code to `POST /api/pairing`, then replaces the address with the same URL without `pair` (`location.replace`,
///    so the spent link is not even a Back step).
/// 2. `POST /api/pairing` with the code as its body spends the code (`PairingCodes`) and answers with the session
///    cookie (`BrowserSession`: signed with the token, expiring, never the token). A browser that already has a
///    valid session is answered as paired without spending the code (a reload of an old link keeps working there).
///    A spent, expired or unknown code is a 401 whose message says what to do, and prints a fresh link at the
///    console when none is left unused.
///
/// Why a POST from a script, not the GET itself: link previews in chat apps, mail scanners and browser prefetching
/// fetch a URL without the person; a GET that spent the code would burn it before the click. A POST is only made
/// by a page that ran, in a browser. Why a page of ours at all (not a redirect): a link opened from another site
/// is a cross-site navigation, which neither sends nor, followed by a redirect, gets to use a `SameSite=Strict`
/// cookie; the `fetch` and the `location.replace` are our own page's, same-site.
enum PairingExchange {
    static let queryParameter = "pair"
    static let path = "/api/pairing"
    /// A code is 22 characters; a body longer than this is not one.
    static let maximumCodeBytes = 64

    /// Whether `AccessPolicy` lets the request through without a session for `answer` to handle.
    static func handles(_ request: HTTPRequest) -> Bool {
        isPairingVisit(request) || (request.method == .POST && request.path == path)
    }

    private static func isPairingVisit(_ request: HTTPRequest) -> Bool {
        (request.method == .GET || request.method == .HEAD) && !AccessPolicy.isAPI(request)
            && request.query[queryParameter] != nil
    }

    /// The page or the exchange's answer; nil for any other request.
    static func answer(_ request: HTTPRequest, token: PairingToken, tokenExpires: Date?, codes: PairingCodes) -> HTTPResponse? {
        if isPairingVisit(request) { return page }
        guard request.method == .POST, request.path == path else { return nil }
        let now = Date()
        let name = AccessPolicy.cookieName(for: request)
        if request.cookies(named: name).contains(where: { BrowserSession.accepts($0, token: token, now: now) }) {
            return paired
        }
        let code = String(decoding: request.body.prefix(maximumCodeBytes + 1), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard code.utf8.count <= maximumCodeBytes, !code.isEmpty else {
            return AccessPolicy.render(.spentPairingLink(newLinkPrinted: false), for: request)
        }
        switch codes.redeem(code, now: now) {
        case .refused(let announced):
            return AccessPolicy.render(.spentPairingLink(newLinkPrinted: announced), for: request)
        case .paired:
            // The session lasts 7 days at most, and never past the token's own expiry (checked in `AccessPolicy`).
            let expires = min(now.addingTimeInterval(BrowserSession.lifetime), tokenExpires ?? .distantFuture)
            let session = BrowserSession.issue(token: token, expires: expires)
            var response = paired
            response.headers.set(HTTPHeaderName.setCookie, "\(name)=\(session); Path=/; HttpOnly; SameSite=Strict; "
                + "Max-Age=\(max(1, Int(expires.timeIntervalSince(now))))")
            return response
        }
    }

    /// `{"paired": true}`: the script goes on to the page.
    private static var paired: HTTPResponse {
        .data(Data(#"{"paired":true}"#.utf8), contentType: "application/json; charset=utf-8")
    }

    /// Posts the code, then drops `pair` from the address, other parameters kept byte for byte. Any failure shows
    /// the server's message (already used, expired: where the new link is).
    static let script = """
        (async () => {
          const status = document.getElementById("status");
          const kept = location.search.slice(1).split("&").filter((part) => {
            try { return part !== "" && decodeURIComponent(part.split("=")[0].replace(/\\+/g, " ")) !== "pair"; }
            catch { return true; }
          });
          const code = new URLSearchParams(location.search).get("pair") || "";
          try {
            const response = await fetch("/api/pairing", { method: "POST", body: code, credentials: "same-origin", cache: "no-store" });
            if (response.ok) {
              location.replace(location.pathname + (kept.length ? "?" + kept.join("&") : "") + location.hash);
              return;
            }
            const body = await response.json().catch(() => ({}));
            status.textContent = body.error || "Pairing failed (HTTP " + response.status + ").";
          } catch (error) {
            status.textContent = "Pairing failed: " + error.message;
          }
        })();
        """

    /// Only this script runs on the page (its hash in the policy), and it may only talk to this server.
    static let pagePolicy = "default-src 'none'; script-src 'sha256-\(Data(SHA256.hash(Array(script.utf8))).base64EncodedString())'; "
        + "connect-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

    static var page: HTTPResponse {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>CoreDataBrowser: pairing</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body style="font: 16px/1.5 system-ui, sans-serif; max-width: 40em; margin: 4em auto; padding: 0 1em">
            <p id="status">Pairing this browser with the CoreDataBrowser server…</p>
            <noscript><p>Pairing needs JavaScript, like the browser itself.</p></noscript>
            <script>\(script)</script>
            </body></html>

            """
        var response = HTTPResponse.data(Data(html.utf8), contentType: "text/html; charset=utf-8")
        response.headers.set(HTTPHeaderName.contentSecurityPolicy, pagePolicy)
        return response
    }
}
