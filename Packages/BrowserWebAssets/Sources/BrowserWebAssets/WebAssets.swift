public import Foundation

/// The web UI's files, and which URL path serves which file.
///
/// Only known files are ever served: a path is looked up in a fixed table, never joined onto a directory, so
/// `..`, encoded dots or backslashes cannot reach anything else. The table's names are paths under `web/`
/// (`shared/api.js`, served as `/shared/api.js`), subfolders included.
public struct WebAssets: Sendable {
    private let filesByName: [String: WebAsset]

    /// The files compiled into the package from `web/` (see `scripts/embed-web-assets.py`).
    public static let embedded: WebAssets = {
        var files: [String: WebAsset] = [:]
        for (name, encoded) in EmbeddedWebFiles.base64 {
            guard let bytes = Data(base64Encoded: encoded) else { continue }
            files[name] = WebAsset(fileName: name, contentType: WebAsset.contentType(forFileName: name), bytes: bytes)
        }
        return WebAssets(filesByName: files)
    }()

    /// The same file names read from a directory at startup (`browser-demo --web-root web`), for working on the
    /// UI without rebuilding. Files are read once; only the names `embedded` knows are served.
    public static func directory(_ url: URL) throws -> WebAssets {
        var files: [String: WebAsset] = [:]
        for name in embedded.filesByName.keys {
            let bytes = try Data(contentsOf: url.appendingPathComponent(name))
            files[name] = WebAsset(fileName: name, contentType: WebAsset.contentType(forFileName: name), bytes: bytes)
        }
        return WebAssets(filesByName: files)
    }

    /// Every file, by its path under `web/`.
    public var files: [String: WebAsset] { filesByName }

    /// Clean URLs for the views, and `/favicon.ico` (which browsers ask for on every load) for the icon;
    /// every other file is served under its own path (`/shared/api.js`).
    public static let pageAliases: [String: String] = [
        "/": "index.html", "/lab": "lab.html", "/history": "history.html", "/model": "model.html",
        "/favicon.ico": "shared/favicon.svg",
    ]

    /// The URL paths served, each with its file.
    public var routes: [(path: String, asset: WebAsset)] {
        var routes: [(String, WebAsset)] = []
        for (path, name) in Self.pageAliases.sorted(by: { $0.key < $1.key }) {
            if let asset = filesByName[name] { routes.append((path, asset)) }
        }
        for name in filesByName.keys.sorted() {
            routes.append(("/" + name, filesByName[name]!))
        }
        return routes
    }

    public func asset(forPath path: String) -> WebAsset? {
        if let alias = Self.pageAliases[path] { return filesByName[alias] }
        guard path.hasPrefix("/") else { return nil }
        return filesByName[String(path.dropFirst())]
    }
}
