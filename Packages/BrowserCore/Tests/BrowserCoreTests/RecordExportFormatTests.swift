@testable import BrowserCore
import Testing

/// The CSV cell rules (RFC 4180 quoting, formula neutralisation) and the export parameters' validation.
struct RecordExportFormatTests {
    static func text(_ value: String) -> String {
        var bytes: [UInt8] = []
        CSVCell.appendText(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func literal(_ value: String) -> String {
        var bytes: [UInt8] = []
        CSVCell.appendLiteral(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\r\nlines", "\"two\r\nlines\""),
        ("line\nfeed", "\"line\nfeed\""),
        ("ümlaut ☃ 😀", "ümlaut ☃ 😀"),
    ])
    func fieldsAreQuotedOnlyWhenRFC4180AsksForIt(value: String, expected: String) {
        #expect(Self.text(value) == expected)
        #expect(Self.literal(value) == expected)
    }

    @Test(arguments: [
        ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
        ("+1+1", "'+1+1"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rCR", "\"'\rCR\""),
        ("a=b", "a=b"),
        // Full-width forms, which spreadsheets read as the ASCII ones.
        ("＝1+2", "'＝1+2"),
        ("＋1", "'＋1"),
        ("－1", "'－1"),
        ("＠SUM(A1)", "'＠SUM(A1)"),
        // Whitespace and control characters a spreadsheet skips before the formula.
        (" =1+2", "' =1+2"),
        ("   @SUM(A1)", "'   @SUM(A1)"),
        ("\n=1", "\"'\n=1\""),
        ("\u{0}=1", "'\u{0}=1"),
        ("\u{1F}-1", "'\u{1F}-1"),
        ("\u{3000}＝1", "'\u{3000}＝1"),
        ("\u{A0}+1", "'\u{A0}+1"),
        ("\u{FEFF}=1", "'\u{FEFF}=1"),
        (" \t =1", "' \t =1"),
        // Not formulas: text before the character, or whitespace alone.
        (" a=1", " a=1"),
        ("x＝1", "x＝1"),
        ("  ", "  "),
        ("\n", "\"\n\""),
    ])
    func textThatASpreadsheetWouldRunIsNeutralised(value: String, expected: String) {
        #expect(Self.text(value) == expected)
    }

    @Test func numbersAndIDsAreWrittenAsTheyAre() {
        #expect(Self.literal("-2") == "-2")
        #expect(Self.literal("-Infinity") == "-Infinity")
        #expect(Self.literal("x-coredata://S/Book/p1") == "x-coredata://S/Book/p1")
    }

    @Test func optionsAreValidatedWithAMessageNamingTheParameter() throws {
        #expect(try RecordExportOptions.validated(format: "csv", bom: nil, binary: nil)
                == RecordExportOptions(format: .csv, byteOrderMark: false, binary: .size))
        #expect(try RecordExportOptions.validated(format: "ndjson", bom: "1", binary: "base64")
                == RecordExportOptions(format: .ndjson, byteOrderMark: true, binary: .base64))
        let refusals: [(String?, String?, String?, String)] = [
            (nil, nil, nil, "Missing format: pass format=csv or ndjson"),
            ("xml", nil, nil, "format must be csv or ndjson, got \"xml\""),
            ("csv", "yes", nil, "bom must be 1 or 0, got \"yes\""),
            ("csv", nil, "hex", "binary must be size or base64, got \"hex\""),
        ]
        for (format, bom, binary, message) in refusals {
            #expect(throws: BrowserError.badRequest(message)) {
                try RecordExportOptions.validated(format: format, bom: bom, binary: binary)
            }
        }
    }
}
