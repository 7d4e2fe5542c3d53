/// The two containers around a DEFLATE stream: gzip (RFC 1952) and zlib (RFC 1950). Unwraps the header,
/// inflates within the limit and checks the trailer's checksum and length.
public struct CompressedContainer: Sendable {
    public enum Kind: Sendable {
        case gzip, zlib
    }

    public var kind: Kind
    public var inflated: [UInt8]
    public var stoppedAtLimit: Bool
    public var problems: [String]
    /// True when the stream inflated to its end (whatever its checksum said), or to the limit.
    public var inflatedCleanly: Bool

    /// gzip when `bytes` starts with its magic (1F 8B) and method 8; nil otherwise.
    public static func gzip(_ bytes: UnsafeRawBufferPointer, maxOutput: Int) -> CompressedContainer? {
        guard bytes.count >= 3, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else { return nil }
        guard bytes.count >= 10 else { return truncated(.gzip, "gzip header is truncated") }
        // RFC 1952 §2.3: FLG bits FHCRC 1, FEXTRA 2, FNAME 3, FCOMMENT 4; MTIME, XFL, OS; then the optional fields.
        let flags = bytes[3]
        var offset = 10
        if flags & 0x04 != 0 {
            guard let extraLength = bytes.uint16LE(at: offset) else { return truncated(.gzip, "gzip header is truncated") }
            offset += 2 + extraLength
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            guard let end = bytes.firstIndex(of: [0], from: offset) else { return truncated(.gzip, "gzip header is truncated") }
            offset = end + 1
        }
        if flags & 0x02 != 0 { offset += 2 }
        guard offset < bytes.count else { return truncated(.gzip, "gzip header is truncated") }
        let result = Inflater.inflate(bytes, from: offset, maxOutput: maxOutput)
        var container = CompressedContainer(result, kind: .gzip)
        if result.failure == nil, !result.stoppedAtLimit {
            if let crc = bytes.uint32LE(at: result.consumed), let size = bytes.uint32LE(at: result.consumed + 4) {
                let actual = result.output.withUnsafeBytes(Checksums.crc32)
                if UInt32(crc) != actual { container.problems.append("gzip CRC mismatch") }
                if UInt32(size) != UInt32(truncatingIfNeeded: result.output.count) {
                    container.problems.append("gzip length mismatch")
                }
            } else {
                container.problems.append("gzip trailer is missing (the file is truncated)")
            }
        }
        return container
    }

    /// zlib when `bytes` starts with a valid zlib header (method 8, window ≤ 32 KB, FCHECK) and inflating
    /// gets anywhere; nil otherwise. The header is only two bytes and matches some text ("x^"), so the caller
    /// trusts a zlib that failed to inflate only when nothing else fits.
    public static func zlib(_ bytes: UnsafeRawBufferPointer, maxOutput: Int) -> CompressedContainer? {
        guard bytes.count >= 2 else { return nil }
        let cmf = Int(bytes[0])
        let flg = Int(bytes[1])
        guard cmf & 0x0F == 8, cmf >> 4 <= 7, (cmf << 8 | flg) % 31 == 0 else { return nil }
        guard flg & 0x20 == 0 else {
            return CompressedContainer(kind: .zlib, inflated: [], stoppedAtLimit: false,
                                       problems: ["zlib stream needs a preset dictionary"], inflatedCleanly: false)
        }
        let result = Inflater.inflate(bytes, from: 2, maxOutput: maxOutput)
        var container = CompressedContainer(result, kind: .zlib)
        if result.failure == nil, !result.stoppedAtLimit {
            if let adler = bytes.uint32BE(at: result.consumed) {
                if UInt32(adler) != result.output.withUnsafeBytes(Checksums.adler32) {
                    container.problems.append("zlib Adler-32 mismatch")
                }
            } else {
                container.problems.append("zlib trailer is missing (the stream is truncated)")
            }
        }
        return container
    }

    private init(_ result: Inflater.Result, kind: Kind) {
        self.kind = kind
        inflated = result.output
        stoppedAtLimit = result.stoppedAtLimit
        problems = result.failure.map { ["\(kind == .gzip ? "gzip" : "zlib"): \($0)"] } ?? []
        inflatedCleanly = result.failure == nil
    }

    private init(kind: Kind, inflated: [UInt8], stoppedAtLimit: Bool, problems: [String], inflatedCleanly: Bool) {
        self.kind = kind
        self.inflated = inflated
        self.stoppedAtLimit = stoppedAtLimit
        self.problems = problems
        self.inflatedCleanly = inflatedCleanly
    }

    private static func truncated(_ kind: Kind, _ problem: String) -> CompressedContainer {
        CompressedContainer(kind: kind, inflated: [], stoppedAtLimit: false, problems: [problem], inflatedCleanly: false)
    }
}
