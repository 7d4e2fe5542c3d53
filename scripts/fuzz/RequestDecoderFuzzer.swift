// libFuzzer target for BrowserHTTP's request decoding, compiled by scripts/fuzz/run.sh together with every
// source of Packages/BrowserHTTP into one module, so internal types (HTTPRequestDecoder, RequestTarget,
// PercentDecoding, HTTPResponseEncoder) are reachable without making them public.
//
// Besides "never crash, hang or leak", it checks properties that must hold for every input:
// - decoding is incremental: the bytes fed whole or in small chunks give the same requests and the same error;
// - a decoded target always splits into path segments or fails with an HTTPParseError, never traps;
// - a response built from hostile header values never carries CR or LF inside a header line (no splitting).

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func requestDecoderFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    RequestDecoderFuzzing.run(bytes)
    return 0
}

enum RequestDecoderFuzzing {
    /// Small limits so short inputs reach every limit branch.
    static let limits: HTTPServerLimits = {
        var limits = HTTPServerLimits()
        limits.maxRequestLineBytes = 200
        limits.maxHeaderBytes = 400
        limits.maxHeaderCount = 8
        limits.maxBodyBytes = 64
        return limits
    }()
    static let patterns = ["/api/entities/:name", "/api/object", "/assets/*path", "/"].map(RoutePattern.init)
    static let hosts = HTTPHostAllowList(["localhost", "127.0.0.1", "[::1]"])

    struct Outcome: Equatable {
        var requests: [HTTPRequest] = []
        var error: HTTPParseError?
    }

    static func run(_ bytes: [UInt8]) {
        let whole = decode(bytes, chunkSize: max(bytes.count, 1))
        let chunkSize = 1 + Int(bytes.last ?? 0) % 5
        let chunked = decode(bytes, chunkSize: chunkSize)
        precondition(whole == chunked, "chunks of \(chunkSize) decode differently: \(whole) vs \(chunked)")

        for request in whole.requests {
            if let segments = try? RequestTarget.parse(request.target, method: request.method).decodedSegments() {
                for pattern in patterns { _ = pattern.match(segments) }
            }
            _ = request.isKeepAlive
            _ = hosts.allows(request)
            _ = request.cookies(named: "cdb_token")
            _ = request.bearerToken
            _ = HTTPSameOriginCheck.allows(request)
            checkNoResponseSplitting(echoing: request)
        }
        // The query and percent decoders on their own, on the raw input.
        _ = try? HTTPQuery(decodingBytes: bytes)
        _ = try? PercentDecoding.decode(bytes, plusAsSpace: false)
    }

    static func decode(_ bytes: [UInt8], chunkSize: Int) -> Outcome {
        var decoder = HTTPRequestDecoder(limits: limits)
        var outcome = Outcome()
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + chunkSize)
            decoder.feed(bytes[offset..<end])
            offset = end
            do {
                while let request = try decoder.nextRequest() {
                    outcome.requests.append(request)
                    _ = decoder.takeContinueRequest()
                }
            } catch {
                outcome.error = error
                return outcome
            }
        } while offset < bytes.count
        return outcome
    }

    /// Header values that came from the client, echoed into a response, must not create new header lines.
    static func checkNoResponseSplitting(echoing request: HTTPRequest) {
        var response = HTTPResponse.text(request.path)
        for (name, value) in request.headers { response.headers.add(name, value) }
        response.headers.add("Location", request.target)
        let encoded = HTTPResponseEncoder.encode(response, requestMethod: request.method, requestVersion: request.version, keepAlive: true)
        let terminator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = (0...(encoded.count - 4)).first(where: { encoded[$0..<$0 + 4].elementsEqual(terminator) }) else {
            preconditionFailure("no end of head")
        }
        let head = encoded[0..<headEnd]
        var index = head.startIndex
        while index < head.endIndex {
            let byte = head[index]
            if byte == 13 {
                precondition(index + 1 < head.endIndex && head[index + 1] == 10, "bare CR in a response head")
                index += 2
                continue
            }
            precondition(byte != 10, "bare LF in a response head")
            index += 1
        }
    }
}
