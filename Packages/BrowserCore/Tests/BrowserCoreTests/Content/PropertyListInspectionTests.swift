import BrowserCore
import Foundation
import Testing

@Suite struct PropertyListInspectionTests {
    @Test func binaryPlistBecomesATree() {
        let data = BinaryPlistWriter.write(.dict([
            ("name", .string("Ada")),
            ("greeting", .utf16("héllo ✓")),
            ("age", .int(36)),
            ("ratio", .real(0.5)),
            ("ok", .bool(true)),
            ("blob", .data([0xDE, 0xAD])),
            ("list", .array([.int(1), .int(2)])),
        ]))
        let report = ContentInspector.inspect(data)
        #expect(report.kind == .binaryPlist)
        #expect(report.summary == "binary plist dict (7 keys) · \(data.count) B")
        let tree = try! #require(report.tree)
        #expect(tree.type == "dict")
        #expect(tree.children.map(\.label) == ["name", "greeting", "age", "ratio", "ok", "blob", "list"])
        #expect(tree.children.map(\.type) == ["string", "string", "int", "real", "bool", "data", "array"])
        #expect(tree.children.map(\.value) == ["Ada", "héllo ✓", "36", "0.5", "true", "2 bytes: de ad", nil])
        #expect(tree.children[6].children.map(\.value) == ["1", "2"])
        #expect(report.problems.isEmpty)
    }

    @Test func keyedArchiveShowsClassesAndResolvesUIDs() {
        let data = BinaryPlistWriter.keyedArchive([
            .dict([("UIRed", .real(1)), ("UIGreen", .real(0.5)), ("UIBlue", .real(0)), ("UIAlpha", .real(1)), ("$class", .uid(2))]),
            BinaryPlistWriter.classDescription(["UIColor", "NSObject"]),
        ])
        let report = ContentInspector.inspect(data, transformerName: "NSSecureUnarchiveFromData")
        #expect(report.kind == .keyedArchive)
        #expect(report.archivedClass == "UIColor")
        #expect(report.summary == "keyed archive (UIColor) · \(data.count) B")
        let tree = try! #require(report.tree)
        #expect(tree.type == "object(UIColor)")
        #expect(tree.children.map(\.label) == ["UIRed", "UIGreen", "UIBlue", "UIAlpha"])
        #expect(tree.children.map(\.value) == ["1.0", "0.5", "0.0", "1.0"])
        #expect(report.problems.isEmpty)
    }

    @Test func keyedArchiveCollectionsShowTheirElements() {
        // NSDictionary { "title": "Dune", "tags": NSArray ["sf"] } with NSString values.
        let data = BinaryPlistWriter.keyedArchive([
            .dict([("NS.keys", .array([.uid(3), .uid(4)])), ("NS.objects", .array([.uid(5), .uid(6)])), ("$class", .uid(2))]),
            BinaryPlistWriter.classDescription(["NSDictionary", "NSObject"]),
            .string("title"),
            .string("tags"),
            .string("Dune"),
            .dict([("NS.objects", .array([.uid(8)])), ("$class", .uid(7))]),
            BinaryPlistWriter.classDescription(["NSArray", "NSObject"]),
            .string("sf"),
        ])
        let report = ContentInspector.inspect(data)
        #expect(report.archivedClass == "NSDictionary")
        let tree = try! #require(report.tree)
        #expect(tree.children.map(\.label) == ["title", "tags"])
        #expect(tree.children[0].value == "Dune")
        #expect(tree.children[1].type == "object(NSArray)")
        #expect(tree.children[1].children.map(\.value) == ["sf"])
    }

    @Test func keyedArchiveCycleIsCutAndMarked() {
        // Object 1 (a Node) refers to itself through "next".
        let data = BinaryPlistWriter.keyedArchive([
            .dict([("next", .uid(1)), ("value", .int(7)), ("$class", .uid(2))]),
            BinaryPlistWriter.classDescription(["Node", "NSObject"]),
        ])
        let report = ContentInspector.inspect(data)
        #expect(report.kind == .keyedArchive)
        #expect(report.archivedClass == "Node")
        let tree = try! #require(report.tree)
        #expect(tree.children.map(\.label) == ["next", "value"])
        #expect(tree.children[0].type == "object(Node)")
        #expect(tree.children[0].note == "cycle")
        #expect(tree.children[0].children.isEmpty)
        #expect(report.problems == ["keyed archive contains a cycle (object #1 refers to itself)"])
    }

    @Test func selfReferencingArrayIsCutAndOutOfRangeOffsetsAreReported() {
        // 0: [0, 1, 2]  1: "ok"  2: an object whose offset points past the object area.
        let data = BinaryPlistWriter.write(
            objects: [.array([0, 1, 2]), .string("ok"), .int(3)], top: 0, offsetOverrides: [2: 0x7FFF])
        let report = ContentInspector.inspect(data)
        #expect(report.kind == .binaryPlist)
        let tree = try! #require(report.tree)
        #expect(tree.children.map(\.type) == ["array", "string", "invalid"])
        #expect(tree.children[0].note == "cycle")
        #expect(report.problems.contains("property list contains a cycle (object #0 contains itself)"))
        #expect(report.problems.contains("property list refers to a missing or malformed object (#2)"))
    }

    @Test func referenceOutsideTheObjectTableIsSkipped() {
        let data = BinaryPlistWriter.write(objects: [.array([1, 9]), .string("x")], top: 0)
        let report = ContentInspector.inspect(data)
        #expect(report.kind == .binaryPlist)
        #expect(report.tree?.children.map(\.value) == ["x"])
        #expect(report.problems == ["property list container holds a reference outside the object table"])
    }

    @Test func truncatedBinaryPlistIsNamedAndExplained() {
        let data = BinaryPlistWriter.write(.array([.string("a"), .string("b")]))
        let report = ContentInspector.inspect(data.prefix(data.count - 10))
        #expect(report.kind == .binaryPlist)
        #expect(report.tree == nil)
        #expect(report.problems == ["binary property list trailer is inconsistent (the file may be truncated)"])
    }

    @Test func xmlPlistIsParsedIntoATree() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <key>name</key><string>Tom &amp; Jerry</string>
                <key>count</key><integer>-3</integer>
                <key>when</key><date>2001-01-02T00:00:00Z</date>
                <key>bytes</key><data>AAEC</data>
                <key>flags</key><array><true/><false/></array>
                <key>empty</key><dict/>
            </dict>
            </plist>
            """
        let report = ContentInspector.inspect(Data(xml.utf8))
        #expect(report.kind == .xmlPlist)
        #expect(report.summary.hasPrefix("XML plist dict (6 keys) · "))
        let tree = try! #require(report.tree)
        #expect(tree.children.map(\.label) == ["name", "count", "when", "bytes", "flags", "empty"])
        #expect(tree.children.map(\.value) == ["Tom & Jerry", "-3", "2001-01-02T00:00:00Z", "3 bytes: 00 01 02", nil, nil])
        #expect(tree.children[4].children.map(\.value) == ["true", "false"])
    }

    @Test func xmlKeyedArchiveIsRecognised() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>$archiver</key><string>NSKeyedArchiver</string>
            <key>$objects</key><array>
              <string>$null</string>
              <dict><key>NS.string</key><string>hello</string><key>$class</key><dict><key>CF$UID</key><integer>2</integer></dict></dict>
              <dict><key>$classname</key><string>NSMutableString</string></dict>
            </array>
            <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
            <key>$version</key><integer>100000</integer>
            </dict></plist>
            """
        let report = ContentInspector.inspect(Data(xml.utf8))
        #expect(report.kind == .keyedArchive)
        #expect(report.archivedClass == "NSMutableString")
        #expect(report.tree?.value == "hello")
        #expect(report.problems.isEmpty)
    }

    @Test func transformerHintIsReportedWhenTheBytesAreNoArchive() {
        let report = inspect(Array("plain".utf8), transformerName: "NSSecureUnarchiveFromData")
        #expect(report.kind == .utf8Text)
        #expect(report.problems == ["the transformer NSSecureUnarchiveFromData expects a keyed archive, but this is not one"])
    }
}
