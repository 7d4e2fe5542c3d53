public import Foundation

/// Says what is inside a binary or transformable attribute's bytes: images with their dimensions,
/// PDFs with their page count, JSON, property lists and keyed archives as trees, compressed streams with what
/// they inflate to, protobuf messages, text and URLs.
///
/// ```swift
/// let report = ContentInspector.inspect(data, transformerName: "NSSecureUnarchiveFromData")
/// report.summary   // "keyed archive (UIColor) · 212 B"
/// ```
///
/// Decided by parsing, not by magic bytes alone, in an order that puts specific formats before general ones:
/// images, PDF, property lists, gzip, zlib, then the text formats (JSON beats plain text; RTF, HTML, XML plists
/// and XML before text; a URL is text that is one absolute URL), UTF-16 text, protobuf, and `unknown`.
/// Pure and synchronous; hostile input costs time and memory bounded by `limits` and never traps.
public enum ContentInspector {
    /// What `bytes` hold. `totalSize` is the value's real size when `bytes` is only its head (the report then
    /// says how much was inspected); `transformerName` is the attribute's value transformer, a hint only.
    public static func inspect(
        _ bytes: Data, totalSize: Int? = nil, transformerName: String? = nil, limits: ContentLimits = .init()
    ) -> ContentReport {
        bytes.withUnsafeBytes { raw in
            let detection = ContentDetection(limits: limits, transformerName: transformerName)
            let complete = totalSize.map { $0 <= raw.count } ?? true
            return detection.report(raw, size: max(totalSize ?? raw.count, raw.count), complete: complete, nesting: 0)
        }
    }
}
