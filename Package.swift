// swift-tools-version:6.0
// The package users add by URL. SwiftPM refuses a remote package that depends on local path packages, so this
// manifest declares every brick's targets itself, with `path:` into Packages/…; each Packages/X/Package.swift
// declares the same sources so a brick also builds and tests alone (`swift test --package-path Packages/X`).
// Keep the two in step: scripts/checks/architecture/check.py compares them.
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
        .library(name: "BrowserCore", targets: ["BrowserCore"]),
        .library(name: "BrowserHTTP", targets: ["BrowserHTTP"]),
        .library(name: "BrowserMemory", targets: ["BrowserMemory"]),
        .library(name: "BrowserSQLite", targets: ["BrowserSQLite"]),
        .library(name: "BrowserCoreData", targets: ["BrowserCoreData"]),
        .library(name: "BrowserWebAssets", targets: ["BrowserWebAssets"]),
        .executable(name: "browser-demo", targets: ["BrowserDemo"]),
    ],
    targets: [
        // Bricks
        .target(name: "BrowserFormats", path: "Packages/BrowserFormats/Sources/BrowserFormats", swiftSettings: swiftSettings),
        .target(name: "BrowserCore", dependencies: ["BrowserFormats"], path: "Packages/BrowserCore/Sources/BrowserCore", swiftSettings: swiftSettings),
        .target(name: "BrowserHTTP", path: "Packages/BrowserHTTP/Sources/BrowserHTTP", swiftSettings: swiftSettings),
        .target(name: "BrowserMemory", dependencies: ["BrowserCore"], path: "Packages/BrowserMemory/Sources/BrowserMemory", swiftSettings: swiftSettings),
        .target(name: "BrowserWebAssets", path: "Packages/BrowserWebAssets/Sources/BrowserWebAssets", swiftSettings: swiftSettings),
        // The system SQLite for BrowserSQLite: in Apple's SDKs; on Linux libsqlite3-dev.
        .systemLibrary(name: "CSQLite", path: "Packages/BrowserSQLite/Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "BrowserSQLite",
            dependencies: ["BrowserCore", "BrowserFormats", "CSQLite"],
            path: "Packages/BrowserSQLite/Sources/BrowserSQLite",
            swiftSettings: swiftSettings
        ),
        // The live NSManagedObjectContext adapter: every file is `#if canImport(CoreData)`, empty on Linux.
        .target(name: "BrowserCoreData", dependencies: ["BrowserCore"], path: "Packages/BrowserCoreData/Sources/BrowserCoreData", swiftSettings: swiftSettings),
        // Desktop only: no library product depends on it (checks/architecture/check.py), browser-demo does.
        .target(name: "BrowserDesktop", dependencies: ["BrowserSQLite"], path: "Packages/BrowserDesktop/Sources/BrowserDesktop", swiftSettings: swiftSettings),
        // DNS-SD (Bonjour): Apple's dns_sd (part of libSystem), or Avahi's compatible API on Linux. The assembly uses
        // it on Apple platforms only, so an app built on Linux needs no Avahi; browser-demo uses it everywhere. (No
        // pkgConfig: Avahi's .pc adds -D_REENTRANT, which SwiftPM refuses with a warning on every build; Debian puts
        // dns_sd.h in /usr/include.)
        .systemLibrary(name: "CDNSSD", path: "Packages/BrowserDNSSD/Sources/CDNSSD", providers: [.apt(["libavahi-compat-libdnssd-dev"])]),
        .target(
            name: "BrowserDNSSD",
            dependencies: ["CDNSSD"],
            path: "Packages/BrowserDNSSD/Sources/BrowserDNSSD",
            swiftSettings: swiftSettings,
            linkerSettings: [.linkedLibrary("dns_sd", .when(platforms: [.linux]))]
        ),
        // Assembly and apps
        .target(
            name: "CoreDataBrowser",
            dependencies: ["BrowserCore", "BrowserHTTP", "BrowserWebAssets", "BrowserSQLite", "BrowserCoreData",
                           .byName(name: "BrowserDNSSD", condition: .when(platforms: applePlatforms))],
            path: "Packages/CoreDataBrowser/Sources/CoreDataBrowser",
            swiftSettings: swiftSettings
        ),
        // glibc's <malloc.h> (mallopt), for browser-demo on Linux: part of libc, nothing to link.
        .systemLibrary(name: "CMalloc", path: "Apps/CMalloc"),
        .executableTarget(
            name: "BrowserDemo",
            dependencies: ["CoreDataBrowser", "BrowserCore", "BrowserMemory", "BrowserSQLite", "BrowserDesktop", "BrowserDNSSD", "CDNSSD",
                           .target(name: "CMalloc", condition: .when(platforms: [.linux]))],
            path: "Apps/BrowserDemo",
            swiftSettings: swiftSettings
        ),
        // Tests
        .testTarget(name: "BrowserFormatsTests", dependencies: ["BrowserFormats"], path: "Packages/BrowserFormats/Tests/BrowserFormatsTests", swiftSettings: swiftSettings),
        .testTarget(name: "BrowserCoreTests", dependencies: ["BrowserCore"], path: "Packages/BrowserCore/Tests/BrowserCoreTests", swiftSettings: swiftSettings),
        // A raw-socket client for the tests of servers built on BrowserHTTP (no product here: tests only).
        .target(name: "BrowserHTTPTesting", path: "Packages/BrowserHTTP/Tests/BrowserHTTPTesting", swiftSettings: swiftSettings),
        .testTarget(name: "BrowserHTTPTests", dependencies: ["BrowserHTTP", "BrowserHTTPTesting"], path: "Packages/BrowserHTTP/Tests/BrowserHTTPTests", swiftSettings: swiftSettings),
        .testTarget(name: "BrowserMemoryTests", dependencies: ["BrowserMemory", "BrowserCore"], path: "Packages/BrowserMemory/Tests/BrowserMemoryTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "BrowserSQLiteTests",
            dependencies: ["BrowserSQLite", "CSQLite", "BrowserCore", "BrowserMemory"],
            path: "Packages/BrowserSQLite/Tests/BrowserSQLiteTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BrowserCoreDataTests",
            dependencies: ["BrowserCoreData", "BrowserCore", "BrowserSQLite"],
            path: "Packages/BrowserCoreData/Tests/BrowserCoreDataTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "BrowserDesktopTests", dependencies: ["BrowserDesktop"], path: "Packages/BrowserDesktop/Tests/BrowserDesktopTests", swiftSettings: swiftSettings),
        .testTarget(name: "BrowserWebAssetsTests", dependencies: ["BrowserWebAssets"], path: "Packages/BrowserWebAssets/Tests/BrowserWebAssetsTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "CoreDataBrowserTests",
            dependencies: ["CoreDataBrowser", "BrowserCore", "BrowserMemory", "BrowserWebAssets", "BrowserSQLite", "BrowserHTTPTesting"],
            path: "Packages/CoreDataBrowser/Tests/CoreDataBrowserTests",
            swiftSettings: swiftSettings
        ),
    ]
)
