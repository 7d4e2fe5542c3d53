import Foundation

/// UUIDs written straight into a byte buffer as `uuidString` writes them (upper-case hex in 8-4-4-4-12 groups):
/// the cells of a million-row export, where a `String` per value cost more than its 36 bytes.
enum UUIDText {
    static func append(_ uuid: UUID, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: uuid.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
