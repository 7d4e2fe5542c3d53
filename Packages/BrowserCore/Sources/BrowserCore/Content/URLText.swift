internal import Foundation

/// Text that is one absolute URL (RFC 3986 §4.3): a scheme, then "//" and an authority, or one of the schemes
/// that have none (mailto:, tel:, data:, urn:…); no whitespace inside; and Foundation's `URL` accepts it.
/// The web UI labels String values by the same rule (web/features/content/content.js `urlOf`, docs/API.md "Values"): change both.
enum URLText {
    /// Longer text is not shown as a URL: a grid cell cannot use it, and `data:` URLs are better as text.
    static let maximumLength = 8_192
    private static let schemesWithoutAuthority: Set<String> = ["mailto", "tel", "sms", "data", "urn", "about", "geo", "facetime", "maps"]

    /// The URL without surrounding whitespace, or nil.
    static func absoluteURL(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= maximumLength,
              !trimmed.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) }),
              let colon = trimmed.firstIndex(of: ":")
        else { return nil }
        let scheme = trimmed[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) })
        else { return nil }
        let rest = trimmed[trimmed.index(after: colon)...]
        if rest.hasPrefix("//") {
            guard rest.count > 2 || scheme.lowercased() == "file" else { return nil }
        } else {
            guard schemesWithoutAuthority.contains(scheme.lowercased()), !rest.isEmpty else { return nil }
        }
        return URL(string: trimmed) == nil ? nil : trimmed
    }
}
