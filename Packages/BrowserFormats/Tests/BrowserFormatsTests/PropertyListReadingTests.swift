import BrowserFormats
import Foundation
import Testing

/// Whole lists read into values (`PropertyList.read`), the way a store's metadata and a model are read.
@Suite struct PropertyListReadingTests {
    static var sample: [String: Any] {[
        "name": "Ada", "greeting": "héllo ✓ 😀", "age": 36, "negative": -7, "ratio": 0.5, "ok": true,
        "blob": Data([0xDE, 0xAD, 0xBE, 0xEF]), "when": Date(timeIntervalSinceReferenceDate: 86_400),
        "list": [1, 2, "three"], "nested": ["inner": ["deep": false]],
    ]}
    static let expected: PropertyListValue = .dictionary([
        "name": .string("Ada"), "greeting": .string("héllo ✓ 😀"), "age": .integer(36), "negative": .integer(-7),
        "ratio": .real(0.5), "ok": .boolean(true), "blob": .data([0xDE, 0xAD, 0xBE, 0xEF]), "when": .date(86_400),
        "list": .array([.integer(1), .integer(2), .string("three")]),
        "nested": .dictionary(["inner": .dictionary(["deep": .boolean(false)])]),
    ])

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func listsFoundationWroteReadTheSameInEitherFormat(format: PropertyListSerialization.PropertyListFormat) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: Self.sample, format: format, options: 0)
        #expect(try PropertyList.read(Array(data)) == Self.expected)
    }

    @Test func anXMLListsKeyedArchiveUIDsAreUIDs() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>root</key><dict><key>CF$UID</key><integer>3</integer></dict>
            <key>text</key><string>a &lt; b &amp;&#x20;c &#233;</string><key>empty</key><string/></dict></plist>
            """
        #expect(try PropertyList.read(Array(xml.utf8)) == .dictionary([
            "root": .uid(3), "text": .string("a < b & c é"), "empty": .string(""),
        ]))
    }

    @Test func anObjectReferredToTwiceIsReadOnceAndSharedWhileACycleIsRefused() throws {
        // Objects: 0 = array [1, 1], 1 = "x".
        let shared = BinaryPlist.bytes(objects: [[0xA2, 1, 1], [0x51, UInt8(ascii: "x")]], top: 0)
        #expect(try PropertyList.read(shared) == .array([.string("x"), .string("x")]))
        // Object 0 = array [0]: it contains itself.
        let cycle = BinaryPlist.bytes(objects: [[0xA1, 0]], top: 0)
        #expect(throws: PropertyListError("property list nests too deeply or contains itself")) { try PropertyList.read(cycle) }
    }

    @Test func damagedListsGiveReasonsNotTraps() {
        #expect(throws: PropertyListError("XML property list: no top-level object")) { try PropertyList.read([]) }
        let whole = BinaryPlist.bytes(objects: [[0x51, UInt8(ascii: "x")]], top: 0)
        for length in [8, 20, whole.count - 1] {
            #expect(throws: PropertyListError.self) { try PropertyList.read(Array(whole.prefix(length))) }
        }
        // A reference past the object table, and an offset pointing into the trailer.
        #expect(throws: PropertyListError("property list container holds a reference outside the object table")) {
            try PropertyList.read(BinaryPlist.bytes(objects: [[0xA1, 9]], top: 0))
        }
        #expect(throws: PropertyListError.self) {
            try PropertyList.read(BinaryPlist.bytes(objects: [[0x51, UInt8(ascii: "x")]], top: 0, offsetOverride: 200))
        }
        #expect(throws: PropertyListError("XML property list: a dictionary's keys and values do not pair up")) {
            try PropertyList.read(Array("<plist><dict><key>a</key></dict></plist>".utf8))
        }
    }

    @Test func aDeepListIsRefusedPastTheDepthLimit() {
        let depth = PropertyList.maximumDepth + 1
        let xml = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        #expect(throws: PropertyListError("property list nests too deeply or contains itself")) { try PropertyList.read(Array(xml.utf8)) }
        let shallow = "<plist>" + String(repeating: "<array>", count: 8) + String(repeating: "</array>", count: 8) + "</plist>"
        #expect((try? PropertyList.read(Array(shallow.utf8))) != nil)
    }
}

/// The graphs read object by object within a preview limit, as a content report walks them.
@Suite struct PropertyListGraphTests {
    @Test func aBinaryGraphCutsStringsAndDataAtThePreviewLimitButKeepsTheirLengthsAndBytes() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["text": "abcdefgh", "blob": Data(0..<100)], format: .binary, options: 0)
        let bytes = Array(data)
        try bytes.withUnsafeBytes { raw in
            let graph = try BinaryPropertyList.open(raw, previewLimit: 4).get()
            let top = graph.object(graph.topReference)
            #expect(graph.entry("text", in: top) == .string("abcd…", length: 8))
            #expect(graph.entry("blob", in: top) == .data(count: 100, head: [0, 1, 2, 3]))
            guard case .dictionary(let keys, let values)? = top else { Issue.record("not a dictionary"); return }
            let blob = try #require((0..<keys.count).first { graph.string(graph.object(graph.reference(in: keys, at: $0)!)) == "blob" })
            #expect(graph.withData(graph.reference(in: values, at: blob)!) { Array($0) } == Array(0..<100))
        }
    }

    @Test func anXMLGraphKeepsOnlyTheDataItWasAskedToAndStopsAtItsObjectLimit() throws {
        let xml = Array("<plist><array><data>AAEC</data><data>/w==</data><string>x</string><true/></array></plist>".utf8)
        try xml.withUnsafeBytes { raw in
            let graph = try XMLPropertyList.parse(raw, maximumObjects: 100, previewLimit: 2, keepData: { $0.first == 0 }).get()
            #expect(graph.object(0) == .data(count: 3, head: [0, 1]))
            #expect(graph.withData(0) { Array($0) } == [0, 1, 2])
            #expect(graph.withData(1) { Array($0) } == nil)
            #expect(!graph.stoppedAtLimit)
            let cut = try XMLPropertyList.parse(raw, maximumObjects: 2, previewLimit: 2).get()
            #expect(cut.stoppedAtLimit)
            #expect(cut.object(cut.topReference) == .array(.init(start: 0, count: 2)))
        }
    }
}

/// Hand-made binary lists: 1-byte references and offsets, the objects given as their encoded bytes.
enum BinaryPlist {
    static func bytes(objects: [[UInt8]], top: Int, offsetOverride: Int? = nil) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(offsetOverride ?? bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(top)]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return bytes
    }
}
