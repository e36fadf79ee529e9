import TesseraFacts
import TesseraImage
import TesseraIndex
import TesseraMetadata

/// The renditions an image element offers the browser for one frame, described so that the
/// browser picks the smallest one with enough pixels at the screen's pixel ratio.
struct ImageSources {
    /// How the frame shows the photo.
    enum Fit {
        /// The whole photo, its aspect exact: fit renditions only (squares would crop).
        case whole
        /// Filled and cropped to the frame: squares, and fits where squares have too few pixels.
        case cover
    }

    struct Candidate: Equatable, Codable, Sendable {
        /// Relative to the output folder.
        var path: String
        /// The width of the largest region of the frame's aspect inside the image: what the
        /// `w` descriptor says, so that descriptor ÷ CSS width is the device pixels per CSS pixel.
        var descriptor: Int
    }

    let candidates: [Candidate]

    /// - Parameter placed: a rendition's path relative to the output, nil when it is missing.
    init(_ photo: PhotoRecord, width: Double, height: Double, fit: Fit, placed: (RenditionEntry) -> String?) {
        let fits = photo.renditions.filter { $0.spec.kind == .fit }
        let usable = fit == .whole && !fits.isEmpty ? fits : photo.renditions
        let aspect = height > 0 ? width / height : 1
        var byDescriptor: [Int: Candidate] = [:]
        for entry in usable.sorted(by: { $0.width * $0.height < $1.width * $1.height })
        where entry.width > 0 && entry.height > 0 {
            let descriptor = Int(min(Double(entry.width), (Double(entry.height) * aspect).rounded(.down)))
            guard descriptor > 0, byDescriptor[descriptor] == nil, let path = placed(entry) else { continue }
            byDescriptor[descriptor] = Candidate(path: path, descriptor: descriptor)
        }
        candidates = byDescriptor.values.sorted { $0.descriptor < $1.descriptor }
    }

    /// Candidates chosen before (a card's, kept in the build's manifest).
    init(candidates: [Candidate]) {
        self.candidates = candidates
    }

    /// The `src` for browsers without `srcset`: the smallest with one device pixel per CSS pixel.
    func fallback(width: Double) -> Candidate? {
        candidates.first { Double($0.descriptor) >= width } ?? candidates.last
    }

    /// The `srcset` value, URLs relative to a page `prefix` deep.
    func srcset(prefix: String) -> String {
        candidates.map { "\(prefix)\(HTML.url(Array($0.path.utf8))) \($0.descriptor)w" }.joined(separator: ", ")
    }
}
