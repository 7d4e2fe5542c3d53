// libFuzzer target for the content inspector, compiled by scripts/fuzz/run.sh together with every
// source of Packages/BrowserCore into one module: the input is a value's raw bytes, inspected whole, as a head
// of a larger value, and under a keyed-archive transformer hint, with small limits so deep trees and inflation
// are reached quickly.
//
// Properties checked for every input: the report's size and inspected size are what was passed; a MIME type is
// only set for a raster kind with dimensions; the tree stays within its node limit; inflated sizes stay within
// the cap; the report round-trips through JSON; JSON and text get the same kind, summary and problems with room
// for every node (the tree parser checks everything) as with 2 (JSONValidator checks nearly everything).

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func contentFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
    ContentFuzzing.run(bytes)
    return 0
}

enum ContentFuzzing {
    static let limits = ContentLimits(
        maxInflatedBytes: 256 << 10, maxTreeNodes: 200, maxDepth: 16, maxStringPreview: 64, maxTextPreview: 1_024,
        maxNestedInspections: 3)

    static func run(_ bytes: Data) {
        let whole = ContentInspector.inspect(bytes, limits: limits)
        check(whole, size: bytes.count, inspected: bytes.count)
        let head = bytes.prefix(bytes.count / 2)
        check(ContentInspector.inspect(head, totalSize: bytes.count, limits: limits), size: bytes.count, inspected: head.count)
        _ = ContentInspector.inspect(bytes, transformerName: "NSSecureUnarchiveFromData", limits: limits)
        // JSONValidator checks what a tree does not show: with 2 nodes that is nearly everything, with more nodes
        // than a 4,096-byte input (run.sh's -max_len) can hold it is nothing; the verdicts must agree.
        var few = limits
        few.maxTreeNodes = 2
        var roomy = limits
        roomy.maxTreeNodes = 10_000
        let skimmed = ContentInspector.inspect(bytes, limits: few)
        let shown = ContentInspector.inspect(bytes, limits: roomy)
        if [.json, .utf8Text].contains(skimmed.kind) || [.json, .utf8Text].contains(shown.kind) {
            precondition(skimmed.kind == shown.kind && skimmed.summary == shown.summary && skimmed.problems == shown.problems,
                         "JSON checked without its tree: \(skimmed.kind) \(skimmed.summary) \(skimmed.problems), with it: "
                            + "\(shown.kind) \(shown.summary) \(shown.problems)")
        }
        let encoded = try! JSONEncoder().encode(whole)
        precondition(try! JSONDecoder().decode(ContentReport.self, from: encoded) == whole, "report does not round-trip")
    }

    static func check(_ report: ContentReport, size: Int, inspected: Int) {
        precondition(report.size == size, "size \(report.size) != \(size)")
        precondition(report.inspectedSize == inspected, "inspected \(report.inspectedSize) != \(inspected)")
        precondition(report.mimeType == nil || report.image != nil, "MIME type without dimensions")
        precondition(!report.summary.isEmpty, "empty summary")
        if let tree = report.tree { precondition(count(tree) <= limits.maxTreeNodes, "tree over its node limit") }
        if let inflated = report.inflatedSize { precondition(inflated <= limits.maxInflatedBytes, "inflated past the cap") }
        if let inner = report.inner?.report {
            check(inner, size: inner.size, inspected: inner.inspectedSize)
        }
    }

    static func count(_ node: ContentNode) -> Int {
        node.children.reduce(1) { $0 + count($1) }
    }
}
