// swift-tools-version:6.0
// BrowserSQLite builds and tests alone: `swift test --package-path Packages/BrowserSQLite`.
// It reads Core Data / SwiftData SQLite store files through the system's SQLite (in Apple's SDKs; on Linux
// `libsqlite3-dev`), and their property lists, keyed archives and DEFLATE through BrowserFormats. The root
// Package.swift declares the same targets with `path:`.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BrowserSQLite",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .macCatalyst(.v15)],
    products: [
        .library(name: "BrowserSQLite", targets: ["BrowserSQLite"]),
    ],
    dependencies: [
        .package(path: "../BrowserCore"),
        .package(path: "../BrowserFormats"),
        .package(path: "../BrowserMemory"), // tests only: the demo model the iOS demo app must match
    ],
    targets: [
        // One module map serves every platform: Apple's SDKs and Linux both ship the header and the library
        // (`link "sqlite3"`), so no `#if canImport(SQLite3)` is needed.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "BrowserSQLite",
            dependencies: [
                .product(name: "BrowserCore", package: "BrowserCore"),
                .product(name: "BrowserFormats", package: "BrowserFormats"),
                "CSQLite",
            ],
            path: "Sources/BrowserSQLite",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BrowserSQLiteTests",
            dependencies: [
                "BrowserSQLite",
                "CSQLite",
                .product(name: "BrowserCore", package: "BrowserCore"),
                .product(name: "BrowserMemory", package: "BrowserMemory"),
            ],
            path: "Tests/BrowserSQLiteTests",
            swiftSettings: swiftSettings
        ),
    ]
)
