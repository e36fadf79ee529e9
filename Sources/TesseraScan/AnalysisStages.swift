import Foundation
public import Logging
import Synchronization
public import TesseraAnalysis
public import TesseraConfiguration
import TesseraFaces
import TesseraFacts
import TesseraImage
import TesseraSystem

/// The per-photo analyses a scan runs after a photo's renditions (docs/ARCHITECTURE.md,
/// "Analyses"): the table a new analysis is added to, and how they run on what a decode made.
public enum AnalysisStages {
    /// The analyses every deployment runs, in the order each photo gets them.
    public static let all: [any PhotoAnalysis] = [PictureHashing()]

    /// The analyses of a scan on one machine with `configuration`: `all`, then faces unless
    /// `faces: false`, or their models are missing or damaged (said once a process, and the scan
    /// goes on without them).
    public static func enabled(by configuration: Configuration, logger: Logger) -> [any PhotoAnalysis] {
        guard configuration.faces else { return all }
        let found = faceFinding.withLock { known -> Result<FaceFinding, FaceError> in
            if let known { return known }
            let made = FaceModels.installed(
                environment: ProcessInfo.processInfo.environment, executable: CurrentProcess.executable
            ).flatMap { models in Result { () throws(FaceError) in try FaceFinding(models: models) } }
            known = made
            return made
        }
        switch found {
        case .success(let finding): return all + [finding]
        case .failure(let error):
            if !saidNoFaces.exchange(true, ordering: .relaxed) {
                logger.warning("no faces are found: \(error)")
            }
            return all
        }
    }

    /// The models are loaded once a process (a daemon makes a scanner for every scan).
    private static let faceFinding = Mutex<Result<FaceFinding, FaceError>?>(nil)
    private static let saidNoFaces = Atomic<Bool>(false)

    /// Each analysis's version, as the index's queue keeps them.
    static func versions(of analyses: [any PhotoAnalysis]) -> [AnalysisName: Int] {
        Dictionary(analyses.map { ($0.name, $0.version) }) { first, _ in first }
    }

    /// The images a decode is asked to keep for `analyses`, beside its placeholder-size one:
    /// a whole-photo fit of each size an analysis wants above that.
    static func keeping(for analyses: [any PhotoAnalysis]) -> [RenditionSpec] {
        Set(analyses.map(\.imageSize).filter { $0 > Renderer.placeholderSide }).sorted().map { .fit($0) }
    }

    /// Every analysis of `analyses` on what one decode made (`rendered`): pending, for the
    /// analysis stage, when it made no whole image (a crop).
    static func run(
        _ analyses: [any PhotoAnalysis], on rendered: Renderer.Rendered, facts: AnalysisFacts?
    ) -> [AnalysisResult] {
        let images = (rendered.whole.map { [$0] } ?? []) + rendered.images.filter { $0.key.kind == .fit }.map(\.value)
        return analyses.map { analysis in
            analysis.result(of: images.isEmpty ? nil : analysis.image(among: images), facts: facts)
        }
    }

    /// What a copy of indexed content takes from the photo whose renditions it shares: each
    /// output that photo has, the others pending.
    static func copied(_ analyses: [any PhotoAnalysis], outputs: [AnalysisOutput]) -> [AnalysisResult] {
        analyses.map { analysis in
            let output = outputs.first { $0.name == analysis.name }
            return AnalysisResult(
                name: analysis.name, version: analysis.version, outcome: output.map { .done($0) } ?? .pending)
        }
    }
}
