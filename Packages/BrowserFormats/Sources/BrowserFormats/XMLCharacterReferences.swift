/// XML's five predefined entities and its numeric character references (`&#…;`, `&#x…;`): decoded here for
/// both XML readers (`MarkupParser`, `XMLPropertyList`).
enum XMLCharacterReferences {
    /// A reference longer than this (from `&` to `;`) is not one: the search for its `;` stops there, so a
    /// stray ampersand in a long text costs no more than this.
    static let maximumLength = 12

    /// `text` with its references decoded. A reference that is unknown, or has no `;` within `maximumLength`
    /// characters, is kept as it stands and reported as `firstUnknown` (the strict reader refuses it, the
    /// lenient one shows it).
    static func decode(_ text: some StringProtocol) -> (text: String, firstUnknown: String?) {
        guard text.contains("&") else { return (String(text), nil) }
        var result = ""
        var firstUnknown: String?
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].prefix(maximumLength + 1).firstIndex(of: ";") else {
                result += rest[ampersand...]
                return (result, firstUnknown ?? String(rest[ampersand...].prefix(maximumLength)))
            }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "lt": result += "<"
            case "gt": result += ">"
            case "amp": result += "&"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number = entity.hasPrefix("#x") || entity.hasPrefix("#X") ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += rest[ampersand...semicolon]
                    firstUnknown = firstUnknown ?? String(rest[ampersand...semicolon])
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return (result + rest, firstUnknown)
    }
}
