// swift-tools-version:6.0
// BrowserHTTP builds and tests alone: `swift test --package-path Packages/BrowserHTTP`.
// It depends on no other brick of the project so other tools can reuse the server.
// The root Package.swift declares the same sources for users who add the package by URL.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BrowserHTTP",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .macCatalyst(.v15)],
    products: [
        .library(name: "BrowserHTTP", targets: ["BrowserHTTP"]),
        // For tests of servers built on BrowserHTTP (this package's and the assembly's): a raw-socket client.
        .library(name: "BrowserHTTPTesting", targets: ["BrowserHTTPTesting"]),
    ],
    targets: [
        .target(name: "BrowserHTTP", path: "Sources/BrowserHTTP", swiftSettings: swiftSettings),
        .target(name: "BrowserHTTPTesting", path: "Tests/BrowserHTTPTesting", swiftSettings: swiftSettings),
        .testTarget(
            name: "BrowserHTTPTests",
            dependencies: ["BrowserHTTP", "BrowserHTTPTesting"],
            path: "Tests/BrowserHTTPTests",
            swiftSettings: swiftSettings
        ),
    ]
)
