internal import BrowserFormats

/// The detection order behind `ContentInspector.inspect`, applied to a buffer (the value, or a compressed
/// stream's inflated bytes, one nesting level down).
struct ContentDetection {
    let limits: ContentLimits
    let transformerName: String?

    /// The report of `bytes` with its summary ("headline · size") written.
    func report(_ bytes: UnsafeRawBufferPointer, size: Int, complete: Bool, nesting: Int) -> ContentReport {
        var (report, headline) = detect(bytes, complete: complete, nesting: nesting)
        report.size = size
        report.inspectedSize = bytes.count
        if !complete {
            report.truncated.insert(
                "only the first \(ContentFormatting.byteCount(bytes.count)) of \(ContentFormatting.byteCount(size)) were inspected", at: 0)
        }
        if report.kind != .keyedArchive, let transformerName, expectsKeyedArchive(transformerName), report.kind != .empty {
            report.problems.append("the transformer \(transformerName) expects a keyed archive, but this is not one")
        }
        report.summary = headline + " · " + ContentFormatting.byteCount(size)
        return report
    }

    /// `NSSecureUnarchiveFromData` and its subclasses (conventionally named …UnarchiveFromData…), and
    /// `NSKeyedUnarchiveFromData` store keyed archives.
    private func expectsKeyedArchive(_ name: String) -> Bool {
        name.contains("UnarchiveFromData") || name.contains("KeyedArchive")
    }

    private func detect(_ bytes: UnsafeRawBufferPointer, complete: Bool, nesting: Int) -> (ContentReport, String) {
        let size = bytes.count
        guard size > 0 else { return (ContentReport(kind: .empty, size: 0), "empty") }

        if let header = ImageHeaderParser.parse(bytes, complete: complete) {
            return image(header, size: size)
        }
        if let offset = PDFPageCounter.headerOffset(bytes) {
            return pdf(bytes, headerOffset: offset, complete: complete)
        }
        if bytes.matches("bplist0") {
            switch BinaryPropertyList.open(bytes, previewLimit: limits.maxStringPreview) {
            case .success(let graph): return propertyList(graph, kind: .binaryPlist, size: size)
            case .failure(let failure):
                return (ContentReport(kind: .binaryPlist, size: size, problems: [failure.message]), "binary plist (unreadable)")
            }
        }
        if let gzip = CompressedContainer.gzip(bytes, maxOutput: limits.maxInflatedBytes) {
            return compressed(gzip, size: size, nesting: nesting)
        }
        let zlib = CompressedContainer.zlib(bytes, maxOutput: limits.maxInflatedBytes)
        if let zlib, zlib.inflatedCleanly || zlib.stoppedAtLimit || (!complete && !zlib.inflated.isEmpty) {
            return compressed(zlib, size: size, nesting: nesting)
        }
        if let textual = text(bytes, complete: complete) { return textual }
        if let (text, cut) = UTF16Text.decode(bytes, limit: limits.maxTextPreview) {
            var report = ContentReport(kind: .utf16Text, size: size, text: text)
            if cut { report.truncated.append(textCutSentence) }
            return (report, "UTF-16 text")
        }
        if ProtobufDecoder.isMessage(bytes, 0..<size) {
            let budget = ContentNodeBudget(limits: limits)
            let (tree, quote) = ProtobufDecoder.tree(bytes, budget: budget)
            let report = ContentReport(kind: .protobuf, size: size, tree: tree, truncated: budget.sentences)
            return (report, quote.map { "protobuf “\($0)”" } ?? "protobuf")
        }
        if let zlib { return compressed(zlib, size: size, nesting: nesting) }
        return (ContentReport(kind: .unknown, size: size), "binary data")
    }

    private var textCutSentence: String {
        "text shown up to \(ContentFormatting.grouped(limits.maxTextPreview)) characters"
    }

    // MARK: Images and PDF

    private func image(_ header: ImageHeader, size: Int) -> (ContentReport, String) {
        if let label = header.label { return (ContentReport(kind: .unknown, size: size, problems: header.problems), label) }
        var report = ContentReport(kind: header.kind, size: size, image: header.image, problems: header.problems)
        report.mimeType = header.image == nil ? nil : header.kind.rasterMIMEType
        let name = header.kind == .jpeg ? "JPEG" : header.kind == .webp ? "WebP" : header.kind.rawValue.uppercased()
        let headline = header.image.map { "\(name) \($0.width)×\($0.height)" } ?? name
        return (report, headline)
    }

    private func pdf(_ bytes: UnsafeRawBufferPointer, headerOffset: Int, complete: Bool) -> (ContentReport, String) {
        var report = ContentReport(kind: .pdf, size: bytes.count)
        let pages = PDFPageCounter.pageCount(bytes)
        let version = PDFPageCounter.version(bytes, headerOffset: headerOffset)
        var headline = version.isEmpty ? "PDF" : "PDF \(version)"
        if pages > 0, complete {
            report.pageCount = pages
            headline += ", " + ContentFormatting.counted(pages, "page")
        } else if complete {
            report.problems.append("no page objects found (they may be in compressed object streams)")
        }
        if pages >= PDFPageCounter.maximumPages {
            report.truncated.append("pages counted up to \(ContentFormatting.grouped(PDFPageCounter.maximumPages))")
        }
        if complete, !PDFPageCounter.hasEndMarker(bytes) {
            report.problems.append("PDF has no %%EOF marker: the file may be truncated")
        }
        return (report, headline)
    }

    // MARK: Property lists and keyed archives

    private func propertyList<Graph: PropertyListGraph>(_ graph: Graph, kind: ContentKind, size: Int) -> (ContentReport, String) {
        let budget = ContentNodeBudget(limits: limits)
        let decoded = PropertyListTree.build(graph, budget: budget, nesting: 0)
        if decoded.isKeyedArchive {
            let report = ContentReport(kind: .keyedArchive, size: size, tree: decoded.root, archivedClass: decoded.archivedClass,
                                       truncated: budget.sentences, problems: decoded.problems)
            return (report, decoded.archivedClass.map { "keyed archive (\($0))" } ?? "keyed archive")
        }
        let format = kind == .binaryPlist ? "binary plist" : "XML plist"
        let report = ContentReport(kind: kind, size: size, tree: decoded.root, truncated: budget.sentences, problems: decoded.problems)
        return (report, format + describe(graph.object(graph.topReference)))
    }

    /// " dict (3 keys)", " array (2 items)", or "" for a scalar.
    private func describe(_ object: PropertyListObject?) -> String {
        switch object {
        case .dictionary(let keys, _)?: " dict (\(ContentFormatting.counted(keys.count, "key")))"
        case .array(let list)?: " array (\(ContentFormatting.counted(list.count, "item")))"
        case .set(let list)?: " set (\(ContentFormatting.counted(list.count, "item")))"
        default: ""
        }
    }

    // MARK: Compressed streams

    private func compressed(_ container: CompressedContainer, size: Int, nesting: Int) -> (ContentReport, String) {
        let kind: ContentKind = container.kind == .gzip ? .gzip : .zlib
        let name = kind.rawValue
        var report = ContentReport(kind: kind, size: size, inflatedSize: container.inflated.count,
                                   problems: container.problems)
        if container.stoppedAtLimit {
            report.truncated.append("inflated output stopped at \(ContentFormatting.byteCount(limits.maxInflatedBytes))")
        }
        guard !container.inflated.isEmpty else { return (report, name) }
        guard nesting < limits.maxNestedInspections else {
            report.truncated.append("inflated bytes not inspected: compression nested more than \(limits.maxNestedInspections) levels deep")
            return (report, name)
        }
        let inner = container.inflated.withUnsafeBytes { inflated in
            let complete = !container.stoppedAtLimit && container.inflatedCleanly
            return (detect(inflated, complete: complete, nesting: nesting + 1), inflated.count, complete)
        }
        var (innerReport, innerHeadline) = inner.0
        innerReport.size = inner.1
        innerReport.inspectedSize = inner.1
        innerReport.summary = innerHeadline + " · " + ContentFormatting.byteCount(inner.1)
        report.inner = ContentReportBox(innerReport)
        return (report, "\(name) → \(innerHeadline)")
    }

    // MARK: Text formats

    private func text(_ bytes: UnsafeRawBufferPointer, complete: Bool) -> (ContentReport, String)? {
        let scan = TextScan(bytes, complete: complete)
        guard scan.isValidUTF8, !scan.stoppedEarly else { return nil }
        let size = bytes.count
        var start = bytes.matches("\u{FEFF}") ? 3 : 0
        while let byte = bytes.byte(at: start), [0x20, 0x09, 0x0A, 0x0D].contains(byte) { start += 1 }
        /// A whole value that is JSON so far but stops inside its document: shown as the text it is, with why.
        var endedJSON: String?
        if let first = bytes.byte(at: start), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            let budget = ContentNodeBudget(limits: limits)
            switch JSONTreeParser.parse(bytes, start: start, budget: budget) {
            case .document(let tree, let isObject, let count):
                let report = ContentReport(kind: .json, size: size, tree: tree, truncated: budget.sentences)
                return (report, jsonHeadline(isObject: isObject, count: count))
            case .endedEarly(let tree, let isObject) where !complete:
                let report = ContentReport(kind: .json, size: size, tree: tree, truncated: budget.sentences)
                return (report, isObject ? "JSON object" : "JSON array")
            case .endedEarly(_, let isObject):
                endedJSON = "JSON \(isObject ? "object" : "array") that ends before it closes: the value is truncated"
            case .invalid: break
            }
        }
        guard scan.isText else { return nil }
        let (preview, cut) = textPreview(bytes, from: bytes.matches("\u{FEFF}") ? 3 : 0)
        var report = ContentReport(kind: .utf8Text, size: size, text: preview)
        if cut { report.truncated.append(textCutSentence) }
        if let endedJSON { report.problems.append(endedJSON) }
        switch MarkupSniffer.classify(bytes, start: start) {
        case .rtf?:
            report.kind = .rtf
            return (report, "RTF document")
        case .html?:
            report.kind = .html
            return (report, "HTML document")
        case .xmlPlist?:
            switch XMLPropertyList.parse(bytes, maximumObjects: limits.maxTreeNodes * 4, previewLimit: limits.maxStringPreview,
                                         keepData: PropertyListTree.looksLikePropertyList) {
            case .success(let graph):
                var (plist, headline) = propertyList(graph, kind: .xmlPlist, size: size)
                if graph.stoppedAtLimit {
                    plist.truncated.append("XML plist read up to \(ContentFormatting.grouped(limits.maxTreeNodes * 4)) objects")
                }
                return (plist, headline)
            case .failure(let failure):
                report.kind = .xml
                report.problems.append(failure.message)
                return (report, "XML (a property list that does not parse)")
            }
        case .xml(let root)?:
            report.kind = .xml
            return (report, root.map { "XML <\($0)>" } ?? "XML")
        case nil:
            if complete, let url = URLText.absoluteURL(preview) {
                report.kind = .url
                report.text = url
                return (report, "URL " + ContentFormatting.preview(url, limit: 60))
            }
            return (report, "UTF-8 text")
        }
    }

    private func jsonHeadline(isObject: Bool, count: Int) -> String {
        isObject ? "JSON object (\(ContentFormatting.counted(count, "key")))" : "JSON array (\(ContentFormatting.counted(count, "item")))"
    }

    /// The text from `start`, at most `maxTextPreview` characters, decoding only the bytes that can be shown.
    private func textPreview(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (String, Bool) {
        let end = min(bytes.count, start + limits.maxTextPreview * 4)
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        let shown = ContentFormatting.preview(text, limit: limits.maxTextPreview)
        let cut = shown.count < text.count || end < bytes.count
        return (cut && !shown.hasSuffix("…") ? shown + "…" : shown, cut)
    }
}
