internal import Foundation

/// Apple's XML property list (`<plist version="1.0">`), read into the same object table as a binary one, so
/// keyed archives and the tree builders need not care which it was.
///
/// Written here rather than through `PropertyListSerialization`: swift-corelibs' reader recurses once per level
/// (a deeply nested hostile plist would exhaust the stack), has no object limit, and turns keyed-archive UIDs
/// (`<dict><key>CF$UID</key><integer>…`) into dictionaries we would then have to recognise anyway. This reader
/// is iterative, stops after `maximumObjects` objects (reporting it) and reads only the plist vocabulary.
public struct XMLPropertyList: PropertyListGraph {
    private(set) var objects: [PropertyListObject] = []
    private var storage: [Int] = []
    public private(set) var topReference = 0
    /// True when parsing stopped at the object limit: containers still open were closed where they stood.
    public private(set) var stoppedAtLimit = false
    /// The decoded bytes of the `<data>` objects the parse was asked to keep, by reference (only those: the
    /// others are read up to the preview limit and need not be kept).
    private var keptData: [Int: Data] = [:]

    public func withData<Result>(_ reference: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        keptData[reference].map { $0.withUnsafeBytes(body) }
    }

    public func object(_ reference: Int) -> PropertyListObject? {
        reference >= 0 && reference < objects.count ? objects[reference] : nil
    }

    public func reference(in list: PropertyListObject.References, at position: Int) -> Int? {
        position >= 0 && position < list.count ? storage[list.start + position] : nil
    }

    private struct OpenContainer {
        var isDictionary: Bool
        var children: [Int] = []
    }

    /// The list `bytes` hold, read up to `maximumObjects` objects, its strings and data up to `previewLimit`
    /// characters and bytes (`Int.max`: whole); the bytes of every data object `keepData` accepts stay available
    /// through `withData`.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, maximumObjects: Int, previewLimit: Int,
        keepData: (UnsafeRawBufferPointer) -> Bool = { _ in false }
    ) -> Result<XMLPropertyList, PropertyListError> {
        var list = XMLPropertyList()
        var open: [OpenContainer] = []
        var top: Int?
        var position = 0
        func fail(_ reason: String) -> Result<XMLPropertyList, PropertyListError> {
            .failure(PropertyListError("XML property list: \(reason)"))
        }
        func add(_ object: PropertyListObject) -> Bool {
            let reference = list.objects.count
            list.objects.append(object)
            if open.isEmpty {
                guard top == nil else { return false }
                top = reference
            } else {
                open[open.count - 1].children.append(reference)
            }
            return true
        }
        func close(_ container: OpenContainer) -> PropertyListObject? {
            let start = list.storage.count
            if container.isDictionary {
                guard container.children.count % 2 == 0 else { return nil }
                let pairs = container.children.count / 2
                // A keyed archive's UID: a dictionary of the one key CF$UID holding an integer.
                if pairs == 1, case .string("CF$UID", _) = list.objects[container.children[0]],
                   case .integer(let text) = list.objects[container.children[1]], let uid = Int(text), uid >= 0 {
                    return .uid(uid)
                }
                for pair in 0..<pairs {
                    guard case .string = list.objects[container.children[2 * pair]] else { return nil }
                    list.storage.append(container.children[2 * pair])
                }
                for pair in 0..<pairs { list.storage.append(container.children[2 * pair + 1]) }
                return .dictionary(keys: .init(start: start, count: pairs), values: .init(start: start + pairs, count: pairs))
            }
            list.storage.append(contentsOf: container.children)
            return .array(.init(start: start, count: container.children.count))
        }

        while let tagStart = bytes.firstIndex(of: [UInt8(ascii: "<")], from: position) {
            if list.objects.count >= maximumObjects {
                list.stoppedAtLimit = true
                break
            }
            if bytes.matches("<?", at: tagStart) {
                guard let end = bytes.firstIndex(of: Array("?>".utf8), from: tagStart) else { return fail("unterminated declaration") }
                position = end + 2
                continue
            }
            if bytes.matches("<!--", at: tagStart) {
                guard let end = bytes.firstIndex(of: Array("-->".utf8), from: tagStart) else { return fail("unterminated comment") }
                position = end + 3
                continue
            }
            guard let tagEnd = bytes.firstIndex(of: [UInt8(ascii: ">")], from: tagStart) else { return fail("unterminated tag") }
            position = tagEnd + 1
            if bytes.matches("<!", at: tagStart) { continue } // DOCTYPE
            let isClosing = bytes.byte(at: tagStart + 1) == UInt8(ascii: "/")
            let selfClosing = bytes[tagEnd - 1] == UInt8(ascii: "/") && !isClosing
            var nameEnd = tagStart + (isClosing ? 2 : 1)
            let nameStart = nameEnd
            while nameEnd < tagEnd, bytes[nameEnd] > 0x20, bytes[nameEnd] != UInt8(ascii: "/") { nameEnd += 1 }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self)
            if name == "plist" { continue }
            if isClosing {
                guard name == "array" || name == "dict", let container = open.popLast(),
                      container.isDictionary == (name == "dict")
                else { return fail("unexpected </\(name)>") }
                guard let object = close(container) else { return fail("a dictionary's keys and values do not pair up") }
                guard add(object) else { return fail("more than one top-level object") }
                continue
            }
            var content = ""
            let leaves: Set<String> = ["key", "string", "integer", "real", "date", "data", "true", "false"]
            if name == "array" || name == "dict" {
                if !selfClosing {
                    open.append(OpenContainer(isDictionary: name == "dict"))
                    continue
                }
            } else if leaves.contains(name) {
                if !selfClosing {
                    guard let end = bytes.firstIndex(of: Array("</\(name)>".utf8), from: position) else {
                        return fail("<\(name)> is not closed")
                    }
                    content = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
                    position = end + name.utf8.count + 3
                }
            } else {
                return fail("unknown element <\(name)>")
            }
            let object: PropertyListObject
            switch name {
            case "array": object = .array(.init(start: 0, count: 0))
            case "dict": object = .dictionary(keys: .init(start: 0, count: 0), values: .init(start: 0, count: 0))
            case "key", "string":
                let text = XMLCharacterReferences.decode(content).text
                object = .string(TextPreview.cut(text, limit: previewLimit), length: text.count)
            case "integer":
                let text = content.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !text.isEmpty, text.dropFirst(text.hasPrefix("-") ? 1 : 0).allSatisfy(\.isNumber) else {
                    return fail("<integer> holds \"\(TextPreview.cut(text, limit: 20))\"")
                }
                object = .integer(text)
            case "real":
                guard let value = Double(content.trimmingCharacters(in: .whitespacesAndNewlines)) else { return fail("invalid <real>") }
                object = .real(value)
            case "date":
                guard let seconds = secondsSince2001(content.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    return fail("invalid <date>")
                }
                object = .date(seconds)
            case "data":
                guard let data = Data(base64Encoded: content, options: .ignoreUnknownCharacters) else { return fail("invalid <data>") }
                object = .data(count: data.count, head: Array(data.prefix(previewLimit)))
                if data.withUnsafeBytes(keepData) {
                    list.keptData[list.objects.count] = data // the reference `add` gives it
                }
            default: object = .bool(name == "true")
            }
            guard add(object) else { return fail("more than one top-level object") }
        }
        if !list.stoppedAtLimit, !open.isEmpty { return fail("the document ends inside a container (truncated)") }
        // Stopped at the limit: close what is open, so the objects read so far still form a tree.
        while let container = open.popLast() {
            guard let object = close(container), add(object) else { break }
        }
        guard let top else { return fail("no top-level object") }
        list.topReference = top
        return .success(list)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the only form plists write, as seconds since 2001-01-01T00:00:00Z.
    private static func secondsSince2001(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).map { Int($0) }
        guard parts.count == 6, text.hasSuffix("Z"), let year = parts[0], let month = parts[1], let day = parts[2],
              let hour = parts[3], let minute = parts[4], let second = parts[5], (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        // Days from the civil date (the inverse of BrowserCore's ISO8601Timestamp.civilDate), counted from 1970-01-01.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second) - 978_307_200
    }
}
