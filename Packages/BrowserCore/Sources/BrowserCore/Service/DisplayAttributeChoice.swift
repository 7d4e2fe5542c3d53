/// Which String attribute names the records of an entity in lists, links and titles (`summaryAttribute` in
/// `/api/entities`), chosen once per entity from its model and a small sample of its records.
///
/// A fixed rule ("name, then title, then the first String") names a SwiftData cocktail after its bartender and
/// an ingredient after its unit. The choice here, in order:
/// 1. an attribute whose name says it is the record's name: `name`, `title`, `displayName`, `fullName`, `label`,
///    `<entity>Name`, `<entity>Title`;
/// 2. another attribute whose name says it holds readable text naming the record: `…Name`, `…Title`, `…Text`
///    (`displayText`, `altText`), `filename`, `subject`, `caption`, `headline`, `heading`; among several, the one
///    whose sampled values look most like names;
/// 3. the String attribute whose sampled values look most like names: mostly present, mostly distinct, short,
///    not UUIDs, rather not identifiers or numbers, not a few repeated codes (units, statuses); an attribute whose
///    name says it holds a code or a status only from a sample large enough to judge;
/// 4. with no sample to judge (an empty entity), a String attribute whose name does not say it holds a code, a
///    unit, a URL or JSON, else the record's own identifier (`id`, `identifier`, `<entity>Id`).
///
/// With a sample, an attribute of tiers 1–2 is passed over when no sampled record fills it in (an inherited
/// `zoneOwnerName` that is nil in every Notes hashtag named them all "ICHashtag p8", beside a filled-in
/// `displayText`), when its values are mostly UUIDs or other identifiers (`DefaultFolder-LocalAccount`), and, once
/// the sample holds `sampleSizeToRejectNames` records or more, when it is almost never filled in.
///
/// A reference to another record (`productId` in a cart line, `storeId`, `owner_id`: an identifier named after
/// something other than the entity itself) never names a record, in any tier: it says which *other* record this
/// one points at (SwiftData models keep such references as plain Strings). Nor does a unit (`…CurrencyCode`,
/// `…Unit`): it says what a number is counted in. Composite elements (`address.street`) are never chosen by name:
/// they are part of another value.
public enum DisplayAttributeChoice {
    /// How many records are sampled (the first page in primary-key order).
    public static let sampleSize = 50
    /// A sample at least this large may pass over a name-like attribute that is almost never filled in.
    static let sampleSizeToRejectNames = 5

    public static func choose(for entity: EntitySchema, sample: [StoredRecord]) -> String? {
        let candidates = entity.attributes.filter { $0.type == .string }.map(\.name).sorted()
        guard !candidates.isEmpty else { return nil }
        let statistics = Dictionary(uniqueKeysWithValues: candidates.map { name in
            (name, ValueStatistics(sample.map { $0.values[name] ?? .null }))
        })
        let canJudge = sample.count >= sampleSizeToRejectNames
        /// Whether the sample (when there is one) shows the attribute filled in with readable text.
        func usable(_ name: String) -> Bool {
            guard !sample.isEmpty else { return true }
            guard let values = statistics[name], values.present > 0, values.identifierLike * 2 < values.present else {
                return false
            }
            return !canJudge || values.presentRatio >= 0.2
        }
        func likeness(_ name: String) -> Double {
            statistics[name]?.nameLikeness(sampleSize: sample.count) ?? 0
        }

        let byName = candidates.filter { !$0.contains(".") }
        let entityWord = entityStem(entity.name)
        let exact: Set<String> = ["name", "title", "displayname", "fullname", "label",
                                  entityWord + "name", entityWord + "title"]
        if let match = byName.filter({ exact.contains($0.lowercased()) && usable($0) })
            .min(by: { rank(of: $0) < rank(of: $1) }) {
            return match
        }
        let nameLike = byName.filter { name in
            let lower = name.lowercased()
            let suffixed = ["Name", "Title", "Text"].contains { name.hasSuffix($0) }
                || ["_name", "_title", "_text"].contains { lower.hasSuffix($0) }
            let other = ["filename", "subject", "caption", "headline", "heading"].contains(lower)
            return (suffixed || other) && !Self.isTechnical(lower) && usable(name)
        }
        // Several: the most name-like values (ties and an empty sample: the first by name).
        if let match = nameLike.max(by: { likeness($0) < likeness($1) || (likeness($0) == likeness($1) && $0 > $1) }) {
            return match
        }

        if !sample.isEmpty {
            let scored = candidates.compactMap { name -> (String, Double)? in
                let technical = Self.isTechnical(name.lowercased())
                // A code's or a status's value or two ("active") say nothing of whether it names records.
                guard !isForeignReference(name, entityStem: entityWord), !isUnit(name.lowercased()),
                      canJudge || !technical,
                      let score = statistics[name]?.nameLikeness(sampleSize: sample.count) else { return nil }
                return (name, technical ? score / 2 : score)
            }
            if let best = scored.max(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 > $1.0) }), best.1 >= 0.2 {
                return best.0
            }
            return nil
        }

        let plain = byName.filter { name in
            !Self.isTechnical(name.lowercased()) && !isIdentifier(name)
        }
        if let match = plain.first { return match }
        return byName.first { isIdentifier($0) && !isForeignReference($0, entityStem: entityWord) }
    }

    /// `id`, `uuid`, `identifier`, `productId`, `cloudID`, `owner_id`, `remoteUUID`: a name that says it holds an
    /// identifier, the record's own or another's.
    static func isIdentifier(_ name: String) -> Bool {
        ["id", "uuid", "guid", "identifier"].contains(name.lowercased())
            || ["Id", "ID", "_id", "Identifier", "UUID", "Uuid", "GUID", "Guid"].contains { name.hasSuffix($0) }
    }

    /// An identifier named after something other than the entity itself: `productId` in `CartItemModel`, `storeId`
    /// in `CartModel`. `id`, `cartItemId` in `CartItem`, and the usual words for a record's own key in another
    /// system (`uniqueID`, `remoteID`, `serverId`, `cloudID`, …) are the record's own.
    static func isForeignReference(_ name: String, entityStem: String) -> Bool {
        guard isIdentifier(name) else { return false }
        let lower = name.lowercased()
        guard let suffix = ["identifier", "uuid", "guid", "id"].first(where: { lower.hasSuffix($0) }) else { return false }
        var owner = String(lower.dropLast(suffix.count))
        while owner.hasSuffix("_") { owner.removeLast() }
        let ownKeyWords: Set<String> = ["", "unique", "local", "remote", "server", "cloud", "external", "record",
                                        "object", "persistent", "stable", "sync", "public", "global", "primary"]
        return !ownKeyWords.contains(owner) && owner != entityStem
    }

    /// `CDCartItem` → `cartitem`, `CartModel` → `cart`, `Book` → `book`: how an app names "its name" attribute.
    static func entityStem(_ entity: String) -> String {
        var stem = entity
        for suffix in ["Model", "Entity", "MO", "Object"] where stem.hasSuffix(suffix) && stem.count > suffix.count {
            stem.removeLast(suffix.count)
            break
        }
        if stem.hasPrefix("CD"), stem.count > 2, stem.dropFirst(2).first?.isUppercase == true {
            stem.removeFirst(2)
        }
        return stem.lowercased()
    }

    /// A unit of another value: `totalPriceCurrencyCode`, `amountUnit`.
    static func isUnit(_ lowercasedName: String) -> Bool {
        ["currencycode", "currency", "unit", "units"].contains { lowercasedName.hasSuffix($0) }
    }

    /// Names that say the value is a code, a reference or data rather than what a person calls the record.
    static func isTechnical(_ lowercasedName: String) -> Bool {
        ["code", "currency", "unit", "status", "state", "type", "kind", "url", "uri", "urlstring", "path", "json",
         "uuid", "identifier", "hash", "token", "key", "mime", "class", "file", "image", "icon", "format", "locale"]
            .contains { lowercasedName.hasSuffix($0) }
            || lowercasedName == "id"
    }

    /// Among exact names, the plain ones first; `<entity>Name` after them.
    private static func rank(of name: String) -> Int {
        ["name", "title", "displayname", "fullname", "label"].firstIndex(of: name.lowercased()) ?? 5
    }
}

/// What a sample of one String attribute's values looks like.
struct ValueStatistics {
    var present = 0
    var distinct = 0
    var averageLength = 0.0
    var uuidLike = 0
    /// UUIDs and other identifiers (`looksLikeIdentifier`).
    var identifierLike = 0
    var numeric = 0

    init(_ values: [AttributeValue]) {
        var seen: Set<String> = []
        var totalLength = 0
        for value in values {
            // A cut value (a sample reads starts only) is judged by its start: long, so rather not a name.
            let text: String
            switch value {
            case .string(let whole): text = whole
            case .truncatedText(let prefix, _): text = prefix
            default: continue
            }
            let trimmed = text.trimmingWhitespace
            guard !trimmed.isEmpty else { continue }
            present += 1
            seen.insert(String(trimmed))
            totalLength += trimmed.count
            if Self.looksLikeUUID(String(trimmed)) { uuidLike += 1 }
            if Self.looksLikeIdentifier(trimmed) { identifierLike += 1 }
            if trimmed.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) { numeric += 1 }
        }
        distinct = seen.count
        averageLength = present == 0 ? 0 : Double(totalLength) / Double(present)
        sampled = values.count
    }

    /// How many records the sample held (present or not).
    private var sampled = 0

    var presentRatio: Double { sampled == 0 ? 0 : Double(present) / Double(sampled) }

    /// 0…1, nil when the values are not names at all (UUIDs, or nothing).
    func nameLikeness(sampleSize: Int) -> Double? {
        guard present > 0, uuidLike * 2 < present else { return nil }
        let distinctRatio = Double(distinct) / Double(present)
        var score = presentRatio * distinctRatio
        // A few values repeated over many rows are a unit, a status or a category, not a name.
        if present >= 10, distinct <= 3 { score *= 0.2 }
        if averageLength > 80 { score *= 0.3 } else if averageLength < 2 { score *= 0.5 }
        // Digits name a record only when nothing else does (a number plate, yes; a counter, rather not); an
        // identifier likewise (readable text first).
        if numeric * 2 >= present || identifierLike * 2 >= present { score *= 0.5 }
        return score
    }

    /// A UUID, or one token of letters, digits and `-_.:/` that is long with a digit in it (a key, a hash, a
    /// record ID: `item-0000042-b`) or very long (`DefaultFolder-LocalAccount`): what a program reads, not a name.
    static func looksLikeIdentifier(_ text: Substring) -> Bool {
        let bytes = text.utf8
        guard bytes.count >= 16, bytes.allSatisfy({ Self.isIdentifierByte($0) }) else { return false }
        return bytes.count >= 24 || bytes.contains { $0 >= 48 && $0 <= 57 }
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
            || [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/")].contains(byte)
    }

    static func looksLikeUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !(byte >= 48 && byte <= 57 || byte >= 65 && byte <= 70 || byte >= 97 && byte <= 102) {
                return false
            }
        }
        return true
    }
}

extension String {
    fileprivate var trimmingWhitespace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
