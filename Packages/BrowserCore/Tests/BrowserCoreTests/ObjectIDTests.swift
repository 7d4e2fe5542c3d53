import BrowserCore
import Testing

struct ObjectIDTests {
    @Test func parsesAndFormatsTheCoreDataURIForm() throws {
        let id = try ObjectID(uri: "x-coredata://6F1C2A44-0B8E-4F0E-9A51-3E7D2C1B9A00/Book/p42")
        #expect(id.storeIdentifier == "6F1C2A44-0B8E-4F0E-9A51-3E7D2C1B9A00")
        #expect(id.entity == "Book")
        #expect(id.primaryKey == 42)
        #expect(id.uri == "x-coredata://6F1C2A44-0B8E-4F0E-9A51-3E7D2C1B9A00/Book/p42")
        #expect(id.shortForm == "p42")
    }

    static let malformed = [
        "", "Book/p1", "http://S/Book/p1", "x-coredata://S/Book", "x-coredata://S/Book/1", "x-coredata://S/Book/p",
        "x-coredata://S/Book/p0", "x-coredata://S/Book/p-1", "x-coredata://S/Book/p1x", "x-coredata://S/Book/p1/extra",
        "x-coredata:///Book/p1", "x-coredata://S//p1", "x-coredata://S/Book/p99999999999999999999", "x-coredata://S/Book/p１",
    ]

    @Test("malformed IDs are a 400 naming the expected form", arguments: malformed)
    func refusesMalformed(uri: String) {
        #expect(throws: BrowserError.badRequest("Malformed id \"\(uri)\": expected x-coredata://<store>/<Entity>/p<number>")) {
            try ObjectID(uri: uri)
        }
    }

    @Test func temporaryIDsGetTheirOwnMessage() {
        let uri = "x-coredata:///Book/t8C3B0E0A-1D2E-4F00-9C7B-000000000001"
        #expect(throws: BrowserError.badRequest("Id \"\(uri)\" is a temporary object ID; only saved objects can be browsed")) {
            try ObjectID(uri: uri)
        }
    }
}
