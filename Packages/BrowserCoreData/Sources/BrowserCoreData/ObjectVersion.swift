#if canImport(CoreData)
import BrowserCore
import CoreData

/// The version of a live object that a write must name (`StoredRecord.version`): a 53-bit digest of what the
/// object holds, its stored attributes' values (the bytes of Binary ones; a Transformable's class and presence only,
/// see below) and the IDs its relationships hold (in order for an ordered one).
///
/// Why a digest (docs/decisions/live-context-writes.md): Core Data keeps a version per row (`Z_OPT`, what
/// `NSMergeConflict.oldVersionNumber`/`newVersionNumber` report), but no public API reads it for an object, and
/// the browser's context is reset after every request, so the number it read an object at is gone by the time the
/// client writes. A digest is computed again at write time from the same object, so the check needs nothing kept.
/// Core Data's own optimistic locking then covers the moment between that check and the save (the context's
/// default `NSErrorMergePolicy` fails the save when the row changed meanwhile: 409).
///
/// ABA: a record changed and changed back has its old version again, so a write naming it goes through. The state
/// it overwrites is then exactly the state the client was shown, and a write sets only the properties it names,
/// so no change the client did not see is lost. Every record whose values or relationships a write changes gets a
/// new version (the other side of a relationship included, through Core Data's inverse maintenance), as the
/// contract asks; a new record's version is its digest, not 1.
///
/// 53 bits so a JavaScript client holds it exactly (JSON numbers are doubles in a browser).
enum ObjectVersion {
    static func of(_ object: NSManagedObject) -> Int64 {
        var digest = Digest()
        digest.add(object.entity.name ?? "")
        for (name, attribute) in object.entity.attributesByName.sorted(by: { $0.key < $1.key }) where !attribute.isTransient {
            digest.add(name)
            let raw = object.value(forKey: name)
            switch ModelSchema.attributeType(attribute.attributeType) {
            case .binary, .transformable:
                guard let raw, !(raw is NSNull) else { digest.add(byte: 0); continue }
                if let data = raw as? Data {
                    // The bytes, not the size the API shows: an edit that keeps the length is still a change.
                    digest.add(byte: 1)
                    digest.add(data)
                } else {
                    // A Transformable's object: only its presence and class. Archiving it again is not stable across
                    // fetches (a dictionary's archive follows its iteration order; a class without its own `hash`
                    // hashes its address), and a version that moved on every read would refuse every write.
                    digest.add(byte: 2)
                    digest.add(String(describing: type(of: raw)))
                }
            default:
                digest.add(ManagedRecords.value(raw, of: attribute))
            }
        }
        for (name, relationship) in object.entity.relationshipsByName.sorted(by: { $0.key < $1.key }) where !relationship.isTransient {
            digest.add(name)
            var ids: [String]
            if relationship.isToMany {
                // IDs from the foreign keys or join table: no related object is faulted in.
                ids = object.objectIDs(forRelationshipNamed: name).map { $0.uriRepresentation().absoluteString }
                if !relationship.isOrdered { ids.sort() }
            } else {
                // A to-one's target is a fault; its objectID does not fire it.
                ids = (object.value(forKey: name) as? NSManagedObject).map { [$0.objectID.uriRepresentation().absoluteString] } ?? []
            }
            digest.add(UInt64(ids.count))
            for id in ids { digest.add(id) }
        }
        return Int64(digest.value & ((1 << 53) - 1))
    }

    /// 64-bit FNV-1a over a canonical encoding: every value with a tag and every text with its length, so no two
    /// different contents encode the same. Stable across launches (Swift's `Hasher` is seeded per process).
    private struct Digest {
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func add(byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }

        mutating func add(_ number: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { add(byte: UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
        }

        mutating func add(_ data: Data) {
            add(UInt64(data.count))
            for byte in data { add(byte: byte) }
        }

        mutating func add(_ text: String) {
            add(Data(text.utf8))
        }

        mutating func add(_ attribute: AttributeValue) {
            switch attribute {
            case .null: add(byte: 0)
            case .string(let text): add(byte: 1); add(text)
            case .integer(let number): add(byte: 2); add(UInt64(bitPattern: number))
            case .double(let number): add(byte: 3); add(number.bitPattern)
            case .float(let number): add(byte: 4); add(UInt64(number.bitPattern))
            case .decimal(let number): add(byte: 5); add(number.description)
            case .boolean(let flag): add(byte: 6); add(byte: flag ? 1 : 0)
            case .date(let date): add(byte: 7); add(date.timeIntervalSinceReferenceDate.bitPattern)
            case .uuid(let uuid): add(byte: 8); add(uuid.uuidString)
            case .uri(let text): add(byte: 9); add(text)
            case .binary(let byteCount): add(byte: 10); add(UInt64(byteCount))
            case .undecodable(let reason): add(byte: 11); add(reason)
            case .truncatedText(let prefix, let byteCount): add(byte: 12); add(prefix); add(UInt64(byteCount))
            }
        }
    }
}

#endif
