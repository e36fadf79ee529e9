import Glibc
import Logging
import Synchronization
import SystemPackage
import TesseraConfiguration
import TesseraImage
import TesseraIndex
import TesseraSystem
import TesseraVideo

/// After a scan's files: the web rendition of each video browsers cannot play (`WebVideo`),
/// one at a time on a thread of its own whose priority is below the scan's, each recorded as
/// it ends, so that a stop loses at most the one in hand (its temporary file goes with it).
struct WebVideoStage {
    let scanner: LibraryScanner
    let stop: StopFlag

    /// What the settings make: H.264 at 1080p on the configured threads.
    static func settings(threads: Int) -> WebVideo.Settings {
        var settings = WebVideo.Settings()
        settings.threads = threads
        return settings
    }

    /// Makes what is missing; returns how many were made and how many could not be.
    func run() -> (made: Int, failed: Int) {
        let configuration = scanner.configuration
        let settings = Self.settings(threads: configuration.webVideoThreads)
        let cache = RenditionCache(root: configuration.cache)
        let jobs: [WebVideoJob]
        do throws(IndexError) {
            jobs = try scanner.index.webVideoJobs(settings: settings.description) { path in
                (try? FileSystem.status(of: FilePath(path)))?.type == .regular
            }
        } catch {
            scanner.logger.warning("cannot list the videos to make web renditions of: \(error)")
            return (0, 0)
        }
        guard !jobs.isEmpty, !stop.isSet else { return (0, 0) }
        scanner.progress.update {
            $0.phase = .videos
            ($0.webVideosDone, $0.webVideosTotal) = (0, jobs.count)
        }
        cache.removeInterruptedWebVideos(settings: settings)
        // The decoders and the encoder have the memory the scan's workers shared: they are done.
        let memory = configuration.rendering.memoryLimit * configuration.workerCount
        let counts = Mutex((made: 0, failed: 0))
        let worker = DedicatedThread.start("web videos") { [scanner, stop] in
            // Below the scan's priority (Linux keeps a nice value per thread, and 0 names this
            // one): a daemon's videos take what the machine leaves over.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            for job in jobs where !stop.isSet {
                defer { scanner.progress.update { $0.webVideosDone = ($0.webVideosDone ?? 0) + 1 } }
                let target = cache.webVideoPath(key: job.sourceKey, settings: settings)
                guard let outcome = Self.make(job, at: target, settings: settings, memory: memory, scanner, stop)
                else { continue }
                do throws(IndexError) {
                    try scanner.index.recordWebVideo(job, settings: settings.description, outcome: outcome)
                } catch {
                    scanner.logger.warning("cannot record the web video of \(job.path): \(error)")
                    continue
                }
                counts.withLock {
                    if case .made = outcome { $0.made += 1 } else { $0.failed += 1 }
                }
            }
        }
        worker.join()
        let result = counts.withLock { $0 }
        // The files of web videos made again (from changed content) go now, not a scan later.
        if result.made > 0 {
            do throws(IndexError) {
                try scanner.index.forgetCacheDeletions(cache.remove(try scanner.index.pendingCacheDeletions()))
            } catch {
                scanner.logger.warning("cannot delete replaced web videos now (\(error)); the next scan will")
            }
        }
        if result.made + result.failed > 0 {
            scanner.logger.notice("web videos: \(result.made) made, \(result.failed) could not be")
        }
        return result
    }

    /// Makes one; nil when there is nothing to record (stopped, the file gone meanwhile, the
    /// cache full).
    private static func make(
        _ job: WebVideoJob, at target: FilePath, settings: WebVideo.Settings, memory: Int, _ scanner: LibraryScanner,
        _ stop: StopFlag
    ) -> WebVideoOutcome? {
        // Generous for a slow machine: several times real time, and two minutes more.
        let limit = Duration.seconds(120) + .seconds(20 * min(max(job.duration ?? 60, 0), 86_400))
        let progress = scanner.progress
        do throws(WebVideoFailure) {
            let made = try FileReader.withFile(at: job.path, opening: WebVideoFailure.gone) {
                reader throws(WebVideoFailure) in
                do throws(VideoError) {
                    return try WebVideo.make(
                        from: job.embedded.map { reader.stream(from: $0.lowerBound, count: Int64($0.count)) }
                            ?? reader.stream(), to: target, settings: settings, memoryLimit: memory, timeLimit: limit,
                        shouldStop: {
                            // A long video is progress too: the daemon does not take it for a hang.
                            progress.beat()
                            return stop.isSet
                        })
                } catch {
                    throw .video(error)
                }
            }
            let bytes = (try? FileSystem.status(of: target))?.size ?? 0
            return .made(
                path: target.string, width: made.width, height: made.height, bytes: bytes, hasAudio: made.hasAudio)
        } catch {
            guard case .video(let error) = error, !stop.isSet else { return nil }
            scanner.logger.warning("\(error)")
            // A full disk passes: not recorded, so the next scan tries again.
            return error.code == .unwritable ? nil : .failed(error.message)
        }
    }

    private enum WebVideoFailure: Error {
        case gone(FileReadError)
        case video(VideoError)
    }
}
