import CBrotli

/// Brotli decompression of a whole buffer, with a cap on what it may produce.
enum Brotli {
    static func decompress(_ input: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { return nil }
        defer { BrotliDecoderDestroyInstance(state) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            var availableIn = source.count
            var next = source.baseAddress
            while true {
                var availableOut = chunk.count
                let result = chunk.withUnsafeMutableBufferPointer { target -> BrotliDecoderResult in
                    var out = target.baseAddress
                    return BrotliDecoderDecompressStream(state, &availableIn, &next, &availableOut, &out, nil)
                }
                output += chunk[..<(chunk.count - availableOut)]
                guard output.count <= limit else { return nil }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS: return output
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                default: return nil  // an error, or input that ends too soon
                }
            }
        }
    }
}
