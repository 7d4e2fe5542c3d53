internal import BrowserFormats

/// HEIF and AVIF images (ISO/IEC 14496-12 boxes, 23008-12 and the AV1 image format): the `ftyp` box's brands
/// say which, and the `ispe` property inside `meta` → `iprp` → `ipco` gives the dimensions.
enum ISOMediaHeaderParser {
    private static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    private static let avifBrands: Set<String> = ["avif", "avis"]
    /// Boxes looked at while searching for `ispe`: enough for any real image, bounded for a hostile one.
    private static let maximumBoxes = 4_096
    /// Where `ispe` lives; `meta` and `ispe` are full boxes (a version and flags word precedes their payload).
    private static let boxPath: [(name: StaticString, isFullBox: Bool)] = [
        ("meta", true), ("iprp", false), ("ipco", false), ("ispe", true),
    ]

    static func parse(_ bytes: UnsafeRawBufferPointer) -> ImageHeader? {
        guard let ftypSize = bytes.uint32BE(at: 0), ftypSize >= 16 else { return nil }
        let brandsEnd = min(ftypSize, bytes.count)
        var brands: [String] = []
        for offset in stride(from: 8, to: brandsEnd - 3, by: 4) where offset != 12 { // 12: minor version
            brands.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4]), as: UTF8.self))
        }
        guard let major = brands.first else { return nil }
        let kind: ContentKind
        if avifBrands.contains(major) || (!heicBrands.contains(major) && brands.contains(where: avifBrands.contains)) {
            kind = .avif
        } else if brands.contains(where: heicBrands.contains) {
            kind = .heic
        } else {
            let printable = major.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
            return ImageHeader(kind: .unknown, label: "ISO media (brand \(printable ? major : "?"))")
        }
        var header = ImageHeader(kind: kind)
        if ftypSize > bytes.count {
            header.problems.append("\(kind == .avif ? "AVIF" : "HEIC") file is truncated in its ftyp box")
            return header
        }
        var visited = 0
        var best: ImageInfo?
        search(bytes, range: ftypSize..<bytes.count, path: boxPath[...], visited: &visited) { offset in
            guard let width = bytes.uint32BE(at: offset), let height = bytes.uint32BE(at: offset + 4) else { return }
            // The largest image wins (a grid's size over its tiles'); 32-bit sizes, so compare areas as doubles.
            let area = Double(width) * Double(height)
            if area > (best.map { Double($0.width) * Double($0.height) } ?? -1) { best = ImageInfo(width: width, height: height) }
        }
        header.image = best
        if best == nil { header.problems.append("no image size (ispe) found") }
        return header
    }

    /// Calls `found` with the payload offset of every box reached along `path`.
    private static func search(
        _ bytes: UnsafeRawBufferPointer, range: Range<Int>, path: ArraySlice<(name: StaticString, isFullBox: Bool)>, visited: inout Int,
        found: (Int) -> Void
    ) {
        guard let step = path.first else { return }
        var offset = range.lowerBound
        while offset <= range.upperBound - 8, visited < maximumBoxes {
            visited += 1
            guard var size = bytes.uint32BE(at: offset) else { return }
            var headerSize = 8
            if size == 1 {
                guard let large = bytes.bigEndian(at: offset + 8, size: 8), large <= UInt64(Int.max) else { return }
                size = Int(large)
                headerSize = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= headerSize, size <= range.upperBound - offset else { return }
            if bytes.matches(step.name, at: offset + 4) {
                let payload = offset + headerSize + (step.isFullBox ? 4 : 0)
                if path.count == 1 {
                    found(payload)
                } else if payload <= offset + size {
                    search(bytes, range: payload..<(offset + size), path: path.dropFirst(), visited: &visited, found: found)
                }
            }
            offset += size
        }
    }
}
