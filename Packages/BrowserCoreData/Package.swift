// swift-tools-version:6.0
// BrowserCoreData: the live adapter over an `NSManagedObjectContext`. Builds and tests alone:
// `swift test --package-path Packages/BrowserCoreData`. Every source file is wrapped in
// `#if canImport(CoreData)`, so on Linux this is an empty module (scripts/apple-typecheck/ compiles the
// sources there against a stand-in `CoreData` module). The root Package.swift declares the same targets.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BrowserCoreData",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .macCatalyst(.v15)],
    products: [
        .library(name: "BrowserCoreData", targets: ["BrowserCoreData"]),
    ],
    dependencies: [
        .package(path: "../BrowserCore"),
        // Test-only: the parity test browses the same store file through the store-file reader.
        .package(path: "../BrowserSQLite"),
    ],
    targets: [
        .target(
            name: "BrowserCoreData",
            dependencies: [.product(name: "BrowserCore", package: "BrowserCore")],
            path: "Sources/BrowserCoreData",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BrowserCoreDataTests",
            dependencies: [
                "BrowserCoreData",
                .product(name: "BrowserCore", package: "BrowserCore"),
                .product(name: "BrowserSQLite", package: "BrowserSQLite"),
            ],
            path: "Tests/BrowserCoreDataTests",
            swiftSettings: swiftSettings
        ),
    ]
)
