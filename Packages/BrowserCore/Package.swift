// swift-tools-version:6.0
// BrowserCore builds and tests alone: `swift test --package-path Packages/BrowserCore`.
// The root Package.swift declares the same sources for users who add the package by URL.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BrowserCore",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .macCatalyst(.v15)],
    products: [
        .library(name: "BrowserCore", targets: ["BrowserCore"]),
    ],
    dependencies: [
        .package(path: "../BrowserFormats"),
    ],
    targets: [
        .target(
            name: "BrowserCore",
            dependencies: [.product(name: "BrowserFormats", package: "BrowserFormats")],
            path: "Sources/BrowserCore",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BrowserCoreTests",
            dependencies: ["BrowserCore"],
            path: "Tests/BrowserCoreTests",
            swiftSettings: swiftSettings
        ),
    ]
)
