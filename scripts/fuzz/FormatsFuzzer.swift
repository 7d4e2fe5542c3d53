// libFuzzer target for the byte formats, compiled by scripts/fuzz/run.sh together with every source of
// Packages/BrowserFormats into one module: the input is read as each format (binary and XML property lists,
// keyed archives, raw DEFLATE, gzip and zlib, XML documents) with small limits.
//
// Properties checked for every input: nothing traps or runs away; a list read whole agrees with its graph
// read object by object (same top-level kind); a graph's previews stay within their limit (strings at most
// the limit and "…", data heads at most the limit); inflating never passes its cap, a stream that stopped at
// the cap says so, and one inflated completely inflates the same again with room to spare.

@_cdecl("LLVMFuzzerTestOneInput")
public func formatsFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FormatsFuzzing.run(bytes)
    return 0
}

enum FormatsFuzzing {
    static let previewLimit = 16
    static let maxInflated = 256 << 10

    static func run(_ bytes: [UInt8]) {
        let whole = try? PropertyList.read(bytes)
        if let whole, let archive = try? KeyedArchive(whole) {
            _ = archive.className(of: archive.root)
            _ = archive.entries(of: archive.root)
            _ = archive.members(of: archive.root)
        }
        bytes.withUnsafeBytes { raw in
            if case .success(let graph) = BinaryPropertyList.open(raw, previewLimit: previewLimit) {
                walk(graph, agreeingWith: whole)
            }
            // PropertyList.read reads bytes that start "bplist0" as a binary list only.
            if case .success(let graph) = XMLPropertyList.parse(raw, maximumObjects: 500, previewLimit: previewLimit, keepData: { _ in true }) {
                walk(graph, agreeingWith: graph.stoppedAtLimit || raw.matches("bplist0") ? nil : whole)
            }
            inflate(raw)
            for container in [CompressedContainer.gzip(raw, maxOutput: maxInflated), CompressedContainer.zlib(raw, maxOutput: maxInflated)] {
                guard let container else { continue }
                precondition(container.inflated.count <= maxInflated, "a container inflated past its cap")
                precondition(!container.stoppedAtLimit || container.inflated.count == maxInflated, "stopped short of the cap")
            }
        }
        _ = try? MarkupParser.parse(bytes)
    }

    /// Reads every object the top one reaches (each once), checking previews, and compares the top object's kind
    /// with the whole read's.
    static func walk(_ graph: some PropertyListGraph, agreeingWith whole: PropertyListValue?) {
        var seen: Set<Int> = []
        var pending = [graph.topReference]
        while let reference = pending.popLast(), seen.count < 2_000 {
            guard seen.insert(reference).inserted, let object = graph.object(reference) else { continue }
            switch object {
            case .string(let text, _):
                precondition(text.count <= previewLimit + 1, "a string preview past its limit")
            case .data(let count, let head):
                precondition(head.count <= min(count, previewLimit), "a data head past its limit")
                if let all = graph.withData(reference, { Array($0) }) {
                    precondition(all.count == count && all.starts(with: head), "a data object's bytes disagree with its head")
                }
            case .array(let list), .set(let list):
                for position in 0..<list.count { graph.reference(in: list, at: position).map { pending.append($0) } }
            case .dictionary(let keys, let values):
                for position in 0..<keys.count {
                    graph.reference(in: keys, at: position).map { pending.append($0) }
                    graph.reference(in: values, at: position).map { pending.append($0) }
                }
            default: break
            }
        }
        guard let whole else { return }
        switch (graph.object(graph.topReference), whole) {
        case (.array?, .array), (.set?, .array), (.dictionary?, .dictionary), (.string?, .string), (.integer?, .integer),
             (.real?, .real), (.bool?, .boolean), (.date?, .date), (.data?, .data), (.uid?, .uid), (.null?, .null):
            break
        default:
            preconditionFailure("the whole read and the graph disagree on the top object")
        }
    }

    static func inflate(_ raw: UnsafeRawBufferPointer) {
        let capped = Inflater.inflate(raw, from: 0, maxOutput: 1_024)
        precondition(capped.output.count <= 1_024, "inflated past the cap")
        guard capped.isComplete else { return }
        let roomy = Inflater.inflate(raw, from: 0, maxOutput: maxInflated)
        precondition(roomy.isComplete && roomy.output == capped.output && roomy.consumed == capped.consumed,
                     "a complete stream inflated differently with more room")
    }
}
