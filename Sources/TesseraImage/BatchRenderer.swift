import Synchronization
public import SystemPackage
public import TesseraFacts
import TesseraMetadata
import TesseraSystem

/// Renders files to files outside any index, several at a time: what `tessera thumb` does.
///
/// Each worker has its own `Renderer` (and so its own colour transforms) on a thread of its
/// own; each file is decoded once for all its renditions, and a file that fails does not
/// stop the others.
public struct BatchRenderer: Sendable {
    /// One file to render, and where each of its renditions goes.
    public struct Job: Sendable {
        public var input: FilePath
        public var outputs: [RenditionSpec: FilePath]

        public init(input: FilePath, outputs: [RenditionSpec: FilePath]) {
            self.input = input
            self.outputs = outputs
        }

        /// `input`'s renditions in `directory`: `<name>.jpg` (or the format's extension) for a
        /// single rendition, `<name>-<size>.jpg` and `<name>-fit-<size>.jpg` for several.
        public init(input: FilePath, specs: [RenditionSpec], into directory: FilePath, format: ImageFormat) {
            let stem = input.stem ?? "photo"
            let outputs = specs.map { spec in
                let suffix = specs.count == 1 ? "" : spec.kind == .square ? "-\(spec.size)" : "-fit-\(spec.size)"
                return (spec, directory.appending("\(stem)\(suffix).\(format.fileExtension)"))
            }
            self.init(input: input, outputs: Dictionary(outputs, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// What happened to one file: a failure, or a warning on a file that rendered.
    public enum Event: Sendable {
        case warning(FilePath, String)
        case failure(PhotoError)
    }

    public var options: RenderOptions
    public var workers: Int

    public init(options: RenderOptions, workers: Int) {
        self.options = options
        self.workers = max(1, workers)
    }

    /// Renders `specs` of every job, written atomically; tells `report` of each warning and
    /// failure as it happens.
    ///
    /// Returns how many files failed.
    public func render(_ jobs: [Job], specs: [RenditionSpec], report: @escaping @Sendable (Event) -> Void) -> Int {
        let next = Mutex(0)
        let failures = Mutex(0)
        let threads = min(workers, jobs.count)
        let memory = MemoryPool(share: options.memoryLimit, workers: threads)
        let started = (0..<threads).map { number in
            DedicatedThread.start("render \(number)") { [options] in
                let renderer = Renderer(options: options, pool: memory)
                while let index = next.withLock({ next -> Int? in
                    defer { next += 1 }
                    return next < jobs.count ? next : nil
                }) {
                    do throws(PhotoError) {
                        try Self.render(jobs[index], specs: specs, renderer: renderer, report: report)
                    } catch {
                        report(.failure(error.path.isEmpty ? error.at(jobs[index].input) : error))
                        failures.withLock { $0 += 1 }
                    }
                }
            }
        }
        started.forEach { $0.join() }
        return failures.withLock { $0 }
    }

    private static func render(
        _ job: Job, specs: [RenditionSpec], renderer: Renderer, report: (Event) -> Void
    ) throws(PhotoError) {
        // No placeholder here: squares alone then decode only around the square.
        let rendered = try renderer.render(file: job.input, specs: specs, placeholder: false)
        for rendition in rendered.renditions {
            guard let path = job.outputs[rendition.spec] else { continue }
            do throws(SystemError) {
                try FileSystem.writeAtomically(rendition.bytes, to: path)
            } catch {
                throw PhotoError(.io, path: path, error.reason)
            }
        }
        for warning in rendered.metadata.warnings + rendered.warnings { report(.warning(job.input, warning)) }
    }
}
