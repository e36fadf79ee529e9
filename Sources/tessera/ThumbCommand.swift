import ArgumentParser
import Synchronization
import Foundation
import SystemPackage
import TesseraImage
import TesseraMetadata
import TesseraService
import TesseraSystem

/// `tessera thumb`: render thumbnails of given files, outside any index.
struct ThumbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumb",
        abstract: "Render an upright, square, aspect-fill thumbnail of each file.",
        discussion: """
            With one file, -o names the output (its extension, .jpg or .png, picks the format).
            With several, --out-dir receives <name without extension>.jpg for each, rendered in
            parallel; a file that fails prints one line "path: reason" on stderr and the others go on.
            """)

    @Argument(help: "JPEG or PNG files.")
    var files: [String]

    @Option(help: "Side of the square in pixels.")
    var size: Int = 256

    @Option(name: [.customShort("o"), .long], help: "Output file (one input only).")
    var output: String?

    @Option(help: "Output directory (any number of inputs).")
    var outDir: String?

    @Option(help: "Parallel workers (default: all cores).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "JPEG quality, 1–100.")
    var quality: Int = 85

    @Option(help: "Background for transparent pixels in JPEG output, as #rrggbb.")
    var background: String = "#ffffff"

    @Option(help: "Refuse images with more pixels than this many megapixels.")
    var pixelLimit: Int = 200

    @Option(help: "Memory one decode may use, in MiB; files whose header says they need more are refused.")
    var memoryLimit: Int = ThumbnailOptions().memoryLimit >> 20

    func validate() throws {
        guard size > 0 && size <= 8192 else { throw ValidationError("--size must be between 1 and 8192") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100") }
        guard workers > 0 else { throw ValidationError("--workers must be at least 1") }
        guard pixelLimit > 0 else { throw ValidationError("--pixel-limit must be positive") }
        guard (32...65_536).contains(memoryLimit) else { throw ValidationError("--memory-limit must be between 32 and 65536") }
        guard ThumbnailOptions.Color(hex: background) != nil else {
            throw ValidationError("--background must be a colour like #ffffff")
        }
        switch (output, outDir) {
        case (.some, .some): throw ValidationError("give either -o or --out-dir, not both")
        case (.none, .none): throw ValidationError("give -o OUT (one file) or --out-dir DIR")
        case (.some, .none) where files.count != 1: throw ValidationError("-o takes exactly one input file")
        default: break
        }
    }

    func run() throws {
        var options = ThumbnailOptions()
        options.quality = quality
        options.pixelLimit = pixelLimit * 1_000_000
        options.memoryLimit = memoryLimit << 20
        options.background = ThumbnailOptions.Color(hex: background) ?? .white
        let jobs: [(input: FilePath, output: FilePath, format: ThumbnailOptions.Format)]
        if let output {
            let format: ThumbnailOptions.Format = output.lowercased().hasSuffix(".png") ? .png : .jpeg
            jobs = [(CommandLinePath.path(files[0]), CommandLinePath.path(output), format)]
        } else {
            let directory = FilePath(outDir ?? ".")
            jobs = files.map { file in
                let input = CommandLinePath.path(file)
                return (input, directory.appending("\(input.stem ?? "thumbnail").jpg"), .jpeg)
            }
        }

        let baseOptions = options
        let size = size
        let failures = Mutex(0)
        let queue = JobQueue(count: jobs.count)
        let threads = (0..<min(workers, jobs.count)).map { number in
            DedicatedThread.start("thumb \(number)") {
                while let index = queue.next() {
                    let job = jobs[index]
                    var jobOptions = baseOptions
                    jobOptions.format = job.format
                    do throws(PhotoError) {
                        let rendered = try Thumbnailer(options: jobOptions).render(file: job.input, sizes: [size])
                        guard let thumbnail = rendered.thumbnails[size] else { continue }
                        do throws(SystemError) {
                            try FileSystem.writeAtomically(thumbnail.bytes, to: job.output)
                        } catch {
                            throw PhotoError(.io, path: job.output, error.reason)
                        }
                        for warning in rendered.metadata.warnings + rendered.warnings {
                            printError("\(job.input): warning: \(warning)")
                        }
                    } catch {
                        printError(error.path.isEmpty ? "\(job.input): \(error.reason)" : error.description)
                        failures.withLock { $0 += 1 }
                    }
                }
            }
        }
        threads.forEach { $0.join() }
        if failures.withLock({ $0 }) > 0 {
            throw ExitCode(1)
        }
    }
}

/// Hands out job indices to workers, each exactly once.
final class JobQueue: Sendable {
    private let state: Mutex<Int>
    private let count: Int

    init(count: Int) {
        self.count = count
        self.state = Mutex(0)
    }

    func next() -> Int? {
        state.withLock { nextIndex in
            guard nextIndex < count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }
}

/// Writes one line to standard error, with control characters escaped.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
}
