import Foundation
public import SystemPackage
public import TesseraFacts
import TesseraImage
import TesseraSystem

/// `tessera thumb`: renditions of given files, outside any index: one to a named file (`output`),
/// or any number into a folder (`directory`), each file decoded once for all of them.
public struct ThumbRequest: Sendable {
    public var files: [FilePath]
    /// Squares of these sides, then fits of these long edges (a 256-px square when none).
    public var squares: [Int] = []
    public var fits: [Int] = []
    /// One input, one rendition: the file to write, whose extension names the format.
    public var output: FilePath?
    /// Any number: the folder, and the format of what is written there.
    public var directory: FilePath?
    public var format = PhotoEncoders.defaultFormat
    /// Parallel workers (default: one per core).
    public var workers: Int?
    /// JPEG or WebP quality, 1–100.
    public var quality = 85
    /// Transparent pixels in JPEG output become this colour (`#rrggbb`).
    public var background = "#ffffff"
    public var pixelLimitMegapixels = 200
    /// Memory one decode may use.
    public var memoryLimitMiB = RenderOptions().memoryLimit >> 20
    public var colorManagement = true
    public var embeddedPreviews = true

    public init(files: [FilePath]) {
        self.files = files
    }

    /// The renditions asked for, in the order given.
    public var specs: [RenditionSpec] {
        let specs = squares.map { RenditionSpec.square($0) } + fits.map { RenditionSpec.fit($0) }
        return specs.isEmpty ? [.square(256)] : specs
    }

    /// What is wrong with the arguments, as the option that is.
    public func validate() throws(CommandFailure) {
        func bad(_ message: String) -> CommandFailure { CommandFailure(message, status: 2) }
        guard squares.allSatisfy({ (1...8192).contains($0) }) else { throw bad("--size must be between 1 and 8192") }
        guard fits.allSatisfy({ (1...16384).contains($0) }) else { throw bad("--fit must be between 1 and 16384") }
        guard Set(specs).count == specs.count else { throw bad("the same rendition is asked for twice") }
        let (qualities, memory) = (RenderOptions.qualities, RenderOptions.memoryLimitsMiB)
        guard qualities.contains(quality) else {
            throw bad("--quality must be between \(qualities.lowerBound) and \(qualities.upperBound)")
        }
        guard (workers ?? 1) > 0 else { throw bad("--workers must be at least 1") }
        guard pixelLimitMegapixels > 0 else { throw bad("--pixel-limit must be positive") }
        guard memory.contains(memoryLimitMiB) else {
            throw bad("--memory-limit must be between \(memory.lowerBound) and \(memory.upperBound)")
        }
        guard RenderOptions.Color(hex: background) != nil else {
            throw bad("--background must be a colour like #ffffff")
        }
        guard format.traits.encodable else { throw bad("--format must be \(Self.formatNames)") }
        switch (output, directory) {
        case (.some, .some): throw bad("give either -o or --out-dir, not both")
        case (.none, .none): throw bad("give -o OUT (one file) or --out-dir DIR")
        case (.some, .none) where files.count != 1: throw bad("-o takes exactly one input file")
        case (.some, .none) where specs.count != 1:
            throw bad("-o takes exactly one --size or --fit; use --out-dir for several")
        case (.some(let output), .none) where Self.format(of: output) == nil:
            let extensions = ImageFormat.all(\.encodable).flatMap(\.traits.extensions).map { "." + $0 }
            throw bad("-o must end in \(Wording.either(extensions)), the format to write")
        default: break
        }
    }

    /// The formats Tessera writes, by name.
    public static var formatNames: String { Wording.either(ImageFormat.all(\.encodable).map(\.rawValue)) }

    private static func format(of output: FilePath) -> ImageFormat? {
        ImageFormat(encodingExtension: output.extension ?? "")
    }

    /// Renders every file; a file that fails prints one line "path: reason" and the others go on.
    public func run(in context: CommandContext) throws {
        try validate()
        var options = RenderOptions()
        options.quality = quality
        options.pixelLimit = min(pixelLimitMegapixels, Int.max / 1_000_000) * 1_000_000
        options.memoryLimit = memoryLimitMiB << 20
        options.background = RenderOptions.Color(hex: background) ?? .white
        options.colorManagement = colorManagement
        options.embeddedPreviews = embeddedPreviews
        let specs = specs
        let jobs: [BatchRenderer.Job]
        if let output, let input = files.first, let spec = specs.first {
            options.format = Self.format(of: output) ?? format
            jobs = [BatchRenderer.Job(input: input, outputs: [spec: output])]
        } else {
            options.format = format
            jobs = files.map {
                BatchRenderer.Job(input: $0, specs: specs, into: directory ?? FilePath("."), format: format)
            }
        }
        let batch = BatchRenderer(options: options, workers: workers ?? ProcessInfo.processInfo.activeProcessorCount)
        let failures = batch.render(jobs, specs: specs) { event in
            switch event {
            case .warning(let path, let warning): context.note("\(path): warning: \(warning)")
            case .failure(let error): context.note(error.description)
            }
        }
        if failures > 0 { throw CommandFailure.status(1) }
    }
}
