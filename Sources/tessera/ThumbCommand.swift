import ArgumentParser
import Foundation
import SystemPackage
import TesseraFacts
import TesseraImage

/// `tessera thumb`: render renditions of given files, outside any index.
struct ThumbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumb",
        abstract: "Render upright renditions of files: aspect-fill squares and aspect-true fits.",
        discussion: """
            Each file is decoded once for every rendition asked for, and converted to sRGB when it \
            embeds an ICC profile. Photos are never enlarged. Without --size or --fit, one \
            256-pixel square is made.

            With one file and one rendition, -o names the output; its extension (.jpg, .jpeg, .png \
            or .webp) picks the format. With --out-dir, each file gives <name>.jpg (or the --format's \
            extension) for a single rendition, or <name>-<size>.jpg and <name>-fit-<size>.jpg for \
            several, rendered in parallel; a file that fails prints one line "path: reason" on \
            stderr and the others go on.
            """)

    @Argument(help: "Photo files: JPEG, PNG, WebP, HEIF, AVIF, JPEG XL, camera RAW.", completion: .file())
    var files: [String]

    @Option(name: .customLong("size"), help: "A square of this side in pixels (repeatable).")
    var squares: [Int] = []

    @Option(name: .customLong("fit"), help: "A whole-frame rendition this long on its long edge (repeatable).")
    var fits: [Int] = []

    @Option(
        name: [.customShort("o"), .long], help: "Output file (one input and one rendition only).",
        completion: .file(extensions: ["jpg", "jpeg", "png", "webp"]))
    var output: String?

    @Option(help: "Output directory (any number of inputs).", completion: .directory)
    var outDir: String?

    @Option(help: "Format of the files written to --out-dir: jpeg, png or webp.")
    var format: RenderOptions.Format = .jpeg

    @Option(help: "Parallel workers (default: one per core).")
    var workers: Int?

    @Option(help: "JPEG or WebP quality, 1–100.")
    var quality: Int = 85

    @Option(help: "Background for transparent pixels in JPEG output, as #rrggbb.")
    var background: String = "#ffffff"

    @Flag(inversion: .prefixedNo, help: "Convert photos with an embedded ICC profile to sRGB.")
    var colorManagement = true

    @Flag(
        inversion: .prefixedNo,
        help: "Make renditions from a JPEG's embedded preview (MPF or EXIF thumbnail) when it covers them.")
    var embeddedPreviews = true

    @Option(help: "Refuse images with more pixels than this many megapixels.")
    var pixelLimit: Int = 200

    @Option(help: "Memory one decode may use, in MiB; files whose header says they need more are refused.")
    var memoryLimit: Int = RenderOptions().memoryLimit >> 20

    /// The renditions asked for, in the order given.
    private var specs: [RenditionSpec] {
        let specs = squares.map { RenditionSpec.square($0) } + fits.map { RenditionSpec.fit($0) }
        return specs.isEmpty ? [.square(256)] : specs
    }

    func validate() throws {
        guard squares.allSatisfy({ (1...8192).contains($0) }) else {
            throw ValidationError("--size must be between 1 and 8192")
        }
        guard fits.allSatisfy({ (1...16384).contains($0) }) else {
            throw ValidationError("--fit must be between 1 and 16384")
        }
        guard Set(specs).count == specs.count else { throw ValidationError("the same rendition is asked for twice") }
        guard RenderOptions.qualities.contains(quality) else {
            throw ValidationError(
                "--quality must be between \(RenderOptions.qualities.lowerBound) and \(RenderOptions.qualities.upperBound)"
            )
        }
        guard (workers ?? 1) > 0 else { throw ValidationError("--workers must be at least 1") }
        guard pixelLimit > 0 else { throw ValidationError("--pixel-limit must be positive") }
        guard RenderOptions.memoryLimitsMiB.contains(memoryLimit) else {
            let range = RenderOptions.memoryLimitsMiB
            throw ValidationError("--memory-limit must be between \(range.lowerBound) and \(range.upperBound)")
        }
        guard RenderOptions.Color(hex: background) != nil else {
            throw ValidationError("--background must be a colour like #ffffff")
        }
        switch (output, outDir) {
        case (.some, .some): throw ValidationError("give either -o or --out-dir, not both")
        case (.none, .none): throw ValidationError("give -o OUT (one file) or --out-dir DIR")
        case (.some, .none) where files.count != 1: throw ValidationError("-o takes exactly one input file")
        case (.some, .none) where specs.count != 1:
            throw ValidationError("-o takes exactly one --size or --fit; use --out-dir for several")
        case (.some(let output), .none) where Self.format(of: output) == nil:
            throw ValidationError("-o must end in .jpg, .jpeg, .png or .webp, the format to write")
        default: break
        }
    }

    private static func format(of output: String) -> RenderOptions.Format? {
        RenderOptions.Format(fileExtension: FilePath(output).extension ?? "")
    }

    func run() throws {
        var options = RenderOptions()
        options.quality = quality
        options.pixelLimit = pixelLimit * 1_000_000
        options.memoryLimit = memoryLimit << 20
        options.background = RenderOptions.Color(hex: background) ?? .white
        options.colorManagement = colorManagement
        options.embeddedPreviews = embeddedPreviews
        let specs = specs
        let jobs: [BatchRenderer.Job]
        if let output {
            options.format = Self.format(of: output) ?? .jpeg
            jobs = [
                BatchRenderer.Job(
                    input: CommandLinePath.path(files[0]), outputs: [specs[0]: CommandLinePath.path(output)])
            ]
        } else {
            let directory = CommandLinePath.path(outDir ?? ".")
            options.format = format
            jobs = files.map {
                BatchRenderer.Job(input: CommandLinePath.path($0), specs: specs, into: directory, format: format)
            }
        }

        let batch = BatchRenderer(options: options, workers: workers ?? ProcessInfo.processInfo.activeProcessorCount)
        let failures = batch.render(jobs, specs: specs) { event in
            switch event {
            case .warning(let path, let warning): printError("\(path): warning: \(warning)")
            case .failure(let error): printError(error.description)
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
