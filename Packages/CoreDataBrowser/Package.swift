// swift-tools-version:6.0
// The thin assembly: wires BrowserCore, BrowserHTTP, BrowserWebAssets (and BrowserSQLite for store files, BrowserDNSSD for
// Bonjour on Apple platforms) to any store and holds the public API (`CoreDataBrowserServer`). Builds and tests alone: `swift test --package-path Packages/CoreDataBrowser`.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Where the assembly advertises over DNS-SD (BrowserDNSSD): every Apple platform, where dns_sd is in libSystem.
let applePlatforms: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .macCatalyst, .visionOS]

let package = Package(
    name: "CoreDataBrowser",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .macCatalyst(.v15)],
    products: [
        .library(name: "CoreDataBrowser", targets: ["CoreDataBrowser"]),
    ],
    dependencies: [
        .package(path: "../BrowserCore"),
        .package(path: "../BrowserHTTP"),
        .package(path: "../BrowserWebAssets"),
        .package(path: "../BrowserSQLite"),
        .package(path: "../BrowserCoreData"),
        .package(path: "../BrowserMemory"),
        .package(path: "../BrowserDNSSD"),
    ],
    targets: [
        .target(
            name: "CoreDataBrowser",
            dependencies: [
                .product(name: "BrowserCore", package: "BrowserCore"),
                .product(name: "BrowserHTTP", package: "BrowserHTTP"),
                .product(name: "BrowserWebAssets", package: "BrowserWebAssets"),
                .product(name: "BrowserSQLite", package: "BrowserSQLite"),
                .product(name: "BrowserCoreData", package: "BrowserCoreData"),
                // Options.advertise, on Apple platforms only: on Linux an app would otherwise need Avahi to build.
                .product(name: "BrowserDNSSD", package: "BrowserDNSSD", condition: .when(platforms: applePlatforms)),
            ],
            path: "Sources/CoreDataBrowser",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CoreDataBrowserTests",
            dependencies: [
                .product(name: "BrowserHTTPTesting", package: "BrowserHTTP"),
                "CoreDataBrowser",
                .product(name: "BrowserCore", package: "BrowserCore"),
                .product(name: "BrowserMemory", package: "BrowserMemory"),
                .product(name: "BrowserWebAssets", package: "BrowserWebAssets"),
                .product(name: "BrowserSQLite", package: "BrowserSQLite"),
            ],
            path: "Tests/CoreDataBrowserTests",
            swiftSettings: swiftSettings
        ),
    ]
)
