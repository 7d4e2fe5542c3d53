@testable import CoreDataBrowser
import Testing

/// `Content-Disposition` file names: quoted for old clients, percent-encoded for new ones, whatever the entity name.
@Suite struct AttachmentNameTests {
    @Test(arguments: [
        ("Book-p1.json", #"attachment; filename="Book-p1.json"; filename*=UTF-8''Book-p1.json"#),
        ("Café-p2.json", #"attachment; filename="Caf_-p2.json"; filename*=UTF-8''Caf%C3%A9-p2.json"#),
        (#"a"b\c;d e.json"#, #"attachment; filename="a_b_c;d e.json"; filename*=UTF-8''a%22b%5Cc%3Bd%20e.json"#),
    ])
    func fileNamesAreQuotedAndEncoded(name: String, header: String) {
        #expect(BrowserRoutes.attachment(filename: name) == header)
    }
}
