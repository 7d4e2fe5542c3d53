/// How `GET /api/entities/:name/export` writes a file: its format, a byte-order mark, and what a Binary or
/// Transformable cell holds. Every rule of the parameters lives in `validated`.
public struct RecordExportOptions: Sendable, Hashable {
    public enum Format: String, Sendable, CaseIterable {
        /// RFC 4180: a header row, CRLF line ends, quoted fields where needed, UTF-8.
        case csv
        /// One JSON object per line (https://github.com/ndjson/ndjson-spec).
        case ndjson
    }

    /// What a Binary or Transformable value becomes in the file.
    public enum BinaryCells: String, Sendable, CaseIterable {
        /// Its size in bytes: a file a person reads stays small.
        case size
        /// Its bytes in base64 (RFC 4648): a file a test loads keeps the value.
        case base64
    }

    public var format: Format
    /// A UTF-8 byte-order mark first, for spreadsheet apps that otherwise read CSV in a legacy code page.
    public var byteOrderMark: Bool
    public var binary: BinaryCells

    public init(format: Format, byteOrderMark: Bool = false, binary: BinaryCells = .size) {
        self.format = format
        self.byteOrderMark = byteOrderMark
        self.binary = binary
    }

    /// The largest value written as base64: a cell a test fixture can hold. A larger value ends the export with
    /// an error naming it (export with `binary=size`, or fetch it from `/api/object/blob`).
    public static let maximumBase64Bytes = 16 * 1024 * 1024

    /// `format` (`csv` or `ndjson`, required), `bom` (`1`/`true` or `0`/`false`, default off) and `binary`
    /// (`size` or `base64`, default `size`), as the client sent them.
    public static func validated(format: String?, bom: String?, binary: String?) throws(BrowserError) -> RecordExportOptions {
        let formats = Format.allCases.map(\.rawValue).joined(separator: " or ")
        guard let rawFormat = format, !rawFormat.isEmpty else {
            throw .badRequest("Missing format: pass format=\(formats)")
        }
        guard let format = Format(rawValue: rawFormat) else {
            throw .badRequest("format must be \(formats), got \"\(rawFormat)\"")
        }
        var options = RecordExportOptions(format: format)
        switch bom {
        case nil, "", "0", "false": options.byteOrderMark = false
        case "1", "true": options.byteOrderMark = true
        case let other?: throw .badRequest("bom must be 1 or 0, got \"\(other)\"")
        }
        if let rawBinary = binary, !rawBinary.isEmpty {
            guard let cells = BinaryCells(rawValue: rawBinary) else {
                throw .badRequest("binary must be \(BinaryCells.allCases.map(\.rawValue).joined(separator: " or ")), got \"\(rawBinary)\"")
            }
            options.binary = cells
        }
        return options
    }

    public var fileExtension: String { format.rawValue }

    public var contentType: String {
        switch format {
        case .csv: "text/csv; charset=utf-8"
        case .ndjson: "application/x-ndjson; charset=utf-8"
        }
    }
}
