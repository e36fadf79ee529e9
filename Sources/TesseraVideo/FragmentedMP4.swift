import CFFmpeg
import Foundation
public import SystemPackage
public import TesseraSystem

/// An MP4 (or QuickTime) video written again, its packets as they are, as an MP4 in fragments
/// (ISO BMFF's byte stream, as a browser's MediaSource takes it), cut into parts a page can
/// fetch and append one at a time: playback starts after the first part, and seeking needs only
/// the part that holds the time asked for.
///
/// The first part is the header (`ftyp`, `moov`); each other part is whole fragments (`moof`,
/// `mdat`), a fragment beginning at each keyframe of the picture, a part at the first keyframe
/// after `partBytes` more bytes. Memory stays at about one fragment, which is cut without a
/// keyframe past four parts' bytes (a video of keyframes far apart).
public enum FragmentedMP4 {
    /// One part: where it begins in the file, and the time of its first picture, in seconds
    /// (nil when it does not begin with a keyframe: no seek starts there).
    public struct Part: Sendable, Equatable {
        public var offset: Int64
        public var time: Double?

        public init(offset: Int64, time: Double?) {
            (self.offset, self.time) = (offset, time)
        }
    }

    public struct Made: Sendable, Equatable {
        /// The parts, the header first; each ends where the next begins, the last at `size`.
        public var parts: [Part]
        public var size: Int64
        /// Seconds of picture.
        public var duration: Double
        /// The MIME type with its codecs (`video/mp4; codecs="avc1.64001f,mp4a.40.2"`), when
        /// every stream kept is one browsers stream in MP4 (H.264, AAC, MP3); else nil.
        public var type: String?
    }

    /// Writes `stream`'s picture and sound (its first of each) as a fragmented MP4 at `path`.
    ///
    /// - Throws: `VideoError`: `.unsupported` when a stream cannot be put in MP4 as it is,
    ///   `.timedOut` past `timeLimit` or when `shouldStop` says so, `.unwritable` when `path`
    ///   cannot be written.
    public static func make(
        from stream: ByteStream, to path: FilePath, partBytes: Int, timeLimit: Duration,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(VideoError) -> Made {
        do {
            let input = try VideoFile(stream: stream, timeLimit: timeLimit, shouldStop: shouldStop)
            return try Remux(input: input, output: path, partBytes: partBytes).run()
        } catch {
            throw error.at(stream.path)
        }
    }

    /// The codecs parameter of a stream browsers play from MP4 (RFC 6381), from its parameters;
    /// nil for any other.
    static func codec(_ parameters: AVCodecParameters) -> String? {
        let extra =
            parameters.extradata.map {
                Array(UnsafeBufferPointer(start: $0, count: Int(max(0, parameters.extradata_size))))
            }
            ?? []
        switch parameters.codec_id {
        case AV_CODEC_ID_H264:
            // (avcC: version 1, then the profile, its constraint flags and the level)
            guard extra.count >= 4, extra[0] == 1 else { return nil }
            return "avc1." + extra[1...3].map { String(format: "%02x", $0) }.joined()
        case AV_CODEC_ID_AAC:
            // (AudioSpecificConfig: the object type in its first five bits; 31 says more follow)
            guard let first = extra.first, first >> 3 > 0, first >> 3 < 31 else { return "mp4a.40.2" }
            return "mp4a.40.\(first >> 3)"
        case AV_CODEC_ID_MP3: return "mp4a.6b"
        default: return nil
        }
    }
}

/// One remux: the input's demuxer, the output's muxer and a packet, each freed once on every path.
private final class Remux {
    let ff: tessera_ffmpeg
    let input: VideoFile
    let outputPath: FilePath
    let partBytes: Int
    var output: UnsafeMutablePointer<AVFormatContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var opened = false

    init(input: VideoFile, output: FilePath, partBytes: Int) {
        (ff, self.input, outputPath, self.partBytes) = (input.ff, input, output, max(1, partBytes))
    }

    deinit {
        if opened, let output { _ = ff.avio_closep(&output.pointee.pb) }
        ff.avformat_free_context(output)
        ff.av_packet_free(&packet)
    }

    func run() throws(VideoError) -> FragmentedMP4.Made {
        let format = input.format
        let (videoIndex, video, _, _, _) = try input.picture()
        let audioIndex = ff.av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, videoIndex, nil, 0)
        let audio = audioIndex >= 0 ? format.pointee.streams?[Int(audioIndex)] : nil
        guard ff.avformat_alloc_output_context2(&output, nil, "mp4", outputPath.string) >= 0, let output else {
            throw VideoError(.unsupported, "FFmpeg cannot write MP4")
        }
        guard let packet = ff.av_packet_alloc() else { throw VideoError(.tooLarge, "out of memory for a packet") }
        self.packet = packet
        let (map, codecs) = try copy([(videoIndex, video), (audioIndex, audio)], to: output)
        var options: OpaquePointer?
        defer { ff.av_dict_free(&options) }
        _ = ff.av_dict_set(&options, "movflags", "+frag_custom+empty_moov+default_base_moof+skip_trailer", 0)
        let openedFile = ff.avio_open(&output.pointee.pb, outputPath.string, AVIO_FLAG_WRITE)
        guard openedFile >= 0, let io = output.pointee.pb else {
            throw VideoError.ffmpeg(openedFile, "cannot create the fragmented video", kind: .unwritable, ff)
        }
        opened = true
        let header = ff.avformat_write_header(output, &options)
        guard header >= 0 else {
            throw VideoError.ffmpeg(header, "cannot put these streams in MP4", kind: .unsupported, ff)
        }
        let position = { [ff] in
            ff.avio_flush(io)
            return ff.avio_seek(io, 0, SEEK_CUR)
        }
        var partStart = position()
        var parts = [FragmentedMP4.Part(offset: 0, time: nil), FragmentedMP4.Part(offset: partStart, time: 0)]
        var (held, pending) = (0, false)
        var (origin, end) = (Int64?.none, 0.0)
        let timeBase = video.pointee.time_base
        let seconds = { (ticks: Int64) in Double(ticks) * Double(timeBase.num) / Double(max(1, timeBase.den)) }
        // Ends the fragment held; begins a part there when the part has its bytes.
        func cut(at time: Double?) throws(VideoError) {
            let flushed = ff.av_write_frame(output, nil)
            guard flushed >= 0 else {
                throw VideoError.ffmpeg(flushed, "cannot write a fragment", kind: .unwritable, ff)
            }
            let here = position()
            if here - partStart >= Int64(partBytes) {
                parts.append(FragmentedMP4.Part(offset: here, time: time))
                partStart = here
            }
            held = 0
        }
        while true {
            let status = ff.av_read_frame(format, packet)
            if status == tessera_averror_exit() { throw VideoError.ffmpeg(status, "reading the video", ff) }
            if status < 0 { break }
            defer { ff.av_packet_unref(packet) }
            let index = packet.pointee.stream_index
            guard let out = map[index], let stream = format.pointee.streams?[Int(index)] else { continue }
            if index == videoIndex {
                let pts = packet.pointee.pts != tessera_nopts_value() ? packet.pointee.pts : packet.pointee.dts
                if pts != tessera_nopts_value() {
                    origin = min(origin ?? pts, pts)
                    end = max(end, seconds(pts - (origin ?? pts) + max(0, packet.pointee.duration)))
                }
                let time = pts == tessera_nopts_value() ? nil : Optional(seconds(pts - (origin ?? pts)))
                if packet.pointee.flags & AV_PKT_FLAG_KEY != 0, pending {
                    try cut(at: time)
                } else if held >= 4 * partBytes {
                    try cut(at: nil)
                }
            }
            held += Int(max(0, packet.pointee.size))
            pending = true
            ff.av_packet_rescale_ts(packet, stream.pointee.time_base, out.pointee.time_base)
            packet.pointee.stream_index = out.pointee.index
            packet.pointee.pos = -1
            let written = ff.av_write_frame(output, packet)
            guard written >= 0 else {
                throw VideoError.ffmpeg(written, "cannot write a packet", kind: .unsupported, ff)
            }
        }
        guard pending else { throw VideoError(.corrupt, "no packet of the video reads") }
        let trailer = ff.av_write_trailer(output)
        guard trailer >= 0 else {
            throw VideoError.ffmpeg(trailer, "cannot finish the fragmented video", kind: .unwritable, ff)
        }
        let size = position()
        opened = false
        let closed = ff.avio_closep(&output.pointee.pb)
        guard closed >= 0 else {
            throw VideoError.ffmpeg(closed, "cannot finish the fragmented video", kind: .unwritable, ff)
        }
        let known = codecs.compactMap { $0 }
        let type = known.count == codecs.count ? "video/mp4; codecs=\"\(known.joined(separator: ","))\"" : nil
        return FragmentedMP4.Made(parts: parts, size: size, duration: end, type: type)
    }

    /// An output stream for each of `streams` (by input index), its parameters and display
    /// matrix copied; and each one's codecs parameter, when browsers stream it.
    private func copy(
        _ streams: [(index: Int32, stream: UnsafeMutablePointer<AVStream>?)],
        to output: UnsafeMutablePointer<AVFormatContext>
    ) throws(VideoError) -> (map: [Int32: UnsafeMutablePointer<AVStream>], codecs: [String?]) {
        var map: [Int32: UnsafeMutablePointer<AVStream>] = [:]
        var codecs: [String?] = []
        for (index, stream) in streams {
            guard let stream, let parameters = stream.pointee.codecpar else { continue }
            guard let out = ff.avformat_new_stream(output, nil),
                ff.avcodec_parameters_copy(out.pointee.codecpar, parameters) >= 0
            else { throw VideoError(.tooLarge, "out of memory for the output stream") }
            // (the muxer chooses the tag MP4 gives the codec)
            out.pointee.codecpar.pointee.codec_tag = 0
            out.pointee.time_base = stream.pointee.time_base
            ff.copyDisplayMatrix(from: stream, to: out)
            map[index] = out
            codecs.append(FragmentedMP4.codec(parameters.pointee))
        }
        return (map, codecs)
    }
}
