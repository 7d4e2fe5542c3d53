// swift-tools-version:6.0
// The platform's DNS-SD (Bonjour) client, as the assembly (Options.advertise, on Apple platforms) and browser-demo
// (discover, --advertise) use it: Apple's dns_sd, or Avahi's compatible API on Linux. Builds alone:
// `swift build --package-path Packages/BrowserDNSSD` (on Linux it needs libavahi-compat-libdnssd-dev).
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BrowserDNSSD",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .macCatalyst(.v15)],
    products: [
        .library(name: "BrowserDNSSD", targets: ["BrowserDNSSD"]),
    ],
    targets: [
        // No pkgConfig: Avahi's .pc adds -D_REENTRANT, which SwiftPM refuses with a warning on every build; Debian
        // puts dns_sd.h in /usr/include.
        .systemLibrary(name: "CDNSSD", path: "Sources/CDNSSD", providers: [.apt(["libavahi-compat-libdnssd-dev"])]),
        .target(
            name: "BrowserDNSSD",
            dependencies: ["CDNSSD"],
            path: "Sources/BrowserDNSSD",
            swiftSettings: swiftSettings,
            // On Apple platforms dns_sd is part of libSystem.
            linkerSettings: [.linkedLibrary("dns_sd", .when(platforms: [.linux]))]
        ),
    ]
)
