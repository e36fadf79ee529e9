import Foundation
import SystemPackage
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// The library's map, `map.html` at the site's top (docs/PLACES.md): Debian's Leaflet and the
/// installed basemap tiles placed into the site, and the photos' clusters of every zoom as
/// scripts a page opened from disk can load (`map/<zoom>/<x>-<y>.js`, each 8 × 8 tiles of its
/// zoom), which the page loads for the area and zoom it shows.
///
/// Written again only when the index changed since the map was (its key in `map/key.js`).
struct MapPages {
    let index: any PhotoReading
    let output: OutputFolder
    let options: AlbumBuilder.Options
    let tree: AlbumTree
    /// What the map shows depends on: the index's change counter and the site's options.
    let key: String

    /// Tiles a side of one data file.
    static let chunkTiles = 8
    /// Where Debian's libjs-leaflet installs Leaflet.
    static let leaflet = FilePath("/usr/share/javascript/leaflet")

    /// What a build of the map did: nil photos when it was left as it was.
    struct Result {
        var photos: Int?
        var files = 0
    }

    /// Whether this machine has Leaflet to place into the site.
    static var hasLeaflet: Bool { isFile(leaflet.appending("leaflet.js")) }

    func run() throws(AlbumError) -> Result {
        let hasLeaflet = Self.hasLeaflet
        let tiles = try placeBasemap()
        if hasLeaflet { try placeLeaflet() }
        try output.writeIfChanged(String(decoding: PackageResources.map_js, as: UTF8.self), to: "assets/map.js")
        let fullKey = "\(key)|\(hasLeaflet)|\(tiles)"
        try output.writeIfChanged(Self.page(leaflet: hasLeaflet), to: "map.html")
        if FileSystem.smallFileContents(output.path("map/key.txt"), limit: 4096) == Array(fullKey.utf8) {
            return Result()
        }
        var clusters = MapClusters()
        var shown: [Int64: String?] = [:]
        var failure: AlbumError?
        do {
            try index.forEachMapPoint(options.shown(PhotoQuery())) { point in
                guard failure == nil else { return }
                // (a photo in a private zone is nowhere on the map)
                let position = GPSPosition(latitude: point.latitude, longitude: point.longitude)
                guard !options.privateZones.contains(where: { $0.contains(position) }) else { return }
                if shown[point.albumID] == nil {
                    do throws(AlbumError) {
                        shown[point.albumID] = .some(try tree.folders(of: [point.albumID])[point.albumID])
                    } catch {
                        failure = error
                    }
                }
                guard case .some(.some) = shown[point.albumID] else { return }
                clusters.add(point)
            }
        } catch {
            throw AlbumError(.index, "\(error)")
        }
        if let failure { throw failure }
        clusters.finish()
        let files = try write(clusters, folders: shown.compactMapValues { $0 }, tiles: tiles)
        try output.write(fullKey, to: "map/key.txt")
        return Result(photos: clusters.count, files: files)
    }

    /// Writes every zoom's files and the index of them into a new `map/`, and puts it in place.
    private func write(
        _ clusters: MapClusters, folders: [Int64: String], tiles: Bool
    ) throws(AlbumError) -> Int {
        // Each file written only when it changed (a photo added changes a few of them); the key
        // goes first, so a build stopped meanwhile leaves the next one to write them all again.
        try output.remove("map/key.txt")
        var kept: Set<String> = ["map/index.js"]
        var chunksByZoom: [String] = []
        var files = 0
        var bounds = (minX: 1.0, minY: 1.0, maxX: 0.0, maxY: 0.0)
        for (zoom, level) in clusters.zooms.enumerated() {
            var chunks: [MapClusters.Cell: [String]] = [:]
            let shift = Self.chunkShift
            // (in the cells' order: the same index writes the same bytes, whatever the hashing)
            for (cell, cluster) in level.sorted(by: { ($0.key.y, $0.key.x) < ($1.key.y, $1.key.x) }) {
                chunks[MapClusters.Cell(x: cell.x >> shift, y: cell.y >> shift), default: []].append(
                    item(cluster, clusters.covers[cluster.cover], folders: folders))
                if zoom == 0 {
                    bounds = (
                        min(bounds.minX, cluster.minX), min(bounds.minY, cluster.minY),
                        max(bounds.maxX, cluster.maxX), max(bounds.maxY, cluster.maxY)
                    )
                }
            }
            var names: [String] = []
            for (chunk, items) in chunks.sorted(by: { ($0.key.x, $0.key.y) < ($1.key.x, $1.key.y) }) {
                let name = "\(chunk.x)-\(chunk.y)"
                names.append(JSONString.quoted(name))
                let file = "map/\(zoom)/\(name).js"
                try output.writeIfChanged(
                    "tesseraMap.chunk(\(zoom),\"\(name)\",[\n\(items.joined(separator: ",\n"))\n]);\n", to: file)
                kept.insert(file)
                files += 1
            }
            chunksByZoom.append("[\(names.joined(separator: ","))]")
        }
        let (south, west) = MapClusters.position(x: bounds.minX, y: bounds.maxY)
        let (north, east) = MapClusters.position(x: bounds.maxX, y: bounds.minY)
        let box =
            clusters.count == 0
            ? "null" : "[[\(Self.degrees(south)),\(Self.degrees(west))],[\(Self.degrees(north)),\(Self.degrees(east))]]"
        try output.write(
            """
            window.tesseraMapIndex = {"photos":\(clusters.count),"maxZoom":\(MapClusters.maxZoom),\
            "chunkTiles":\(Self.chunkTiles),"cellsPerTile":\(MapClusters.cellsPerTile),"tiles":\(tiles),\
            "bounds":\(box),"chunks":[\(chunksByZoom.joined(separator: ","))]};

            """, to: "map/index.js")
        try removeFiles(notIn: kept, zooms: clusters.zooms.count)
        return files + 1
    }

    /// Removes the data files of zooms and areas that have no photos any more.
    private func removeFiles(notIn kept: Set<String>, zooms: Int) throws(AlbumError) {
        for entry in AlbumBuilder.folders(in: "map", of: output) where !kept.contains(entry) {
            let zoom = entry.dropFirst("map/".count)
            guard let level = Int(zoom), (0..<zooms).contains(level) else {
                if entry != "map/key.txt" { try output.remove(entry) }
                continue
            }
            for file in AlbumBuilder.folders(in: entry, of: output) where !kept.contains(file) {
                try output.remove(file)
            }
        }
    }

    /// Cells of a zoom to a data file: `cellsPerTile` × `chunkTiles` cells a side.
    private static let chunkShift = (MapClusters.cellsPerTile * chunkTiles).trailingZeroBitCount

    /// One cluster: [latitude, longitude, count, thumbnail, link, name] and, for more than one
    /// photo, the box they lie in [south, west, north, east].
    private func item(_ cluster: MapClusters.Cluster, _ cover: MapPoint, folders: [Int64: String]) -> String {
        let n = Double(cluster.count)
        let (latitude, longitude) = MapClusters.position(x: cluster.sumX / n, y: cluster.sumY / n)
        let thumb = cover.square.map { JSONString.quoted(MediaFolder.relative(cachePath: $0)) } ?? "null"
        let link =
            (folders[cover.albumID]).map {
                JSONString.quoted(HTML.url(Array($0.utf8)) + "/index.html#photo-\(cover.id)")
            } ?? "null"
        var fields = [
            Self.degrees(latitude), Self.degrees(longitude), String(cluster.count), thumb, link,
            cover.placeName.map(JSONString.quoted) ?? "null",
        ]
        if cluster.count > 1 {
            let (south, west) = MapClusters.position(x: cluster.minX, y: cluster.maxY)
            let (north, east) = MapClusters.position(x: cluster.maxX, y: cluster.minY)
            fields += [south, west, north, east].map(Self.degrees)
        }
        return "[\(fields.joined(separator: ","))]"
    }

    /// Five decimals: a metre.
    private static func degrees(_ value: Double) -> String {
        String(format: "%.5f", value)
    }

    /// Leaflet's script, style sheet and images, from the installed package (never kept in the project).
    private func placeLeaflet() throws(AlbumError) {
        for name in ["leaflet.js", "leaflet.css", "images/layers.png", "images/layers-2x.png"] {
            try place(Self.leaflet.appending(name), at: "assets/leaflet/" + name)
        }
    }

    /// The basemap's tiles under `assets/basemap/`, once per site (their ATTRIBUTION file says
    /// which): whether there are tiles.
    private func placeBasemap() throws(AlbumError) -> Bool {
        guard let source = options.basemap else {
            try output.remove("assets/basemap")
            return false
        }
        let attribution = source.appending("ATTRIBUTION")
        let placed = FileSystem.smallFileContents(output.path("assets/basemap/ATTRIBUTION"), limit: 4096)
        guard placed == nil || placed != FileSystem.smallFileContents(attribution, limit: 4096) else { return true }
        let staging = "assets/basemap" + AlbumBuilder.staging
        _ = try output.recreate(staging)
        for zoom in 0...6 {
            for x in 0..<(1 << zoom) {
                for y in 0..<(1 << zoom) {
                    try place(source.appending("\(zoom)/\(x)/\(y).png"), at: "\(staging)/\(zoom)/\(x)/\(y).png")
                }
            }
        }
        try place(attribution, at: staging + "/ATTRIBUTION")
        try output.replace("assets/basemap", with: staging)
        return true
    }

    /// A hard link to `source` at `relative`, or a copy where a link cannot be made.
    private func place(_ source: FilePath, at relative: String) throws(AlbumError) {
        try output.parent(of: relative)
        let target = output.path(relative)
        if (try? FileSystem.linkStatus(of: target))?.type == .regular,
            (try? FileSystem.linkStatus(of: target))?.size == (try? FileSystem.linkStatus(of: source))?.size
        {
            return
        }
        try? output.remove(relative)
        do throws(SystemError) {
            if (try? FileSystem.hardLink(source, at: target)) == nil {
                _ = try FileSystem.copyFile(source, to: target, replacing: true)
            }
        } catch {
            throw AlbumError(.output, "\(target): cannot place \(source): \(error)")
        }
    }

    /// The basemap folder scripts/install-places.sh installs: `$TESSERA_BASEMAP` alone when set;
    /// else `basemap/` beside the executable, `../share/tessera/basemap` from its folder, then
    /// `/usr/share/tessera/basemap`.
    static func installedBasemap(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: FilePath? = CurrentProcess.executable
    ) -> FilePath? {
        var candidates: [FilePath] = []
        if let named = environment["TESSERA_BASEMAP"], !named.isEmpty {
            candidates = [FilePath(named)]
        } else {
            if let folder = executable?.removingLastComponent() {
                candidates += [
                    folder.appending("basemap"),
                    folder.removingLastComponent().appending(["share", "tessera", "basemap"]),
                ]
            }
            candidates.append(FilePath("/usr/share/tessera/basemap"))
        }
        return candidates.first { Self.isFile($0.appending("ATTRIBUTION")) }
    }

    private static func isFile(_ path: FilePath) -> Bool {
        (try? FileSystem.status(of: path))?.type == .regular
    }

    /// `map.html`: the map filling the window under the site's header, or what it needs.
    static func page(leaflet: Bool) -> String {
        let body =
            leaflet
            ? "<div id=\"map\"></div><script src=\"assets/leaflet/leaflet.js\"></script>"
                + "<script src=\"map/index.js\"></script><script src=\"assets/map.js\"></script>"
            : "<p class=\"map-missing\">The map is drawn with Leaflet, which the machine that built this site "
                + "did not have (Debian's libjs-leaflet).</p>"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>Map</title>
            <link rel="stylesheet" href="assets/album.css">
            <link rel="stylesheet" href="assets/leaflet/leaflet.css">
            <link rel="icon" href="assets/icon.svg" type="image/svg+xml">
            </head>
            <body class="map-page">
            <header>\(SitePages.crumbs)<h1>Map</h1></header>
            \(body)
            </body>
            </html>

            """
    }
}
