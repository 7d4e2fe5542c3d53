// swift-tools-version:6.0
// The benchmark's FlyingFox peer: a minimal FlyingFox server serving the same bytes as browser-demo on
// /api/health and /pages/inspector/inspector.js, so `wrk` compares the two HTTP stacks. Benchmark harness only:
// it must never be referenced from the root Package.swift. Built by scripts/bench/run.sh with its own scratch path.
import PackageDescription

let package = Package(
    name: "FlyingFoxPeer",
    platforms: [.macOS(.v12)],
    dependencies: [
        .package(url: "https://github.com/swhitty/FlyingFox.git", exact: "0.27.1"),
    ],
    targets: [
        .executableTarget(
            name: "FlyingFoxPeer",
            dependencies: [.product(name: "FlyingFox", package: "FlyingFox")],
            path: "Sources/FlyingFoxPeer",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
