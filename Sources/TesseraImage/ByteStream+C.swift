import TesseraSystem

extension ByteStream {
    /// The read callback the C decoders take (`CJPEG_ReadFunction`, `CPNG_ReadFunction`): the
    /// context is a `ByteStream` the decoder keeps alive for as long as the C side may call.
    static let cRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int) -> Int = {
        context, buffer, capacity in
        // invariant: every decoder passes its own retained stream as the context.
        let stream = Unmanaged<ByteStream>.fromOpaque(context.unsafelyUnwrapped).takeUnretainedValue()
        return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
    }

    /// The context to hand the C decoder with `cRead`.
    var cContext: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// The text a C encoder wrote into `buffer` (NUL-terminated).
func messageText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
