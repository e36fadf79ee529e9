import ArgumentParser
import TesseraCommands
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

            With one file and one rendition, -o names the output; its extension (.jpg, .png or .webp) \
            picks the format. With --out-dir, each file gives <name>.jpg (or the --format's \
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
        completion: .file(extensions: ImageFormat.all(\.encodable).flatMap(\.traits.extensions)))
    var output: String?

    @Option(help: "Output directory (any number of inputs).", completion: .directory)
    var outDir: String?

    @Option(help: ArgumentHelp("Format of the files written to --out-dir: \(ThumbRequest.formatNames)."))
    var format = PhotoEncoders.defaultFormat

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

    private var request: ThumbRequest {
        var request = ThumbRequest(files: files.map(CommandLinePath.path))
        (request.squares, request.fits, request.format, request.workers) = (squares, fits, format, workers)
        request.output = output.map(CommandLinePath.path)
        request.directory = outDir.map(CommandLinePath.path)
        (request.quality, request.background) = (quality, background)
        (request.pixelLimitMegapixels, request.memoryLimitMiB) = (pixelLimit, memoryLimit)
        (request.colorManagement, request.embeddedPreviews) = (colorManagement, embeddedPreviews)
        return request
    }

    func validate() throws {
        do throws(CommandFailure) {
            try request.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        try request.run(in: .standalone)
    }
}
