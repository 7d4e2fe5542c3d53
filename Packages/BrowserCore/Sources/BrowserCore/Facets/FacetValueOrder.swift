import Foundation

/// The order of facet values with equal counts, the same as SQLite's ascending order of the stored values (so
/// every store lists ties alike): numbers by value, text by UTF-8 bytes, dates by time, false before true, UUIDs
/// by their bytes.
public enum FacetValueOrder {
    public static func ascending(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
        if let x = FacetHistogram.number(a), let y = FacetHistogram.number(b) { return x < y }
        switch (a, b) {
        case (.string(let x), .string(let y)), (.uri(let x), .uri(let y)):
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.boolean(let x), .boolean(let y)):
            return !x && y
        case (.uuid(let x), .uuid(let y)):
            return withUnsafeBytes(of: x.uuid) { xs in withUnsafeBytes(of: y.uuid) { ys in xs.lexicographicallyPrecedes(ys) } }
        default:
            return String(describing: a) < String(describing: b)
        }
    }
}
