@testable import BrowserCore
import Testing

/// How a list cuts text (`ValuePreview`): at most N bytes of UTF-8, ending on a scalar, with the whole length;
/// the page budget shared among rows and text attributes; labels cut to `RecordSummary.maximumBytes`.
struct ValuePreviewTests {
    @Test(arguments: [
        ("abcdef", 4, "abcd"),
        ("abcdef", 6, "abcdef"),
        ("abcdef", 0, ""),
        // "é" is 2 bytes, "日" 3, "😀" 4: a limit inside one drops it whole.
        ("aé", 2, "a"),
        ("aé", 3, "aé"),
        ("日本", 5, "日"),
        ("😀x", 3, ""),
        ("😀x", 4, "😀"),
        // Combining marks are scalars of their own: the cut may part a base from its mark, never a scalar.
        ("e\u{301}x", 2, "e"),
    ])
    func aPrefixEndsOnAScalarWithinTheLimit(text: String, bytes: Int, expected: String) {
        #expect(ValuePreview.prefix(of: text, bytes: bytes) == expected)
        let utf8 = Array(text.utf8)
        let length = utf8.withUnsafeBytes { ValuePreview.prefixLength(ofUTF8: $0, limit: bytes) }
        #expect(length == expected.utf8.count)
    }

    @Test func longTextIsCutWithItsWholeLengthAndEverythingElseIsKept() {
        let long = String(repeating: "é", count: 3_000)  // 6,000 bytes
        #expect(ValuePreview.cut(.string(long), toBytes: 5) == .truncatedText(prefix: "éé", byteCount: 6_000))
        #expect(ValuePreview.cut(.uri("https://x.y/" + String(repeating: "a", count: 20)), toBytes: 8)
                == .truncatedText(prefix: "https://", byteCount: 32))
        #expect(ValuePreview.cut(.string("short"), toBytes: 5) == .string("short"))
        // An already cut value is cut further, keeping the whole length.
        #expect(ValuePreview.cut(.truncatedText(prefix: "abcdef", byteCount: 100), toBytes: 3)
                == .truncatedText(prefix: "abc", byteCount: 100))
        #expect(ValuePreview.cut(.truncatedText(prefix: "ab", byteCount: 100), toBytes: 3) == .truncatedText(prefix: "ab", byteCount: 100))
        for kept: AttributeValue in [.null, .integer(7), .binary(byteCount: 10_000_000), .undecodable("bad")] {
            #expect(ValuePreview.cut(kept, toBytes: 1) == kept)
        }
    }

    @Test(arguments: [
        // One text attribute, the default page: the most a value shows.
        (100, 1, ValuePreview.maximumBytes),
        (500, 1, 2_097),
        (500, 3, 699),
        // Many rows and attributes: the floor.
        (500, 40, ValuePreview.minimumBytes),
        // No text attribute or no row: the budget is not divided by zero.
        (0, 0, ValuePreview.maximumBytes),
    ])
    func thePageBudgetIsSharedAmongRowsAndTextAttributes(rows: Int, textAttributes: Int, expected: Int) {
        #expect(ValuePreview.bytes(rows: rows, textAttributes: textAttributes) == expected)
    }

    @Test func aLabelTakesAtMostItsLimitOfTheValue() {
        let id = ObjectID(storeIdentifier: "S", entity: "Note", primaryKey: 1)
        let long = String(repeating: "x", count: 10_000)
        let whole = StoredRecord(id: id, values: ["title": .string(long)])
        #expect(RecordSummary.make(for: whole, attribute: "title") == String(repeating: "x", count: RecordSummary.maximumBytes) + "…")
        let cut = StoredRecord(id: id, values: ["title": .truncatedText(prefix: "Start of it", byteCount: 10_000)])
        #expect(RecordSummary.make(for: cut, attribute: "title") == "Start of it…")
        let blank = StoredRecord(id: id, values: ["title": .truncatedText(prefix: "   ", byteCount: 10_000)])
        #expect(RecordSummary.make(for: blank, attribute: "title") == "Note p1")
        #expect(RecordSummary.make(for: StoredRecord(id: id, values: ["title": .string("Short")]), attribute: "title") == "Short")
    }
}
