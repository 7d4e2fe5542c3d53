// swift-tools-version:6.0
// BrowserFormats builds and tests alone: `swift test --package-path Packages/BrowserFormats`.
// The byte formats the other bricks read: binary and XML property lists, keyed archives, DEFLATE and its gzip
// and zlib containers, small XML documents. No dependencies (Foundation only), so every brick may import it.
// The root Package.swift declares the same sources for users who add the package by URL.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BrowserFormats",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .macCatalyst(.v15)],
    products: [
        .library(name: "BrowserFormats", targets: ["BrowserFormats"]),
    ],
    targets: [
        .target(name: "BrowserFormats", path: "Sources/BrowserFormats", swiftSettings: swiftSettings),
        .testTarget(
            name: "BrowserFormatsTests",
            dependencies: ["BrowserFormats"],
            path: "Tests/BrowserFormatsTests",
            swiftSettings: swiftSettings
        ),
    ]
)
