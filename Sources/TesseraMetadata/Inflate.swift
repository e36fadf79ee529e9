import CZlib

/// zlib's `inflate` over a whole buffer, with a ceiling on the output, and its CRC-32.
///
/// PNG text chunks are small; the ceiling keeps a crafted chunk from
/// expanding into gigabytes.
public enum Inflate {
    /// The inflated bytes, or nil when the data is not valid zlib or inflates past `limit`.
    static func zlib(_ input: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        ZlibStream()?.inflate(Array(input), limit: limit)
    }

    /// The CRC-32 of `bytes`, as PNG chunks use it.
    public static func crc32<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}

/// One zlib inflate stream, owned: its `z_stream` lives on the heap at one address for its
/// whole life, because zlib keeps a pointer back to it between calls (inflateInit stores it
/// in its internal state), and `inflateEnd` frees zlib's state in `deinit`.
///
/// See https://zlib.net/manual.html (inflateInit, inflate, inflateEnd).
private final class ZlibStream {
    private let stream: UnsafeMutablePointer<z_stream>

    init?() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard inflateInit_(stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates all of `input`: nil when it is not valid zlib or inflates past `limit`.
    func inflate(_ input: [UInt8], limit: Int) -> [UInt8]? {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var input = input
        return input.withUnsafeMutableBufferPointer { inBuffer -> [UInt8]? in
            stream.pointee.next_in = inBuffer.baseAddress
            stream.pointee.avail_in = uInt(inBuffer.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = uInt(out.count)
                    let status = CZlib.inflate(stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.pointee.avail_out))
                }
                output.append(contentsOf: chunk[..<produced])
                if output.count > limit { return nil }
                switch status {
                case Z_STREAM_END: return output
                case Z_OK: if produced == 0 && stream.pointee.avail_in == 0 { return nil }
                default: return nil
                }
            }
        }
    }
}
