public import SystemPackage
import TesseraSystem

/// What an album shows: its stills and its videos.
public struct AlbumMedia: Sendable, Equatable {
    public var stills: Int
    public var videos: Int

    public init(stills: Int, videos: Int) {
        (self.stills, self.videos) = (stills, videos)
    }

    /// "12 photos", "1 photo, 2 videos".
    public var summary: String {
        [
            stills > 0 || videos == 0 ? Wording.count(stills, "photo") : nil,
            videos > 0 ? Wording.count(videos, "video") : nil,
        ]
        .compactMap { $0 }.joined(separator: ", ")
    }
}

/// One album: a directory of photos, keyed by its row id (two roots may each hold a "Garden").
public struct AlbumRecord: Sendable, Identifiable {
    public var id: Int64
    /// The directory's exact bytes.
    public var pathBytes: [UInt8]
    /// The directory relative to its root; "" for photos directly in the root.
    public var name: String
    public var photoCount: Int
    public var newestCapturedAt: String?
    public var oldestCapturedAt: String?
    public var coverPhotoID: Int64?
    /// The index's change counter when anything shown of the album's photos last changed.
    public var contentChange: Int64 = 0

    public var path: FilePath { FilePath(rawBytes: pathBytes) }

    public init(
        id: Int64, pathBytes: [UInt8], name: String, photoCount: Int, newestCapturedAt: String? = nil,
        oldestCapturedAt: String? = nil, coverPhotoID: Int64? = nil, contentChange: Int64 = 0
    ) {
        (self.id, self.pathBytes, self.name, self.photoCount) = (id, pathBytes, name, photoCount)
        (self.newestCapturedAt, self.oldestCapturedAt) = (newestCapturedAt, oldestCapturedAt)
        (self.coverPhotoID, self.contentChange) = (coverPhotoID, contentChange)
    }
}
