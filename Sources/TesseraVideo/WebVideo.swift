import CFFmpeg
import Foundation
public import SystemPackage
public import TesseraSystem

/// A video made again as every browser plays it: H.264 (8-bit 4:2:0) and AAC in an MP4 whose
/// index comes first, so that playback starts before the file is whole.
///
/// Made for originals browsers cannot play (HEVC, MJPEG in AVI, MPEG-2 or AC-3 in MTS…): the
/// frames are decoded, scaled (never enlarged) to fit the settings' box, encoded by libx264,
/// and the sound resampled and encoded by FFmpeg's AAC encoder. The display rotation is kept as
/// the track's matrix, as the original's was. Memory stays at a few frames of the original and
/// of the output, whatever the video's length.
public enum WebVideo {
    public struct Settings: Sendable, Equatable {
        /// The box the frame is fitted into, long side by short side (1920×1080: "1080p").
        public var longSide = 1920
        public var shortSide = 1080
        /// x264's constant rate factor: 23 is its default, visually close to the original at
        /// these sizes.
        public var quality = 23
        /// x264's speed preset: "veryfast" encodes 1080p several times faster than real time
        /// on one core, at a size a little over "medium"'s.
        public var preset = "veryfast"
        /// Encoder threads, each a core while it works: the budget a rendition may take.
        public var threads = 1

        public init() {}

        /// Written beside each rendition: renditions made with other settings are made again.
        public var description: String { "h264-aac:\(longSide)x\(shortSide):crf\(quality):\(preset)" }
    }

    /// What was made.
    public struct Made: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var hasAudio: Bool
        /// Seconds of video written.
        public var duration: Double
    }

    /// Bytes a transcode needs per pixel of the original's frame: its decoder's few reference
    /// frames (as `PosterFrame.bytesPerPixel`), and then some for the encoder's own.
    static let bytesPerPixel = 16

    /// Makes the web rendition of the video `stream` delivers at `path`, through a temporary file
    /// beside it: a reader sees the whole file or none, even after a crash.
    ///
    /// - Throws: `VideoError`: `.tooLarge` when the original's frames need more than
    ///   `memoryLimit`, `.timedOut` after `timeLimit` or when `shouldStop` says so, `.unsupported`
    ///   when FFmpeg lacks a decoder or libx264, `.corrupt` when no frame decodes, `.unwritable`
    ///   when the output cannot be written (a full disk: worth trying again later).
    public static func make(
        from stream: ByteStream, to path: FilePath, settings: Settings = Settings(), memoryLimit: Int,
        timeLimit: Duration, shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(VideoError) -> Made {
        let temporary = FileSystem.temporary(beside: path)
        do throws(VideoError) {
            do {
                try FileSystem.createDirectories(path.removingLastComponent())
            } catch {
                throw VideoError(.unwritable, "cannot make the web video's folder: \(error)")
            }
            let made = try Transcode(
                input: VideoFile(stream: stream, timeLimit: timeLimit, shouldStop: shouldStop),
                output: temporary, settings: settings, memoryLimit: memoryLimit
            ).run()
            do {
                try FileSystem.replace(path, with: temporary)
            } catch {
                throw VideoError(.unwritable, "cannot put the web video in place: \(error)")
            }
            return made
        } catch {
            try? FileSystem.removeFile(temporary)
            throw error.at(stream.path)
        }
    }

    /// The frame size of the rendition of a `width`×`height` frame (pixels made square): fitted
    /// into the settings' box, never enlarged, even on both sides as 4:2:0 needs.
    static func size(width: Double, height: Double, settings: Settings) -> (width: Int, height: Int) {
        let long = max(width, height), short = min(width, height)
        let factor = min(1, Double(settings.longSide) / long, Double(settings.shortSide) / short)
        // (Down to even: up would enlarge an odd side by a pixel.)
        func even(_ value: Double) -> Int { max(2, Int((value * factor / 2 + 1e-9).rounded(.down)) * 2) }
        return (even(width), even(height))
    }
}
