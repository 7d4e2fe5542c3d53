/// Comparison whose running time does not depend on where two secrets differ.
///
/// `==` on strings or arrays returns at the first differing byte, so the time it takes tells an attacker how
/// many leading bytes of a guess are right; measured over many requests that recovers a token byte by byte.
/// Here every byte is visited and differences are OR-ed together, so the time depends only on the lengths.
/// The length itself is not secret (tokens have a fixed, documented length).
public enum ConstantTime {
    /// True when `a` and `b` hold the same bytes, in time that depends only on their lengths.
    public static func equals<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        // Compare against `a` even when the lengths differ so both paths do the same amount of work.
        var difference: UInt8 = a.count == b.count ? 0 : 1
        var bIterator = b.makeIterator()
        for byte in a {
            difference |= byte ^ (bIterator.next() ?? 0)
        }
        return difference == 0
    }

    /// UTF-8 bytes of both strings compared with `equals(_:_:)`.
    public static func equals(_ a: String, _ b: String) -> Bool {
        equals(a.utf8, b.utf8)
    }
}
