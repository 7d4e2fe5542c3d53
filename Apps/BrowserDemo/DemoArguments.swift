import Foundation

/// The command line of `browser-demo`.
struct DemoArguments: Equatable {
    var port: UInt16 = 8080
    var loopback = false
    /// `--store`, repeatable: every store file served, in order (the first is the one `/api/…` means).
    var storePaths: [String] = []
    var modelPath: String?
    var webRoot: String?
    var token: String?
    /// `--token-file`: the token is read from this file, so it does not show in `ps` like `--token` does.
    var tokenFile: String?
    var noToken = false
    var showHelp = false
    /// `browser-demo simulators`: serve every store of the simulators' (and macOS apps') containers.
    var simulators = false
    /// `simulators --list`: print them instead of serving.
    var listSimulators = false
    var simulatorsRoot: String?
    var macContainersRoot: String?
    /// `browser-demo discover`: list the servers advertised on the network instead of serving.
    var discover = false
    /// How long `discover` listens, in seconds.
    var discoverSeconds: Double = 3
    /// `--advertise`: publish this server as `_cdbrowser._tcp` while it runs.
    var advertise = false
    /// `--writable`: turn writes on (`Options.readOnly = false`) for whatever is served.
    var writable = false
    /// `--max-connections-per-address`: `HTTPServerLimits.maxConnectionsPerAddress`, nil for its default.
    var maxConnectionsPerAddress: Int?

    /// The largest `--max-connections-per-address` taken: the server's whole connection cap is 512 at most.
    static let maxConnectionsPerAddressLimit = 512

    /// Read when neither `--token` nor `--token-file` is given (the process's environment is private to its user).
    static let tokenVariable = "CDB_PAIRING_TOKEN"

    /// Named so that nobody turns the token off by accident.
    static let noTokenFlag = "--no-token-anyone-on-the-network-can-read-the-store"

    static let usage = """
    Usage: browser-demo [--port N] [--loopback] [--store PATH [--model PATH] | --store PATH --store PATH …]
                        [--web-root DIR] [--advertise] [--writable] [--max-connections-per-address N]
                        [--token T | --token-file F | --no-token-anyone-on-the-network-can-read-the-store]
           browser-demo simulators [--list] [--root DIR] [--mac-root DIR] [serving options above]
           browser-demo discover [--timeout SECONDS]

    Serves the CoreDataBrowser web UI and JSON API.
    Without --store it serves an in-memory demo library (Author, Book, AudioBook, Tag).

      --port N         preferred port (default 8080; the next 10 are tried if it is taken; 0 = any free port)
      --loopback       listen on 127.0.0.1 only (default: every interface)
      --store PATH     serve a Core Data or SwiftData store file (.sqlite, default.store, …), read-only unless --writable;
                       repeat it to serve several (the UI gets a store switcher; /api/stores lists them)
      --model PATH     the store's model (.xcdatamodeld, .xcdatamodel, .momd or .mom); optional, one store only
      --web-root DIR   serve the UI from DIR instead of the compiled-in copy (for working on web/; the files
                       are read when the server starts: restart it to see an edit)
      --token T        require this pairing token (22+ characters from A-Z a-z 0-9 - _ . ~), even on --loopback;
                       by default a token is required beyond loopback, generated and remembered for 7 days.
                       Other users of this machine can read --token in the process list: prefer --token-file or
                       the environment variable \(tokenVariable)
      --token-file F   require the token held in file F (its first line); refused unless only you can read it
      --no-token-anyone-on-the-network-can-read-the-store
                       serve every interface without a token
      --max-connections-per-address N
                       at most N open connections from one client address (default 32, at most 512): raise it
                       when many clients reach the server through one address (an SSH tunnel, a proxy) or
                       for a load test from one machine
      --writable       let the UI and API create, edit and delete records (off by default: read-only). A store
                       file is written in place only when it can be written safely; otherwise the server says why
                       not (a read-only file, a store with persistent history or Core Data triggers, a model
                       inferred from the tables). Before the first write a backup is made beside the store,
                       <name>.cdbrowser-backup-<UTC time>.sqlite, and its path is printed
      --advertise      publish the server on the local network over Bonjour (_cdbrowser._tcp), so that
                       browser-demo discover (or any DNS-SD browser) finds it; the token is never published
      -h, --help       show this help

    browser-demo simulators serves every Core Data and SwiftData store of the simulators' apps and App Groups
    (recognised by content, whatever the file is called), grouped device > app > store in the store switcher;
    the switcher's Rescan finds stores added since:
      --list           print them by device and app, each with the path to pass to --store, instead of serving
      --root DIR       the simulators' folder (default ~/Library/Developer/CoreSimulator/Devices)
      --mac-root DIR   also macOS apps' containers from DIR. Default on a Mac: ~/Library/Containers, unless
                       --root is given (then only the folders given are scanned)
    What the scan could not read (a folder, past the file limit) is printed as "skipped: …" lines.

    browser-demo discover lists the CoreDataBrowser servers advertised on the local network (apps with
    Options.advertise, browser-demo --advertise): name, app, stores and URL. It uses the system's DNS-SD
    daemon (mDNSResponder on macOS, avahi-daemon on Linux):
      --timeout S      how long to listen, in seconds (default 3)

    Exit codes: 0 after an interrupt, 1 when the store or server cannot start, 2 for bad arguments.
    """

    struct Invalid: Error, Equatable {
        let message: String
    }

    static func parse(_ arguments: [String]) throws(Invalid) -> DemoArguments {
        var result = DemoArguments()
        var remaining = arguments[...]
        if remaining.first == "simulators" {
            remaining.removeFirst()
            result.simulators = true
        } else if remaining.first == "discover" {
            remaining.removeFirst()
            result.discover = true
        }
        func value(for option: String) throws(Invalid) -> String {
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                throw Invalid(message: "\(option) needs a value")
            }
            return next
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                result.showHelp = true
            case "--loopback":
                result.loopback = true
            case "--port":
                let text = try value(for: argument)
                guard let port = UInt16(text) else {
                    throw Invalid(message: "--port needs a number from 0 to 65535, got \"\(text)\"")
                }
                result.port = port
            case "--store":
                result.storePaths.append(try value(for: argument))
            case "--model":
                result.modelPath = try value(for: argument)
            case "--web-root":
                result.webRoot = try value(for: argument)
            case "--token":
                result.token = try value(for: argument)
            case "--token-file":
                result.tokenFile = try value(for: argument)
            case noTokenFlag:
                result.noToken = true
            case "--list" where result.simulators:
                result.listSimulators = true
            case "--root" where result.simulators:
                result.simulatorsRoot = try value(for: argument)
            case "--mac-root" where result.simulators:
                result.macContainersRoot = try value(for: argument)
            case "--timeout" where result.discover:
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                    throw Invalid(message: "--timeout needs a number of seconds above 0 and at most 600, got \"\(text)\"")
                }
                result.discoverSeconds = seconds
            case "--advertise":
                result.advertise = true
            case "--writable":
                result.writable = true
            case "--max-connections-per-address":
                let text = try value(for: argument)
                guard let count = Int(text), (1...Self.maxConnectionsPerAddressLimit).contains(count) else {
                    throw Invalid(message: "--max-connections-per-address needs a number from 1 to "
                        + "\(Self.maxConnectionsPerAddressLimit), got \"\(text)\"")
                }
                result.maxConnectionsPerAddress = count
            default:
                throw Invalid(message: "unknown argument \"\(argument)\"")
            }
        }
        if result.simulators, !result.storePaths.isEmpty || result.modelPath != nil {
            throw Invalid(message: "simulators finds the stores itself: it takes no --store or --model")
        }
        if result.listSimulators, result != DemoArguments(showHelp: result.showHelp, simulators: true, listSimulators: true,
                                                         simulatorsRoot: result.simulatorsRoot,
                                                         macContainersRoot: result.macContainersRoot) {
            throw Invalid(message: "simulators --list takes only --root and --mac-root")
        }
        if result.listSimulators, result.writable {
            throw Invalid(message: "simulators --list takes only --root and --mac-root")
        }
        if result.discover, result != DemoArguments(showHelp: result.showHelp, discover: true, discoverSeconds: result.discoverSeconds) {
            throw Invalid(message: "discover takes only --timeout")
        }
        let tokenSources = [result.token != nil, result.tokenFile != nil, result.noToken].filter { $0 }.count
        if tokenSources > 1 {
            throw Invalid(message: "--token, --token-file and \(noTokenFlag) exclude each other")
        }
        if result.modelPath != nil && result.storePaths.isEmpty {
            throw Invalid(message: "--model needs --store")
        }
        var seen = Set<String>()
        for path in result.storePaths where !seen.insert(URL(fileURLWithPath: path).standardizedFileURL.path).inserted {
            throw Invalid(message: "--store \(path) is given twice")
        }
        if result.modelPath != nil && result.storePaths.count > 1 {
            throw Invalid(message: "--model applies to one store; with several --store each model comes from its store's cache")
        }
        return result
    }
}
