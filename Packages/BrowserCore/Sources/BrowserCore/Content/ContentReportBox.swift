/// Holds the report of a compressed stream's inflated bytes inside the outer report: a struct cannot contain
/// itself, and a final class with one constant is `Sendable`. Encodes as the report itself (no wrapper level in
/// the JSON) and compares by value.
public final class ContentReportBox: Codable, Sendable, Equatable {
    public let report: ContentReport

    public init(_ report: ContentReport) {
        self.report = report
    }

    public convenience init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(ContentReport.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(report)
    }

    public static func == (lhs: ContentReportBox, rhs: ContentReportBox) -> Bool {
        lhs.report == rhs.report
    }
}
