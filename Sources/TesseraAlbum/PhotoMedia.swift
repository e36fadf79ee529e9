import TesseraFacts
import TesseraIndex

/// Where a photo's pictures are in the output, and the size they show it at: what its tiles,
/// the lightbox and the page without script link to.
enum PhotoMedia {
    /// The photo's fit renditions (its squares when it has none), smallest first, as placed in
    /// the output, each file once: what a viewer shows.
    static func sources(_ photo: PhotoRecord, media: MediaFolder) -> [(path: String, width: Int)] {
        let fits = photo.renditions.filter { $0.spec.kind == .fit }
        var sources: [(path: String, width: Int)] = []
        // The fits a small photo is under all name one file.
        for entry in (fits.isEmpty ? photo.renditions : fits).sorted(by: { $0.width < $1.width }) {
            guard let path = media.rendition(entry.path), !sources.contains(where: { $0.path == path }) else {
                continue
            }
            sources.append((path, entry.width))
        }
        return sources
    }

    /// The original, placed in the output as the options say; relative to the output.
    static func original(_ photo: PhotoRecord, media: MediaFolder, folders: AlbumFolders) -> String? {
        guard let folder = folders[photo.albumID] else { return nil }
        return media.original(photo, albumFolder: String(folder.dropFirst("albums/".count))).map {
            HTML.url(Array($0.utf8))
        }
    }

    /// The pixels per CSS pixel a page's renditions cover: a 2× screen's.
    static let pixelRatio = 2.0

    /// The most a page may draw the photo at, in CSS pixels: its size as displayed, or, when
    /// its largest rendition has fewer pixels, half that rendition's (`pixelRatio`), so that
    /// every frame is sharp on a 2× screen.
    static func drawableSize(_ photo: PhotoRecord) -> (width: Int, height: Int) {
        let size = displaySize(photo)
        let fits = photo.renditions.filter { $0.spec.kind == .fit && $0.width > 0 && $0.height > 0 }
        let candidates = fits.isEmpty ? photo.renditions.filter { $0.width > 0 && $0.height > 0 } : fits
        guard let largest = candidates.max(by: { $0.width * $0.height < $1.width * $1.height }) else { return size }
        var scale = min(
            1, Double(largest.width) / Double(size.width), Double(largest.height) / Double(size.height))
        guard scale < 1 else { return size }
        // Drawn from a rendition smaller than the photo: at half its pixels, so that a screen of
        // pixel ratio 2 gets two device pixels a CSS pixel (a photo smaller than its renditions
        // would be is drawn at its own size: nothing sharper exists).
        scale /= Self.pixelRatio
        return (
            max(1, Int((Double(size.width) * scale).rounded())), max(1, Int((Double(size.height) * scale).rounded()))
        )
    }

    /// The photo's size as displayed, from the index (its largest rendition when the index lacks it).
    static func displaySize(_ photo: PhotoRecord) -> (width: Int, height: Int) {
        if let width = photo.displayWidth, let height = photo.displayHeight, width > 0, height > 0 {
            return (width, height)
        }
        let largest = photo.renditions.max { $0.width * $0.height < $1.width * $1.height }
        return (max(1, largest?.width ?? 1), max(1, largest?.height ?? 1))
    }
}
