// swift-tools-version:6.0
// BrowserDesktop builds and tests alone: `swift test --package-path Packages/BrowserDesktop`.
// What only a desktop tool does — finding the stores of the simulators' and the Mac's apps — and so what no app
// may link: it uses macOS-only API (`homeDirectoryForCurrentUser`), and no library product an app adds depends on
// it (scripts/checks/architecture/check.py enforces both). browser-demo is its one user. The root Package.swift
// declares the same targets with `path:`.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BrowserDesktop",
    platforms: [.macOS(.v12)],
    products: [
        .library(name: "BrowserDesktop", targets: ["BrowserDesktop"]),
    ],
    dependencies: [
        .package(path: "../BrowserSQLite"),
    ],
    targets: [
        .target(
            name: "BrowserDesktop",
            dependencies: [.product(name: "BrowserSQLite", package: "BrowserSQLite")],
            path: "Sources/BrowserDesktop",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BrowserDesktopTests",
            dependencies: ["BrowserDesktop"],
            path: "Tests/BrowserDesktopTests",
            swiftSettings: swiftSettings
        ),
    ]
)
