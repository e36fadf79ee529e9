import TesseraFacts
import TesseraIndex
import TesseraSystem

/// `photos.js`: what the lightbox and Find read of a collection's photos, in its order, loaded
/// by album.js on first use (docs/ALBUM.md, "The lightbox's data").
///
/// Written by hand rather than by an encoder: it is most of what a build writes, and the same
/// index gives the same bytes, build after build.
struct LightboxData {
    let media: MediaFolder
    /// The output-relative folder of each album id.
    let albumFolders: [Int64: String]

    /// Formats every current browser draws, so an original in one of them can be shown at 1:1.
    static let browserFormats: Set<ImageFormat> = [.jpeg, .png, .webp, .avif]
    /// The most pixels an original may have to be shown at 1:1 (a 50-megapixel photo decodes to 200 MB).
    static let zoomPixels = 50_000_000

    /// The script for `photos`; its paths are relative to the output, under `base`.
    func script(_ photos: [PhotoRecord], base: String) -> String {
        var albums: [Int64: Int] = [:]
        var albumList: [String] = []
        var entries: [String] = []
        entries.reserveCapacity(photos.count)
        for photo in photos {
            let album =
                albums[photo.albumID]
                ?? {
                    albumList.append(HTML.url(Array((albumFolders[photo.albumID] ?? "").utf8)))
                    albums[photo.albumID] = albumList.count - 1
                    return albumList.count - 1
                }()
            entries.append(entry(photo, album: album))
        }
        return
            "window.tesseraPhotos = {\"base\":\(JSONString.quoted(base)),\"albums\":[\(albumList.map(JSONString.quoted).joined(separator: ","))],\"photos\":[\n"
            + entries.joined(separator: ",\n") + "]};\n"
    }

    /// One photo: its id, name, album, size, renditions (paths under `media/`, the fits with
    /// their widths, the smallest square for the filmstrip), original, what 1:1 shows, facts,
    /// motion and what Find compares.
    private func entry(_ photo: PhotoRecord, album: Int) -> String {
        let size = PhotoMedia.displaySize(photo)
        let sources = PhotoMedia.sources(photo, media: media)
        var fields = [
            "\"id\":\"\(photo.id)\"", "\"name\":\(JSONString.quoted(AlbumBuilder.name(photo)))", "\"album\":\(album)",
            "\"width\":\(size.width)", "\"height\":\(size.height)",
            "\"sources\":[\(sources.map { "[\(Self.mediaPath($0.path)),\($0.width)]" }.joined(separator: ","))]",
        ]
        let square = photo.renditions.filter { $0.spec.kind == .square }.sorted { $0.width < $1.width }
            .lazy.compactMap { media.rendition($0.path) }.first
        if let square { fields.append("\"thumb\":\(Self.mediaPath(square))") }
        let original = PhotoMedia.original(photo, media: media, albumFolders: albumFolders)
        if let original { fields.append("\"original\":\(JSONString.quoted(original))") }
        // 1:1 shows the original where browsers draw its format within `zoomPixels`, else the
        // largest rendition; a video has none.
        if photo.video == nil {
            let drawable = Self.browserFormats.contains(photo.format) && size.width * size.height <= Self.zoomPixels
            if drawable && original != nil {
                fields.append("\"zoom\":\"original\"")
            } else if !sources.isEmpty {
                fields.append("\"zoom\":\"largest\"")
            }
        }
        let facts = PhotoFact.facts(of: photo).map { fact in
            "[\(JSONString.quoted(fact.label)),\(JSONString.quoted(fact.value))"
                + (fact.guess || fact.link != nil ? ",\(fact.guess ? 1 : 0)" : "")
                + (fact.link.map { ",\(JSONString.quoted($0))" } ?? "") + "]"
        }
        fields.append("\"facts\":[\(facts.joined(separator: ","))]")
        // What plays: live (on press or hover, muted) or with controls, and whether a browser
        // can (else the viewer offers the file).
        if let motion = Motion(photo), let video = media.video(motion.source) {
            fields.append(
                "\"video\":[\(Self.mediaPath(video)),\(motion.kind == .live ? 1 : 0),\(motion.playable ? 1 : 0)]")
        }
        let compared = FindFacts(photo)
        var find = ["\"format\":\(JSONString.quoted(compared.format))"]
        if let day = compared.day { find.append("\"day\":\(JSONString.quoted(day))") }
        if let camera = compared.camera { find.append("\"camera\":\(JSONString.quoted(camera))") }
        if !compared.keywords.isEmpty {
            find.append("\"keywords\":[\(compared.keywords.map(JSONString.quoted).joined(separator: ","))]")
        }
        if let rating = compared.rating { find.append("\"rating\":\(rating)") }
        fields.append("\"find\":{\(find.joined(separator: ","))}")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A placed file under `media/`, as a URL path below it.
    private static func mediaPath(_ relative: String) -> String {
        JSONString.quoted(HTML.url(Array(relative.utf8.dropFirst("media/".utf8.count))))
    }
}

/// What Find compares of a photo: its capture day, camera, format, keywords and rating.
struct FindFacts {
    var day: String?, camera: String?, format: String, keywords: [String], rating: Int?

    init(_ photo: PhotoRecord) {
        day = photo.capturedAt.map { String($0.prefix(10)) }
        camera = PhotoFact.camera(photo)
        format = photo.format.rawValue.uppercased()
        keywords = photo.annotations.keywords
        rating = photo.annotations.rating
    }
}
