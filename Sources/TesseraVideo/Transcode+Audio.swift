import CFFmpeg
import Foundation
import SystemPackage
import TesseraSystem

/// The sound of a transcode: resampled and encoded by FFmpeg's AAC encoder.
extension Transcode {
    static let sampleRates: Set<Int32> = [8000, 16000, 22050, 24000, 32000, 44100, 48000]

    func openAudioEncoder(source: UnsafeMutablePointer<AVCodecContext>) throws(VideoError) {
        guard let codec = ff.avcodec_find_encoder(AV_CODEC_ID_AAC) else {
            throw VideoError(.unsupported, "FFmpeg has no AAC encoder")
        }
        guard let encoder = ff.avcodec_alloc_context3(codec), let output else {
            throw VideoError(.tooLarge, "out of memory for the encoder")
        }
        audioEncoder = encoder
        let rate = Self.sampleRates.contains(source.pointee.sample_rate) ? source.pointee.sample_rate : 48000
        let channels = min(2, source.pointee.ch_layout.nb_channels)
        ff.av_channel_layout_default(&encoder.pointee.ch_layout, channels)
        encoder.pointee.sample_rate = rate
        encoder.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        encoder.pointee.bit_rate = Int64(64_000 * channels)
        encoder.pointee.time_base = AVRational(num: 1, den: rate)
        if output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= Int32(tessera_codec_flag_global_header())
        }
        let status = ff.avcodec_open2(encoder, codec, nil)
        guard status >= 0 else {
            throw VideoError.ffmpeg(status, "cannot open the AAC encoder", kind: .unsupported, ff)
        }
        guard let out = ff.avformat_new_stream(output, nil) else {
            throw VideoError(.tooLarge, "out of memory for the output stream")
        }
        audioOut = out
        out.pointee.time_base = encoder.pointee.time_base
        guard ff.avcodec_parameters_from_context(out.pointee.codecpar, encoder) >= 0 else {
            throw VideoError(.corrupt, "cannot describe the AAC stream")
        }
        var input = AVChannelLayout()
        defer { ff.av_channel_layout_uninit(&input) }
        guard ff.av_channel_layout_copy(&input, &source.pointee.ch_layout) >= 0 else {
            throw VideoError(.tooLarge, "out of memory for the sound")
        }
        Self.name(&input, ff)
        let made = ff.swr_alloc_set_opts2(
            &resampler, &encoder.pointee.ch_layout, AV_SAMPLE_FMT_FLTP, rate, &input,
            source.pointee.sample_fmt, source.pointee.sample_rate, 0, nil)
        guard made >= 0, ff.swr_init(resampler) >= 0 else {
            throw VideoError(.unsupported, "cannot convert the video's sound")
        }
        guard let fifo = ff.av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, channels, max(1, encoder.pointee.frame_size)),
            let samples = ff.av_frame_alloc(), let converted = ff.av_frame_alloc()
        else { throw VideoError(.tooLarge, "out of memory for the sound") }
        (self.fifo, self.samples, self.converted) = (fifo, samples, converted)
        samples.pointee.nb_samples = max(1, encoder.pointee.frame_size)
        samples.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        samples.pointee.sample_rate = rate
        guard ff.av_channel_layout_copy(&samples.pointee.ch_layout, &encoder.pointee.ch_layout) >= 0,
            ff.av_frame_get_buffer(samples, 0) >= 0
        else { throw VideoError(.tooLarge, "out of memory for the sound") }
    }

    /// Scales a decoded picture into the output frame and encodes it; pictures whose time does
    /// not move on (duplicates, damaged timestamps) are dropped.
    static func name(_ layout: inout AVChannelLayout, _ ff: tessera_ffmpeg) {
        guard layout.order == AV_CHANNEL_ORDER_UNSPEC else { return }
        let channels = layout.nb_channels
        ff.av_channel_layout_uninit(&layout)
        ff.av_channel_layout_default(&layout, channels)
    }

    /// Converts decoded sound to the encoder's format and queues it; nil flushes the converter.
    func resample(_ frame: UnsafeMutablePointer<AVFrame>?) throws(VideoError) {
        guard let converted, let encoder = audioEncoder, let fifo else { return }
        if let frame { Self.name(&frame.pointee.ch_layout, ff) }
        ff.av_frame_unref(converted)
        converted.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        converted.pointee.sample_rate = encoder.pointee.sample_rate
        guard ff.av_channel_layout_copy(&converted.pointee.ch_layout, &encoder.pointee.ch_layout) >= 0 else {
            throw VideoError(.tooLarge, "out of memory for the sound")
        }
        // Sound the converter cannot take (a layout change mid-stream) is dropped, not fatal.
        guard ff.swr_convert_frame(resampler, converted, frame) >= 0, converted.pointee.nb_samples > 0 else {
            return
        }
        var planes = converted.planes.map { $0.map { UnsafeMutableRawPointer($0) } }
        let written = ff.av_audio_fifo_write(fifo, &planes, converted.pointee.nb_samples)
        guard written >= 0 else { throw VideoError(.tooLarge, "out of memory for the sound") }
        try encodeSamples(final: false)
    }

    /// Encodes whole frames of queued sound, and with `final` what is left.
    func encodeSamples(final: Bool) throws(VideoError) {
        guard let encoder = audioEncoder, let fifo, let samples else { return }
        let frameSize = max(1, encoder.pointee.frame_size)
        while ff.av_audio_fifo_size(fifo) >= frameSize || (final && ff.av_audio_fifo_size(fifo) > 0) {
            guard ff.av_frame_make_writable(samples) >= 0 else { throw VideoError(.tooLarge, "out of memory") }
            let count = min(frameSize, ff.av_audio_fifo_size(fifo))
            var planes = samples.planes.map { $0.map { UnsafeMutableRawPointer($0) } }
            let read = ff.av_audio_fifo_read(fifo, &planes, count)
            guard read == count else { throw VideoError(.corrupt, "the sound could not be queued") }
            samples.pointee.nb_samples = count
            samples.pointee.pts = samplesWritten
            samplesWritten += Int64(count)
            let sent = ff.avcodec_send_frame(encoder, samples)
            guard sent >= 0 else { throw VideoError.ffmpeg(sent, "encoding the sound", ff) }
            try drain(encoder, into: audioOut, flushing: false)
        }
    }

    /// Writes what `encoder` has ready into `stream`; `flushing` first tells it the input ended.
}
