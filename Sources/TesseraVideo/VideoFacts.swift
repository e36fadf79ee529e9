import CFFmpeg
import Foundation
public import TesseraSystem

/// What a video's container says about it, read without decoding a frame (MPEG-TS and AVI,
/// which do not say their stream parameters up front, have a few packets parsed).
public struct VideoFacts: Sendable, Equatable {
    /// FFmpeg's name of the container reader, such as "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm".
    public var container: String
    /// Seconds; nil when the container does not say.
    public var duration: Double?
    /// The video codec, as FFmpeg names it: "h264", "hevc", "vp9", "av1", "mpeg4" and others.
    public var codec: String
    /// Stored frame size, before the display rotation, with non-square pixels made square.
    public var width: Int
    public var height: Int
    /// Clockwise degrees a viewer turns the stored frame to show it (0, 90, 180, 270): the display
    /// matrix of a phone video held upright.
    public var rotation: Int
    /// Frames per second, when the stream says.
    public var frameRate: Double?
    public var hasAudio: Bool
    /// Tags of the container and the video stream by key (`creation_time`,
    /// `com.apple.quicktime.creationdate`, `location`, `com.apple.quicktime.make`…).
    public var tags: [String: String]

    /// Reads the facts of the video `stream` delivers.
    public static func read(_ stream: ByteStream, timeLimit: Duration = .seconds(20)) throws(VideoError) -> VideoFacts {
        do {
            return try facts(of: stream, timeLimit: timeLimit)
        } catch {
            throw error.at(stream.path)
        }
    }

    private static func facts(of stream: ByteStream, timeLimit: Duration) throws(VideoError) -> VideoFacts {
        let file = try VideoFile(stream: stream, timeLimit: timeLimit)
        let video = try file.videoStream(known: true).stream
        guard let parameters = video.pointee.codecpar?.pointee else {
            throw VideoError(.corrupt, "the video stream has no parameters")
        }
        guard parameters.width > 0, parameters.height > 0 else {
            throw VideoError(.corrupt, "the video stream has no frame size")
        }
        let format = file.format.pointee
        // The streams' own durations (from their sample tables): the longest of them.
        var longest: Double?
        for index in 0..<Int(format.nb_streams) {
            guard let stream = format.streams?[index]?.pointee, stream.duration > 0,
                stream.duration != tessera_nopts_value(),
                stream.time_base.den > 0, stream.time_base.num > 0
            else { continue }
            let seconds = Double(stream.duration) * Double(stream.time_base.num) / Double(stream.time_base.den)
            longest = max(longest ?? 0, seconds)
        }
        var duration: Double? = longest
        if format.duration > 0 && format.duration != tessera_nopts_value() {
            let claimed = Double(format.duration) / Double(AV_TIME_BASE)
            // A movie header's all-ones duration means "unknown" (ISO/IEC 14496-12), yet reads
            // as 49 days or 136 years: a container claim far past every stream's is not believed.
            if longest.map({ claimed <= 2 * $0 + 60 }) ?? true { duration = claimed }
        }
        let rate = video.pointee.avg_frame_rate.den > 0 ? video.pointee.avg_frame_rate : video.pointee.r_frame_rate
        let aspect = parameters.sample_aspect_ratio
        var width = Int(parameters.width)
        if aspect.num > 0, aspect.den > 0, aspect.num != aspect.den {
            width = max(1, Int((Double(width) * Double(aspect.num) / Double(aspect.den)).rounded()))
        }
        var audio = false
        for stream in 0..<Int(format.nb_streams)
        where format.streams?[stream]?.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
            audio = true
        }
        return VideoFacts(
            container: format.iformat.map { String(cString: $0.pointee.name) } ?? "",
            duration: duration,
            codec: file.ff.codecName(parameters.codec_id),
            width: width, height: Int(parameters.height),
            rotation: Self.rotation(of: video, file.ff),
            // A container's time base (Matroska's 1000) is no frame rate.
            frameRate: rate.den > 0 && rate.num > 0 && Double(rate.num) / Double(rate.den) <= 480
                ? Double(rate.num) / Double(rate.den) : nil,
            hasAudio: audio,
            tags: file.tags(of: video))
    }

    /// The display matrix's turn as clockwise quarter turns in degrees (FFmpeg gives it
    /// anticlockwise, in any angle; a phone writes only quarter turns).
    private static func rotation(of stream: UnsafeMutablePointer<AVStream>, _ ff: tessera_ffmpeg) -> Int {
        var size: Int = 0
        guard let data = ff.av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * 4 else {
            return 0
        }
        let angle = data.withMemoryRebound(to: Int32.self, capacity: 9) { ff.av_display_rotation_get($0) }
        guard angle.isFinite else { return 0 }
        let quarter = Int((-angle / 90).rounded())
        return ((quarter % 4) + 4) % 4 * 90
    }
}
