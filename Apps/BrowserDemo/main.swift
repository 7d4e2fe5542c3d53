import BrowserCore
import BrowserDNSSD
import BrowserMemory
import CoreDataBrowser
import Foundation
#if canImport(CMalloc)
import CMalloc
#endif

/// `browser-demo`: serves the demo library (or a store file) until interrupted.

#if canImport(CMalloc)
// glibc raises its mmap threshold to the size of the last large block freed (up to 32 MiB), so after a request that
// read a 10 MB value every later one is served from the heap, which keeps the freed blocks: the process stays tens
// of megabytes larger than what it holds. Pinned, large blocks are mapped and unmapped as they come and go, and the
// resident size follows what the server really uses. (Apple's allocator returns large blocks by itself.)
mallopt(M_MMAP_THRESHOLD, 256 * 1024)
#endif

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("browser-demo: \(message)\n".utf8))
    exit(code)
}

let arguments: DemoArguments
do {
    arguments = try DemoArguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error.message)\nRun browser-demo --help for usage.", code: 2)
}
if arguments.showHelp {
    print(DemoArguments.usage)
    exit(0)
}
if arguments.listSimulators {
    do {
        print(SimulatorListing.run(try SimulatorScanSource(root: arguments.simulatorsRoot, macRoot: arguments.macContainersRoot)))
    } catch {
        fail(error.description, code: 1)
    }
    exit(0)
}
if arguments.discover {
    do {
        print(ServiceDiscovery.listing(try ServiceDiscovery.run(seconds: arguments.discoverSeconds)))
    } catch {
        fail(error.message, code: 1)
    }
    exit(0)
}

let loaded: DemoStoreLoader.Loaded
do {
    loaded = try await DemoStoreLoader.load(arguments)
} catch {
    fail(String(describing: error), code: 1)
}

var options = CoreDataBrowserServer.Options()
options.port = arguments.port
options.bindAddress = arguments.loopback ? .loopback : .allInterfaces
options.webRoot = arguments.webRoot.map { URL(fileURLWithPath: $0) }
options.readOnly = !arguments.writable
if let perAddress = arguments.maxConnectionsPerAddress { options.limits.maxConnectionsPerAddress = perAddress }
/// Where the token came from, for the message when it is not a valid token.
var tokenSource = "--token"
if let token = arguments.token {
    options.pairingToken = .token(token)
} else if let path = arguments.tokenFile {
    tokenSource = "--token-file \(path)"
    do {
        options.pairingToken = try .token(inFile: path)
    } catch {
        fail("--token-file: \(error)", code: 2)
    }
} else if arguments.noToken {
    options.pairingToken = .disabledAnyoneOnTheNetworkCanReadTheStore
} else if let token = ProcessInfo.processInfo.environment[DemoArguments.tokenVariable], !token.isEmpty {
    tokenSource = DemoArguments.tokenVariable
    options.pairingToken = .token(token)
}
// One remembered token per store file (and one for the demo library), so a token seen for one store does not open
// every other store the user browses with browser-demo.
let servedPaths = arguments.simulators
    ? ["simulators", arguments.simulatorsRoot ?? "", arguments.macContainersRoot ?? ""]
    : arguments.storePaths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
if !servedPaths.isEmpty, let defaultFile = options.pairingTokenFile {
    let canonical = servedPaths.joined(separator: "\n")
    let name = defaultFile.deletingPathExtension().lastPathComponent + "-" + StableDigest.hex(canonical)
    options.pairingTokenFile = defaultFile.deletingLastPathComponent().appendingPathComponent(name + ".pairing-token")
}
let server = CoreDataBrowserServer(stores: loaded.stores, options: options, rescan: loaded.rescan)
// Stop cleanly on Ctrl-C or SIGTERM: close the listener and connections, then exit 0. Installed before the server
// starts and prints its URLs, which is when a script may stop it (the content check does at once, on a store with
// nothing to check). libdispatch arms a signal source later, on its own thread. On Linux it installs its own
// handler then, so the signal keeps its default action until that moment: a SIGTERM that comes first still ends
// the process. Ignoring it (SIG_IGN), as kqueue needs on Apple platforms, lost such a signal, and the process never
// exited (13 runs in 60 when a script stopped it right after the URL line).
let signalSources = [SIGINT, SIGTERM].map { signalNumber in
    #if !os(Linux)
    signal(signalNumber, SIG_IGN)
    #endif
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
    source.setEventHandler {
        server.stop()
        exit(0)
    }
    source.resume()
    return source
}
do {
    try server.start()
} catch CoreDataBrowserServer.StartError.invalidPairingToken {
    // A bad token is a bad argument.
    fail("\(tokenSource): \(CoreDataBrowserServer.StartError.invalidPairingToken)", code: 2)
} catch {
    fail(String(describing: error), code: 1)
}
print("Open a URL above in a desktop browser. Press Ctrl-C to stop.")
// Kept for the life of the process: the advertisement is withdrawn when the registration ends (and by the daemon
// when the process exits).
var advertiser: DNSServiceRegistration?
if arguments.advertise, let info = server.runningInfo {
    let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init)
    let advertisement = BonjourAdvertisement(appName: "browser-demo", bundleID: nil, storeNames: loaded.stores.map(\.name),
                                             tokenRequired: info.tokenRequired, port: info.port, hostName: host)
    let started = DNSServiceRegistration { outcome in
        switch outcome {
        case .registered(let name):
            print("Advertised on the local network as \"\(name)\" (\(BonjourAdvertisement.serviceType))")
        case .failed(let failure):
            print(failure.message)
        }
        fflush(nil)
    }
    do {
        // With --loopback the service is published on the loopback interface alone: a server listening on
        // 127.0.0.1 is found by browsers on this machine and not announced to others who could not reach it.
        try started.start(name: advertisement.name, type: BonjourAdvertisement.serviceType, port: advertisement.port,
                          txt: advertisement.txtRecord, loopbackOnly: arguments.loopback, doing: "--advertise")
        advertiser = started
    } catch {
        // Serving goes on: the printed URL still works; only finding it on the network does not.
        FileHandle.standardError.write(Data("browser-demo: \(error.message)\n".utf8))
    }
}
// Flush now: when stdout is a pipe (a test or script reading the URLs) it is block-buffered.
fflush(nil)

// Serve until a signal ends the process; the server runs on its own threads.
while true {
    try? await Task.sleep(nanoseconds: 3_600_000_000_000)
}
