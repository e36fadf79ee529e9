import Foundation
import SystemPackage
import TesseraIndex
import TesseraSystem

/// What a build records of each album and month whose pages it wrote (`SiteState`): enough for
/// the next one to write only what changed since, and to draw every cover card without reading
/// any photo again.
enum SiteManifest {
    struct Album: Codable, Equatable {
        var id: Int64
        /// `AlbumRecord.contentChange` when its pages were written.
        var change: Int64
        /// What its pages show besides its photos (title, crumbs, the cards of the albums inside).
        var frame: String
        var card: Card
        /// Its photos and videos, with those of the albums inside it.
        var stills: Int
        var videos: Int
        /// Some of its files could not be placed: the next build writes it again.
        var incomplete: Bool
    }

    struct Month: Codable, Equatable, Sendable {
        var card: Card
        var incomplete: Bool
        var find: MonthFind
        /// The folders of the newer and older months its pages link to ("" where there is none).
        var neighbours: [String]?
    }
}

/// What the timeline's Find knows of a month without loading its photos: how many of them each
/// value of each filter matches, so that it loads only the months that can hold what is asked.
struct MonthFind: Codable, Equatable, Sendable {
    /// How many photos the month has (the undated have no day to count them by).
    var photos = 0
    var days: [String: Int] = [:]
    var cameras: [String: Int] = [:]
    var formats: [String: Int] = [:]
    var keywords: [String: Int] = [:]
    var people: [String: Int] = [:]
    /// How many are rated at least 1, 2, 3, 4 and 5.
    var ratings = [0, 0, 0, 0, 0]

    /// Counts `photo`'s values.
    mutating func add(_ photo: PhotoRecord) {
        let facts = FindFacts(photo)
        photos += 1
        if let day = facts.day { days[day, default: 0] += 1 }
        if let camera = facts.camera { cameras[camera, default: 0] += 1 }
        formats[facts.format, default: 0] += 1
        for keyword in Set(facts.keywords) { keywords[keyword, default: 0] += 1 }
        for name in Set(facts.people) { people[name, default: 0] += 1 }
        for level in 1...5 where (facts.rating ?? 0) >= level { ratings[level - 1] += 1 }
    }
}

/// A cover card's content: what it shows of its album or month, without the photos.
struct Card: Codable, Equatable, Sendable {
    /// The cover's renditions, relative to the output; empty when it has none in place.
    var cover: [ImageSources.Candidate]
    /// A folder of albums: the covers of some of them, shown together.
    var mosaic: [[ImageSources.Candidate]]?
    /// "12 photos", "1 photo, 2 videos".
    var count: String
}

/// The files one album's pages refer to, kept in its folder (`.tessera-files`) so that the build
/// that writes it again, or removes it, knows which files it may take away.
enum AlbumFiles {
    static let fileName = ".tessera-files"
    /// Files albums written again or removed let go of, until a build has removed them: a
    /// build that fails before then leaves them for the next.
    static let goneList = ".tessera-gone"

    /// Paths relative to the output, each rendition with the cache file it came from ("" for others).
    static func read(_ folder: String, in output: OutputFolder) -> [String: String] {
        list(folder + "/" + fileName, in: output)
    }

    static func write(_ files: [String: String], _ folder: String, in output: OutputFolder) throws(AlbumError) {
        try output.write(lines(files), to: folder + "/" + fileName)
    }

    /// The files let go of and not removed yet.
    static func gone(in output: OutputFolder) -> [String: String] {
        list(goneList, in: output)
    }

    static func addGone(_ files: [String: String], in output: OutputFolder) throws(AlbumError) {
        guard !files.isEmpty else { return }
        do throws(SystemError) {
            try FileSystem.append(Array(lines(files).utf8), to: output.path(goneList))
        } catch {
            throw AlbumError(.output, "\(output.path(goneList)): cannot write: \(error)")
        }
    }

    private static func list(_ relative: String, in output: OutputFolder) -> [String: String] {
        guard let bytes = FileSystem.smallFileContents(output.path(relative), limit: 256 << 20) else {
            return [:]
        }
        var files: [String: String] = [:]
        // Only whole lines: an append cut short (a crash, a full disk) leaves a partial last one.
        let whole = bytes.lastIndex(of: UInt8(ascii: "\n")).map { bytes[...$0] } ?? []
        for line in String(decoding: whole, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            files[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return files
    }

    private static func lines(_ files: [String: String]) -> String {
        files.keys.sorted().map { "\($0)\t\(files[$0] ?? "")" }.joined(separator: "\n") + "\n"
    }
}
