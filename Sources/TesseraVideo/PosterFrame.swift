import CFFmpeg
import Foundation
public import TesseraSystem

/// One decoded frame of a video, in 8-bit sRGB, as stored (the display rotation not applied).
public struct VideoFrame: Sendable {
    public var width: Int
    public var height: Int
    /// RGB, interleaved, rows top to bottom.
    public var rgb: [UInt8]
    /// Seconds from the start of the video.
    public var time: Double
}

/// The frame that stands for a video: not its first, which phones often record black or
/// blurred while the exposure settles, but the first keyframe from a short way in whose
/// picture is not near-uniform.
///
/// The demuxer seeks to each keyframe tried instead of reading the file through, so only it and
/// the few frames after it a decoder needs are decoded; codecs that can decode at a reduced size
/// (MJPEG, MPEG-4 part 2…) do, and one decoder thread keeps memory to a few frames.
public enum PosterFrame {
    /// Where to start looking: one second in, or a quarter of a shorter video.
    static func startTime(duration: Double?) -> Double {
        guard let duration, duration > 0 else { return 0 }
        return min(1, duration / 4)
    }

    /// The stream timestamp `seconds` after `origin`; timestamps come from the file, so one
    /// past what 64 bits hold is the last there is rather than a trap.
    static func timestamp(at seconds: Double, origin: Int64, ticksPerSecond: Double) -> Int64 {
        let ticks = seconds * ticksPerSecond
        guard ticks.isFinite, ticks < 0x1p62 else { return .max }
        let (sum, overflow) = origin.addingReportingOverflow(Int64(max(ticks, 0)))
        return overflow ? .max : sum
    }

    /// Keyframes tried before the most varied one seen is taken.
    static let keyframesTried = 8
    /// Packets read, from one keyframe, before giving up on a stream that yields no frame.
    static let packetLimit = 4000
    /// Bytes a decode needs per pixel of the stored frame: four frames of 4:2:0 samples at two
    /// bytes (12), budgeted before the decoder exists.
    static let bytesPerPixel = 12
    /// Standard deviation of luma (0–255) under which a picture counts as near-uniform.
    static let uniformSpread = 8.0

    /// Decodes the poster frame of the video `stream` delivers, scaled (never enlarged) so that
    /// its long side, with non-square pixels made square, is at most `longSide`.
    ///
    /// - Throws: `VideoError`: `.tooLarge` when the decoder would need more than `memoryLimit`
    ///   bytes, `.timedOut` after `timeLimit`, `.corrupt` when no frame decodes.
    public static func decode(
        _ stream: ByteStream, longSide: Int, memoryLimit: Int, timeLimit: Duration = .seconds(20)
    ) throws(VideoError) -> VideoFrame {
        do {
            return try poster(of: stream, longSide: longSide, memoryLimit: memoryLimit, timeLimit: timeLimit)
        } catch {
            throw error.at(stream.path)
        }
    }

    private static func poster(
        of stream: ByteStream, longSide: Int, memoryLimit: Int, timeLimit: Duration
    ) throws(VideoError) -> VideoFrame {
        let file = try VideoFile(stream: stream, timeLimit: timeLimit)
        let (index, video, parameters, width, height) = try file.picture()
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        // What one decoder thread that sees only keyframes holds: a few frames of 4:2:0 samples
        // (two bytes each for deep colour), and the RGB frame made from one.
        let needed = overflow ? Int.max : pixels.multipliedReportingOverflow(by: bytesPerPixel).partialValue
        guard !overflow, needed <= memoryLimit else {
            throw VideoError(
                .tooLarge,
                "a \(width)×\(height) frame needs more memory to decode than the \(memoryLimit >> 20) MiB allowed")
        }
        let ff = file.ff
        // The container's size may lie (a 16000×16000 MJPEG frame in a track that says 64×64):
        // the decoder itself refuses a frame past what the budget allows, before allocating it.
        let decoder = try FrameDecoder(
            parameters: parameters, longSide: longSide, maxPixels: memoryLimit / bytesPerPixel, ff)
        let timeBase = video.pointee.time_base
        // Times count from the stream's first timestamp (an MPEG-TS starts at its clock's value).
        let origin = video.pointee.start_time == tessera_nopts_value() ? 0 : video.pointee.start_time
        let duration =
            file.format.pointee.duration > 0 ? Double(file.format.pointee.duration) / Double(AV_TIME_BASE) : nil
        let start = startTime(duration: duration)
        var scaler: FrameScaler?

        /// The first frame decoded from the keyframe at or after `time` seconds (from the first
        /// keyframe when nil), as RGB; nil when there is none.
        func firstFrame(from time: Double?) throws(VideoError) -> VideoFrame? {
            let target = Self.timestamp(
                at: time ?? 0, origin: origin, ticksPerSecond: Double(timeBase.den) / Double(max(timeBase.num, 1)))
            // From the start: the first byte where the container allows it (an MPEG-TS, whose
            // search by time may land past its only keyframe), else the first timestamp.
            let sought =
                time != nil
                ? ff.avformat_seek_file(file.format, index, target, target, Int64.max, 0)
                : ff.av_seek_frame(file.format, -1, 0, AVSEEK_FLAG_BYTE) >= 0
                    ? 0 : ff.avformat_seek_file(file.format, index, Int64.min, origin, origin, 0)
            guard sought >= 0 else { return nil }
            decoder.flush()
            var packets = 0
            while packets < packetLimit {
                let status = ff.av_read_frame(file.format, decoder.packet)
                if status == tessera_averror_exit() { throw VideoError.ffmpeg(status, "reading the video", ff) }
                if status < 0 {
                    try decoder.send(UnsafeMutablePointer<AVPacket>?.none)
                    return try decoder.receive().map(picture)
                }
                defer { ff.av_packet_unref(decoder.packet) }
                guard decoder.packet.pointee.stream_index == index else { continue }
                packets += 1
                try decoder.send(decoder.packet)
                if let decoded = try decoder.receive() { return try picture(decoded) }
            }
            return nil
        }

        func picture(_ decoded: UnsafeMutablePointer<AVFrame>) throws(VideoError) -> VideoFrame {
            let timestamp = decoded.pointee.best_effort_timestamp
            let time =
                timestamp == tessera_nopts_value() || timeBase.den == 0
                ? 0 : max(0, (Double(timestamp) - Double(origin)) * Double(timeBase.num) / Double(timeBase.den))
            if scaler == nil || scaler?.matches(decoded) == false {
                scaler = try FrameScaler(
                    for: decoded, aspect: parameters.pointee.sample_aspect_ratio, longSide: longSide, ff)
            }
            guard let scaler else { throw VideoError(.corrupt, "a frame could not be converted") }
            return VideoFrame(width: scaler.width, height: scaler.height, rgb: try scaler.scale(decoded), time: time)
        }

        // Each keyframe is reached by seeking to it, so that only it and the few frames a decoder
        // needs to show it are decoded (telling a decoder to skip every frame but keyframes makes
        // FFmpeg's HEVC decoder hold twice the memory).
        var best: (frame: VideoFrame, spread: Double)?
        var time: Double? = start > 0 ? start : nil
        for _ in 0..<keyframesTried {
            guard let frame = try firstFrame(from: time) else {
                // Nothing from `start` on (a clip with one keyframe): from the first keyframe.
                if time != nil && best == nil, let first = try firstFrame(from: nil) { return first }
                break
            }
            let spread = Self.lumaSpread(frame)
            if spread >= uniformSpread { return frame }
            if best.map({ spread > $0.spread }) ?? true { best = (frame, spread) }
            // The next keyframe, at least half a second on.
            time = max(frame.time, time ?? 0) + 0.5
        }
        if let best { return best.frame }
        // A video stream whose frames all fail is a damaged file, not one Tessera does not read.
        throw VideoError(.corrupt, "no frame of the video decodes")
    }

    /// How much the picture's luma varies, on a coarse grid.
    static func lumaSpread(_ frame: VideoFrame) -> Double {
        let step = max(1, min(frame.width, frame.height) / 32)
        var sum = 0.0, squares = 0.0, count = 0.0
        for y in stride(from: 0, to: frame.height, by: step) {
            for x in stride(from: 0, to: frame.width, by: step) {
                let at = (y * frame.width + x) * 3
                let luma =
                    0.2126 * Double(frame.rgb[at]) + 0.7152 * Double(frame.rgb[at + 1]) + 0.0722
                    * Double(frame.rgb[at + 2])
                sum += luma
                squares += luma * luma
                count += 1
            }
        }
        guard count > 0 else { return 0 }
        let mean = sum / count
        return (max(0, squares / count - mean * mean)).squareRoot()
    }
}

/// Converts decoded frames of one size and pixel format to RGB at the output size, with the
/// stream's colour matrix and range.
private final class FrameScaler {
    private let ff: tessera_ffmpeg
    private let context: OpaquePointer
    private let source: (width: Int32, height: Int32, format: Int32)
    let width: Int
    let height: Int

    init(
        for frame: UnsafeMutablePointer<AVFrame>, aspect: AVRational, longSide: Int, _ ff: tessera_ffmpeg
    ) throws(VideoError) {
        self.ff = ff
        let frameWidth = frame.pointee.width, frameHeight = frame.pointee.height
        guard frameWidth > 0, frameHeight > 0 else { throw VideoError(.corrupt, "a decoded frame has no size") }
        source = (frameWidth, frameHeight, frame.pointee.format)
        var displayWidth = Double(frameWidth)
        if aspect.num > 0, aspect.den > 0 { displayWidth *= Double(aspect.num) / Double(aspect.den) }
        let factor = min(1, Double(max(longSide, 1)) / max(displayWidth, Double(frameHeight)))
        width = max(1, Int((displayWidth * factor).rounded()))
        height = max(1, Int((Double(frameHeight) * factor).rounded()))
        guard
            let context = ff.sws_getContext(
                frameWidth, frameHeight, AVPixelFormat(rawValue: frame.pointee.format), Int32(width), Int32(height),
                AV_PIX_FMT_RGB24,
                SWS_AREA | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil)
        else {
            throw VideoError(.unsupported, "cannot convert frames of pixel format \(frame.pointee.format)")
        }
        self.context = context
        // HD video without a stated matrix is BT.709 by convention; smaller video BT.601.
        let space = frame.pointee.colorspace
        let matrix: Int32 =
            switch space {
            case AVCOL_SPC_BT709: SWS_CS_ITU709
            case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
            case AVCOL_SPC_UNSPECIFIED: frameHeight >= 720 ? SWS_CS_ITU709 : SWS_CS_DEFAULT
            default: SWS_CS_DEFAULT
            }
        let fullRange: Int32 =
            frame.pointee.color_range == AVCOL_RANGE_JPEG
                || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P].map(\.rawValue).contains(
                    frame.pointee.format)
            ? 1 : 0
        _ = ff.sws_setColorspaceDetails(
            context, ff.sws_getCoefficients(matrix), fullRange, ff.sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16,
            1 << 16)
    }

    deinit { ff.sws_freeContext(context) }

    func matches(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        source == (frame.pointee.width, frame.pointee.height, frame.pointee.format)
    }

    func scale(_ frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let rows = rgb.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(width * 3), 0, 0, 0]
            return withUnsafePointer(to: frame.pointee.data) { data in
                withUnsafePointer(to: frame.pointee.linesize) { lines in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { sizes in
                            ff.sws_scale(context, planes, sizes, 0, source.height, &destination, &strides)
                        }
                    }
                }
            }
        }
        guard rows == Int32(height) else { throw VideoError(.corrupt, "a frame could not be converted") }
        return rgb
    }
}
