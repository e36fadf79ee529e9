import Foundation
import TesseraConfiguration
import TesseraIndex
import TesseraPlaces
import TesseraSystem

extension ClusterMirror {
    /// What a scan on one machine does with the rows it wrote, from what they hold, with the same
    /// code: names the places of their photos (docs/PLACES.md: the same data, the configuration's
    /// corrections), and gives the faces the workers found their people (docs/PEOPLE.md).
    func analyse(_ file: PhotoIndex) throws(IndexError) {
        let places = PlaceNamer(
            data: PlaceFinder.installed(
                environment: ProcessInfo.processInfo.environment, executable: CurrentProcess.executable),
            corrections: configuration.placeCorrections, roots: configuration.roots)
        _ = try file.refreshPlaces(data: places.identity) { places.place($0) }
        _ = try file.fitFaceBuckets()
        _ = try file.groupFaces(batch: 256)
    }
}
