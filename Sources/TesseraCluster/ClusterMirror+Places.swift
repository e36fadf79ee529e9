import Foundation
import TesseraConfiguration
import TesseraIndex
import TesseraPlaces
import TesseraSystem

extension ClusterMirror {
    /// Names the places of the file's photos as a scan on one machine does (docs/PLACES.md), from
    /// the positions its rows hold: the same code, the same data, the configuration's corrections.
    func namePlaces(in file: PhotoIndex) throws(IndexError) {
        let places = PlaceNamer(
            data: PlaceFinder.installed(
                environment: ProcessInfo.processInfo.environment, executable: CurrentProcess.executable),
            corrections: configuration.placeCorrections, roots: configuration.roots)
        _ = try file.refreshPlaces(data: places.identity) { places.place($0) }
    }
}
