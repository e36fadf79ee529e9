import CFFmpeg
import Foundation
import SystemPackage
import TesseraSystem

/// One transcode: the input's decoders, the output's encoders and muxer, and what converts
/// between them, each freed once on every path.
final class Transcode {
    let ff: tessera_ffmpeg
    let input: VideoFile
    let settings: WebVideo.Settings
    let memoryLimit: Int
    let outputPath: FilePath

    var output: UnsafeMutablePointer<AVFormatContext>?
    var videoEncoder: UnsafeMutablePointer<AVCodecContext>?
    var audioEncoder: UnsafeMutablePointer<AVCodecContext>?
    var scaler: OpaquePointer?
    var scalerSource: (width: Int32, height: Int32, format: Int32) = (0, 0, -1)
    var resampler: OpaquePointer?
    var fifo: OpaquePointer?
    var scaled: UnsafeMutablePointer<AVFrame>?
    var samples: UnsafeMutablePointer<AVFrame>?
    var converted: UnsafeMutablePointer<AVFrame>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var videoOut: UnsafeMutablePointer<AVStream>?
    var audioOut: UnsafeMutablePointer<AVStream>?
    var lastPTS = Int64.min
    var samplesWritten: Int64 = 0
    var framesWritten = 0
    var opened = false

    init(input: VideoFile, output: FilePath, settings: WebVideo.Settings, memoryLimit: Int) {
        self.ff = input.ff
        self.input = input
        self.outputPath = output
        self.settings = settings
        self.memoryLimit = memoryLimit
    }

    deinit {
        if opened, let output { _ = ff.avio_closep(&output.pointee.pb) }
        ff.avformat_free_context(output)
        ff.avcodec_free_context(&videoEncoder)
        ff.avcodec_free_context(&audioEncoder)
        if let scaler { ff.sws_freeContext(scaler) }
        ff.swr_free(&resampler)
        if let fifo { ff.av_audio_fifo_free(fifo) }
        ff.av_frame_free(&scaled)
        ff.av_frame_free(&samples)
        ff.av_frame_free(&converted)
        ff.av_packet_free(&packet)
    }

    func run() throws(VideoError) -> WebVideo.Made {
        let format = input.format
        let (videoIndex, video, parameters, width, height) = try input.picture()
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= memoryLimit / WebVideo.bytesPerPixel else {
            throw VideoError(
                .tooLarge,
                "a \(width)×\(height) frame needs more memory to transcode than the \(memoryLimit >> 20) MiB allowed")
        }
        var squareWidth = Double(width)
        let aspect = parameters.pointee.sample_aspect_ratio
        if aspect.num > 0, aspect.den > 0 { squareWidth *= Double(aspect.num) / Double(aspect.den) }
        let size = WebVideo.size(width: squareWidth, height: Double(height), settings: settings)
        let decoder = try FrameDecoder(
            parameters: parameters, longSide: max(size.width, size.height),
            maxPixels: memoryLimit / WebVideo.bytesPerPixel, ff)

        guard let packet = ff.av_packet_alloc() else { throw VideoError(.tooLarge, "out of memory for a packet") }
        self.packet = packet
        guard ff.avformat_alloc_output_context2(&output, nil, "mp4", outputPath.string) >= 0, let output else {
            throw VideoError(.unsupported, "FFmpeg cannot write MP4")
        }
        let timeBase =
            video.pointee.time_base.num > 0 && video.pointee.time_base.den > 0
            ? video.pointee.time_base : AVRational(num: 1, den: 90000)
        try openVideoEncoder(size: size, timeBase: timeBase, source: decoder.context, stream: video)

        // The sound, when there is a stream whose decoder opens; a video without it plays silent.
        let audioIndex = ff.av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, videoIndex, nil, 0)
        var audioDecoder: FrameDecoder?
        if audioIndex >= 0, let stream = format.pointee.streams?[Int(audioIndex)],
            let audioParameters = stream.pointee.codecpar,
            let opened = try? FrameDecoder(parameters: audioParameters, maxPixels: 0, ff),
            opened.context.pointee.ch_layout.nb_channels > 0, opened.context.pointee.sample_rate > 0
        {
            try openAudioEncoder(source: opened.context)
            audioDecoder = opened
        }

        var options: OpaquePointer?
        _ = ff.av_dict_set(&options, "movflags", "+faststart", 0)
        defer { ff.av_dict_free(&options) }
        let openedFile = ff.avio_open(&output.pointee.pb, outputPath.string, AVIO_FLAG_WRITE)
        guard openedFile >= 0 else {
            throw VideoError.ffmpeg(openedFile, "cannot create the web video", kind: .unwritable, ff)
        }
        opened = true
        let header = ff.avformat_write_header(output, &options)
        guard header >= 0 else { throw VideoError.ffmpeg(header, "cannot start the web video", kind: .unwritable, ff) }

        let origin = video.pointee.start_time == tessera_nopts_value() ? 0 : video.pointee.start_time
        while true {
            let status = ff.av_read_frame(format, decoder.packet)
            if status == tessera_averror_exit() { throw VideoError.ffmpeg(status, "reading the video", ff) }
            if status < 0 { break }
            defer { ff.av_packet_unref(decoder.packet) }
            if decoder.packet.pointee.stream_index == videoIndex {
                try decoder.send(decoder.packet)
                while let frame = try decoder.receive() { try encode(picture: frame, origin: origin) }
            } else if let audioDecoder, decoder.packet.pointee.stream_index == audioIndex {
                // Damaged sound is skipped: the picture matters more.
                guard (try? audioDecoder.send(decoder.packet)) != nil else { continue }
                while let frame = try? audioDecoder.receive() { try resample(frame) }
            }
        }
        try decoder.send(UnsafeMutablePointer<AVPacket>?.none)
        while let frame = try decoder.receive() { try encode(picture: frame, origin: origin) }
        guard framesWritten > 0 else { throw VideoError(.corrupt, "no frame of the video decodes") }
        try drain(videoEncoder, into: videoOut, flushing: true)
        if let audioDecoder {
            if (try? audioDecoder.send(UnsafeMutablePointer<AVPacket>?.none)) != nil {
                while let frame = try? audioDecoder.receive() { try resample(frame) }
            }
            try resample(nil)
            try encodeSamples(final: true)
            try drain(audioEncoder, into: audioOut, flushing: true)
        }
        let trailer = ff.av_write_trailer(output)
        guard trailer >= 0 else {
            throw VideoError.ffmpeg(trailer, "cannot finish the web video", kind: .unwritable, ff)
        }
        opened = false
        let closed = ff.avio_closep(&output.pointee.pb)
        guard closed >= 0 else { throw VideoError.ffmpeg(closed, "cannot finish the web video", kind: .unwritable, ff) }
        let end = lastPTS == Int64.min ? 0 : Double(lastPTS) * Double(timeBase.num) / Double(timeBase.den)
        return WebVideo.Made(
            width: size.width, height: size.height, hasAudio: audioDecoder != nil, duration: max(0, end))
    }

    func openVideoEncoder(
        size: (width: Int, height: Int), timeBase: AVRational, source: UnsafeMutablePointer<AVCodecContext>,
        stream: UnsafeMutablePointer<AVStream>
    ) throws(VideoError) {
        guard let codec = ff.avcodec_find_encoder_by_name("libx264") else {
            throw VideoError(.unsupported, "FFmpeg has no H.264 encoder (libx264)")
        }
        guard let encoder = ff.avcodec_alloc_context3(codec), let output else {
            throw VideoError(.tooLarge, "out of memory for the encoder")
        }
        videoEncoder = encoder
        encoder.pointee.width = Int32(size.width)
        encoder.pointee.height = Int32(size.height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        encoder.pointee.time_base = timeBase
        let rate = stream.pointee.avg_frame_rate
        if rate.num > 0, rate.den > 0 {
            encoder.pointee.framerate = rate
            // A keyframe every two seconds, so that a seek in the page lands near where it asks.
            encoder.pointee.gop_size = Int32(max(1, min(600, 2 * rate.num / rate.den)))
        }
        // The original's colours as it states them (only the range is converted: to video range).
        encoder.pointee.color_primaries = source.pointee.color_primaries
        encoder.pointee.color_trc = source.pointee.color_trc
        encoder.pointee.colorspace = source.pointee.colorspace
        encoder.pointee.color_range = AVCOL_RANGE_MPEG
        encoder.pointee.thread_count = Int32(max(1, settings.threads))
        if output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= Int32(tessera_codec_flag_global_header())
        }
        var options: OpaquePointer?
        defer { ff.av_dict_free(&options) }
        _ = ff.av_dict_set(&options, "preset", settings.preset, 0)
        _ = ff.av_dict_set(&options, "crf", String(settings.quality), 0)
        let status = ff.avcodec_open2(encoder, codec, &options)
        guard status >= 0 else {
            throw VideoError.ffmpeg(status, "cannot open the H.264 encoder", kind: .unsupported, ff)
        }
        guard let out = ff.avformat_new_stream(output, nil) else {
            throw VideoError(.tooLarge, "out of memory for the output stream")
        }
        videoOut = out
        out.pointee.time_base = timeBase
        guard ff.avcodec_parameters_from_context(out.pointee.codecpar, encoder) >= 0 else {
            throw VideoError(.corrupt, "cannot describe the H.264 stream")
        }
        // The display rotation, as the original's matrix said it.
        ff.copyDisplayMatrix(from: stream, to: out)
        guard let frame = ff.av_frame_alloc() else { throw VideoError(.tooLarge, "out of memory for a frame") }
        scaled = frame
        frame.pointee.width = Int32(size.width)
        frame.pointee.height = Int32(size.height)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        guard ff.av_frame_get_buffer(frame, 0) >= 0 else { throw VideoError(.tooLarge, "out of memory for a frame") }
    }

    /// Rates the AAC encoder takes that a source may well have; anything else becomes 48 kHz.
    func encode(picture frame: UnsafeMutablePointer<AVFrame>, origin: Int64) throws(VideoError) {
        guard let scaled, let encoder = videoEncoder else { return }
        let stated = frame.pointee.best_effort_timestamp
        let timestamp =
            stated == tessera_nopts_value()
            ? (lastPTS == Int64.min ? 0 : lastPTS &+ 1) : max(0, stated &- origin)
        guard timestamp > lastPTS else { return }
        let source = (frame.pointee.width, frame.pointee.height, frame.pointee.format)
        if scaler == nil || scalerSource != source {
            if let scaler { ff.sws_freeContext(scaler) }
            scaler = nil
            try makeScaler(for: frame)
            scalerSource = source
        }
        guard ff.av_frame_make_writable(scaled) >= 0 else { throw VideoError(.tooLarge, "out of memory for a frame") }
        let rows = ff.sws_scale(
            scaler, frame.planes.map { $0.map { UnsafePointer($0) } }, frame.strides, 0, frame.pointee.height,
            scaled.planes, scaled.strides)
        guard rows == scaled.pointee.height else { throw VideoError(.corrupt, "a frame could not be converted") }
        scaled.pointee.pts = timestamp
        lastPTS = timestamp
        let sent = ff.avcodec_send_frame(encoder, scaled)
        guard sent >= 0 else { throw VideoError.ffmpeg(sent, "encoding the web video", ff) }
        framesWritten += 1
        try drain(encoder, into: videoOut, flushing: false)
    }

    func makeScaler(for frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) {
        guard frame.pointee.width > 0, frame.pointee.height > 0, let scaled else {
            throw VideoError(.corrupt, "a decoded frame has no size")
        }
        guard
            let context = ff.sws_getContext(
                frame.pointee.width, frame.pointee.height, AVPixelFormat(rawValue: frame.pointee.format),
                scaled.pointee.width, scaled.pointee.height, AV_PIX_FMT_YUV420P, SWS_AREA | SWS_ACCURATE_RND, nil,
                nil, nil)
        else {
            throw VideoError(.unsupported, "cannot convert frames of pixel format \(frame.pointee.format)")
        }
        scaler = context
        // The same matrix on both sides: the samples keep their meaning; full range (JPEG's,
        // MJPEG's) becomes video range, which every player expects of H.264.
        let fullRange: Int32 =
            frame.pointee.color_range == AVCOL_RANGE_JPEG
                || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P].map(\.rawValue).contains(
                    frame.pointee.format)
            ? 1 : 0
        let matrix: Int32 =
            switch frame.pointee.colorspace {
            case AVCOL_SPC_BT709: SWS_CS_ITU709
            case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
            default: SWS_CS_DEFAULT
            }
        let coefficients = ff.sws_getCoefficients(matrix)
        _ = ff.sws_setColorspaceDetails(context, coefficients, fullRange, coefficients, 0, 0, 1 << 16, 1 << 16)
    }

    /// A layout that gives only a count of channels (a QuickTime's PCM) as the usual one for
    /// that count, which the converter can mix down.
    func drain(
        _ encoder: UnsafeMutablePointer<AVCodecContext>?, into stream: UnsafeMutablePointer<AVStream>?,
        flushing: Bool
    ) throws(VideoError) {
        guard let encoder, let stream, let packet, let output else { return }
        if flushing { _ = ff.avcodec_send_frame(encoder, nil) }
        while true {
            let status = ff.avcodec_receive_packet(encoder, packet)
            if status == tessera_averror_eagain() || status == tessera_averror_eof() { return }
            guard status >= 0 else { throw VideoError.ffmpeg(status, "encoding the web video", ff) }
            ff.av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            let written = ff.av_interleaved_write_frame(output, packet)
            guard written >= 0 else { throw VideoError.ffmpeg(written, "writing the web video", kind: .unwritable, ff) }
        }
    }
}

extension UnsafeMutablePointer<AVFrame> {
    /// The frame's planes (FFmpeg's `data`), as C functions take them.
    var planes: [UnsafeMutablePointer<UInt8>?] {
        let data = pointee.data
        return [data.0, data.1, data.2, data.3, data.4, data.5, data.6, data.7]
    }

    /// Bytes per row of each plane (FFmpeg's `linesize`).
    var strides: [Int32] {
        let sizes = pointee.linesize
        return [sizes.0, sizes.1, sizes.2, sizes.3, sizes.4, sizes.5, sizes.6, sizes.7]
    }
}
