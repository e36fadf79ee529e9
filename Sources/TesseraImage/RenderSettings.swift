public import TesseraFacts
public import TesseraMetadata
import TesseraSystem

/// What a photo's renditions answer to: the kinds and sizes configured, and every option that
/// changes their pixels.
///
/// The one owner of both texts a scan records with a photo, the cache key its rendition files
/// are named by and `render_settings`. It sits beside the `Renderer` because it must follow
/// the renderer's choices: an option joins a photo's key exactly when it can change that
/// photo's pixels.
public struct RenderSettings: Sendable, Equatable {
    public var renditions: [RenditionSpec]
    public var options: RenderOptions
    /// The fits the desktop thumbnail cache gets (`DesktopThumbnailCache.specs`), none when off.
    public var desktop: [RenditionSpec]

    public init(renditions: [RenditionSpec], options: RenderOptions, desktop: [RenditionSpec] = []) {
        self.renditions = renditions
        self.options = options
        self.desktop = desktop
    }

    /// `render_settings`: the kinds and sizes (the desktop cache's as `desktop-<size>`), then
    /// the pixel settings, such as `fit-1024,square-256,desktop-256;jpeg:q85:bg[255, 255, 255]:srgb:previews`.
    ///
    /// A photo whose record differs gets its renditions brought up to date on the next scan.
    public var recorded: String {
        let specs =
            renditions.sorted().map { "\($0.kind.rawValue)-\($0.size)" } + desktop.sorted().map { "desktop-\($0.size)" }
        return "\(specs.joined(separator: ","));\(pixelSettings)"
    }

    /// `recorded` without the desktop cache's sizes: what a photo whose desktop thumbnails could
    /// not be written records, so that the next scan makes them.
    public var recordedWithoutDesktop: String {
        var without = self
        without.desktop = []
        return without.recorded
    }

    /// Whether a photo recorded under `recorded` has this configuration's desktop thumbnails.
    public func hasDesktopThumbnails(asRecorded recorded: String?) -> Bool {
        guard let recorded, let separator = recorded.firstIndex(of: ";") else { return desktop.isEmpty }
        let kept = Set(recorded[..<separator].split(separator: ",").filter { $0.hasPrefix("desktop-") })
        return kept == Set(desktop.map { Substring("desktop-\($0.size)") })
    }

    /// The part of `recorded` that changes pixels: when it is unchanged, so is every photo's key.
    private var pixelSettings: String {
        options.encodingSettings + (options.colorManagement ? ":srgb" : ":as-stored")
            + (options.embeddedPreviews ? ":previews" : ":no-previews")
    }

    /// Whether renditions recorded under `recorded` (a photo's `render_settings`) were made with
    /// these pixel settings: then no photo's key changed, and one need not be read to know it.
    public func samePixels(asRecorded recorded: String?) -> Bool {
        guard let recorded, let separator = recorded.firstIndex(of: ";") else { return false }
        return recorded[recorded.index(after: separator)...] == pixelSettings
    }

    /// The cache key of one photo's renditions: its content hash with each setting that can
    /// change its pixels.
    ///
    /// - Colour management only for a photo with an ICC profile.
    /// - Embedded previews only where the renderer can take one: a JPEG's MPF or EXIF previews
    ///   (`:previews` when on) and a HEIF's thumbnail items (`:no-thumbnails` when off, so that
    ///   the keys of HEIF photos made with the default stay what they were).
    /// - HDR photos are tone-mapped (they were narrowed without before `Renderer.decoders` 2).
    /// - HEIF photos with a clean aperture are cropped to it (not before `Renderer.decoders` 3).
    ///
    /// The formula of the first schema is kept for photos none of these concern, so their
    /// cached renditions stay valid across upgrades.
    public func cacheKey(contentHash: String, metadata: PhotoMetadata) -> String {
        var key = "\(contentHash):\(options.encodingSettings):v1"
        if options.colorManagement && metadata.hasICCProfile { key += ":srgb" }
        if options.embeddedPreviews && !(metadata.jpeg?.previews.isEmpty ?? true) { key += ":previews" }
        if !options.embeddedPreviews && !(metadata.heif?.thumbnails.isEmpty ?? true) { key += ":no-thumbnails" }
        if metadata.hdrTransfer != nil { key += ":tone-mapped" }
        // Cropped to the clean aperture since `Renderer.decoders` 3.
        if metadata.heif?.cleanAperture != nil { key += ":clean-aperture" }
        if metadata.sidecarTurnsPhoto { key += ":orientation-\(metadata.orientation)" }
        return XXH64.hex(XXH64.hash(Array(key.utf8)))
    }
}
