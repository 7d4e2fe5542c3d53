/// One pass over bytes that says whether they are UTF-8 text: valid UTF-8 (RFC 3629: no overlong forms, no
/// surrogates, nothing past U+10FFFF) and mostly printable. Printable includes every non-ASCII character, so
/// U+FFFC (the attachment placeholder Apple Notes and attributed strings put in their text) and emoji are text.
public struct TextScan: Sendable {
    /// Text may hold one control character per this many bytes.
    public let bytesPerControl: Int
    /// Valid UTF-8 throughout (a sequence cut by the end is allowed when the bytes are only a head).
    public private(set) var isValidUTF8 = true
    public private(set) var hasNUL = false
    /// C0 controls other than tab, line feed, form feed and carriage return, and DEL.
    public private(set) var controlCount = 0
    public private(set) var byteCount = 0
    /// The scan stopped at a NUL or once the controls were too many for text: the bytes are neither text nor
    /// JSON, and a 64 MB inflated bomb of zeros should not be read to its end to learn it.
    public private(set) var stoppedEarly = false

    /// Text: valid UTF-8, no NUL, and at most one control character per `bytesPerControl` bytes (by default a
    /// hundred: escape sequences and the odd vertical tab survive; binary formats do not).
    public var isText: Bool { isValidUTF8 && !hasNUL && byteCount > 0 && controlCount * bytesPerControl <= byteCount }

    public init(_ bytes: UnsafeRawBufferPointer, complete: Bool, bytesPerControl: Int = 100) {
        self.bytesPerControl = max(1, bytesPerControl)
        byteCount = bytes.count
        var index = 0
        let count = bytes.count
        while index < count {
            // Fast path: eight ASCII bytes, none below 0x20 and none DEL, skipped at once. SWAR ("has less than
            // n" from Bit Twiddling Hacks): subtracting 0x20 from each byte borrows into its high bit only below
            // 0x20; adding 1 to an ASCII byte sets its high bit only for 0x7F.
            if count - index >= 8 {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                let belowSpace = (word &- ones &* 0x20) & ~word & highs
                let isDelete = (word &+ ones) & highs
                if word & highs == 0, belowSpace == 0, isDelete == 0 {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 {
                    if byte == 0 { hasNUL = true }
                    if byte != 0x09, byte != 0x0A, byte != 0x0C, byte != 0x0D { controlCount += 1 }
                } else if byte == 0x7F {
                    controlCount += 1
                }
                if hasNUL || controlCount * self.bytesPerControl > count {
                    stoppedEarly = true
                    return
                }
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, lower) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE, 0xEF: length = 3
            case 0xED: (length, upper) = (3, 0x9F)
            case 0xF0: (length, lower) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, upper) = (4, 0x8F)
            default:
                isValidUTF8 = false
                return
            }
            for offset in 1..<length {
                guard index + offset < count else {
                    if complete { isValidUTF8 = false }
                    return
                }
                let next = bytes[index + offset]
                let (low, high) = offset == 1 ? (lower, upper) : (0x80, 0xBF)
                guard next >= low, next <= high else {
                    isValidUTF8 = false
                    return
                }
            }
            index += length
        }
    }
}
