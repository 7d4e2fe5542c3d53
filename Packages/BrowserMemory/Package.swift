// swift-tools-version:6.0
// BrowserMemory builds and tests alone: `swift test --package-path Packages/BrowserMemory`.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BrowserMemory",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .macCatalyst(.v15)],
    products: [
        .library(name: "BrowserMemory", targets: ["BrowserMemory"]),
    ],
    dependencies: [
        .package(path: "../BrowserCore"),
    ],
    targets: [
        .target(
            name: "BrowserMemory",
            dependencies: [.product(name: "BrowserCore", package: "BrowserCore")],
            path: "Sources/BrowserMemory",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BrowserMemoryTests",
            dependencies: ["BrowserMemory", .product(name: "BrowserCore", package: "BrowserCore")],
            path: "Tests/BrowserMemoryTests",
            swiftSettings: swiftSettings
        ),
    ]
)
