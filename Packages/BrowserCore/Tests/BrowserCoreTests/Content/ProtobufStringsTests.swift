import BrowserCore
import Foundation
import Testing

/// A protobuf report leads with the text its message holds (the "strings" node), wherever it is nested.
@Suite struct ProtobufStringsTests {
    static func varint(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        return bytes + [UInt8(rest)]
    }

    /// A length-delimited field (wire type 2).
    static func field(_ number: Int, _ payload: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(payload.count) + payload }
    static func field(_ number: Int, _ text: String) -> [UInt8] { field(number, Array(text.utf8)) }

    @Test func nestedStringsAreListedLongestFirstWithTheirPaths() throws {
        // Like an Apple Notes body: text with a newline, an attachment placeholder and an emoji, messages deep.
        let body = "Shopping\nMilk \u{FFFC} and 🍞"
        let message = [0x08, 0x01] + Self.field(2, Self.field(3, Self.field(2, body) + [0x10, 0x05]) + Self.field(4, "short"))
        let report = ContentInspector.inspect(Data(message))
        #expect(report.kind == .protobuf)
        #expect(report.summary == "protobuf “Shopping Milk \u{FFFC} and 🍞” · \(message.count) B")
        let tree = try #require(report.tree)
        let strings = try #require(tree.children.first)
        #expect(strings.label == "strings" && strings.type == "strings")
        #expect(strings.children.map(\.label) == ["2.3.2", "2.4"])
        #expect(strings.children.map(\.value) == [body, "short"])
        #expect(strings.childCount == nil)
        // The fields follow, the text shown as a string where it is.
        #expect(tree.children.dropFirst().map(\.label) == ["1", "2"])
        #expect(tree.children[2].children[0].children[0].type == "string")
        #expect(tree.children[2].children[0].children[0].value == body)
    }

    @Test func textWithAFewControlCharactersIsStillText() throws {
        // One control (U+0001) in 15 bytes is too many for plain text, but the bytes are no message (0x43 says
        // wire type 3, a group): read as text, the control shown as its picture. A message whose tags are
        // controls stays a message.
        let message = Self.field(1, "Checklist item\u{1}") + Self.field(2, Self.field(1, "abc"))
        let report = ContentInspector.inspect(Data(message))
        #expect(report.kind == .protobuf)
        let fields = try #require(report.tree?.children.dropFirst())
        #expect(fields.map(\.type) == ["string", "message"])
        #expect(fields.first?.value == "Checklist item\u{2401}")
        #expect(report.tree?.children.first?.children.map(\.label) == ["1", "2.1"])
        // Binary that is neither text nor message stays bytes.
        let binary = ContentInspector.inspect(Data(Self.field(1, [0xFF, 0xFE, 0x00, 0x01])))
        #expect(binary.tree?.children.map(\.type) == ["bytes"])
        #expect(binary.summary == "protobuf · 6 B")
    }

    @Test func theListIsBoundedAndWithinTheNodeBudget() throws {
        let message = (1...20).flatMap { Self.field($0, String(repeating: "x", count: $0)) }
        let report = ContentInspector.inspect(Data(message))
        let strings = try #require(report.tree?.children.first)
        #expect(strings.children.count == 8)
        #expect(strings.childCount == 20)
        #expect(strings.children.map(\.label) == (13...20).reversed().map(String.init))

        // A small budget: the list and the fields share it, and the tree says it was cut.
        let small = ContentInspector.inspect(Data(message), limits: ContentLimits(maxTreeNodes: 12))
        let tree = try #require(small.tree)
        #expect(FuzzRegressionTests.nodeCount(tree) <= 12)
        #expect(small.truncated == ["tree truncated at 12 nodes"])
        #expect(tree.children.first?.type == "strings")
        // Previews keep their limit.
        let long = ContentInspector.inspect(Data(Self.field(1, String(repeating: "y", count: 400))), limits: ContentLimits(maxStringPreview: 10))
        #expect(long.tree?.children.first?.children.first?.value == "yyyyyyyyyy…")
    }
}
