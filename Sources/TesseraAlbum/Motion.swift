import TesseraFacts
import TesseraIndex
import TesseraMetadata

/// What the album site plays for an item: a video itself, a Live Photo's video, or the MP4 a
/// motion photo carries; and whether a browser can play it.
struct Motion {
    enum Kind {
        /// The item is a video: the viewer plays it with controls, its poster shown first.
        case video
        /// A still with motion (a Live Photo, a motion photo): it plays, muted, on press or hover.
        case live
    }

    let kind: Kind
    /// Seconds, when known.
    let duration: Double?
    /// The codec as FFmpeg names it, and the container.
    let codec: String?
    let container: ImageFormat
    /// Where its bytes are: a whole file, or a range of one (a motion photo's MP4).
    let source: MediaFolder.VideoSource

    /// Its web rendition in the cache (H.264 and AAC), when browsers cannot play the original.
    let web: String?

    /// Whether browsers play the original as it is.
    var originalPlays: Bool { container.playsInBrowsers(codec: codec) }

    /// Whether the page can play it: the original, or its web rendition.
    var playable: Bool { originalPlays || web != nil }

    init?(_ photo: PhotoRecord) {
        if let video = photo.video {
            (kind, duration, codec, container) = (.video, video.duration, video.codec, photo.format)
            source = .file(photo.pathBytes, id: photo.id)
            web = video.webVideo
        } else if let live = photo.livePhotoVideo {
            (kind, duration, codec, container) = (.live, live.duration, live.codec, live.format)
            source = .file(live.pathBytes, id: live.id)
            web = live.webVideo
        } else if let motion = photo.motion {
            (kind, duration, codec, container) = (.live, motion.duration, motion.codec, .mp4)
            source = .range(photo.pathBytes, id: photo.id, offset: motion.offset, length: motion.length)
            web = photo.motionWebVideo
        } else {
            return nil
        }
    }

    /// "0:07", "1:02:03": a video's length as players show it; nil for a length read from a
    /// file that is none (not a number, or past a million hours).
    static func clock(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds < 3.6e9 else { return nil }
        // A clip shorter than a second is still a clip: "0:01", not "0:00".
        let total = seconds > 0 && seconds < 1 ? 1 : max(0, Int(seconds.rounded()))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// The badge a tile carries: a video's length, or LIVE; marked ⤓ when a browser cannot
    /// play it, so the badge says what a click does (the viewer offers the file to download).
    var badge: String {
        let text =
            switch kind {
            case .video: duration.flatMap(Self.clock) ?? "▶"
            case .live: "LIVE"
            }
        return playable ? text : "⤓ " + text
    }

    /// What the badge of one a browser cannot play says when pointed at.
    var badgeTitle: String? {
        guard !playable else { return nil }
        let what = codec.map { $0.uppercased() } ?? "this format"
        return "Browsers do not play \(what) in \(container.rawValue.uppercased()): download it to watch"
    }
}
