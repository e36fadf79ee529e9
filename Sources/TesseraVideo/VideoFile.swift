import CFFmpeg
import Foundation
public import SystemPackage
import TesseraSystem

/// Why a video could not be read: the file, a code, and FFmpeg's words for it.
///
/// Codes are extensible static members, as `PhotoError`'s are.
public struct VideoError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case corrupt, truncated, noPicture, unsupported, tooLarge, timedOut, unwritable }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The container or the stream is damaged.
        public static let corrupt = Code(.corrupt)
        /// The file ends before what the container needs.
        public static let truncated = Code(.truncated)
        /// Nothing to show: no video stream (an audio file in a video container).
        public static let noPicture = Code(.noPicture)
        /// A codec FFmpeg has no decoder for.
        public static let unsupported = Code(.unsupported)
        /// The frame would need more memory than allowed.
        public static let tooLarge = Code(.tooLarge)
        /// The file took longer than its time limit to give what was asked.
        public static let timedOut = Code(.timedOut)
        /// What was made of it could not be written (a full disk, a read-only cache).
        public static let unwritable = Code(.unwritable)

        public var description: String { kind.rawValue }
    }

    public var code: Code
    /// The file concerned; empty when the bytes came from memory.
    public var path: FilePath
    /// One line saying what is wrong, without the path.
    public var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.path = FilePath()
        self.message = message
    }

    /// The same error, naming `path` (the public entry points name the file they read).
    func at(_ path: FilePath) -> VideoError {
        var copy = self
        copy.path = path
        return copy
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    /// FFmpeg's description of `code`, after `what`.
    static func ffmpeg(_ code: Int32, _ what: String, kind: Code = .corrupt, _ ff: tessera_ffmpeg) -> VideoError {
        if code == tessera_averror_exit() { return VideoError(.timedOut, "\(what): gave up after the time limit") }
        if code == tessera_averror_eof() { return VideoError(.truncated, "\(what): the file ends too soon") }
        var text = [CChar](repeating: 0, count: 256)
        _ = ff.av_strerror(code, &text, text.count)
        return VideoError(
            kind, "\(what): \(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }
}

/// FFmpeg's functions, loaded on first use (see CFFmpeg.h).
enum FFmpeg {
    static func functions() throws(VideoError) -> tessera_ffmpeg {
        guard let loaded = tessera_ffmpeg() else {
            throw VideoError(.unsupported, String(cString: tessera_ffmpeg_error()))
        }
        return loaded.pointee
    }
}

extension tessera_ffmpeg {
    /// The codec's name as FFmpeg gives it ("h264", "hevc", …).
    func codecName(_ id: AVCodecID) -> String {
        avcodec_get_name(id).map { String(cString: $0) } ?? "unknown"
    }

    /// Gives `output` the display matrix (the rotation a player shows) of `input`, if any.
    func copyDisplayMatrix(from input: UnsafeMutablePointer<AVStream>, to output: UnsafeMutablePointer<AVStream>) {
        var size = 0
        if let matrix = av_stream_get_side_data(input, AV_PKT_DATA_DISPLAYMATRIX, &size), size == 36,
            let copy = av_stream_new_side_data(output, AV_PKT_DATA_DISPLAYMATRIX, 36)
        {
            copy.update(from: matrix, count: 36)
        }
    }
}

/// An open video container, read through a `ByteStream` (so through `FileReader`, as every
/// other file), with a deadline FFmpeg checks while it blocks.
///
/// It owns the demuxer (`AVFormatContext`) and its I/O context, and frees both on every path.
/// FFmpeg's own logging is silenced: errors come back as `VideoError`s.
final class VideoFile {
    let ff: tessera_ffmpeg
    let format: UnsafeMutablePointer<AVFormatContext>
    private var io: UnsafeMutablePointer<AVIOContext>?
    private let input: Input

    /// What FFmpeg's callbacks reach through their opaque pointer.
    private final class Input {
        let stream: ByteStream
        let deadline: ContinuousClock.Instant
        let shouldStop: (@Sendable () -> Bool)?
        init(stream: ByteStream, deadline: ContinuousClock.Instant, shouldStop: (@Sendable () -> Bool)?) {
            self.stream = stream
            self.deadline = deadline
            self.shouldStop = shouldStop
        }

        /// Whether reading should end now: past the deadline, or asked to stop.
        var isOver: Bool { ContinuousClock.now > deadline || shouldStop?() == true }
    }

    /// Opens `stream` as a video container; reading anything from it ends with `.timedOut`
    /// once `timeLimit` has passed or `shouldStop` says so.
    init(stream: ByteStream, timeLimit: Duration, shouldStop: (@Sendable () -> Bool)? = nil) throws(VideoError) {
        let ff = try FFmpeg.functions()
        self.ff = ff
        ff.av_log_set_level(AV_LOG_QUIET)
        input = Input(stream: stream, deadline: .now + timeLimit, shouldStop: shouldStop)
        let opaque = Unmanaged.passUnretained(input).toOpaque()
        let bufferSize: Int32 = 1 << 16
        guard let buffer = ff.av_malloc(Int(bufferSize)) else {
            throw VideoError(.tooLarge, "out of memory for the read buffer")
        }
        guard
            let io = ff.avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0, opaque, Self.readPacket, nil, Self.seek)
        else {
            ff.av_free(buffer)
            throw VideoError(.tooLarge, "out of memory for the reader")
        }
        self.io = io
        guard let context = ff.avformat_alloc_context() else {
            Self.free(io: io, ff)
            throw VideoError(.tooLarge, "out of memory for the demuxer")
        }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context.pointee.interrupt_callback = AVIOInterruptCB(callback: Self.interrupt, opaque: opaque)
        // Bounds on how much the probing reads and analyses, whatever the file claims.
        context.pointee.probesize = 8 << 20
        context.pointee.max_analyze_duration = 5 * Int64(AV_TIME_BASE)
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let status = ff.avformat_open_input(&opened, nil, nil, nil)
        guard status >= 0, let opened else {
            // avformat_open_input frees the context on failure; the I/O context is ours.
            Self.free(io: io, ff)
            throw VideoError.ffmpeg(status, "cannot read the video container", ff)
        }
        format = opened
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = format
        ff.avformat_close_input(&context)
        if let io { Self.free(io: io, ff) }
    }

    private static func free(io: UnsafeMutablePointer<AVIOContext>, _ ff: tessera_ffmpeg) {
        // The buffer may have been replaced by FFmpeg since: free the one it holds now.
        ff.av_freep(&io.pointee.buffer)
        var owned: UnsafeMutablePointer<AVIOContext>? = io
        ff.avio_context_free(&owned)
    }

    private static let readPacket:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
            opaque, buffer, size in
            guard let opaque, let buffer, size > 0 else { return tessera_averror_eof() }
            let input = Unmanaged<Input>.fromOpaque(opaque).takeUnretainedValue()
            if input.isOver { return tessera_averror_exit() }
            let count = input.stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
            return count > 0 ? Int32(count) : tessera_averror_eof()
        }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = {
        opaque, offset, whence in
        guard let opaque else { return -1 }
        let stream = Unmanaged<Input>.fromOpaque(opaque).takeUnretainedValue().stream
        switch whence & ~AVSEEK_FORCE {
        case AVSEEK_SIZE: return stream.size
        case SEEK_SET: stream.seek(to: offset)
        case SEEK_CUR: stream.seek(to: stream.offset + offset)
        case SEEK_END: stream.seek(to: stream.size + offset)
        default: return -1
        }
        return stream.offset
    }

    private static let interrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
        guard let opaque else { return 0 }
        return Unmanaged<Input>.fromOpaque(opaque).takeUnretainedValue().isOver ? 1 : 0
    }

    /// The index of the stream a viewer would show, and the stream.
    ///
    /// With `known`, packets are
    /// read first when the container does not say the stream's codec and frame size up front
    /// (MPEG-TS, some AVIs), bounded by the probe limits set above.
    func videoStream(known: Bool) throws(VideoError) -> (index: Int32, stream: UnsafeMutablePointer<AVStream>) {
        func best() throws(VideoError) -> (index: Int32, stream: UnsafeMutablePointer<AVStream>) {
            let index = ff.av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
            guard index >= 0, let streams = format.pointee.streams, let stream = streams[Int(index)] else {
                throw VideoError(.noPicture, "no video stream")
            }
            return (index, stream)
        }
        let found = try? best()
        if let found, !known || Self.isKnown(found.stream) { return found }
        let status = ff.avformat_find_stream_info(format, nil)
        guard status >= 0 else { throw VideoError.ffmpeg(status, "cannot read the streams", ff) }
        return try best()
    }

    /// The stream a viewer would show (`videoStream(known: true)`), its parameters and its stored
    /// frame size; throws when it has none of them.
    func picture() throws(VideoError) -> (
        index: Int32, stream: UnsafeMutablePointer<AVStream>, parameters: UnsafeMutablePointer<AVCodecParameters>,
        width: Int, height: Int
    ) {
        let (index, stream) = try videoStream(known: true)
        guard let parameters = stream.pointee.codecpar else {
            throw VideoError(.corrupt, "the video stream has no parameters")
        }
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        guard width > 0, height > 0 else { throw VideoError(.corrupt, "the video stream has no frame size") }
        return (index, stream, parameters, width, height)
    }

    private static func isKnown(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        guard let parameters = stream.pointee.codecpar?.pointee else { return false }
        return parameters.width > 0 && parameters.height > 0 && parameters.codec_id != AV_CODEC_ID_NONE
    }

    /// The container's and the stream's tags, the container's first.
    func tags(of stream: UnsafeMutablePointer<AVStream>) -> [String: String] {
        var tags: [String: String] = [:]
        for dictionary in [stream.pointee.metadata, format.pointee.metadata] {
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            while let next = ff.av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
                entry = next
                guard let key = next.pointee.key, let value = next.pointee.value else { continue }
                tags[String(cString: key)] = String(cString: value)
            }
        }
        return tags
    }
}
