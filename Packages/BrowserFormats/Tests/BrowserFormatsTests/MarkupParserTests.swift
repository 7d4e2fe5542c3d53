import BrowserFormats
import Testing

/// The small XML documents a model's `contents` file is.
@Suite struct MarkupParserTests {
    @Test func elementsAttributesTextAndReferences() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0"?><!-- a model --><!DOCTYPE model [<!ENTITY x "y">]>
            <model type='com.apple.IDECoreDataModeler' name="a &amp; b"><entity name="Item"><![CDATA[1 < 2 &amp;]]> &#65;&#x42;</entity><empty/></model>
            """
        let root = try MarkupParser.parse(Array(xml.utf8))
        #expect(root.name == "model")
        #expect(root.attributes == ["type": "com.apple.IDECoreDataModeler", "name": "a & b"])
        #expect(root.children(named: "entity").first?.text == "1 < 2 &amp; AB")
        #expect(root.firstChild(named: "empty")?.children == [])
    }

    @Test func malformedDocumentsGiveReasons() {
        let cases: [(String, String)] = [
            ("", "XML document has no root element"),
            ("text", "XML document has text before its root element"),
            ("<a><b></a>", "XML element <b> is closed by </a>"),
            ("<a x=1/>", "XML attribute x of <a> is not quoted"),
            ("<a>&bogus;</a>", "XML document has an unknown or unterminated character reference &bogus;"),
            ("<a>", "XML element <a> is not closed"),
        ]
        for (xml, reason) in cases {
            #expect(throws: PropertyListError(reason)) { try MarkupParser.parse(Array(xml.utf8)) }
        }
        let deep = String(repeating: "<a>", count: MarkupParser.maximumDepth + 1)
        #expect(throws: PropertyListError("XML document nests too deeply")) { try MarkupParser.parse(Array(deep.utf8)) }
    }
}
