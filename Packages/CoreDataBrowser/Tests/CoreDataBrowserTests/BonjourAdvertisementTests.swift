import CoreDataBrowser
import Testing

/// The TXT record and instance name a server publishes (RFC 6763), and reading a TXT record back.
struct BonjourAdvertisementTests {
    @Test func aServersRecordHoldsItsFactsButNeverTheToken() {
        let advertisement = BonjourAdvertisement(appName: "BookShelf", bundleID: "com.example.BookShelf",
                                                 storeNames: ["Books.sqlite", "Cache.sqlite"], tokenRequired: true,
                                                 port: 8080, hostName: "Anna's iPhone")
        #expect(advertisement.name == "BookShelf on Anna's iPhone")
        let read = BonjourAdvertisement.entries(fromTXT: advertisement.txtRecord)
        #expect(read == [
            .init("txtvers", "1"), .init("app", "BookShelf"), .init("bundle", "com.example.BookShelf"),
            .init("stores", "Books.sqlite,Cache.sqlite"), .init("token", "required"), .init("path", "/"),
        ])
    }

    @Test func theRecordIsLengthPrefixedStrings() {
        let advertisement = BonjourAdvertisement(name: "x", port: 1, entries: [.init("a", "bc"), .init("token", "none")])
        #expect(advertisement.txtRecord == [4] + Array("a=bc".utf8) + [10] + Array("token=none".utf8))
    }

    @Test func aLongValueIsCutToOneStringOnACharacterBoundary() {
        let stores = (1...100).map { "Störe\($0).sqlite" }
        let advertisement = BonjourAdvertisement(appName: "A", bundleID: nil, storeNames: stores, tokenRequired: false, port: 1)
        let bytes = advertisement.txtRecord
        var index = 0
        var lengths: [Int] = []
        while index < bytes.count {
            lengths.append(Int(bytes[index]))
            index += 1 + Int(bytes[index])
        }
        #expect(index == bytes.count)
        #expect(lengths.allSatisfy { $0 <= 255 })
        let value = BonjourAdvertisement.entries(fromTXT: bytes).first { $0.key == "stores" }?.value ?? ""
        #expect(value.utf8.count <= 255 - "stores=".utf8.count)
        #expect(value.hasPrefix("Störe1.sqlite,Störe2.sqlite"))
        #expect(!value.unicodeScalars.contains("\u{FFFD}"))  // no character split
    }

    @Test func aLongNameIsCutTo63Bytes() {
        let advertisement = BonjourAdvertisement(appName: String(repeating: "é", count: 40), bundleID: nil,
                                                 storeNames: [], tokenRequired: false, port: 1, hostName: "host")
        #expect(advertisement.name.utf8.count <= 63)
        #expect(advertisement.name == String(repeating: "é", count: 31))
    }

    @Test func readingFollowsRFC6763() {
        // Keys compare case-insensitively and only the first counts; a key without "=" has an empty value; an
        // empty key or a length past the end stops the reading.
        let bytes: [UInt8] = [5] + Array("App=A".utf8) + [5] + Array("app=B".utf8) + [4] + Array("flag".utf8)
            + [0] + [3] + Array("k=v".utf8) + [2] + Array("=x".utf8) + [9] + Array("late=1".utf8)
        #expect(BonjourAdvertisement.entries(fromTXT: bytes) == [.init("App", "A"), .init("flag", ""), .init("k", "v")])
        #expect(BonjourAdvertisement(name: "n", port: 1, entries: [.init("App", "A")]).value(for: "app") == "A")
    }
}
