import BrowserCore
import Foundation
import Testing

/// Inputs scripts/fuzz/run.sh (target `content`) found crashing, kept so they never come back.
@Suite struct FuzzRegressionTests {
    /// An AVIF whose ispe says 4294967295 × 4294967295: the area overflowed Int when comparing sizes.
    @Test func hugeIspeDimensionsDoNotOverflow() {
        let bytes = Data(base64Encoded: "AAAAGGZ0eXBhdmlmAAAAAG1pZjFtaWFmAAAAMG1ldGEAAAAAAAAAJGlwcnAAAAAcaXBjbwAAABRpc3Bl//////////////////8AAAAAaXBycAAAADB+")!
        let report = ContentInspector.inspect(bytes)
        #expect(report.kind == .avif)
        #expect(report.image == ImageInfo(width: 4_294_967_295, height: 4_294_967_295))
    }
}

extension FuzzRegressionTests {
    static let fuzzLimits = ContentLimits(
        maxInflatedBytes: 256 << 10, maxTreeNodes: 200, maxDepth: 16, maxStringPreview: 64, maxTextPreview: 1_024,
        maxNestedInspections: 3)

    static func nodeCount(_ node: ContentNode) -> Int { node.children.reduce(1) { $0 + nodeCount($1) } }
    static func depth(_ node: ContentNode) -> Int { 1 + (node.children.map(depth).max() ?? 0) }

    /// zlib → protobuf of many fields: the message node itself was not counted, so the tree held 201 of 200.
    @Test func protobufTreeCountsItsRootNode() throws {
        let bytes = Data(base64Encoded: "eNpyElBERsVYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWLa2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2trZYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFgSEhISEhISEhISEhISEhISEhISEhISEhISEhISeC5KAEYkJCQkJCQkJCQk0Sw=")!
        let report = ContentInspector.inspect(bytes, limits: Self.fuzzLimits)
        #expect(report.kind == .zlib)
        let inner = try #require(report.inner?.report)
        #expect(inner.kind == .protobuf)
        #expect(Self.nodeCount(try #require(inner.tree)) == 200)
        #expect(inner.truncated == ["tree truncated at 200 nodes"])
    }
}
