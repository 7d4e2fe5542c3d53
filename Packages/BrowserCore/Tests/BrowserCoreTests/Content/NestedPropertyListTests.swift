import BrowserCore
import Foundation
import Testing

/// A `data` node whose bytes are a property list or keyed archive shows that list's tree as its child.
@Suite struct NestedPropertyListTests {
    static let inner = BinaryPlistWriter.write(.dict([("name", .string("Ada"))]))

    @Test func binaryPlistInsideABinaryPlist() throws {
        let outer = BinaryPlistWriter.write(.dict([("payload", .data(Array(Self.inner))), ("plain", .data([1, 2]))]))
        let report = ContentInspector.inspect(outer)
        #expect(report.kind == .binaryPlist)
        let tree = try #require(report.tree)
        let payload = tree.children[0]
        #expect(payload.type == "data")
        #expect(payload.value?.hasPrefix("\(Self.inner.count) bytes: 62 70 6c 69 73 74") == true)
        #expect(payload.children.map(\.label) == ["binary plist"])
        #expect(payload.children[0].type == "dict")
        #expect(payload.children[0].children.map(\.value) == ["Ada"])
        #expect(tree.children[1].children.isEmpty)
        #expect(report.truncated.isEmpty && report.problems.isEmpty)
    }

    @Test func xmlPlistInsideAnXMLPlistAndInsideABinaryOne() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array><integer>7</integer></array></plist>
            """
        let outer = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>xml</key><data>\(Data(xml.utf8).base64EncodedString())</data>
            <key>binary</key><data>\(Self.inner.base64EncodedString())</data></dict></plist>
            """
        let report = ContentInspector.inspect(Data(outer.utf8))
        #expect(report.kind == .xmlPlist)
        let tree = try #require(report.tree)
        #expect(tree.children.map { $0.children.first?.label } == ["XML plist", "binary plist"])
        #expect(tree.children[0].children[0].children.map(\.value) == ["7"])
        #expect(tree.children[1].children[0].children.map(\.value) == ["Ada"])

        let binary = ContentInspector.inspect(BinaryPlistWriter.write(.array([.data(Array(xml.utf8))])))
        #expect(binary.tree?.children.first?.children.first?.label == "XML plist")
    }

    @Test func keyedArchiveHoldingAnArchivedDataThatIsAPlist() throws {
        // An archived NSData is a plain data object in $objects; an NSMutableData keeps it under NS.data.
        let archive = BinaryPlistWriter.keyedArchive([
            .dict([("payload", .uid(3)), ("mutable", .uid(4)), ("$class", .uid(2))]),
            BinaryPlistWriter.classDescription(["Settings", "NSObject"]),
            .data(Array(Self.inner)),
            .dict([("NS.data", .data(Array(Self.inner))), ("$class", .uid(5))]),
            BinaryPlistWriter.classDescription(["NSMutableData", "NSData", "NSObject"]),
        ])
        let report = ContentInspector.inspect(archive)
        #expect(report.kind == .keyedArchive)
        let tree = try #require(report.tree)
        #expect(tree.children.map(\.label) == ["payload", "mutable"])
        #expect(tree.children[0].type == "data")
        #expect(tree.children[0].children.first?.label == "binary plist")
        #expect(tree.children[0].children.first?.children.first?.value == "Ada")
        #expect(tree.children[1].children.first?.children.first?.children.first?.value == "Ada")
        #expect(report.problems.isEmpty)
    }

    @Test func keyedArchiveInsideAPlistShowsItsObjects() throws {
        let color = BinaryPlistWriter.keyedArchive([
            .dict([("UIRed", .real(1)), ("$class", .uid(2))]),
            BinaryPlistWriter.classDescription(["UIColor", "NSObject"]),
        ])
        let report = ContentInspector.inspect(BinaryPlistWriter.write(.dict([("tint", .data(Array(color)))])))
        let nested = try #require(report.tree?.children.first?.children.first)
        #expect(nested.label == "keyed archive")
        #expect(nested.type == "object(UIColor)")
        #expect(nested.children.map(\.label) == ["UIRed"])
    }

    @Test func bytesThatOnlyLookLikeAPlistStayData() throws {
        let report = ContentInspector.inspect(BinaryPlistWriter.write(.array([.data(Array("bplist00 and then nothing".utf8))])))
        let data = try #require(report.tree?.children.first)
        #expect(data.type == "data" && data.children.isEmpty)
        #expect(report.problems.isEmpty && report.truncated.isEmpty)
    }

    /// A plist whose data holds a plist whose data holds a plist…, `levels` deep.
    static func nestedInItself(_ levels: Int) -> Data {
        var bytes = Self.inner
        for _ in 0..<levels { bytes = BinaryPlistWriter.write(.dict([("d", .data(Array(bytes)))])) }
        return bytes
    }

    static func dataLevels(_ node: ContentNode) -> (Int, ContentNode) {
        var levels = 0
        var node = node
        while let data = node.children.first(where: { $0.type == "data" }) {
            levels += 1
            node = data
            guard let nested = data.children.first else { break }
            node = nested
        }
        return (levels, node)
    }

    @Test func aPlistNestedInItselfStopsAtTheNestingDepthAndNodeLimits() throws {
        let bytes = Self.nestedInItself(30)
        let report = ContentInspector.inspect(bytes)
        let (levels, last) = Self.dataLevels(try #require(report.tree))
        #expect(levels == 5)  // four lists decoded inside data values, the fifth data value left as it is
        #expect(last.type == "data" && last.note == "nesting limit" && last.children.isEmpty)
        #expect(report.truncated == ["property lists inside data values decoded 4 levels deep"])

        let shallow = ContentInspector.inspect(bytes, limits: ContentLimits(maxDepth: 5))
        #expect(shallow.truncated.contains("tree cut at depth 5"))
        #expect(FuzzRegressionTests.depth(try #require(shallow.tree)) <= 5)

        let small = ContentInspector.inspect(bytes, limits: ContentLimits(maxTreeNodes: 5, maxNestedInspections: 100))
        #expect(small.truncated == ["tree truncated at 5 nodes"])
        #expect(FuzzRegressionTests.nodeCount(try #require(small.tree)) <= 5)
    }

    @Test func nestedXMLBytesAreBoundedWhenOneDataValueIsSharedManyTimes() throws {
        // One data object holding an XML plist, referred to 200 times: each is parsed, up to the byte budget.
        let xml = "<?xml version=\"1.0\"?><plist><string>\(String(repeating: "z", count: 150))</string></plist>"
        let objects: [PlistObject] = [.array(Array(repeating: 1, count: 200)), .data(Array(xml.utf8))]
        let report = ContentInspector.inspect(
            BinaryPlistWriter.write(objects: objects, top: 0), limits: ContentLimits(maxInflatedBytes: 10 * xml.utf8.count))
        let tree = try #require(report.tree)
        #expect(tree.children.count == 200)
        #expect(tree.children.filter { !$0.children.isEmpty }.count == 10)
        #expect(report.truncated.count == 1)
        #expect(report.truncated.first?.hasPrefix("XML property lists inside data values parsed up to ") == true)
    }
}
