import ArgumentParser
import Foundation
import SystemPackage
import TesseraConfiguration
import TesseraIndex
import TesseraMetadata
import TesseraSystem

/// `tessera inspect`: what Tessera reads from files, without decoding pixels.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what Tessera reads from each file: format, size, orientation, capture date, camera.",
        discussion: """
            When the file is in the index (the configuration's, or --index), its album, status and \
            renditions are shown too. Exits 0 when every file was read, 1 when any gave an error (its \
            entry is still printed).
            """)

    @Argument(parsing: .remaining, help: "Files to inspect.", completion: .file())
    var files: [String] = []

    @Option(help: ArgumentHelp(
        "Also inspect the files listed in this file ('-': standard input), one per line or NUL-separated.",
        discussion: "For more files than a command line holds, e.g. find … -print0 | tessera inspect --files-from -"),
        completion: .file())
    var filesFrom: String?

    @Flag(help: "One JSON object per file (an array when several).")
    var json = false

    @OptionGroup var store: StoreOptions

    /// Options whose value is the next argument.
    private static let valueOptions: Set = ["--files-from", "--config", "--index", "--cache"]

    /// ArgumentParser copies an array argument's values for each one it adds, so 20,000 files
    /// took 4 s to parse: `inspect`'s files after its first are taken out of the arguments
    /// here, in order, and added after parsing. Options and their values stay.
    static func takingFiles(from arguments: [String]) -> (arguments: [String], files: [String]) {
        guard arguments.first == configuration.commandName else { return (arguments, []) }
        var kept: [String] = [], files: [String] = []
        var afterTerminator = false, keptOne = false, isValue = false
        for argument in arguments {
            if isValue || kept.isEmpty {
                kept.append(argument)
                isValue = false
            } else if !afterTerminator && argument == "--" {
                kept.append(argument)
                afterTerminator = true
            } else if !afterTerminator && argument.hasPrefix("-") && argument != "-" {
                kept.append(argument)
                isValue = valueOptions.contains(argument)
            } else if !keptOne {
                kept.append(argument)
                keptOne = true
            } else {
                files.append(argument)
            }
        }
        return (kept, files)
    }

    func validate() throws {
        if files.isEmpty && filesFrom == nil { throw ValidationError("Name the files to inspect, or a list of them with --files-from.") }
    }

    func run() throws {
        var sidecars = SidecarFinder()
        let paths = try files.map(CommandLinePath.path) + (filesFrom.map(CommandLinePath.paths(listedIn:)) ?? [])
        var indexed = try indexToConsult().map(IndexedFiles.init)
        var array = JSONArrayPrinter()
        var failed = false
        for (number, path) in paths.enumerated() {
            var report = PhotoReport.read(at: path, sidecars: &sidecars)
            if let record = indexed?.record(of: path) { report.addIndexFields(of: record) }
            failed = failed || report.error != nil
            switch (json, paths.count) {
            case (true, 1): try printJSON(report)
            case (true, _): try array.print(report)
            case (false, _): print((number > 0 ? "\n" : "") + Self.text(report))
            }
        }
        if json && paths.count != 1 { array.finish() }
        if failed { throw ExitCode(1) }
    }

    /// The index named by --index or the configuration, when there is one: inspecting files
    /// needs none, so only an index asked for by name must open (the configuration's may be
    /// missing, or of an older schema until the next scan migrates it).
    private func indexToConsult() throws -> PhotoIndex? {
        let configuration = try store.configuration()
        guard store.index != nil else { return try? store.openIndex(configuration, readOnly: true) }
        return try store.openIndex(configuration, readOnly: true)
    }

    /// The index's rows of inspected files, asked once per folder whether the index holds it:
    /// the files of `find ~ | inspect` mostly lie in folders it does not, and those cost no
    /// query each.
    private struct IndexedFiles {
        let index: PhotoIndex
        /// A folder as given → where the index records it (absolute, links resolved, as the scan
        /// resolves its roots), or nil when the index holds no file there.
        private var folders: [FilePath: FilePath?] = [:]

        init(_ index: PhotoIndex) { self.index = index }

        mutating func record(of path: FilePath) -> PhotoRecord? {
            guard let name = path.lastComponent else { return nil }
            let given = path.removingLastComponent()
            let folder: FilePath?
            if let known = folders[given] {
                folder = known
            } else {
                let absolute = FileSystem.absolute(given)
                let canonical = (try? FileSystem.canonicalPath(absolute)) ?? absolute
                folder = (try? index.isAlbum(canonical)) == true ? canonical : nil
                folders[given] = folder
            }
            return folder.flatMap { try? index.file(at: $0.appending(name)) }
        }
    }

    /// Every fact of the JSON, grouped and rounded for a person at a terminal (the JSON keeps
    /// them exact).
    static func text(_ report: PhotoReport) -> String {
        guard report.error == nil, let width = report.width, let height = report.height else {
            return TerminalText.escaped("\(report.path): \(report.error ?? "unreadable")")
        }
        var text = ReportText(title: report.path)
        text.group("File")
        text.add("format", "\(report.format.uppercased())" + (report.coding.map { ", \($0)" } ?? "") + " (\(report.kind))")
        text.add("sidecar", report.annotations.sidecar)
        text.group("Image")
        let megapixels = Double(width) * Double(height) / 1_000_000
        text.add("size", "\(width) × \(height) px" + (megapixels >= 0.1 ? " (\(Wording.number(megapixels, decimals: 1)) MP)" : ""))
        let orientation = report.orientation ?? 1
        text.add("orientation", "\(orientation), \(Self.orientationNames[orientation] ?? "unknown")"
            + " → shown \(report.displayWidth ?? width) × \(report.displayHeight ?? height)")
        text.add("HDR", report.hdr.map { "\($0.uppercased()), tone-mapped to SDR for renditions" })
        text.add("colour", report.nclx.map { nclx in
            ["primaries", "transfer", "matrix"].compactMap { key in nclx[key].map { "\(key) \($0)" } }.joined(separator: ", ") + " (nclx)"
        })
        text.group("Capture")
        if let captured = report.capturedAt {
            text.add("date", captured.replacingOccurrences(of: "T", with: " ") + (report.utcOffset.map { " \($0)" } ?? ""))
        }
        text.add("date from", (report.dateSource.flatMap(DateSource.init(rawValue:)) ?? .undated).explanation)
        text.group("Camera and exposure")
        text.add("make", report.camera.make)
        text.add("model", report.camera.model)
        text.add("lens", report.camera.lensModel)
        text.add("exposure", report.camera.exposure.isEmpty ? nil : report.camera.exposure)
        text.group("Description")
        text.add("rating", report.annotations.rating.map { $0 < 0 ? "rejected" : "\($0) of 5" })
        text.add("label", report.annotations.label)
        text.add("title", report.annotations.title)
        text.add("description", report.annotations.description)
        text.add("keywords", report.annotations.keywords.isEmpty ? nil : report.annotations.keywords.joined(separator: ", "))
        text.group("Place")
        if let gps = report.gps {
            // Six decimals are 11 cm: more digits say nothing a receiver measured.
            text.add("position", "\(Wording.number(gps.latitude, decimals: 6)), \(Wording.number(gps.longitude, decimals: 6))")
            text.add("altitude", gps.altitude.map { "\(Wording.number($0, decimals: 1)) m" })
        }
        text.group(report.kind == "video" ? "Video" : "Motion")
        if let video = report.video {
            text.add("duration", video.duration.map(Wording.duration))
            text.add("codec", video.codec)
            text.add("frame rate", video.frameRate.map { "\(Wording.number($0, decimals: 2)) fps" })
            text.add("rotation", video.rotation.map { $0 == 0 ? "none" : "\($0)° clockwise" })
            text.add("poster", video.posterTime.map { "the frame at \(Wording.duration($0))" })
        }
        if let motion = report.motion {
            text.add("motion photo", "an MP4 of \(motion.length) bytes at byte \(motion.offset)"
                + ([motion.duration.map(Wording.duration), motion.codec].compactMap { $0 }.map { ", \($0)" }.joined()))
        }
        text.add("Live Photo", report.contentIdentifier.map { "identifier \($0)" })
        text.add("its video", report.livePhotoVideo)
        text.group("In the index")
        text.add("album", report.album)
        text.add("status", report.status)
        for rendition in report.renditions ?? [] {
            let shape = rendition.kind == "square" ? "\(rendition.size) square" : "\(rendition.size) fit"
            text.add(shape, "\(rendition.width) × \(rendition.height), from \(rendition.source): \(rendition.path)")
        }
        text.add("placeholder", report.thumbhash.map { "ThumbHash \($0)" })
        text.group("Warnings")
        for warning in report.warnings { text.add("warning", warning) }
        // Names and tags come from the file: nothing in them may drive the terminal.
        return text.lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    /// EXIF orientations as exiftool names them.
    static let orientationNames = [
        1: "horizontal (normal)", 2: "mirror horizontal", 3: "rotate 180", 4: "mirror vertical",
        5: "mirror horizontal and rotate 270 CW", 6: "rotate 90 CW", 7: "mirror horizontal and rotate 90 CW", 8: "rotate 270 CW",
    ]
}

/// Lines under group headings, each group shown only when it has a line.
private struct ReportText {
    var lines: [String]
    private var heading: String?

    init(title: String) { lines = [title] }

    mutating func group(_ name: String) { heading = name }

    mutating func add(_ label: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        if let heading {
            lines.append("  \(heading)")
            self.heading = nil
        }
        lines.append("    " + label.padding(toLength: 14, withPad: " ", startingAt: 0) + value)
    }
}
