import Foundation
import TesseraIndex

/// The map's photos gathered, zoom by zoom, into clusters of the photos that would overlap.
///
/// (docs/PLACES.md) At each zoom the world is a grid of `cellsPerTile`² cells a 256-px tile,
/// and a cell's photos are one cluster, drawn at their mean position as the newest one's
/// thumbnail with their count. Computed at the closest zoom, then merged cell by cell upwards,
/// so the cost is the photos once and the clusters once per zoom.
struct MapClusters {
    /// The closest zoom with clusters of its own: cells of about 150 m.
    static let maxZoom = 16
    static let cellsPerTile = 4

    struct Cell: Hashable {
        var x: Int
        var y: Int
    }

    struct Cluster {
        var count: Int
        /// Sums of the photos' positions (Web Mercator, 0–1), for their mean.
        var sumX: Double
        var sumY: Double
        var minX: Double
        var minY: Double
        var maxX: Double
        var maxY: Double
        /// The newest photo's place among `covers`.
        var cover: Int

        mutating func absorb(_ other: Cluster) {
            count += other.count
            (sumX, sumY) = (sumX + other.sumX, sumY + other.sumY)
            (minX, minY, maxX, maxY) = (
                min(minX, other.minX), min(minY, other.minY), max(maxX, other.maxX), max(maxY, other.maxY)
            )
            cover = min(cover, other.cover)
        }
    }

    /// Each zoom's clusters, from 0 to `maxZoom`.
    private(set) var zooms: [[Cell: Cluster]] = []
    /// The photos that cover a cluster at the closest zoom, newest first.
    private(set) var covers: [MapPoint] = []
    private var closest: [Cell: Cluster] = [:]
    private(set) var count = 0

    /// Adds a photo; photos come newest first.
    mutating func add(_ point: MapPoint) {
        let (x, y) = Self.mercator(latitude: point.latitude, longitude: point.longitude)
        let cells = Double((1 << Self.maxZoom) * Self.cellsPerTile)
        let cell = Cell(x: min(Int(x * cells), Int(cells) - 1), y: min(Int(y * cells), Int(cells) - 1))
        count += 1
        if closest[cell] != nil {
            closest[cell]?.absorb(Cluster(count: 1, sumX: x, sumY: y, minX: x, minY: y, maxX: x, maxY: y, cover: .max))
        } else {
            closest[cell] = Cluster(count: 1, sumX: x, sumY: y, minX: x, minY: y, maxX: x, maxY: y, cover: covers.count)
            covers.append(point)
        }
    }

    /// Merges the closest zoom's clusters up to zoom 0.
    mutating func finish() {
        var levels = [closest]
        closest = [:]
        for _ in 0..<Self.maxZoom {
            var upper: [Cell: Cluster] = [:]
            for (cell, cluster) in levels[levels.count - 1] {
                upper[
                    Cell(x: cell.x >> 1, y: cell.y >> 1),
                    default: Cluster(
                        count: 0, sumX: 0, sumY: 0, minX: 1, minY: 1, maxX: 0, maxY: 0, cover: .max)
                ].absorb(cluster)
            }
            levels.append(upper)
        }
        zooms = levels.reversed()
    }

    /// Web Mercator's square, 0–1 from the west and from the north (latitudes past ±85.05° at its edges).
    static func mercator(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let limit = 85.051_128_78
        let phi = min(max(latitude, -limit), limit) * .pi / 180
        let x = (longitude + 180) / 360
        let y = (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2
        return (min(max(x, 0), 1), min(max(y, 0), 1))
    }

    /// The latitude and longitude of a point of the square.
    static func position(x: Double, y: Double) -> (latitude: Double, longitude: Double) {
        let n = Double.pi - 2 * .pi * y
        return (180 / .pi * atan(0.5 * (exp(n) - exp(-n))), x * 360 - 180)
    }
}
