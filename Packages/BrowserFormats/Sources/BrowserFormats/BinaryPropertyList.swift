/// Apple's binary property list, `bplist00`, read in place and object by object: the format of
/// `Z_METADATA.Z_PLIST`, of the archive in `Z_MODELCACHE`, of compiled `.mom` files, of `VersionInfo.plist` and
/// of many stored values.
///
/// Layout (CoreFoundation's `CFBinaryPList.c`): an 8-byte header, the objects, a table of object offsets and a
/// 32-byte trailer giving the offset and reference sizes, the object count, the top object and where the offset
/// table starts. Each object begins with a marker byte: the high nibble is its type, the low nibble its size or
/// count (0xF: the count follows as an integer object). Every offset, count and reference is checked against
/// the data when it is read, so a damaged list yields nil objects, never a trap or a runaway allocation.
public struct BinaryPropertyList: PropertyListGraph {
    private let bytes: UnsafeRawBufferPointer
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let offsetTable: Int
    public let topReference: Int
    private let previewLimit: Int

    /// The list `bytes` hold (which must outlive it), its strings and data read up to `previewLimit` characters
    /// and bytes (`Int.max`: whole); the reason when the header or trailer is not a binary property list's.
    public static func open(_ bytes: UnsafeRawBufferPointer, previewLimit: Int) -> Result<BinaryPropertyList, PropertyListError> {
        guard bytes.matches("bplist0") else { return .failure(PropertyListError("not a binary property list")) }
        guard bytes.count >= 8 + 32 else { return .failure(PropertyListError("binary property list is truncated")) }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard let objectCount = bytes.bigEndian(at: trailer + 8, size: 8),
              let top = bytes.bigEndian(at: trailer + 16, size: 8),
              let table = bytes.bigEndian(at: trailer + 24, size: 8),
              (1...8).contains(offsetSize), (1...8).contains(referenceSize),
              objectCount > 0, objectCount <= UInt64(bytes.count), top < objectCount,
              table >= 8, table <= UInt64(trailer),
              objectCount * UInt64(offsetSize) <= UInt64(trailer) - table
        else {
            return .failure(PropertyListError("binary property list trailer is inconsistent (the file may be truncated)"))
        }
        return .success(BinaryPropertyList(
            bytes: bytes, offsetSize: offsetSize, referenceSize: referenceSize, objectCount: Int(objectCount),
            offsetTable: Int(table), topReference: Int(top), previewLimit: previewLimit))
    }

    public func reference(in list: PropertyListObject.References, at position: Int) -> Int? {
        guard position >= 0, position < list.count,
              let value = bytes.bigEndian(at: list.start + position * referenceSize, size: referenceSize),
              value < UInt64(objectCount)
        else { return nil }
        return Int(value)
    }

    /// Where object `reference` starts, checked to lie between the header and the offset table.
    private func offset(of reference: Int) -> Int? {
        guard reference >= 0, reference < objectCount,
              let offset64 = bytes.bigEndian(at: offsetTable + reference * offsetSize, size: offsetSize),
              offset64 >= 8, offset64 < UInt64(offsetTable)
        else { return nil }
        return Int(offset64)
    }

    public func withData<Result>(_ reference: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        guard let offset = offset(of: reference), bytes[offset] >> 4 == 0x4,
              let (count, start) = counted(at: offset, info: Int(bytes[offset] & 0x0F), unitSize: 1)
        else { return nil }
        return body(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
    }

    public func object(_ reference: Int) -> PropertyListObject? {
        guard let offset = offset(of: reference) else { return nil }
        let marker = bytes[offset]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch info {
            case 0x0: return .null
            case 0x8: return .bool(false)
            case 0x9: return .bool(true)
            default: return nil
            }
        case 0x1:
            // 1, 2 and 4-byte integers are unsigned, 8-byte ones signed, 16-byte ones (0x14) are 128-bit.
            let size = 1 << info
            if size == 16 {
                guard let high = bytes.bigEndian(at: offset + 1, size: 8), let low = bytes.bigEndian(at: offset + 9, size: 8),
                      offset + 17 <= offsetTable
                else { return nil }
                return .integer(high == 0 ? String(low) : high == UInt64.max ? String(Int64(bitPattern: low)) : "128-bit \(high):\(low)")
            }
            guard size <= 8, offset + 1 + size <= offsetTable, let value = bytes.bigEndian(at: offset + 1, size: size) else { return nil }
            return .integer(size == 8 ? String(Int64(bitPattern: value)) : String(value))
        case 0x2:
            let size = 1 << info
            guard size == 4 || size == 8, offset + 1 + size <= offsetTable,
                  let value = bytes.bigEndian(at: offset + 1, size: size)
            else { return nil }
            return .real(size == 4 ? Double(Float(bitPattern: UInt32(value))) : Double(bitPattern: value))
        case 0x3:
            guard info == 3, offset + 9 <= offsetTable, let value = bytes.bigEndian(at: offset + 1, size: 8) else { return nil }
            return .date(Double(bitPattern: value))
        case 0x4:
            guard let (count, start) = counted(at: offset, info: info, unitSize: 1) else { return nil }
            return .data(count: count, head: Array(bytes[start..<(start + min(count, previewLimit))]))
        case 0x5, 0x7:
            // ASCII (0x5) or UTF-8 (0x7, newer writers); decoding both as UTF-8 keeps a stray high byte visible.
            guard let (count, start) = counted(at: offset, info: info, unitSize: 1) else { return nil }
            let shown = min(count, previewLimit)
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + shown)]), as: UTF8.self)
            return .string(shown < count ? text + "…" : text, length: count)
        case 0x6:
            guard let (count, start) = counted(at: offset, info: info, unitSize: 2) else { return nil }
            let shown = min(count, previewLimit)
            let units = (0..<shown).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
            let text = String(decoding: units, as: UTF16.self)
            return .string(shown < count ? text + "…" : text, length: count)
        case 0x8:
            guard offset + 2 + info <= offsetTable, let value = bytes.bigEndian(at: offset + 1, size: info + 1),
                  value <= UInt64(Int32.max)
            else { return nil }
            return .uid(Int(value))
        case 0xA, 0xB, 0xC:
            guard let (count, start) = counted(at: offset, info: info, unitSize: referenceSize) else { return nil }
            let list = PropertyListObject.References(start: start, count: count)
            return marker >> 4 == 0xA ? .array(list) : .set(list)
        case 0xD:
            guard let (count, start) = counted(at: offset, info: info, unitSize: 2 * referenceSize) else { return nil }
            return .dictionary(
                keys: PropertyListObject.References(start: start, count: count),
                values: PropertyListObject.References(start: start + count * referenceSize, count: count))
        default:
            return nil
        }
    }

    /// The count of an object whose low nibble is a count (0xF: an integer object follows), and where its
    /// `count × unitSize` bytes start; nil when they do not fit before the offset table.
    private func counted(at offset: Int, info: Int, unitSize: Int) -> (count: Int, start: Int)? {
        var count = info
        var start = offset + 1
        if info == 0xF {
            guard let marker = bytes.byte(at: offset + 1), marker >> 4 == 0x1, marker & 0x0F <= 3 else { return nil }
            let size = 1 << Int(marker & 0x0F)
            guard let value = bytes.bigEndian(at: offset + 2, size: size), value <= UInt64(offsetTable) else { return nil }
            count = Int(value)
            start = offset + 2 + size
        }
        guard count <= (offsetTable - start) / unitSize else { return nil }
        return (count, start)
    }
}
