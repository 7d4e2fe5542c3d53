@testable import CoreDataBrowser
import Foundation
import Testing

/// What the unified log may show of a URL: never the pairing token in the public part (the split is used on Apple
/// platforms, where the hidden part is logged `.private`; here it is only computed).
struct BrowserLogTests {
    @Test func theTokenIsTheHiddenPartOfAURL() {
        let token = "A1b2C3d4E5f6G7h8I9j0Kl"
        let (visible, hidden) = BrowserLog.split("http://192.168.1.42:8080/?token=\(token)", secret: token)
        #expect(visible == "http://192.168.1.42:8080/?token=")
        #expect(hidden == token)
    }

    @Test func aURLWithoutATokenIsPublicWhole() {
        #expect(BrowserLog.split("http://127.0.0.1:8080", secret: nil) == ("http://127.0.0.1:8080", nil))
        #expect(BrowserLog.split("http://127.0.0.1:8080", secret: "") == ("http://127.0.0.1:8080", nil))
    }

    @Test func aURLHoldingTheTokenElsewhereIsHiddenWhole() {
        let token = "A1b2C3d4E5f6G7h8I9j0Kl"
        #expect(BrowserLog.split("http://host/\(token)/?x=1", secret: token) == ("", "http://host/\(token)/?x=1"))
        #expect(BrowserLog.split("http://\(token)/?token=\(token)", secret: token) == ("", "http://\(token)/?token=\(token)"))
    }

    #if !canImport(os)
    /// Where there is no unified log, every line is printed (browser-demo's output on Linux).
    @Test func withoutTheUnifiedLogEveryLineIsPrinted() {
        #expect(BrowserLog.prints)
    }
    #endif
}
