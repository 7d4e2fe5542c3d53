public import Foundation

/// One file of the web UI, ready to serve.
public struct WebAsset: Sendable, Hashable {
    /// The file's path under `web/` (`pages/lab/lab.js`, `shared/api.js`).
    public let fileName: String
    public let contentType: String
    public let bytes: Data

    public init(fileName: String, contentType: String, bytes: Data) {
        self.fileName = fileName
        self.contentType = contentType
        self.bytes = bytes
    }

    /// Content types by file extension; `charset` is given for text so browsers never guess. JavaScript is
    /// `text/javascript` (RFC 9239), which browsers require of a module script (`<script type="module">`).
    static func contentType(forFileName name: String) -> String {
        switch name.split(separator: ".").last.map(String.init) {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }
}
