import Foundation
import Logging
import Synchronization
import SystemPackage
import TesseraAnalysis
import TesseraConfiguration
import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraSamples
import TesseraSystem
import TesseraTestSupport
import Testing

@testable import TesseraScan

/// The analysis stage (docs/ARCHITECTURE.md, "Analyses") with analyses of the tests' own: what
/// a new analysis, a new version of one, one that fails and a stop mid-stage do to the queue.
struct AnalysisStageTests {
    /// An analysis that records what it was given and answers a fixed hash, or fails.
    final class Probe: PhotoAnalysis {
        let name = AnalysisName.pictureHashes
        let version: Int
        let imageSize = 100
        let failing: Bool
        /// Stopped after this many photos, when set.
        let stopAfter: (count: Int, flag: StopFlag)?
        /// The long edge of each image it was given.
        let edges = Mutex<[Int]>([])
        static let hash: UInt64 = 0x5A5A_0F0F_3C3C_9696

        init(version: Int, failing: Bool = false, stopAfter: (Int, StopFlag)? = nil) {
            (self.version, self.failing, self.stopAfter) = (version, failing, stopAfter)
        }

        func analyse(_ input: AnalysisInput) throws(AnalysisError) -> AnalysisOutput? {
            let count = edges.withLock {
                $0.append(max(input.image.width, input.image.height))
                return $0.count
            }
            if let stopAfter, count >= stopAfter.count { stopAfter.flag.stop() }
            if failing { throw AnalysisError("the probe fails on purpose") }
            return .pictureHashes(Self.hash, DetailHash(settingBits: [1, 2, 3]))
        }

        var calls: Int { edges.withLock { $0.count } }
    }

    /// A library of `count` photos of 600 × 400, scanned with the analyses of today.
    static func library(_ count: Int) throws -> ScanFixture {
        let fixture = try ScanFixture()
        for number in 0..<count {
            let bytes = try SampleImage.jpeg(SampleImage.pixels(width: 600, height: 400, seed: number))
            try fixture.write(bytes, to: "photo\(number).jpg")
        }
        _ = try fixture.scan()
        return fixture
    }

    /// The photos' perceptual hashes and the queue's rows, as the index holds them.
    static func state(_ fixture: ScanFixture) -> (hashes: [String], queue: [[String]]) {
        let index = fixture.configuration.index.string
        let hashes = SQLite.query(index, "SELECT ifnull(phash, '') FROM photos ORDER BY id")?.map { $0[0] } ?? []
        let queue = SQLite.query(index, "SELECT photo_id, version, ifnull(failure, '') FROM analysis_queue") ?? []
        return (hashes, queue)
    }

    @Test func aNewVersionIsRunOnEveryPhotoFromItsStoredPreviewOnce() throws {
        let fixture = try Self.library(5)
        defer { fixture.remove() }
        #expect(Self.state(fixture).queue.isEmpty)
        // Given a new version of the analysis,
        let probe = Probe(version: 2)
        let summary = try fixture.scan(analyses: [probe])
        // the scan reads no photo again, and runs it on each photo's stored preview (the fit
        // rendition of 96, not the photo's 600 × 400),
        #expect(summary.counts.unchanged == 5 && summary.counts.changed == 0)
        #expect(probe.edges.withLock { $0 } == Array(repeating: 96, count: 5))
        let (hashes, queue) = Self.state(fixture)
        #expect(hashes == Array(repeating: String(Int64(bitPattern: Probe.hash)), count: 5))
        #expect(queue.isEmpty, "\(queue)")
        // and the scan after it runs it on none.
        _ = try fixture.scan(analyses: [probe])
        #expect(probe.calls == 5)
        let totals = try PhotoIndex(path: fixture.configuration.index, readOnly: true).totals()
        #expect(totals.analysisLines.isEmpty, "\(totals.analysisLines)")
    }

    @Test func aPhotoItFailsOnKeepsWhyAndIsTriedAgainOnlyWhenItChanges() throws {
        let fixture = try Self.library(3)
        defer { fixture.remove() }
        let probe = Probe(version: 2, failing: true)
        _ = try fixture.scan(analyses: [probe])
        // Each photo it failed on keeps why, in the queue and in what status says;
        let (_, queue) = Self.state(fixture)
        #expect(queue.count == 3 && queue.allSatisfy { $0[1] == "2" && $0[2] == "the probe fails on purpose" })
        let index = try PhotoIndex(path: fixture.configuration.index, readOnly: true)
        #expect(try index.totals().analysisLines == ["picture-hashes: 0 photos waiting, 3 could not be analysed"])
        // none is tried again by the next scan,
        _ = try fixture.scan(analyses: [probe])
        #expect(probe.calls == 3)
        // but a photo that changed is, as it is read again.
        let bytes = try SampleImage.jpeg(SampleImage.pixels(width: 600, height: 400, seed: 99))
        try fixture.write(bytes, to: "photo1.jpg")
        _ = try fixture.scan(analyses: [probe])
        #expect(probe.calls == 4)
        #expect(Self.state(fixture).queue.count == 3)
    }

    @Test func aStopMidStageLeavesWhatItDidNotDoQueuedForTheNextScan() throws {
        let fixture = try Self.library(40)
        defer { fixture.remove() }
        // Given a scan stopped a few photos into its analysis stage,
        let stop = StopFlag()
        let stopped = Probe(version: 2, stopAfter: (3, stop))
        _ = try fixture.scan(analyses: [stopped], stop: stop)
        // every photo has the new output or waits for it, and some wait;
        let (hashes, queue) = Self.state(fixture)
        let waiting = Set(queue.map { $0[0] })
        let ids = SQLite.query(fixture.configuration.index.string, "SELECT id FROM photos ORDER BY id")?.map { $0[0] }
        let done = zip(ids ?? [], hashes).filter { $0.1 == String(Int64(bitPattern: Probe.hash)) }.map(\.0)
        #expect(waiting.count + done.count == 40 && waiting.isDisjoint(with: done), "\(queue) \(hashes)")
        #expect(!waiting.isEmpty && queue.allSatisfy { $0[2].isEmpty })
        // the next scan analyses those, and only those.
        let resumed = Probe(version: 2)
        _ = try fixture.scan(analyses: [resumed])
        #expect(resumed.calls == waiting.count)
        #expect(Self.state(fixture).queue.isEmpty)
    }
}
