/// What a binary or transformable value holds, as `ContentInspector` decided by parsing it.
///
/// Encodes as its raw value, a stable lowercase string the web UI and the HTTP API rely on: cases may be added,
/// never renamed.
public enum ContentKind: String, Codable, Sendable, Equatable, CaseIterable {
    case png, jpeg, gif, webp, heic, avif, tiff, pdf
    case json
    case binaryPlist, xmlPlist, keyedArchive
    case xml, html, rtf
    case gzip, zlib
    case protobuf
    case utf8Text, utf16Text, url
    case empty, unknown

    /// The extension of a downloaded value's file name.
    public var fileExtension: String {
        switch self {
        case .png, .gif, .webp, .heic, .avif, .tiff, .pdf, .json, .xml, .html, .rtf: rawValue
        case .jpeg: "jpg"
        case .binaryPlist, .xmlPlist, .keyedArchive: "plist"
        case .gzip: "gz"
        case .zlib: "zlib"
        case .protobuf: "pb"
        case .utf8Text, .utf16Text, .url: "txt"
        case .empty, .unknown: "bin"
        }
    }

    /// The raster image kinds whose header, once parsed, lets the server send the bytes with their own
    /// Content-Type. TIFF is left out on purpose: browsers do not display it.
    var rasterMIMEType: String? {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .avif: "image/avif"
        default: nil
        }
    }
}
