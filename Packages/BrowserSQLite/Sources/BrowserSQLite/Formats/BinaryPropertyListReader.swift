/// Reads Apple's binary property list format, `bplist00`: the format of `Z_METADATA.Z_PLIST`, of the archive in
/// `Z_MODELCACHE`, of compiled `.mom` files and of `VersionInfo.plist`.
///
/// Layout (documented in CoreFoundation's `CFBinaryPList.c`): an 8-byte header, the objects, a table of object
/// offsets and a 32-byte trailer giving the offset and reference sizes, the object count, the top object and
/// where the offset table starts. Each object begins with a marker byte: the high nibble is its type, the low
/// nibble its size or count (0xF: the count follows as an integer object). Every offset and count is checked
/// against the data, so a damaged file gives an error, never a crash or a runaway allocation.
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private var offsets: [Int] = []
    private var referenceSize = 1
    private var topObject = 0
    private var cache: [Int: PropertyListValue] = [:]
    private var inProgress: Set<Int> = []

    /// Containers nest at most this deep; deeper data is refused rather than exhausting the stack.
    static let maximumDepth = 512

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        var reader = BinaryPropertyListReader(bytes)
        return try reader.read()
    }

    mutating func read() throws(PropertyListError) -> PropertyListValue {
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else {
            throw PropertyListError("not a binary property list")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let objectCount = try unsigned(at: trailer + 8, size: 8)
        let top = try unsigned(at: trailer + 16, size: 8)
        let tableOffset = try unsigned(at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw PropertyListError("binary property list has invalid offset or reference sizes")
        }
        guard objectCount > 0, objectCount <= UInt64(bytes.count), top < objectCount,
              tableOffset >= 8, tableOffset <= UInt64(trailer),
              objectCount * UInt64(offsetSize) <= UInt64(trailer) - tableOffset
        else {
            throw PropertyListError("binary property list trailer is inconsistent")
        }
        offsets.reserveCapacity(Int(objectCount))
        for index in 0..<Int(objectCount) {
            let offset = try unsigned(at: Int(tableOffset) + index * offsetSize, size: offsetSize)
            guard offset >= 8, offset < tableOffset else {
                throw PropertyListError("binary property list object \(index) lies outside the object area")
            }
            offsets.append(Int(offset))
        }
        topObject = Int(top)
        return try object(topObject, depth: 0)
    }

    private mutating func object(_ index: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        if let cached = cache[index] { return cached }
        guard index >= 0, index < offsets.count else {
            throw PropertyListError("binary property list refers to object \(index) of \(offsets.count)")
        }
        guard depth < Self.maximumDepth, !inProgress.contains(index) else {
            throw PropertyListError("binary property list nests too deeply or contains itself")
        }
        inProgress.insert(index)
        defer { inProgress.remove(index) }
        let value = try decode(at: offsets[index], depth: depth)
        cache[index] = value
        return value
    }

    private mutating func decode(at offset: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let marker = try byte(at: offset)
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch info {
            case 0x8: return .boolean(false)
            case 0x9: return .boolean(true)
            default: return .null
            }
        case 0x1:
            return .integer(try integer(at: offset + 1, sizeExponent: info))
        case 0x2:
            return .real(try real(at: offset + 1, sizeExponent: info))
        case 0x3:
            return .date(try real(at: offset + 1, sizeExponent: 3))
        case 0x4:
            let (count, start) = try count(info: info, after: offset)
            return .data(try slice(start, count))
        case 0x5:
            let (count, start) = try count(info: info, after: offset)
            // ASCII; decoding as UTF-8 keeps any stray high byte visible rather than failing the whole list.
            return .string(String(decoding: try slice(start, count), as: UTF8.self))
        case 0x6:
            let (count, start) = try count(info: info, after: offset)
            let raw = try slice(start, count * 2)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for unit in 0..<count {
                units.append(UInt16(raw[unit * 2]) << 8 | UInt16(raw[unit * 2 + 1]))
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x7:
            let (count, start) = try count(info: info, after: offset)
            return .string(String(decoding: try slice(start, count), as: UTF8.self))
        case 0x8:
            let value = try unsigned(at: offset + 1, size: info + 1)
            guard value < UInt64(Int32.max) else { throw PropertyListError("binary property list UID out of range") }
            return .uid(Int(value))
        case 0xA, 0xB, 0xC:
            let (count, start) = try count(info: info, after: offset)
            let references = try references(start, count)
            var items: [PropertyListValue] = []
            items.reserveCapacity(count)
            for reference in references {
                items.append(try object(reference, depth: depth + 1))
            }
            return .array(items)
        case 0xD:
            let (count, start) = try count(info: info, after: offset)
            let keys = try references(start, count)
            let values = try references(start + count * referenceSize, count)
            var entries: [String: PropertyListValue] = [:]
            entries.reserveCapacity(count)
            for (key, value) in zip(keys, values) {
                guard case .string(let name) = try object(key, depth: depth + 1) else {
                    throw PropertyListError("binary property list dictionary has a key that is not a string")
                }
                entries[name] = try object(value, depth: depth + 1)
            }
            return .dictionary(entries)
        default:
            throw PropertyListError("binary property list has an unknown object marker 0x\(String(marker, radix: 16))")
        }
    }

    private func byte(at offset: Int) throws(PropertyListError) -> UInt8 {
        guard offset >= 0, offset < bytes.count else { throw PropertyListError("binary property list is truncated") }
        return bytes[offset]
    }

    private func slice(_ start: Int, _ count: Int) throws(PropertyListError) -> [UInt8] {
        guard start >= 0, count >= 0, count <= bytes.count, start <= bytes.count - count else {
            throw PropertyListError("binary property list is truncated")
        }
        return Array(bytes[start..<start + count])
    }

    private func unsigned(at offset: Int, size: Int) throws(PropertyListError) -> UInt64 {
        guard size >= 1, size <= 8, offset >= 0, offset <= bytes.count - size else {
            throw PropertyListError("binary property list is truncated")
        }
        var value: UInt64 = 0
        for index in offset..<offset + size {
            value = value << 8 | UInt64(bytes[index])
        }
        return value
    }

    /// Integers of 1, 2 and 4 bytes are unsigned, of 8 bytes signed; 16-byte integers (unsigned values above
    /// Int64.max) keep their low 64 bits.
    private func integer(at offset: Int, sizeExponent: Int) throws(PropertyListError) -> Int64 {
        switch sizeExponent {
        case 0, 1, 2: return Int64(try unsigned(at: offset, size: 1 << sizeExponent))
        case 3: return Int64(bitPattern: try unsigned(at: offset, size: 8))
        case 4: return Int64(bitPattern: try unsigned(at: offset + 8, size: 8))
        default: throw PropertyListError("binary property list has an integer of unsupported size")
        }
    }

    private func real(at offset: Int, sizeExponent: Int) throws(PropertyListError) -> Double {
        switch sizeExponent {
        case 2: return Double(Float(bitPattern: UInt32(try unsigned(at: offset, size: 4))))
        case 3: return Double(bitPattern: try unsigned(at: offset, size: 8))
        default: throw PropertyListError("binary property list has a real of unsupported size")
        }
    }

    /// The element count of a container, string or data object, and where its contents start.
    private func count(info: Int, after offset: Int) throws(PropertyListError) -> (count: Int, start: Int) {
        guard info == 0xF else { return (info, offset + 1) }
        let marker = try byte(at: offset + 1)
        guard marker >> 4 == 0x1 else { throw PropertyListError("binary property list has a malformed count") }
        let exponent = Int(marker & 0x0F)
        let value = try integer(at: offset + 2, sizeExponent: exponent)
        guard value >= 0, value <= Int64(bytes.count) else {
            throw PropertyListError("binary property list has a count larger than the file")
        }
        return (Int(value), offset + 2 + (1 << exponent))
    }

    private func references(_ start: Int, _ count: Int) throws(PropertyListError) -> [Int] {
        guard count <= bytes.count / referenceSize else { throw PropertyListError("binary property list is truncated") }
        var result: [Int] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            result.append(Int(try unsigned(at: start + index * referenceSize, size: referenceSize)))
        }
        return result
    }
}
