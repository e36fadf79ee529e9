import ArgumentParser
import Foundation
import SystemPackage
import TesseraFacts
import TesseraIndex
import TesseraMetadata
import TesseraSystem

/// `tessera explain`: how each fact of a photo was decided, and what lost.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract:
            "Show how Tessera decided a photo's date, UTC offset, orientation, size, camera, rating and rendition source.",
        discussion: """
            For each fact: the value chosen, the tag or rule that won, and the other places that said \
            something, with what became of each. The order is documented in docs/METADATA.md.
            """)

    @Argument(help: "The photo.", completion: .file())
    var file: String

    @Flag(help: "A JSON array of {fact, value, rule, candidates: [{source, value, outcome}]}.")
    var json = false

    func run() throws {
        let path = CommandLinePath.path(file)
        var sidecars = SidecarFinder()
        let sidecarPath = sidecars.sidecar(of: path)
        let sidecar = sidecarPath.flatMap(Sidecar.read(at:))
        let metadata: PhotoMetadata
        do {
            metadata = try MetadataReader.read(at: path, sidecar: sidecar, context: DateContext(explaining: true))
        } catch {
            throw CLIError("\(error)")
        }
        let facts =
            metadata.explanations
            + Self.otherFacts(
                metadata, sidecar: sidecar?.name, unread: sidecar == nil ? sidecarPath?.lastComponent?.string : nil)
        if json { return try printJSON(facts) }
        var lines: [String] = []
        for fact in facts {
            lines.append("\(fact.fact): \(fact.value ?? "none")")
            lines.append("  from \(fact.rule)")
            for candidate in fact.candidates {
                lines.append(
                    "  \(candidate.outcome == "chosen" ? "✓" : "·") \(candidate.source)"
                        + (candidate.value.isEmpty ? "" : " \(candidate.value)")
                        + (candidate.outcome == "chosen" ? "" : ": \(candidate.outcome)"))
            }
        }
        print(lines.map(TerminalText.escaped).joined(separator: "\n"))
    }

    /// The facts decided outside the readers' precedence: size, camera, rendition source, and the
    /// sidecar read (or `unread`, the one beside the photo that could not be).
    static func otherFacts(_ metadata: PhotoMetadata, sidecar: String?, unread: String?) -> [FactExplanation] {
        var facts = [
            FactExplanation(
                fact: "size",
                value:
                    "\(metadata.width)×\(metadata.height) → displayed \(metadata.displayWidth)×\(metadata.displayHeight)",
                rule: sizeRule(metadata))
        ]
        let camera = [metadata.exif?.make, metadata.exif?.model].compactMap { $0 }.joined(separator: " ")
        facts.append(
            FactExplanation(
                fact: "camera", value: camera.isEmpty ? nil : camera,
                rule: camera.isEmpty
                    ? "none recorded" : "EXIF Make and Model (XMP tiff:Make and tiff:Model where EXIF lacks them)"))
        var source = "the photo itself, decoded at the smallest scale that covers each rendition"
        if let raw = metadata.raw {
            source =
                raw.previews.first.map {
                    "the largest embedded preview, \($0.width)×\($0.height) at offset \($0.offset)"
                }
                ?? (raw.readByLibRaw && raw.previewWidth != nil
                    ? "LibRaw's embedded preview" : "none: no preview found")
        } else if metadata.format == .jxl {
            source =
                "the photo itself: only its frame's DC (1/8 of the detail, the rest of the file unread) when that covers every rendition"
        } else if let previews = metadata.jpeg?.previews, !previews.isEmpty {
            source =
                "the photo, or an embedded preview (\(previews.map(\.kind.rawValue).joined(separator: ", "))) that covers a rendition"
        }
        facts.append(FactExplanation(fact: "rendition source", value: nil, rule: source))
        facts.append(
            FactExplanation(
                fact: "sidecar", value: sidecar,
                rule: sidecar != nil
                    ? "found beside the photo"
                    : unread.map(Sidecar.unreadable)
                        ?? "none beside the photo"))
        return facts
    }

    static func sizeRule(_ metadata: PhotoMetadata) -> String {
        switch metadata.format {
        case .jpeg: "JPEG SOF marker"
        case .png: "PNG IHDR chunk"
        case .webp: "WebP VP8X canvas or frame header"
        case .heif, .avif:
            metadata.heif.flatMap { heif in
                heif.cleanAperture.map { _ in
                    "HEIF clean aperture (clap) of the primary image's \(heif.width)×\(heif.height) (ispe)"
                }
            } ?? "HEIF ispe property of the primary image"
        case .jxl: "the JPEG XL codestream's size header (libjxl)"
        case .raw: "LibRaw's image size, or the RAW file's own IFDs"
        case .mp4, .mov, .m4v, .threeGPP, .matroska, .webm, .avi, .mpegTS:
            "the video stream's coded frame size (FFmpeg), before its display rotation"
        case .unsupported: "unknown"
        }
    }
}
