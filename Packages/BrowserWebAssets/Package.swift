// swift-tools-version:6.0
// BrowserWebAssets builds and tests alone: `swift test --package-path Packages/BrowserWebAssets`.
// It imports no other brick: it only knows the web UI's files and their content types.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BrowserWebAssets",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .macCatalyst(.v15)],
    products: [
        .library(name: "BrowserWebAssets", targets: ["BrowserWebAssets"]),
    ],
    targets: [
        .target(name: "BrowserWebAssets", path: "Sources/BrowserWebAssets", swiftSettings: swiftSettings),
        .testTarget(
            name: "BrowserWebAssetsTests",
            dependencies: ["BrowserWebAssets"],
            path: "Tests/BrowserWebAssetsTests",
            swiftSettings: swiftSettings
        ),
    ]
)
