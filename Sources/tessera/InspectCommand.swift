import ArgumentParser
import Foundation
import SystemPackage
import TesseraIndex
import TesseraMetadata
import TesseraSystem

/// `tessera inspect`: what Tessera reads from files, without decoding pixels.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what Tessera reads from each file: format, size, orientation, capture date, camera.",
        discussion: "Exits 0 when every file was read, 1 when any gave an error (its entry is still printed).")

    @Argument(parsing: .remaining, help: "Files to inspect.", completion: .file())
    var files: [String] = []

    @Option(help: ArgumentHelp(
        "Also inspect the files listed in this file ('-': standard input), one per line or NUL-separated.",
        discussion: "For more files than a command line holds, e.g. find … -print0 | tessera inspect --files-from -"),
        completion: .file())
    var filesFrom: String?

    @Flag(help: "One JSON object per file (an array when several).")
    var json = false

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
                isValue = argument == "--files-from"
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
        var array = JSONArrayPrinter()
        var failed = false
        for path in paths {
            let report = PhotoReport.read(at: path, sidecars: &sidecars)
            failed = failed || report.error != nil
            switch (json, paths.count) {
            case (true, 1): try printJSON(report)
            case (true, _): try array.print(report)
            case (false, _): print(Self.text(report))
            }
        }
        if json && paths.count != 1 { array.finish() }
        if failed { throw ExitCode(1) }
    }

    /// A few readable lines for a person at a terminal.
    static func text(_ report: PhotoReport) -> String {
        guard report.error == nil, let width = report.width, let height = report.height else {
            return TerminalText.escaped("\(report.path): \(report.error ?? "unreadable")")
        }
        var lines = ["\(report.path)"]
        lines.append("  format       \(report.format), \(report.coding ?? "")"
            + (report.hdr.map { ", HDR (\($0.uppercased()), tone-mapped for renditions)" } ?? ""))
        lines.append("  size         \(width)×\(height), orientation \(report.orientation ?? 1)"
            + " → displayed \(report.displayWidth ?? width)×\(report.displayHeight ?? height)")
        if let captured = report.capturedAt {
            lines.append("  captured     \(captured)\(report.utcOffset.map { " \($0)" } ?? "") (from \(report.dateSource ?? "?"))")
        } else {
            lines.append("  captured     undated (no date in the file, its XMP or its name)")
        }
        if let camera = report.camera.name { lines.append("  camera       \(camera)") }
        if let lens = report.camera.lensModel { lines.append("  lens         \(lens)") }
        var exposure: [String] = []
        if let time = report.camera.exposureTime, time > 0 {
            exposure.append(time < 1 ? "1/\(Int((1 / time).rounded())) s" : String(format: "%.1f s", time))
        }
        if let fNumber = report.camera.fNumber { exposure.append(String(format: "f/%.1f", fNumber)) }
        if let iso = report.camera.iso { exposure.append("ISO \(iso)") }
        if let focal = report.camera.focalLength {
            exposure.append(String(format: "%.1f mm", focal)
                + (report.camera.focalLength35mm.map { String(format: " (%.0f mm in 35 mm terms)", $0) } ?? ""))
        }
        if !exposure.isEmpty { lines.append("  exposure     \(exposure.joined(separator: ", "))") }
        if let rating = report.annotations.rating { lines.append("  rating       \(rating)" + (report.annotations.label.map { ", label \($0)" } ?? "")) }
        if let title = report.annotations.title { lines.append("  title        \(title)") }
        if let description = report.annotations.description { lines.append("  description  \(description)") }
        if !report.annotations.keywords.isEmpty { lines.append("  keywords     \(report.annotations.keywords.joined(separator: ", "))") }
        if let sidecar = report.annotations.sidecar { lines.append("  sidecar      \(sidecar)") }
        if let motion = report.motion {
            lines.append("  motion       an MP4 of \(motion.length) bytes at byte \(motion.offset)"
                + (motion.duration.map { String(format: ", %.1f s", $0) } ?? "") + (motion.codec.map { " \($0)" } ?? ""))
        }
        if let identifier = report.contentIdentifier { lines.append("  live photo   \(identifier)") }
        if let gps = report.gps {
            // Six decimals are 11 cm: more digits say nothing a receiver measured.
            lines.append(String(format: "  gps          %.6f, %.6f", gps.latitude, gps.longitude) + (gps.altitude.map { String(format: ", %.1f m", $0) } ?? ""))
        }
        for warning in report.warnings { lines.append("  warning      \(warning)") }
        // Names and tags come from the file: nothing in them may drive the terminal.
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }
}
