import BrowserCore
import Foundation
import Testing

@Suite struct TextAndStructureInspectionTests {
    func text(_ string: String) -> ContentReport { inspect(Array(string.utf8)) }

    @Test func emptyValue() {
        let report = inspect([])
        #expect(report.kind == .empty)
        #expect(report.summary == "empty · 0 B")
    }

    @Test func jsonObjectBecomesATreeAndBeatsText() {
        let report = text(#"{"name": "Ada", "tags": ["x", "y"], "n": 1.5, "i": -2, "ok": true, "none": null, "esc": "a\u00e9\n"}"#)
        #expect(report.kind == .json)
        #expect(report.summary == "JSON object (7 keys) · 100 B")
        let tree = try! #require(report.tree)
        #expect(tree.children.map(\.label) == ["name", "tags", "n", "i", "ok", "none", "esc"])
        #expect(tree.children.map(\.type) == ["string", "array", "real", "int", "bool", "null", "string"])
        #expect(tree.children[6].value == "aé\n")
        #expect(tree.children[1].children.map(\.label) == ["0", "1"])
    }

    @Test func invalidJSONIsText() {
        let report = text(#"{"a": 1,}"#)
        #expect(report.kind == .utf8Text)
    }

    @Test func jsonTreeStopsAtTheNodeLimitButCountsEverything() {
        let items = (0..<100).map(String.init).joined(separator: ",")
        let report = inspect(Array("[\(items)]".utf8), limits: ContentLimits(maxTreeNodes: 10))
        #expect(report.kind == .json)
        #expect(report.summary.hasPrefix("JSON array (100 items)"))
        #expect(report.tree?.children.count == 9)
        #expect(report.tree?.childCount == 100)
        #expect(report.truncated == ["tree truncated at 10 nodes"])
    }

    @Test func deeplyNestedJSONIsValidatedPastTheDepthLimit() {
        let depth = 100_000
        let json = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let report = text(json)
        #expect(report.kind == .json)
        #expect(report.truncated == ["tree cut at depth 64"])
        var node = try! #require(report.tree)
        var levels = 1
        while let child = node.children.first {
            node = child
            levels += 1
        }
        #expect(levels == 64)
        // One bracket short is not JSON: it is text, and the report says why it is no JSON.
        let short = text(String(json.dropLast()))
        #expect(short.kind == .utf8Text)
        #expect(short.problems == ["JSON array that ends before it closes: the value is truncated"])
    }

    @Test func truncatedJSONIsTextThatSaysSo() {
        let report = text(#"{"items": [{"id": 1}, {"id": 2"#)
        #expect(report.kind == .utf8Text)
        #expect(report.problems == ["JSON object that ends before it closes: the value is truncated"])
        // Text that is simply not JSON gets no such note.
        #expect(text(#"{"a": 1,}"#).problems.isEmpty)
        #expect(text("[draft] a note").problems.isEmpty)
    }

    /// Containers the tree does not show are checked by `JSONValidator`, not parsed into nodes: with a tree of 3
    /// nodes nearly everything goes that way, with a tree of a million nothing does, and the verdicts must agree on
    /// every cut and every one-byte change of a document with every kind of value.
    @Test func jsonNotShownIsCheckedAsStrictlyAsJSONShown() {
        let document = Array(#"""
        {"a": [1, -2.5e+3, 0, {"b": [true, false, null]}, "x\"\u00e9\n"], "c": {"d": {"e": [[[]]], "f": {}}},
         "g": [{"h": "i"}, [-0.0, 1E5], "\ud83d\ude00"], "j": 12}
        """#.utf8)
        let shown = ContentLimits(maxTreeNodes: 1_000_000, maxDepth: 3)
        let hidden = ContentLimits(maxTreeNodes: 3, maxDepth: 3)
        func agree(_ bytes: [UInt8], totalSize: Int? = nil, _ comment: Comment) {
            let full = inspect(bytes, totalSize: totalSize, limits: shown)
            let skimmed = inspect(bytes, totalSize: totalSize, limits: hidden)
            #expect(full.kind == skimmed.kind, comment)
            #expect(full.problems == skimmed.problems, comment)
            #expect(full.summary == skimmed.summary, comment)
            #expect(full.truncated.contains("tree cut at depth 3") == skimmed.truncated.contains("tree cut at depth 3"), comment)
            #expect(full.tree?.childCount ?? full.tree?.children.count == skimmed.tree?.childCount ?? skimmed.tree?.children.count, comment)
        }
        agree(document, "whole")
        #expect(inspect(document, limits: hidden).kind == .json)
        for cut in 1..<document.count {
            agree(Array(document[..<cut]), "cut at \(cut)")
            agree(Array(document[..<cut]), totalSize: document.count, "head of \(cut)")
        }
        for position in document.indices {
            for replacement in Array(#"{}[]",:0-.eE+tfnu\ 9xA"#.utf8) where replacement != document[position] {
                var changed = document
                changed[position] = replacement
                agree(changed, "byte \(position) set to \(Character(Unicode.Scalar(replacement)))")
            }
        }
    }

    @Test func headOfJSONIsStillJSON() {
        let report = inspect(Array(#"{"a": [1, 2, "thr"#.utf8), totalSize: 5_000)
        #expect(report.kind == .json)
        #expect(report.tree?.children.first?.children.map(\.value) == ["1", "2"])
    }

    @Test func plainTextAndURL() {
        let plain = text("Hello, world\n")
        #expect(plain.kind == .utf8Text)
        #expect(plain.text == "Hello, world\n")
        #expect(plain.summary == "UTF-8 text · 13 B")
        let url = text("https://example.com/a?b=c\n")
        #expect(url.kind == .url)
        #expect(url.text == "https://example.com/a?b=c")
        #expect(text("mailto:ada@example.com").kind == .url)
        #expect(text("see https://example.com").kind == .utf8Text)
        #expect(text("note: this").kind == .utf8Text)
    }

    @Test func controlCharactersMakeBinaryNotText() {
        // 128 bytes of text with DEL or other controls hidden in 8-byte-aligned runs the fast path skips over.
        let base = Array(String(repeating: "abcdefgh", count: 16).utf8)
        for control: UInt8 in [0x7F, 0x01, 0x1F] {
            var bytes = base
            bytes[13] = control
            #expect(inspect(bytes).kind == .utf8Text, "one control in 128 bytes is still text")
            bytes[21] = control
            #expect(inspect(bytes).kind != .utf8Text, "two controls in 128 bytes are not")
        }
        var invalid = base
        invalid[40] = 0xC0
        #expect(inspect(invalid).kind != .utf8Text)
    }

    @Test func longTextIsCut() {
        let report = inspect(Array(String(repeating: "abc", count: 100).utf8), limits: ContentLimits(maxTextPreview: 10))
        #expect(report.text == "abcabcabca…")
        #expect(report.truncated == ["text shown up to 10 characters"])
    }

    @Test func utf16WithAndWithoutBOM() {
        let littleWithBOM: [UInt8] = [0xFF, 0xFE] + "héllo".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let report = inspect(littleWithBOM)
        #expect(report.kind == .utf16Text)
        #expect(report.text == "héllo")
        let bigWithoutBOM = "plain words".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let big = inspect(bigWithoutBOM)
        #expect(big.kind == .utf16Text)
        #expect(big.text == "plain words")
    }

    @Test func markupKinds() {
        #expect(text("{\\rtf1\\ansi Hello}").kind == .rtf)
        #expect(text("<!DOCTYPE html><html><body>x</body></html>").kind == .html)
        let xml = text("<?xml version=\"1.0\"?>\n<feed><entry/></feed>")
        #expect(xml.kind == .xml)
        #expect(xml.summary.hasPrefix("XML <feed> · "))
        #expect(text("<note>hi</note>").kind == .xml)
        let brokenPlist = text("<?xml version=\"1.0\"?><plist><dict><key>a</key></plist>")
        #expect(brokenPlist.kind == .xml)
        #expect(!brokenPlist.problems.isEmpty)
    }

    @Test func protobufNeedsTheWholeBufferToParse() {
        // field 1 varint 150, field 2 "testing", field 3 fixed32, field 4 fixed64.
        let message: [UInt8] = [0x08, 0x96, 0x01, 0x12, 0x07] + Array("testing".utf8)
            + [0x1D, 0x00, 0x00, 0x80, 0x3F] + [0x21] + [UInt8](repeating: 0, count: 8)
        let report = inspect(message)
        #expect(report.kind == .protobuf)
        #expect(report.summary == "protobuf “testing” · \(message.count) B")
        #expect(report.tree?.children.first?.children.map(\.label) == ["2"])
        let fields = Array(try! #require(report.tree?.children.dropFirst()))
        #expect(fields.map(\.label) == ["1", "2", "3", "4"])
        #expect(fields.map(\.type) == ["varint", "string", "fixed32", "fixed64"])
        #expect(fields[0].value == "150 (sint 75)")
        #expect(fields[1].value == "testing")
        #expect(fields[2].value == "1065353216 (float 1.0)")
        // One byte short: the last field does not fit, so it is not protobuf.
        #expect(inspect(Array(message.dropLast())).kind != .protobuf)
        // Wire type 3 (groups) is refused.
        #expect(inspect([0x0B, 0x08, 0x01, 0x0C]).kind != .protobuf)
    }

    @Test func randomBinaryIsUnknown() {
        var state: UInt64 = 42
        let bytes = (0..<4096).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let report = inspect(bytes)
        #expect(report.kind == .unknown)
        #expect(report.summary == "binary data · 4 KB")
    }

    @Test func reportEncodesKindsAsStableStrings() throws {
        let report = inspect(CompressedSamples.protobufGzip)
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains(#""kind":"gzip""#))
        #expect(json.contains(#""kind":"protobuf""#))
        #expect(try JSONDecoder().decode(ContentReport.self, from: Data(json.utf8)) == report)
        #expect(ContentKind.binaryPlist.rawValue == "binaryPlist")
    }
}
