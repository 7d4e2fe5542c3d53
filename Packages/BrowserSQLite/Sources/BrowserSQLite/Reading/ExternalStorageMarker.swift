/// The marker byte Core Data puts before the value of an attribute that allows external storage (format doc §9):
/// 0x01, the bytes follow inline; 0x02, the name of a file in the store's external-data folder follows (ASCII,
/// NUL-terminated); 0x03, a file-backed future, which this reader does not support. Attributes without the flag
/// have no marker. One reading of it, for the value shown in lists (`ValueDecoder`) and the bytes served
/// (`BlobReading`).
enum ExternalStorageMarker: Equatable {
    /// The value's bytes start at `payloadOffset` in the column.
    case inline(payloadOffset: Int)
    case external(fileName: String)
    case unreadable(String)

    /// Reads the marker from the first bytes of a value (the marker and, for 0x02, the file name: 256 bytes are
    /// enough for the UUID names Core Data writes).
    init(head: some Collection<UInt8>) {
        guard let marker = head.first else {
            self = .inline(payloadOffset: 0)
            return
        }
        switch marker {
        case 0x01:
            self = .inline(payloadOffset: 1)
        case 0x02:
            let nameBytes = head.dropFirst().prefix { $0 != 0 }
            // A name, never a path: nothing outside the external-data folder can be named.
            guard let name = decodeUTF8(Array(nameBytes)), !name.isEmpty, !name.contains("/"),
                  name != ".", name != ".." else {
                self = .unreadable("external data reference has no valid file name")
                return
            }
            self = .external(fileName: name)
        case 0x03:
            self = .unreadable("file-backed future value (marker 0x03) is not supported")
        default:
            let hex = String(marker, radix: 16, uppercase: true)
            self = .unreadable("unknown external-storage marker 0x\(hex.count == 1 ? "0" + hex : hex) in \(head.count) bytes")
        }
    }

    /// How many leading bytes `init(head:)` needs.
    static let headLength = 256
}
