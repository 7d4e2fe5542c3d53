import CZlib

/// Inflates raw DEFLATE data (RFC 1951, no zlib or gzip header): how Core Data compresses `Z_MODELCACHE`
/// (format doc §4; Python's `zlib.decompress(data, -15)`).
enum RawDeflate {
    /// Model caches inflate to at most a few hundred KB; anything past this is refused as damaged (or hostile).
    static let maximumInflatedSize = 64 << 20

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func inflate(_ input: [UInt8]) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard cdb_inflate_init_raw(&stream) == Z_OK else { throw Failure(description: "zlib could not start inflating") }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        var input = input
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    let produced = target.count - Int(stream.avail_out)
                    output.append(contentsOf: target[0..<produced])
                }
            } while status == Z_OK && output.count <= maximumInflatedSize && (stream.avail_in > 0 || stream.avail_out == 0)
        }
        guard output.count <= maximumInflatedSize else {
            throw Failure(description: "inflated data exceeds \(maximumInflatedSize) bytes")
        }
        guard status == Z_STREAM_END else {
            let reason = stream.msg.map { String(cString: $0) } ?? "incomplete or invalid DEFLATE data (zlib status \(status))"
            throw Failure(description: reason)
        }
        return output
    }
}
