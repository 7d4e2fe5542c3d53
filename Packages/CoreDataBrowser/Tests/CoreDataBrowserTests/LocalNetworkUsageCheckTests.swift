@testable import CoreDataBrowser
import Testing

/// The Info.plist snippet `start()` prints when an app advertises without the entries iOS requires.
struct LocalNetworkUsageCheckTests {
    @Test func nothingIsMissingWhenBothEntriesAreThere() {
        #expect(LocalNetworkUsageCheck.missingEntries(in: [
            "NSLocalNetworkUsageDescription": "Browse the store", "NSBonjourServices": ["_other._tcp", "_cdbrowser._tcp"],
        ]) == nil)
    }

    @Test func bothEntriesAreGivenWhenNeitherIsThere() throws {
        let snippet = try #require(LocalNetworkUsageCheck.missingEntries(in: [:]))
        #expect(snippet.contains("<key>NSLocalNetworkUsageDescription</key>"))
        #expect(snippet.contains("<key>NSBonjourServices</key>"))
        #expect(snippet.contains("<string>_cdbrowser._tcp</string>"))
    }

    @Test func onlyTheServiceIsGivenWhenTheDescriptionIsThere() throws {
        let snippet = try #require(LocalNetworkUsageCheck.missingEntries(in: [
            "NSLocalNetworkUsageDescription": "Browse", "NSBonjourServices": ["_pulse._tcp"],
        ]))
        #expect(!snippet.contains("NSLocalNetworkUsageDescription"))
        #expect(snippet.contains("<string>_cdbrowser._tcp</string>"))
        #expect(snippet.contains("keep the services already listed: _pulse._tcp"))
    }

    @Test func anEmptyDescriptionCountsAsMissing() {
        #expect(LocalNetworkUsageCheck.missingEntries(in: [
            "NSLocalNetworkUsageDescription": "", "NSBonjourServices": ["_cdbrowser._tcp"],
        ]) != nil)
    }
}
