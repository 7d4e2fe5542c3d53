import BrowserFormats
import Testing

/// An archive as `NSKeyedArchiver` writes one (XML here, so UIDs can be written by hand): `$objects`, `$top`,
/// `$class` → `$classname`, collections under `NS.objects` / `NS.keys`, `"$null"` for nil.
@Suite struct KeyedArchiveTests {
    static let xml = """
        <plist version="1.0"><dict>
        <key>$archiver</key><string>NSKeyedArchiver</string>
        <key>$version</key><integer>100000</integer>
        <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
        <key>$objects</key><array>
          <string>$null</string>
          <dict>
            <key>$class</key><dict><key>CF$UID</key><integer>5</integer></dict>
            <key>NS.keys</key><array><dict><key>CF$UID</key><integer>2</integer></dict><dict><key>CF$UID</key><integer>6</integer></dict></array>
            <key>NS.objects</key><array><dict><key>CF$UID</key><integer>3</integer></dict><dict><key>CF$UID</key><integer>0</integer></dict></array>
          </dict>
          <string>name</string>
          <dict><key>NS.string</key><string>Ada</string><key>$class</key><dict><key>CF$UID</key><integer>4</integer></dict></dict>
          <dict><key>$classname</key><string>NSMutableString</string></dict>
          <dict><key>$classname</key><string>NSDictionary</string><key>$classes</key><array><string>NSDictionary</string><string>NSObject</string></array></dict>
          <string>missing</string>
        </array>
        </dict></plist>
        """

    @Test func resolvesTheRootItsClassAndADictionarysEntries() throws {
        let archive = try KeyedArchive(try PropertyList.read(Array(Self.xml.utf8)))
        #expect(archive.className(of: archive.root) == "NSDictionary")
        let entries = archive.entries(of: archive.root)
        // The entry whose value is "$null" is dropped; an NSMutableString value is an object, read by string(_:_:).
        #expect(entries.map(\.key) == ["name"])
        #expect(archive.className(of: entries.first?.value) == "NSMutableString")
        #expect(archive.resolve(.uid(0)) == nil)
        #expect(archive.resolve(.uid(99)) == nil)
        #expect(archive.members(of: archive.root).count == 1)
    }

    @Test func aListThatIsNoArchiveIsRefused() {
        #expect(throws: PropertyListError("not an NSKeyedArchiver archive")) {
            try KeyedArchive(.dictionary(["$archiver": .string("Other")]))
        }
    }

    @Test func aUIDChainThatLoopsEndsAsNil() throws {
        let archive = try KeyedArchive(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(["root": .uid(0)]),
            "$objects": .array([.uid(1), .uid(0)]),
        ]))
        #expect(archive.root == nil)
    }
}
