@testable import BrowserSQLite
import Testing

/// The ASCII fast path of `decodeUTF8(lent:)` against the strict decoder, on every length around its 8-byte
/// steps and with the one non-ASCII or ill-formed byte at every position.
struct UTF8ValidationTests {
    @Test func lentBytesDecodeAsTheStrictDecoderDecodesThem() {
        let insertions: [[UInt8]] = [[], [0xC3, 0xA9], [0xE2, 0x80, 0xAE], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xC3], [0xFF], [0xED, 0xA0, 0x80]]
        for length in 0...19 {
            let ascii = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            for insertion in insertions {
                for position in 0...length {
                    let bytes = Array(ascii[..<position]) + insertion + Array(ascii[position...])
                    let lent = bytes.withUnsafeBytes { decodeUTF8(lent: $0) }
                    #expect(lent == decodeUTF8(bytes), "\(bytes)")
                }
            }
        }
        #expect([UInt8]().withUnsafeBytes { decodeUTF8(lent: $0) } == "")
    }
}
