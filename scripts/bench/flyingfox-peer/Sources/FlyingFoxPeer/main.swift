import FlyingFox
import FlyingSocks
import Foundation

// flyingfox-peer --health FILE --app-js FILE [--port N]
// Serves GET /api/health and GET /pages/inspector/inspector.js with the bytes of the two files and the same
// Content-Type (and, for the script, Cache-Control) headers as browser-demo; everything else is FlyingFox's default 404. Listens on
// 127.0.0.1 only, prints `FlyingFox: http://127.0.0.1:PORT` once it is listening.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("flyingfox-peer: \(message)\n".utf8))
    exit(2)
}

var port: UInt16 = 0
var healthPath: String?
var appJSPath: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port":
        guard let text = arguments.popFirst(), let value = UInt16(text) else { fail("--port needs a number") }
        port = value
    case "--health": healthPath = arguments.popFirst()
    case "--app-js": appJSPath = arguments.popFirst()
    default: fail("unknown argument \(argument)")
    }
}
guard let healthPath, let appJSPath,
      let health = FileManager.default.contents(atPath: healthPath),
      let appJS = FileManager.default.contents(atPath: appJSPath)
else { fail("usage: flyingfox-peer --health FILE --app-js FILE [--port N]") }

// IPv4 127.0.0.1, as browser-demo --loopback (FlyingFox's `.loopback` is IPv6 ::1).
let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), logger: .disabled)
await server.appendRoute("GET /api/health") { _ in
    HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: health)
}
await server.appendRoute("GET /pages/inspector/inspector.js") { _ in
    HTTPResponse(
        statusCode: .ok,
        headers: [.contentType: "text/javascript; charset=utf-8", HTTPHeader("Cache-Control"): "no-cache"],
        body: appJS
    )
}

let task = Task { try await server.run() }
try await server.waitUntilListening()
guard case let .ip4(_, listeningPort)? = await server.listeningAddress else { fail("not listening on IPv4") }
print("FlyingFox: http://127.0.0.1:\(listeningPort)")
fflush(nil)

signal(SIGTERM, SIG_IGN)
signal(SIGINT, SIG_IGN)
let signalSources = [SIGINT, SIGTERM].map { number in
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler { exit(0) }
    source.resume()
    return source
}
try await task.value
