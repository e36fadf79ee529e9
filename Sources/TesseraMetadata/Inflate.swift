import CZlib

/// zlib's `inflate` over a whole buffer, with a ceiling on the output.
///
/// PNG text chunks are small; the ceiling keeps a crafted chunk from
/// expanding into gigabytes.
enum Inflate {
    /// The inflated bytes, or nil when the data is not valid zlib or inflates past `limit`.
    static func zlib(_ input: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var input = Array(input)
        return input.withUnsafeMutableBufferPointer { inBuffer -> [UInt8]? in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[..<produced])
                if output.count > limit { return nil }
                switch status {
                case Z_STREAM_END: return output
                case Z_OK: if produced == 0 && stream.avail_in == 0 { return nil }
                default: return nil
                }
            }
        }
    }

    /// The CRC-32 of `bytes`, as PNG chunks use it.
    static func crc32<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
