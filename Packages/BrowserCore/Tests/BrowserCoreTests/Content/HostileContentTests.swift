import BrowserCore
import Foundation
import Testing

/// Inputs built to hurt: each must end in a bounded report that says what went wrong.
@Suite struct HostileContentTests {
    @Test func truncatedZlibIsStillNamedWhenNothingElseFits() {
        let report = inspect(Array(CompressedSamples.dynamicHuffmanZlib.prefix(40)))
        #expect(report.kind == .zlib)
        #expect(report.problems == ["zlib: the compressed data is truncated"])
        // What inflated before the input ran out is still looked at.
        #expect(report.inner?.report.kind == .utf8Text)
        #expect(report.inner?.report.text?.hasPrefix("gamma b") == true)
    }

    @Test func textThatHappensToHaveAZlibHeaderIsText() {
        // "x^" is a valid zlib header (0x785E is a multiple of 31); the rest does not inflate.
        let report = inspect(Array("x^2 + y^2 = r^2".utf8))
        #expect(report.kind == .utf8Text)
    }

    @Test func deeplyNestedBinaryPlistStopsAtTheDepthLimit() {
        // 200 arrays, each holding the next; the innermost holds "end".
        var objects: [PlistObject] = (0..<200).map { .array([$0 + 1]) }
        objects.append(.string("end"))
        let report = ContentInspector.inspect(BinaryPlistWriter.write(objects: objects, top: 0), limits: ContentLimits(maxDepth: 10))
        #expect(report.kind == .binaryPlist)
        #expect(report.truncated == ["tree cut at depth 10"])
        var node = try! #require(report.tree)
        var levels = 1
        while let child = node.children.first {
            node = child
            levels += 1
        }
        #expect(levels == 10)
        #expect(node.note == "depth limit")
    }

    @Test func sharedSubtreesAreBoundedByTheNodeLimit() {
        // Object k is an array holding object k+1 twice: 2^30 nodes if expanded naively.
        var objects: [PlistObject] = (0..<30).map { .array([$0 + 1, $0 + 1]) }
        objects.append(.int(1))
        let report = ContentInspector.inspect(BinaryPlistWriter.write(objects: objects, top: 0), limits: ContentLimits(maxTreeNodes: 500))
        #expect(report.kind == .binaryPlist)
        #expect(report.truncated.contains("tree truncated at 500 nodes"))
        #expect(FuzzRegressionTests.nodeCount(report.tree!) <= 500)
    }

    @Test func binaryPlistCountsLargerThanTheFileAreRefused() {
        // A string claiming 200 bytes in a file that holds 3.
        var data = BinaryPlistWriter.write(objects: [.array([1]), .string("abc")], top: 0)
        data[10] = 0x5F
        data[11] = 0x10
        data[12] = 200
        let report = ContentInspector.inspect(data)
        #expect(report.kind == .binaryPlist)
        #expect(report.tree?.children.first?.type == "invalid")
    }

    @Test func keyedArchiveWithAMissingObjectAndNoClassName() {
        let data = BinaryPlistWriter.keyedArchive([
            .dict([("child", .uid(40)), ("$class", .uid(2))]),
            .dict([("$classes", .array([]))]),
        ])
        let report = ContentInspector.inspect(data)
        #expect(report.kind == .keyedArchive)
        #expect(report.archivedClass == "?")
        #expect(report.tree?.children.first?.type == "invalid")
        #expect(report.problems.contains("keyed archive refers to object #40, which is not in $objects"))
        #expect(report.problems.contains("keyed archive class #2 has no $classname"))
    }

    @Test func keyedArchiveWhoseObjectIsAUIDToItselfDoesNotLoop() {
        let data = BinaryPlistWriter.keyedArchive([.uid(1)])
        let report = ContentInspector.inspect(data)
        #expect(report.kind == .keyedArchive)
        #expect(report.tree?.type == "uid")
    }

    @Test func xmlPlistStopsAtItsObjectLimit() {
        let items = String(repeating: "<integer>1</integer>", count: 1_000)
        let xml = "<?xml version=\"1.0\"?><plist><array>\(items)</array></plist>"
        let report = inspect(Array(xml.utf8), limits: ContentLimits(maxTreeNodes: 50))
        #expect(report.kind == .xmlPlist)
        #expect(report.truncated.contains("XML plist read up to 200 objects"))
        #expect(report.truncated.contains("tree truncated at 50 nodes"))
    }

    @Test func deeplyNestedXMLPlistDoesNotRecurse() {
        let depth = 20_000
        let xml = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        let report = inspect(Array(xml.utf8))
        #expect(report.kind == .xmlPlist)
        #expect(report.truncated == ["tree cut at depth 64"])
    }

    @Test func protobufDoesNotRecurseDeeperThanTheLimit() {
        // Field 1 length-delimited, nested 100 times, innermost a varint.
        var message: [UInt8] = [0x08, 0x01]
        for _ in 0..<100 { message = [0x0A] + varint(message.count) + message }
        let report = inspect(message, limits: ContentLimits(maxDepth: 8))
        #expect(report.kind == .protobuf)
        #expect(report.truncated == ["tree cut at depth 8"])
    }

    private func varint(_ value: Int) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }
}
