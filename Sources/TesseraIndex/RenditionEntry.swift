public import TesseraFacts

/// One rendition file of a photo, as the `renditions` table records it.
public struct RenditionEntry: Sendable, Equatable {
    public var spec: RenditionSpec
    /// Pixel size as displayed (after orientation).
    public var width: Int
    public var height: Int
    /// The file's size; nil for renditions recorded before sizes were (schema 2 thumbnails).
    public var bytes: Int?
    /// The file's absolute path.
    public var path: String
    public var source: RenditionSource

    public init(spec: RenditionSpec, width: Int, height: Int, bytes: Int?, path: String, source: RenditionSource) {
        self.spec = spec
        self.width = width
        self.height = height
        self.bytes = bytes
        self.path = path
        self.source = source
    }
}

/// New or replaced renditions of an indexed photo whose file did not change: what a
/// scan writes when the configured sizes or settings did.
public struct RenditionUpdate: Sendable {
    public var photoID: Int64
    /// The key the renditions are named by (new when a setting that changes pixels changed).
    public var key: String
    /// Renditions made now; rows of the same kind and size are replaced.
    public var renditions: [RenditionEntry]
    /// The configured kinds and sizes: rows of any other go.
    public var configured: Set<RenditionSpec>
    public var thumbhash: [UInt8]?
    /// The settings the photo's renditions now answer to (`render_settings`).
    public var settings: String
    /// `PhotoRenditions.analyses`; an analysis not named keeps what is recorded.
    public var analyses: [AnalysisResult]

    public init(
        photoID: Int64, key: String, renditions: [RenditionEntry], configured: Set<RenditionSpec>, thumbhash: [UInt8]?,
        settings: String, analyses: [AnalysisResult] = []
    ) {
        self.photoID = photoID
        self.key = key
        self.renditions = renditions
        self.configured = configured
        self.thumbhash = thumbhash
        self.settings = settings
        self.analyses = analyses
    }
}
