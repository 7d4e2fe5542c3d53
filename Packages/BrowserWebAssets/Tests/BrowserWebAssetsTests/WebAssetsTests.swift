import BrowserWebAssets
import Foundation
import Testing

/// `web/` is the only source of the UI; these tests fail when the compiled-in copy drifts from it.
struct WebAssetsTests {
    /// The repository's `web/` folder, found from this file's location.
    static let webDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("web")

    /// The paths under web/ of its UI files, subfolders included (`shared/api.js`).
    static func filesOfWeb() throws -> [String] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: webDirectory.path)
        return paths.filter { [".html", ".css", ".js", ".svg"].contains(where: $0.hasSuffix) }.sorted()
    }

    @Test func embeddedFilesAreExactlyTheFilesOfWeb() throws {
        let names = try Self.filesOfWeb()
        #expect(names.contains { $0.contains("/") }, "web/ has subfolders (web/shared/); they are embedded too")
        #expect(WebAssets.embedded.files.keys.sorted() == names, "run scripts/embed-web-assets.py")
        for name in names {
            let onDisk = try Data(contentsOf: Self.webDirectory.appendingPathComponent(name))
            #expect(WebAssets.embedded.files[name]?.bytes == onDisk, "\(name) differs from web/\(name): run scripts/embed-web-assets.py")
        }
    }

    @Test func theViewsAndTheirFilesAreServedWithTheirContentTypes() throws {
        let assets = WebAssets.embedded
        #expect(assets.asset(forPath: "/")?.fileName == "index.html")
        #expect(assets.asset(forPath: "/")?.contentType == "text/html; charset=utf-8")
        #expect(assets.asset(forPath: "/pages/inspector/inspector.css")?.contentType == "text/css; charset=utf-8")
        // A module script must be served as JavaScript (RFC 9239's text/javascript), or the browser refuses it.
        #expect(assets.asset(forPath: "/pages/inspector/inspector.js")?.contentType == "text/javascript; charset=utf-8")
        #expect(assets.asset(forPath: "/shared/api.js")?.fileName == "shared/api.js")
        #expect(assets.asset(forPath: "/shared/api.js")?.contentType == "text/javascript; charset=utf-8")
        #expect(assets.asset(forPath: "/lab")?.fileName == "lab.html")
        #expect(assets.asset(forPath: "/lab.html")?.fileName == "lab.html")
        // Every page's HTML stays at the root (users bookmark /lab.html, /model.html, /history.html); its scripts
        // and stylesheets live under pages/, features/ and shared/ and are served under those paths.
        for page in ["index.html", "lab.html", "model.html", "history.html"] {
            #expect(assets.asset(forPath: "/" + page)?.fileName == page)
        }
        #expect(assets.asset(forPath: "/pages/lab/lab.js")?.fileName == "pages/lab/lab.js")
        #expect(assets.asset(forPath: "/features/predicate/predicate.css")?.contentType == "text/css; charset=utf-8")
        // Browsers ask for /favicon.ico on every load: it is the SVG icon, not a 404.
        #expect(assets.asset(forPath: "/favicon.ico")?.fileName == "shared/favicon.svg")
        #expect(assets.asset(forPath: "/favicon.ico")?.contentType == "image/svg+xml")
    }

    static let refusedPaths = ["", "lab.html", "/../web/lab.html", "/%2e%2e/lab.html", "/web/lab.html", "/lab.html/",
                               "/LAB.HTML", "/lab.html\0", "/..\\lab.html", "/index", "/Package.swift", "/lab/",
                               // The files the page views moved from are not served (and no alias brings them back).
                               "/app.js", "/app.css", "/tokens.css", "/favicon.svg",
                               // Subfolders are reached only by a file's exact path.
                               "/shared", "/shared/", "shared/api.js", "/shared//api.js", "//shared/api.js",
                               "/shared/../lab.html", "/shared/./api.js", "/./shared/api.js", "/shared%2Fapi.js",
                               "/shared\\api.js", "/SHARED/api.js", "/web/shared/api.js", "/pages/lab", "/pages/lab/",
                               "/pages/lab/../lab/lab.js", "/lab/lab.js"]

    @Test("only known files are served", arguments: refusedPaths)
    func unknownPathsHaveNoAsset(path: String) {
        #expect(WebAssets.embedded.asset(forPath: path) == nil)
    }

    @Test func aDirectoryServesTheSameNamesFromDisk() throws {
        let assets = try WebAssets.directory(Self.webDirectory)
        #expect(assets.files.keys.sorted() == WebAssets.embedded.files.keys.sorted())
        #expect(assets.asset(forPath: "/pages/lab/lab.js")?.bytes == WebAssets.embedded.asset(forPath: "/pages/lab/lab.js")?.bytes)
        // A file in a subfolder is read from that subfolder.
        #expect(assets.asset(forPath: "/shared/api.js")?.bytes
            == (try Data(contentsOf: Self.webDirectory.appendingPathComponent("shared").appendingPathComponent("api.js"))))
    }
}
