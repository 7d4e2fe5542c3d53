import BrowserCore
import Foundation
import Testing

func inspect(_ bytes: [UInt8], totalSize: Int? = nil, transformerName: String? = nil, limits: ContentLimits = .init()) -> ContentReport {
    ContentInspector.inspect(Data(bytes), totalSize: totalSize, transformerName: transformerName, limits: limits)
}

@Suite struct ImageAndPDFInspectionTests {
    @Test func pngReportsItsDimensionsAndMIMEType() {
        let report = inspect(ContentSamples.png(width: 640, height: 480))
        #expect(report.kind == .png)
        #expect(report.image == ImageInfo(width: 640, height: 480))
        #expect(report.mimeType == "image/png")
        #expect(report.summary == "PNG 640×480 · 58 B")
        #expect(report.problems.isEmpty)
    }

    @Test func jpegDimensionsComeFromTheFrameHeader() {
        let report = inspect(ContentSamples.jpeg(width: 1024, height: 768))
        #expect(report.kind == .jpeg)
        #expect(report.image == ImageInfo(width: 1024, height: 768))
        #expect(report.mimeType == "image/jpeg")
        #expect(report.problems.isEmpty)
    }

    @Test func gifReportsItsLogicalScreen() {
        let report = inspect(ContentSamples.gif(width: 32, height: 16))
        #expect(report.kind == .gif)
        #expect(report.image == ImageInfo(width: 32, height: 16))
        #expect(report.mimeType == "image/gif")
    }

    @Test(arguments: [("VP8X", 1920, 1080), ("VP8L", 300, 200), ("VP8 ", 50, 40)])
    func webpReadsEachChunkKind(chunk: String, width: Int, height: Int) {
        let bytes = switch chunk {
        case "VP8X": ContentSamples.webpExtended(width: width, height: height)
        case "VP8L": ContentSamples.webpLossless(width: width, height: height)
        default: ContentSamples.webpLossy(width: width, height: height)
        }
        let report = inspect(bytes)
        #expect(report.kind == .webp)
        #expect(report.image == ImageInfo(width: width, height: height))
        #expect(report.mimeType == "image/webp")
        #expect(report.problems.isEmpty)
    }

    @Test func heicAndAVIFAreToldApartByBrandAndSizedByIspe() {
        let heic = inspect(ContentSamples.isoImage(major: "heic", compatible: ["mif1", "heic"], width: 4032, height: 3024))
        #expect(heic.kind == .heic)
        #expect(heic.image == ImageInfo(width: 4032, height: 3024))
        #expect(heic.mimeType == "image/heic")
        let avif = inspect(ContentSamples.isoImage(major: "avif", compatible: ["mif1", "miaf"], width: 800, height: 600))
        #expect(avif.kind == .avif)
        #expect(avif.image == ImageInfo(width: 800, height: 600), "\(avif)")
        #expect(avif.mimeType == "image/avif")
    }

    @Test func anISOMediaVideoIsNotAnImage() {
        let report = inspect(ContentSamples.box("ftyp", ContentSamples.ascii("isom") + ContentSamples.be32(0) + ContentSamples.ascii("mp41")))
        #expect(report.kind == .unknown)
        #expect(report.mimeType == nil)
        #expect(report.summary.hasPrefix("ISO media (brand isom)"))
    }

    @Test func tiffIsAnImageWithoutAMIMEType() {
        let report = inspect(ContentSamples.tiff(width: 120, height: 90))
        #expect(report.kind == .tiff)
        #expect(report.image == ImageInfo(width: 120, height: 90))
        #expect(report.mimeType == nil)
    }

    @Test func pdfCountsPageObjectsButNotThePageTree() {
        let report = inspect(ContentSamples.pdf)
        #expect(report.kind == .pdf)
        #expect(report.pageCount == 3)
        #expect(report.summary.hasPrefix("PDF 1.7, 3 pages · "))
        #expect(report.mimeType == nil)
        #expect(report.problems.isEmpty)
    }

    @Test func truncatedImagesSayWhatIsMissing() {
        let png = inspect(ContentSamples.png(width: 10, height: 10, withEnd: false))
        #expect(png.kind == .png)
        #expect(png.image == ImageInfo(width: 10, height: 10))
        #expect(png.problems == ["PNG header parsed but the file is truncated (no IEND chunk)"])
        let jpeg = inspect(ContentSamples.jpeg(width: 10, height: 10, withEnd: false))
        #expect(jpeg.kind == .jpeg)
        #expect(jpeg.problems == ["JPEG header parsed but the file is truncated (no end-of-image marker)"])
        let jpegHead = inspect(Array(ContentSamples.jpeg(width: 10, height: 10).prefix(24)))
        #expect(jpegHead.kind == .jpeg)
        #expect(jpegHead.problems == ["JPEG file is truncated before its frame header"])
        #expect(jpegHead.image == nil)
        #expect(jpegHead.mimeType == nil)
        let gif = inspect(Array(ContentSamples.gif(width: 5, height: 5).prefix(8)))
        #expect(gif.kind == .gif)
        #expect(gif.image == nil)
        #expect(gif.mimeType == nil)
        let webp = inspect(Array(ContentSamples.webpExtended(width: 100, height: 100).dropLast(3)))
        #expect(webp.kind == .webp)
        #expect(webp.problems == ["WebP file is truncated in its header"])
        let tiff = inspect(Array(ContentSamples.tiff(width: 3, height: 3).prefix(20)))
        #expect(tiff.kind == .tiff)
        #expect(tiff.image == nil)
        #expect(tiff.problems == ["TIFF image directory is truncated"])
        let heic = inspect(Array(ContentSamples.isoImage(major: "heic", compatible: ["mif1"], width: 9, height: 9).dropLast(6)))
        #expect(heic.kind == .heic)
        #expect(heic.image == nil)
        #expect(heic.problems == ["no image size (ispe) found"])
        let pdf = inspect(Array(ContentSamples.pdf.prefix(120)))
        #expect(pdf.kind == .pdf)
        #expect(pdf.pageCount == nil)
        #expect(pdf.problems == [
            "no page objects found (they may be in compressed object streams)",
            "PDF has no %%EOF marker: the file may be truncated",
        ])
    }

    @Test func aHeadOfALargeValueIsNotCalledTruncated() {
        let head = Array(ContentSamples.png(width: 4000, height: 3000, withEnd: false))
        let report = inspect(head, totalSize: 10 << 20)
        #expect(report.kind == .png)
        #expect(report.size == 10 << 20)
        #expect(report.inspectedSize == head.count)
        #expect(report.problems.isEmpty)
        #expect(report.truncated == ["only the first 46 B of 10 MB were inspected"])
        #expect(report.summary == "PNG 4000×3000 · 10 MB")
    }

    @Test func magicBytesAloneDoNotMakeAnImage() {
        let report = inspect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0xEE, count: 30))
        #expect(report.kind != .png)
        #expect(report.mimeType == nil)
    }
}
