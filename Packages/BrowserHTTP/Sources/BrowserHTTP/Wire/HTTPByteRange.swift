/// A `Range: bytes=…` request header read against a representation of known length (RFC 9110 §14.1.2, §14.2).
///
/// Only single ranges are served: a request for several, or a header this server cannot read, is answered with
/// the whole representation (200), which RFC 9110 §14.2 allows ("a server MAY ignore the Range header field").
public enum HTTPByteRange: Equatable, Sendable {
    /// No usable `Range`: send everything with 200.
    case whole
    /// Send these bytes with 206 and `Content-Range: bytes first-last/length`.
    case partial(Range<Int>)
    /// Nothing of the representation is in the range: 416 with `Content-Range: bytes */length`.
    case unsatisfiable

    public init(header: String?, length: Int) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = Substring(header).trimmingOWS
        guard trimmed.lowercased().hasPrefix("bytes="), !trimmed.contains(",") else {
            self = .whole
            return
        }
        let spec = trimmed.dropFirst("bytes=".count).trimmingOWS
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            self = .whole
            return
        }
        let first = parts[0].trimmingOWS, last = parts[1].trimmingOWS
        if first.isEmpty {
            // A suffix: the last N bytes (RFC 9110 §14.1.2). "bytes=-0" can select nothing.
            guard let suffix = Self.number(last) else {
                self = .whole
                return
            }
            self = suffix == 0 || length == 0 ? .unsatisfiable : .partial(max(0, length - suffix)..<length)
            return
        }
        guard let start = Self.number(first) else {
            self = .whole
            return
        }
        var end = length - 1
        if !last.isEmpty {
            guard let lastByte = Self.number(last), lastByte >= start else {
                self = .whole  // an invalid range-spec: ignored, not refused
                return
            }
            end = min(lastByte, length - 1)
        }
        self = start < length ? .partial(start..<(end + 1)) : .unsatisfiable
    }

    /// Digits only (no sign, no spaces), within Int.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text) ?? Int.max
    }

    /// The `Content-Range` value for an answer of this kind.
    public func contentRange(length: Int) -> String? {
        switch self {
        case .whole: nil
        case .partial(let range): "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)"
        case .unsatisfiable: "bytes */\(length)"
        }
    }
}
