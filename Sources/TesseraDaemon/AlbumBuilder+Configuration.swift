public import SystemPackage
public import TesseraAlbum
public import TesseraConfiguration

extension AlbumBuilder.Options {
    /// The site the configuration describes, written to `output`.
    public init(_ configuration: Configuration, output: FilePath) {
        self.init(
            output: output, style: configuration.albumStyle, originals: configuration.albumOriginals,
            order: configuration.albumOrder, showCopies: configuration.albumShowCopies)
        privateZones = configuration.privateZones
        people = configuration.albumPeople
        privateAlbums = configuration.privateAlbums
        // (beside the renditions, so a private album's are hard-linked while it is sealed)
        privateWork = configuration.cache.appending("private-albums")
        basemap = Self.installedBasemap
    }
}
