import CFFmpeg

/// A decoder (of a video stream or an audio one) with its frame and packet, freed together.
final class FrameDecoder {
    let ff: tessera_ffmpeg
    let context: UnsafeMutablePointer<AVCodecContext>
    let frame: UnsafeMutablePointer<AVFrame>
    let packet: UnsafeMutablePointer<AVPacket>

    /// The most pixels a frame may have (FFmpeg checks `max_pixels` when a frame header gives
    /// the size, before it allocates the frame).
    let maxPixels: Int

    init(
        parameters: UnsafeMutablePointer<AVCodecParameters>, longSide: Int = .max, maxPixels: Int, _ ff: tessera_ffmpeg
    ) throws(VideoError) {
        self.maxPixels = maxPixels
        let id = parameters.pointee.codec_id
        guard let codec = ff.avcodec_find_decoder(id) else {
            let media = parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO ? "audio" : "video"
            throw VideoError(.unsupported, "no decoder for \(ff.codecName(id)) \(media)")
        }
        guard let context = ff.avcodec_alloc_context3(codec) else {
            throw VideoError(.tooLarge, "out of memory for the decoder")
        }
        guard let frame = ff.av_frame_alloc(), let packet = ff.av_packet_alloc() else {
            var owned: UnsafeMutablePointer<AVCodecContext>? = context
            ff.avcodec_free_context(&owned)
            throw VideoError(.tooLarge, "out of memory for the decoder")
        }
        (self.ff, self.context, self.frame, self.packet) = (ff, context, frame, packet)
        let copied = ff.avcodec_parameters_to_context(context, parameters)
        guard copied >= 0 else { throw VideoError.ffmpeg(copied, "the video stream's parameters", ff) }
        context.pointee.thread_count = 1
        // Decoding at 1/2, 1/4 or 1/8 where the codec can and the result still covers `longSide`.
        let long = Int(max(parameters.pointee.width, parameters.pointee.height))
        var lowres: Int32 = 0
        while lowres < Int32(codec.pointee.max_lowres), long >> Int(lowres + 1) >= longSide { lowres += 1 }
        context.pointee.lowres = lowres
        context.pointee.max_pixels = Int64(maxPixels)
        let opened = ff.avcodec_open2(context, codec, nil)
        guard opened >= 0 else {
            throw VideoError.ffmpeg(
                opened, "cannot open the \(String(cString: codec.pointee.name)) decoder", kind: .unsupported, ff)
        }
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        ff.av_packet_free(&packet)
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        ff.av_frame_free(&frame)
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        ff.avcodec_free_context(&context)
    }

    func flush() { ff.avcodec_flush_buffers(context) }

    /// Hands the decoder a packet; nil drains it at the end of the stream.
    func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(VideoError) {
        let status = ff.avcodec_send_packet(context, packet)
        // EINVAL from a decoder that opened is the frame size past `max_pixels` (ff_set_dimensions).
        if status == tessera_averror_einval() {
            throw VideoError(
                .tooLarge,
                "a frame larger than its container says needs more than the "
                    + "\((maxPixels * PosterFrame.bytesPerPixel) >> 20) MiB allowed")
        }
        // A damaged packet is skipped, as players do; the decoder goes on with the next.
        if status < 0 && status != tessera_averror_eagain() && status != tessera_averror_eof()
            && status != tessera_averror_invaliddata()
        {
            throw VideoError.ffmpeg(status, "decoding the video", ff)
        }
    }

    /// The next decoded frame, or nil when the decoder needs more input.
    func receive() throws(VideoError) -> UnsafeMutablePointer<AVFrame>? {
        let status = ff.avcodec_receive_frame(context, frame)
        if status == tessera_averror_eagain() || status == tessera_averror_eof() { return nil }
        if status == tessera_averror_invaliddata() { return nil }
        guard status >= 0 else { throw VideoError.ffmpeg(status, "decoding the video", ff) }
        return frame
    }
}
