import Foundation

/// Reads XML property lists (`.xccurrentversion`, an XML `VersionInfo.plist`) into `PropertyListValue`.
/// https://developer.apple.com/library/archive/documentation/General/Conceptual/DevPedia-CocoaCore/PropertyList.html
enum XMLPropertyListReader {
    static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        let root = try MarkupParser.parse(bytes)
        guard root.name == "plist" else { throw PropertyListError("not a property list (root element <\(root.name)>)") }
        guard let top = root.children.first else { return .null }
        return try value(of: top)
    }

    private static func value(of element: MarkupElement) throws(PropertyListError) -> PropertyListValue {
        switch element.name {
        case "string":
            return .string(element.text)
        case "integer":
            guard let number = Int64(element.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw PropertyListError("property list integer \"\(element.text)\" is malformed")
            }
            return .integer(number)
        case "real":
            guard let number = Double(element.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw PropertyListError("property list real \"\(element.text)\" is malformed")
            }
            return .real(number)
        case "true":
            return .boolean(true)
        case "false":
            return .boolean(false)
        case "data":
            let compact = element.text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else {
                throw PropertyListError("property list data is not valid base64")
            }
            return .data(Array(data))
        case "date":
            let formatter = ISO8601DateFormatter()
            guard let date = formatter.date(from: element.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw PropertyListError("property list date \"\(element.text)\" is malformed")
            }
            return .date(date.timeIntervalSinceReferenceDate)
        case "array":
            var items: [PropertyListValue] = []
            for child in element.children {
                items.append(try value(of: child))
            }
            return .array(items)
        case "dict":
            var entries: [String: PropertyListValue] = [:]
            var pendingKey: String?
            for child in element.children {
                if child.name == "key" {
                    pendingKey = child.text
                } else if let key = pendingKey {
                    entries[key] = try value(of: child)
                    pendingKey = nil
                } else {
                    throw PropertyListError("property list dictionary has a value without a key")
                }
            }
            return .dictionary(entries)
        default:
            throw PropertyListError("property list has an unknown element <\(element.name)>")
        }
    }
}
