@testable import BrowserCore
import Foundation
import Testing

/// The pieces an export writes its cells with, against what they replace: `String(_:)` for integers, the
/// character walk for "has visible text", a dictionary for what an exported record's relationships hold.
struct ExportWritingTests {
    @Test("integers as String(_:) writes them", arguments: [
        Int64.min, Int64.min + 1, -1_000_000, -10, -9, -1, 0, 1, 9, 10, 99, 100, 1_000_000, 9_007_199_254_740_993, Int64.max,
    ])
    func integers(value: Int64) {
        var bytes: [UInt8] = Array("x,".utf8)
        DecimalText.appendInteger(value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x,\(value)")
    }

    @Test func paddedDigits() {
        var bytes: [UInt8] = []
        DecimalText.appendDigits(7, width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "|"))
        DecimalText.appendDigits(12_345, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "|"))
        DecimalText.appendDigits(0, width: 4, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "007|12345|0000")
    }

    @Test func datesAppendedAsTheirString() {
        for seconds in [-62_135_596_800.0, -1.5, 0, 0.0004, 0.9996, 1_700_000_000.123, 253_402_300_799.999, 1e13] {
            let date = Date(timeIntervalSince1970: seconds)
            var bytes: [UInt8] = Array("a,".utf8)
            ISO8601Timestamp.append(date, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "a," + ISO8601Timestamp.string(from: date))
        }
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 86_400 * 365 + 3_723.5)) == "1971-01-01T01:02:03.500Z")
    }

    @Test func visibleTextAsTheCharacterWalkSaysIt() {
        for text in ["a", " a", "\u{3000}", "\u{3000}x", "", " ", "\t\n", "é", "\u{00A0}", "~", "\u{7F}x", "😀"] {
            #expect(RecordSummary.hasVisibleText(text) == text.contains { !$0.isWhitespace }, "\(text.debugDescription)")
        }
    }

    @Test func uuidsAppendedAsTheirString() {
        var generator = SystemRandomNumberGenerator()
        var uuids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        uuids += (0..<1_000).map { _ in
            UUID(uuid: withUnsafeBytes(of: (generator.next(), generator.next())) { $0.loadUnaligned(as: uuid_t.self) })
        }
        for uuid in uuids {
            var bytes: [UInt8] = Array("u,".utf8)
            UUIDText.append(uuid, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "u," + uuid.uuidString)
        }
    }

    @Test func relatedValuesByName() {
        var values: RelatedValues = ["author": .toOne(nil), "tags": .toMany(count: 3)]
        #expect(values["tags"] == .toMany(count: 3) && values["author"] == .toOne(nil) && values["nothing"] == nil)
        values["tags"] = .toMany(count: 4)
        values["narrator"] = .unreadable("missing column")
        #expect(values.names == ["author", "tags", "narrator"])
        #expect(values.values == [.toOne(nil), .toMany(count: 4), .unreadable("missing column")])
        values["author"] = nil
        #expect(values.names == ["tags", "narrator"] && values["author"] == nil)
        #expect(RelatedValues(names: ["a"], values: [.toMany(count: 1)]) == ["a": .toMany(count: 1)])
    }

    /// A batch built from records gives back the same records: a record without an attribute another has stays
    /// without it (not null), and one without a relationship another has stays without it.
    @Test func batchesGiveBackTheirRecords() throws {
        func id(_ entity: String, _ key: Int64, store: String = "S") -> ObjectID {
            ObjectID(storeIdentifier: store, entity: entity, primaryKey: key)
        }
        let author = StoredRecord(id: id("Author", 7), values: ["name": .string("Ann")])
        let records = [
            ExportedRecord(record: StoredRecord(id: id("Book", 1), values: ["title": .string("A"), "pages": .integer(3)]),
                           relationships: ["author": .toOne(author), "tags": .toMany(count: 2)]),
            ExportedRecord(record: StoredRecord(id: id("AudioBook", 2), values: ["title": .null, "narrator": .string("N")]),
                           relationships: ["tags": .toMany(count: 0)]),
            ExportedRecord(record: StoredRecord(id: id("Book", 3, store: "T"), values: [:]), relationships: [:]),
        ]
        let batch = ExportBatch(records: records)
        #expect(batch.count == 3)
        #expect(batch.records == records)
        #expect(batch.entities.map(\.name) == ["Book", "AudioBook", "Book"])
        #expect(batch.id(at: 2) == id("Book", 3, store: "T"))
        let narrator = try #require(batch.attributeNames.firstIndex(of: "narrator"))
        #expect(batch.value(at: 0, slot: narrator) == nil)
        #expect(batch.value(at: 1, slot: narrator) == .string("N"))
    }
}
