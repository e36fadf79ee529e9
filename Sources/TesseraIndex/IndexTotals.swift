import TesseraSystem

/// What the index holds, as `status` reports it.
///
/// A Live Photo's video is part of its photo,
/// not a video of its own; a motion photo is a photo.
public struct IndexTotals: Sendable, Equatable, Codable {
    public var photos: Int
    /// Videos that are items of their own.
    public var videos: Int
    /// Photos with a Live Photo video, and photos with an embedded video.
    public var livePhotos: Int
    public var motionPhotos: Int
    /// Albums holding at least one item.
    public var albums: Int
    /// Files recorded with an error.
    public var errors: Int
    /// How far each analysis has come (`PhotoIndex.analysisProgress`): only those with photos
    /// waiting or failed.
    public var analyses: [AnalysisProgress] = []
    /// The faces found and the people they are grouped into (docs/PEOPLE.md); nil when none.
    public var people: PeopleTotals?

    /// The faces and people an index holds, as `status` reports them.
    public struct PeopleTotals: Sendable, Equatable, Codable {
        public var faces: Int
        public var people: Int
        /// People with a name.
        public var named: Int
        /// Faces the grouping has not given a person yet (the next scan does).
        public var ungrouped: Int

        /// "3 named of 16 people, from 70 faces; 4 faces waiting for a person".
        public var summary: String {
            "\(named) named of \(people == 1 ? "1 person" : "\(people) people"), from \(Wording.count(faces, "face"))"
                + (ungrouped > 0 ? "; \(Wording.count(ungrouped, "face")) waiting for a person" : "")
        }
    }

    public init(
        photos: Int = 0, videos: Int = 0, livePhotos: Int = 0, motionPhotos: Int = 0, albums: Int = 0, errors: Int = 0
    ) {
        self.photos = photos
        self.videos = videos
        self.livePhotos = livePhotos
        self.motionPhotos = motionPhotos
        self.albums = albums
        self.errors = errors
    }

    /// "12 photos (2 Live Photos, 1 motion photo), 1 video in 3 albums; 0 files with errors".
    public var summary: String {
        var photoText = Wording.count(photos, "photo")
        let kinds = [
            livePhotos > 0 ? Wording.count(livePhotos, "Live Photo") : nil,
            motionPhotos > 0 ? Wording.count(motionPhotos, "motion photo") : nil,
        ]
        .compactMap { $0 }
        if !kinds.isEmpty { photoText += " (\(kinds.joined(separator: ", ")))" }
        let items = videos > 0 ? "\(photoText), \(Wording.count(videos, "video"))" : photoText
        return "\(items) in \(Wording.count(albums, "album")); \(Wording.count(errors, "file")) with errors"
    }

    /// "picture-hashes: 12 photos waiting, 1 failed", an analysis a line; nothing when all are done.
    public var analysisLines: [String] {
        analyses.map {
            "\($0.name): \(Wording.count($0.pending, "photo")) waiting"
                + ($0.failed > 0 ? ", \($0.failed) could not be analysed" : "")
        }
    }
}
