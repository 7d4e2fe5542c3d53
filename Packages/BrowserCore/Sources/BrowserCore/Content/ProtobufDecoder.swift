internal import BrowserFormats

/// Generic decoding of the protobuf wire format (protobuf.dev/programming-guides/encoding): without a schema,
/// every field is its number, wire type and value. Length-delimited values are shown as text when they are
/// printable UTF-8, else as a nested message when they parse as one, else as bytes: short strings very often
/// parse as messages too, so text wins over the spec's usual "message first" guess. Text with more control
/// characters than that is a string only when it is not a message.
///
/// A value is called protobuf only when the whole buffer parses: field numbers 1…2²⁹−1, wire types 0, 1, 2 and
/// 5 (the deprecated groups 3 and 4 are refused, which rules out much random data), varints of at most 10 bytes
/// and at least one field.
enum ProtobufDecoder {
    private static let maximumFieldNumber = (1 << 29) - 1

    private struct Field {
        var number: Int
        var wireType: Int
        /// Varint value, or the fixed value's bits.
        var value: UInt64
        /// Payload range of a length-delimited field.
        var payload: Range<Int>
        var end: Int
    }

    /// Whether `range` of `bytes` is one whole message of at least one field.
    static func isMessage(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard let field = field(bytes, at: offset, end: range.upperBound) else { return false }
            offset = field.end
        }
        return true
    }

    /// The tree of a message `isMessage` accepted: a "message" node whose first child, when the message holds
    /// text anywhere, is the "strings" node `ProtobufStrings` lists (so the text a message carries, such as a
    /// note's body three messages down, is read first), then the fields. Also the headline's quote.
    static func tree(_ bytes: UnsafeRawBufferPointer, budget: ContentNodeBudget) -> (tree: ContentNode, quote: String?) {
        _ = budget.take() // the message node itself
        let strings = ProtobufStrings(budget: budget)
        var root = ContentNode(type: "message", children: nodes(bytes, 0..<bytes.count, path: "", depth: 1, budget: budget, strings: strings))
        if let listed = strings.node() { root.children.insert(listed, at: 0) }
        return (root, strings.quote)
    }

    /// The fields of a message `isMessage` accepted, as nodes (nil children once the budget is spent). `path`
    /// is the field numbers leading to the message ("2.3"), "" at the top.
    private static func nodes(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, path: String, depth: Int, budget: ContentNodeBudget, strings: ProtobufStrings
    ) -> [ContentNode] {
        var nodes: [ContentNode] = []
        var offset = range.lowerBound
        while offset < range.upperBound, let field = field(bytes, at: offset, end: range.upperBound) {
            offset = field.end
            guard budget.take() else { break }
            nodes.append(node(bytes, field, path: path, depth: depth, budget: budget, strings: strings))
        }
        return nodes
    }

    private static func node(
        _ bytes: UnsafeRawBufferPointer, _ field: Field, path: String, depth: Int, budget: ContentNodeBudget, strings: ProtobufStrings
    ) -> ContentNode {
        let label = String(field.number)
        switch field.wireType {
        case 0:
            // Show the zigzag reading too when it is the smaller number (a sint field).
            let zigzag = Int64(bitPattern: (field.value >> 1) ^ (0 &- (field.value & 1)))
            let text = zigzag.magnitude < field.value && field.value > 1 ? "\(field.value) (sint \(zigzag))" : "\(field.value)"
            return ContentNode(label: label, type: "varint", value: text)
        case 1:
            return ContentNode(label: label, type: "fixed64", value: "\(field.value) (double \(Double(bitPattern: field.value)))")
        case 5:
            return ContentNode(label: label, type: "fixed32", value: "\(field.value) (float \(Float(bitPattern: UInt32(field.value))))")
        default:
            let payload = UnsafeRawBufferPointer(rebasing: bytes[field.payload])
            let fieldPath = path.isEmpty ? label : path + "." + label
            if !field.payload.isEmpty, TextScan(payload, complete: true).isText {
                return stringNode(payload, label: label, path: fieldPath, budget: budget, strings: strings)
            }
            if isMessage(bytes, field.payload) {
                var node = ContentNode(label: label, type: "message")
                if budget.allows(depth: depth + 1) {
                    node.children = nodes(bytes, field.payload, path: fieldPath, depth: depth + 1, budget: budget, strings: strings)
                } else {
                    node.note = "depth limit"
                }
                return node
            }
            // Not a message either: text with more control characters than plain text allows (a separator,
            // a placeholder) is still more use read than as hex.
            if !field.payload.isEmpty, TextScan(payload, complete: true, bytesPerControl: looseTextBytesPerControl).isText {
                return stringNode(payload, label: label, path: fieldPath, budget: budget, strings: strings)
            }
            let preview = ContentFormatting.hexPreview(bytes, range: field.payload, limit: budget.limits.maxStringPreview)
            return ContentNode(label: label, type: "bytes", value: "\(ContentFormatting.counted(field.payload.count, "byte")): \(preview)")
        }
    }

    /// A string field that is neither plain text nor a message may hold one control character in this many
    /// bytes. Message payloads are tried first, so their tag bytes (often controls) do not make them text.
    private static let looseTextBytesPerControl = 8

    private static func stringNode(
        _ payload: UnsafeRawBufferPointer, label: String, path: String, budget: ContentNodeBudget, strings: ProtobufStrings
    ) -> ContentNode {
        let limit = budget.limits.maxStringPreview
        let text = String(decoding: payload.prefix(limit * 4), as: UTF8.self)
        let preview = ContentFormatting.preview(ContentFormatting.visibleControls(text), limit: limit)
        strings.add(path: path, byteCount: payload.count, preview: preview)
        return ContentNode(label: label, type: "string", value: preview)
    }

    private static func field(_ bytes: UnsafeRawBufferPointer, at offset: Int, end: Int) -> Field? {
        guard let (key, afterKey) = varint(bytes, at: offset, end: end) else { return nil }
        let wireType = Int(key & 7)
        let number = key >> 3
        guard number >= 1, number <= UInt64(maximumFieldNumber) else { return nil }
        switch wireType {
        case 0:
            guard let (value, after) = varint(bytes, at: afterKey, end: end) else { return nil }
            return Field(number: Int(number), wireType: 0, value: value, payload: after..<after, end: after)
        case 1, 5:
            let size = wireType == 1 ? 8 : 4
            guard end - afterKey >= size, let value = bytes.littleEndian(at: afterKey, size: size) else { return nil }
            return Field(number: Int(number), wireType: wireType, value: value, payload: afterKey..<afterKey, end: afterKey + size)
        case 2:
            guard let (length, start) = varint(bytes, at: afterKey, end: end), length <= UInt64(end - start) else { return nil }
            let payloadEnd = start + Int(length)
            return Field(number: Int(number), wireType: 2, value: length, payload: start..<payloadEnd, end: payloadEnd)
        default:
            return nil
        }
    }

    /// A base-128 varint of at most 10 bytes (the 10th carrying only bit 63).
    private static func varint(_ bytes: UnsafeRawBufferPointer, at offset: Int, end: Int) -> (UInt64, Int)? {
        var value: UInt64 = 0
        var position = offset
        for index in 0..<10 {
            guard position < end else { return nil }
            let byte = bytes[position]
            position += 1
            if index == 9, byte > 1 { return nil }
            value |= UInt64(byte & 0x7F) << UInt64(7 * index)
            if byte & 0x80 == 0 { return (value, position) }
        }
        return nil
    }
}
