import Foundation
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// `photos.js`: what the lightbox and Find read of a collection's photos, in its order, loaded
/// by album.js on first use (docs/ALBUM.md, "The lightbox's data").
///
/// Written by hand rather than by an encoder, a page of photos at a time: `start`, an `entry`
/// for each photo, then `end`, which lists the albums and shared texts the entries name by
/// number. It is most of what a build writes, and the same index gives the same bytes, build
/// after build.
struct LightboxData {
    let media: MediaFolder
    /// The output-relative folder of the photos' albums.
    let folders: AlbumFolders
    /// From the file's folder to the output's.
    let base: String
    /// Where the viewer shows no position and no place finer than the town.
    let zones: [PrivateZone]
    private var albums: [Int64: Int] = [:]
    private var albumList: [String] = []
    private var words = Words()
    private var entries = 0

    init(media: MediaFolder, folders: AlbumFolders, base: String, zones: [PrivateZone]) {
        self.media = media
        self.folders = folders
        self.base = base
        self.zones = zones
    }

    /// The most pixels an original may have to be shown at 1:1 (a 50-megapixel photo decodes to 200 MB).
    static let zoomPixels = 50_000_000

    var start: String {
        "window.tesseraPhotos = {\"base\":\(JSONString.quoted(base)),\"photos\":["
    }

    var end: String {
        "],\n\"albums\":[\(albumList.map(JSONString.quoted).joined(separator: ","))],"
            + "\"words\":[\(words.list.map(JSONString.quoted).joined(separator: ","))]};\n"
    }

    /// The next photo's entry, on a line of its own; a stack's face holds the entries of its
    /// `members` (`stack`), which the viewer shows after it.
    mutating func entry(_ photo: PhotoRecord, members: [PhotoRecord] = []) -> String {
        entries += 1
        var entry = fields(photo, album: album(photo))
        if let stack = photo.stack, !members.isEmpty {
            let title = StackWording.title(stack)
            var nested: [String] = []
            for member in members { nested.append(fields(member, album: album(member), stack: title)) }
            entry.removeLast()
            entry += ",\"stack\":{\"title\":\(JSONString.quoted(title)),\"photos\":[\(nested.joined(separator: ","))]}}"
        }
        return (entries == 1 ? "\n" : ",\n") + entry
    }

    /// The number of `photo`'s album in the list `end` writes.
    private mutating func album(_ photo: PhotoRecord) -> Int {
        if let known = albums[photo.albumID] { return known }
        albumList.append(HTML.url(Array((folders[photo.albumID] ?? "").utf8)))
        albums[photo.albumID] = albumList.count - 1
        return albumList.count - 1
    }

    /// The texts many photos share (fact labels, where a date came from, cameras, lenses,
    /// formats, people's names), each written once and named by its place in the list.
    private struct Words {
        private(set) var list: [String] = []
        private var numbers: [String: Int] = [:]

        mutating func number(_ text: String) -> String {
            if let known = numbers[text] { return String(known) }
            list.append(text)
            numbers[text] = list.count - 1
            return String(list.count - 1)
        }
    }

    /// Fact labels whose values repeat across a library.
    private static let sharedValues: Set<String> = ["Date from", "Camera", "Lens", "People"]

    /// One photo: its id, name, album, size, renditions (the fits with their widths, the
    /// smallest square for the filmstrip), original, what 1:1 shows, facts, motion and what Find
    /// compares.
    private mutating func fields(_ photo: PhotoRecord, album: Int, stack: String? = nil) -> String {
        let size = PhotoMedia.displaySize(photo)
        let sources = PhotoMedia.sources(photo, media: media)
        let media = self.media
        let square = photo.renditions.filter { $0.spec.kind == .square }.sorted { $0.width < $1.width }
            .lazy.compactMap { media.rendition($0.path) }.first
        // A rendition's path under media/ is its kind's folder and a name; where every one of
        // the photo's shares the name, `media` holds it once and each names only its folder.
        let named = (sources.map(\.path) + (square.map { [$0] } ?? [])).map(Self.mediaParts)
        let shared = named.first.flatMap { first in named.allSatisfy { $0.name == first.name } ? first.name : nil }
        let path = { (relative: String) in
            let parts = Self.mediaParts(relative)
            return JSONString.quoted(shared == nil ? parts.folder + "/" + parts.name : parts.folder)
        }
        var fields = [
            "\"id\":\"\(photo.id)\"", "\"name\":\(JSONString.quoted(AlbumBuilder.name(photo)))", "\"album\":\(album)",
            "\"width\":\(size.width)", "\"height\":\(size.height)",
        ]
        if let shared { fields.append("\"media\":\(JSONString.quoted(shared))") }
        fields.append("\"sources\":[\(sources.map { "[\(path($0.path)),\($0.width)]" }.joined(separator: ","))]")
        if let square { fields.append("\"thumb\":\(path(square))") }
        let original = PhotoMedia.original(photo, media: media, folders: folders)
        // Always in the album's folder under originals/: only its name is written.
        if let original, let name = original.split(separator: "/").last {
            fields.append("\"original\":\(JSONString.quoted(String(name)))")
        }
        // 1:1 shows the original where browsers draw its format within `zoomPixels`, else the
        // largest rendition; a video has none.
        if photo.video == nil {
            let drawable = photo.format.traits.browsersDraw && size.width * size.height <= Self.zoomPixels
            if drawable && original != nil {
                fields.append("\"zoom\":\"original\"")
            } else if !sources.isEmpty {
                fields.append("\"zoom\":\"largest\"")
            }
        }
        // What the photographer wrote of it (XMP), shown above the facts.
        for (key, text) in [("title", photo.annotations.title), ("caption", photo.annotations.description)] {
            if let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
                fields.append("\"\(key)\":\(JSONString.quoted(text))")
            }
        }
        let stackFact = (stack ?? photo.stack.map(StackWording.title)).map { PhotoFact("Stack", $0) }
        let facts = (PhotoFact.facts(of: photo, zones: zones) + (stackFact.map { [$0] } ?? [])).map { fact in
            let value =
                Self.sharedValues.contains(fact.label) ? words.number(fact.value) : JSONString.quoted(fact.value)
            return "[\(words.number(fact.label)),\(value)\(fact.guess ? ",1" : "")]"
        }
        fields.append("\"facts\":[\(facts.joined(separator: ","))]")
        if let position = PhotoFact.position(of: photo, zones: zones) {
            fields.append("\"at\":[\(position.latitude),\(position.longitude)]")
        }
        // What plays: live (on press or hover, muted) or with controls, and whether a browser
        // can (else the viewer offers the file).
        if let motion = Motion(photo), let video = media.video(motion) {
            let parts = Self.mediaParts(video.path)
            let video =
                [JSONString.quoted(parts.folder + "/" + parts.name), motion.kind == .live ? "1" : "0"]
                + [video.plays ? "1" : "0"]
            fields.append("\"video\":[\(video.joined(separator: ","))]")
        }
        let compared = FindFacts(photo)
        var find = ["\"format\":\(words.number(compared.format))"]
        if let day = compared.day { find.append("\"day\":\(JSONString.quoted(day))") }
        if let camera = compared.camera { find.append("\"camera\":\(words.number(camera))") }
        if !compared.keywords.isEmpty {
            find.append("\"keywords\":[\(compared.keywords.map(JSONString.quoted).joined(separator: ","))]")
        }
        if let rating = compared.rating { find.append("\"rating\":\(rating)") }
        if !compared.people.isEmpty {
            find.append("\"people\":[\(compared.people.map { words.number($0) }.joined(separator: ","))]")
        }
        fields.append("\"find\":{\(find.joined(separator: ","))}")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A placed file under `media/`, URL-encoded, as its folder below `media/` and the rest.
    private static func mediaParts(_ relative: String) -> (folder: String, name: String) {
        let below = HTML.url(Array(relative.utf8.dropFirst("media/".utf8.count)))
        guard let slash = below.firstIndex(of: "/") else { return ("", below) }
        return (String(below[..<slash]), String(below[below.index(after: slash)...]))
    }
}

/// What Find compares of a photo: its capture day, camera, format, keywords, rating and people.
struct FindFacts {
    var day: String?, camera: String?, format: String, keywords: [String], rating: Int?, people: [String]

    init(_ photo: PhotoRecord) {
        day = photo.capturedAt.map { String($0.prefix(10)) }
        camera = PhotoFact.camera(photo)
        format = photo.format.rawValue.uppercased()
        keywords = photo.annotations.keywords
        rating = photo.annotations.rating
        people = photo.people
    }
}
