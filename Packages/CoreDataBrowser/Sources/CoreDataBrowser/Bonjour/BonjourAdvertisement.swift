/// What a CoreDataBrowser server publishes over Bonjour (DNS-SD, RFC 6763), and how a browser of the network reads
/// it back: the service type, the instance name, the port and the TXT record.
///
/// One definition for every publisher (the app's `Options.advertise`, `browser-demo --advertise`) and for
/// `browser-demo discover`, so what one writes the other reads. The pairing token is never advertised: `token`
/// only says whether one is needed, and the person still opens the URL the server printed.
public struct BonjourAdvertisement: Sendable, Equatable {
    /// The DNS-SD service type (roadmap v1.1). An iOS app that advertises lists it under `NSBonjourServices`.
    public static let serviceType = "_cdbrowser._tcp"

    /// TXT keys, short as RFC 6763 §6.4 advises.
    public enum Key {
        /// `txtvers`: the record's layout version (RFC 6763 §6.7).
        public static let version = "txtvers"
        public static let app = "app"
        public static let bundleID = "bundle"
        /// The store names, comma-separated, cut to fit one TXT string.
        public static let stores = "stores"
        /// `required` or `none`.
        public static let token = "token"
        /// The path of the UI on the server.
        public static let path = "path"
    }

    /// The longest instance name DNS allows in one label (RFC 6763 §4.1.1: 63 bytes of UTF-8).
    public static let maximumNameBytes = 63
    /// The longest string in a TXT record (RFC 6763 §6.1: a length byte).
    public static let maximumEntryBytes = 255

    /// The instance name, as shown by a browser of the network ("BookShelf on Anna's iPhone").
    public var name: String
    public var port: UInt16
    /// Key–value pairs in the order they are written.
    public var entries: [Entry]

    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(name: String, port: UInt16, entries: [Entry]) {
        self.name = Self.cut(name, toBytes: Self.maximumNameBytes)
        self.port = port
        self.entries = entries
    }

    /// The advertisement of a server: `app` (and `bundle` when the host has one) name the program, `stores` the
    /// stores it serves, `token` whether a pairing token is needed.
    public init(appName: String, bundleID: String?, storeNames: [String], tokenRequired: Bool, port: UInt16,
                path: String = "/", hostName: String? = nil) {
        var entries = [Entry(Key.version, "1"), Entry(Key.app, appName)]
        if let bundleID, !bundleID.isEmpty { entries.append(Entry(Key.bundleID, bundleID)) }
        entries.append(Entry(Key.stores, storeNames.joined(separator: ",")))
        entries.append(Entry(Key.token, tokenRequired ? "required" : "none"))
        entries.append(Entry(Key.path, path))
        let name = hostName.map { "\(appName) on \($0)" } ?? appName
        self.init(name: name, port: port, entries: entries)
    }

    /// The TXT record's bytes: each `key=value` prefixed by its length, cut to 255 bytes on a character boundary.
    public var txtRecord: [UInt8] {
        var bytes: [UInt8] = []
        for entry in entries {
            let keyBytes = Array(entry.key.utf8)
            let room = Self.maximumEntryBytes - keyBytes.count - 1
            guard room >= 0 else { continue }
            let value = Array(Self.cut(entry.value, toBytes: room).utf8)
            bytes.append(UInt8(keyBytes.count + 1 + value.count))
            bytes += keyBytes
            bytes.append(UInt8(ascii: "="))
            bytes += value
        }
        return bytes
    }

    /// Reads a TXT record back into its pairs, in order. Per RFC 6763 §6.4 a key is compared case-insensitively
    /// and only its first occurrence counts; a string without `=` is a key with no value (kept with an empty
    /// value); an empty key or a length running past the end ends the reading.
    public static func entries(fromTXT bytes: [UInt8]) -> [Entry] {
        var entries: [Entry] = []
        var seen = Set<String>()
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            index += 1
            guard length > 0 else { continue }
            guard index + length <= bytes.count else { break }
            let string = bytes[index..<(index + length)]
            index += length
            let key: String
            let value: String
            if let equals = string.firstIndex(of: UInt8(ascii: "=")) {
                key = String(decoding: string[..<equals], as: UTF8.self)
                value = String(decoding: string[(equals + 1)...], as: UTF8.self)
            } else {
                key = String(decoding: string, as: UTF8.self)
                value = ""
            }
            guard !key.isEmpty else { break }
            if seen.insert(key.lowercased()).inserted { entries.append(Entry(key, value)) }
        }
        return entries
    }

    /// The value of `key` (compared case-insensitively), or nil.
    public func value(for key: String) -> String? {
        Self.value(for: key, in: entries)
    }

    /// The value of `key` among TXT entries (compared case-insensitively, RFC 6763 §6.4), or nil.
    public static func value(for key: String, in entries: [Entry]) -> String? {
        entries.first { $0.key.lowercased() == key.lowercased() }?.value
    }

    /// `text` cut to at most `limit` bytes of UTF-8 without splitting a character.
    static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > limit { break }
            result.append(character)
            used += size
        }
        return result
    }
}
