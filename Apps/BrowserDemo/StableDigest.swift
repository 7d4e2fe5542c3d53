/// A short name derived from text that is the same on every run and machine (64-bit FNV-1a, in hex): for the file
/// that remembers a set of stores' pairing token and for a simulator store's ID, which links keep between scans.
/// Not a security measure: it only tells paths apart.
enum StableDigest {
    static func hex(_ text: String) -> String {
        let digest = text.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return String(digest, radix: 16)
    }
}
