import Foundation
public import SystemPackage
import TesseraDesktop
import TesseraFacts
import TesseraImage
import TesseraLayout
import TesseraSystem
import Yams

extension Configuration {
    /// Every key the file may hold; anything else is an error that names it.
    enum Key: String, CaseIterable {
        case roots, exclude, followSymlinks = "follow_symlinks", index, cache, workers, pixelLimit = "pixel_limit"
        case memoryLimit = "memory_limit", timeZone = "time_zone", thumbnails, controlSocket = "control_socket"
        case scanOnStart = "scan_on_start", rescanInterval = "rescan_interval", watch, albumDirectory = "album_dir"
        case albumStyle = "album_style", albumOriginals = "album_originals", albumOrder = "album_order"
        case albumShowCopies = "album_show_copies", albumPeople = "album_people"
        case keepMissingDays = "keep_missing_days"
        case cacheCheckInterval = "cache_check_interval", desktopThumbnails = "desktop_thumbnails"
        case desktopThumbnailSizes = "desktop_thumbnail_sizes"
        case webVideos = "web_videos", webVideoThreads = "web_video_threads"
        case indexURL = "index_url", renditionsURL = "renditions_url", renditionsCredentials = "renditions_credentials"
        case placeCorrections = "place_corrections", privateZones = "private_zones", privateAlbums = "private_albums"
        case faces
    }

    /// The keys of the `thumbnails` mapping (`sizes` is the name `square` had before fits).
    enum ThumbnailKey: String, CaseIterable {
        case square, fit, sizes, format, quality, background, colorManagement = "color_management"
        case embeddedPreviews = "embedded_previews"
    }

    /// Overlays the settings in `yaml` (the text of `file`).
    public mutating func apply(yaml: String, file: FilePath, home: String) throws(ConfigurationError) {
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch {
            if let duplicate = Self.duplicateKey(in: yaml) {
                throw ConfigurationError(
                    file: file, key: duplicate.key, "given twice (first on line \(duplicate.first))",
                    at: duplicate.second)
            }
            // Yams appends a multi-line snippet; the first two lines say where and what.
            let lines = "\(error)".split(separator: "\n").prefix(2).map { $0.trimmingCharacters(in: .whitespaces) }
            throw ConfigurationError(file: file, key: nil, "not valid YAML: \(lines.joined(separator: " "))")
        }
        guard let node else { return }  // an empty file: defaults
        guard case .mapping(let mapping) = node else {
            throw ConfigurationError(file: file, key: nil, "must be a mapping of keys to values")
        }
        let reader = KeyReader(file: file, home: home)
        for (keyNode, value) in mapping {
            let name = keyNode.string ?? "\(keyNode)"
            guard let key = Key(rawValue: name) else {
                throw ConfigurationError(
                    file: file, key: name,
                    "unknown key" + Self.suggestion(for: name, among: Key.allCases.map(\.rawValue)),
                    at: keyNode.position)
            }
            switch key {
            case .roots:
                roots = try reader.list(value, name).map { (item) throws(ConfigurationError) in
                    try reader.path(item, name)
                }
                guard !roots.isEmpty else {
                    throw ConfigurationError(file: file, key: name, "needs at least one folder", at: value.position)
                }
                rootsFromFile = true
            case .exclude:
                exclude = try reader.list(value, name).map { (item) throws(ConfigurationError) in
                    try reader.string(item, name)
                }
            case .followSymlinks: followSymlinks = try reader.bool(value, name)
            case .index: index = try reader.path(value, name)
            case .indexURL:
                let text = try reader.string(value, name)
                guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") else {
                    throw ConfigurationError(
                        file: file, key: name, "must be a postgres:// address (docs/SCALE.md)", at: value.position)
                }
                indexURL = text
            case .renditionsURL:
                let text = try reader.string(value, name)
                guard text.hasPrefix("s3://"), text.count > 5 else {
                    throw ConfigurationError(
                        file: file, key: name, "must be an s3://BUCKET/PREFIX address (docs/SCALE.md)",
                        at: value.position)
                }
                renditionsURL = text
            case .renditionsCredentials: renditionsCredentials = try reader.path(value, name)
            case .cache: cache = try reader.path(value, name)
            case .workers: workers = try reader.int(value, name, 0...1024)
            case .pixelLimit: rendering.pixelLimit = try reader.int(value, name, 1...100_000) * 1_000_000
            case .memoryLimit: rendering.memoryLimit = try reader.int(value, name, RenderOptions.memoryLimitsMiB) << 20
            case .timeZone:
                let zoneName = try reader.string(value, name)
                if zoneName != "system" {
                    guard let zone = TimeZone(identifier: zoneName) else {
                        throw ConfigurationError(
                            file: file, key: name, "unknown time zone \"\(zoneName)\"", at: value.position)
                    }
                    timeZone = zone
                }
            case .thumbnails: try applyThumbnails(value, reader)
            case .placeCorrections, .privateZones, .privateAlbums: try applyLists(key, value, reader)
            case .controlSocket: controlSocket = try reader.path(value, name)
            case .scanOnStart: scanOnStart = try reader.bool(value, name)
            case .rescanInterval: rescanInterval = try reader.int(value, name, 0...31_536_000)
            case .cacheCheckInterval: cacheCheckInterval = try reader.int(value, name, 0...31_536_000)
            case .watch: watch = try reader.bool(value, name)
            case .albumDirectory: albumDirectory = try reader.path(value, name)
            case .albumStyle: albumStyle = try reader.choice(value, name)
            case .albumOriginals: albumOriginals = try reader.choice(value, name)
            case .albumOrder: albumOrder = try reader.choice(value, name)
            case .albumShowCopies: albumShowCopies = try reader.bool(value, name)
            case .albumPeople: albumPeople = try reader.choice(value, name)
            case .keepMissingDays: keepMissingDays = try reader.int(value, name, 0...3650)
            case .webVideos: webVideos = try reader.bool(value, name)
            case .faces: faces = try reader.bool(value, name)
            case .webVideoThreads: webVideoThreads = try reader.int(value, name, 1...64)
            case .desktopThumbnails: desktopThumbnails = try reader.choice(value, name)
            case .desktopThumbnailSizes:
                desktopThumbnailSizes = Array(
                    Set(
                        try reader.list(value, name).map {
                            (item) throws(ConfigurationError) -> DesktopThumbnailCache.Size in
                            try reader.choice(item, name)
                        })
                ).sorted()
            }
        }
    }

    private mutating func applyThumbnails(_ node: Node, _ reader: KeyReader) throws(ConfigurationError) {
        guard case .mapping(let mapping) = node else {
            throw ConfigurationError(file: reader.file, key: "thumbnails", "must be a mapping", at: node.position)
        }
        var squares: [Int]?
        var fits: [Int]?
        for (keyNode, value) in mapping {
            let name = keyNode.string ?? "\(keyNode)"
            let key = "thumbnails.\(name)"
            guard let thumbnailKey = ThumbnailKey(rawValue: name) else {
                throw ConfigurationError(
                    file: reader.file, key: key,
                    "unknown key" + Self.suggestion(for: name, among: ThumbnailKey.allCases.map(\.rawValue)),
                    at: keyNode.position)
            }
            switch thumbnailKey {
            case .square, .sizes:
                guard squares == nil else {
                    throw ConfigurationError(
                        file: reader.file, key: key, "'sizes' is the older name of 'square': give only one of them",
                        at: keyNode.position)
                }
                squares = try reader.list(value, key).map { (item) throws(ConfigurationError) in
                    try reader.int(item, key, Self.squareSizes)
                }
            case .fit:
                fits = try reader.list(value, key).map { (item) throws(ConfigurationError) in
                    try reader.int(item, key, Self.fitSizes)
                }
            case .format:
                let text = try reader.string(value, key)
                guard let format = ImageFormat(rawValue: text), format.traits.encodable else {
                    let names = ImageFormat.all(\.encodable).map(\.rawValue)
                    throw ConfigurationError(
                        file: reader.file, key: key, "must be \(Wording.either(names)), not \"\(text)\"",
                        at: value.position)
                }
                rendering.format = format
            case .quality: rendering.quality = try reader.int(value, key, RenderOptions.qualities)
            case .background:
                let text = try reader.string(value, key)
                guard let color = RenderOptions.Color(hex: text) else {
                    throw ConfigurationError(
                        file: reader.file, key: key, "must be a colour like \"#ffffff\"", at: value.position)
                }
                rendering.background = color
            case .colorManagement: rendering.colorManagement = try reader.bool(value, key)
            case .embeddedPreviews: rendering.embeddedPreviews = try reader.bool(value, key)
            }
        }
        let squareSpecs =
            squares.map { $0.map { RenditionSpec.square($0) } } ?? renditions.filter { $0.kind == .square }
        let fitSpecs = fits.map { $0.map { RenditionSpec.fit($0) } } ?? renditions.filter { $0.kind == .fit }
        renditions = Array(Set(squareSpecs + fitSpecs)).sorted()
        guard !renditions.isEmpty else {
            throw ConfigurationError(
                file: reader.file, key: "thumbnails", "needs at least one square or fit size", at: node.position)
        }
    }

    /// A key given twice in one mapping (which YAML refuses without saying where): the first
    /// one found, with the line of its first place and the line and column of its second.
    ///
    /// Keys at the same indentation under
    /// the same parent count as one mapping.
    static func duplicateKey(in yaml: String) -> (key: String, first: Int, second: (line: Int, column: Int))? {
        var seen: [[String]: Int] = [:]  // the path of keys down to a key, and its line
        var parents: [(indent: Int, key: String)] = []
        for (number, line) in yaml.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indent)
            guard let colon = rest.firstIndex(of: ":"), !rest.hasPrefix("#"), !rest.hasPrefix("-") else { continue }
            let key = rest[..<colon].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, !key.contains(" ") else { continue }
            while let last = parents.last, last.indent >= indent { parents.removeLast() }
            let path = parents.map(\.key) + [key]
            if let first = seen[path] { return (path.joined(separator: "."), first, (number + 1, indent + 1)) }
            seen[path] = number + 1
            parents.append((indent, key))
        }
        return nil
    }

    /// ", did you mean 'x'?" for the known key nearest to a mistyped one (at most a third of its
    /// letters off), else nothing.
    static func suggestion(for name: String, among known: [String]) -> String {
        let scored = known.map { ($0, editDistance(Array(name.lowercased()), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return "" }
        return "; did you mean '\(best.0)'?"
    }

    /// Levenshtein distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Sizes a rendition may have: from the smallest useful square to the long edge of a 8K screen.
    static let squareSizes = 16...4096
    static let fitSizes = 16...8192
}

/// Typed reads of YAML values that name the key when the type is wrong.
struct KeyReader {
    let file: FilePath
    let home: String

    func fail(_ key: String, _ expected: String, _ node: Node) -> ConfigurationError {
        let shown = node.string.map { "\"\($0)\"" } ?? "a \(Self.kind(node))"
        return ConfigurationError(file: file, key: key, "must be \(expected), not \(shown)", at: node.position)
    }

    static func kind(_ node: Node) -> String {
        switch node {
        case .mapping: "mapping"
        case .sequence: "list"
        default: "value"
        }
    }

    func string(_ node: Node, _ key: String) throws(ConfigurationError) -> String {
        guard case .scalar(let scalar) = node else { throw fail(key, "text", node) }
        return scalar.string
    }

    /// One of an enumeration's names.
    func choice<Choice: CaseIterable & RawRepresentable<String>>(
        _ node: Node, _ key: String
    ) throws(ConfigurationError) -> Choice {
        let text = try string(node, key)
        guard let parsed = Choice(rawValue: text) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(
                file: file, key: key, "must be one of \(allowed), not \"\(text)\"", at: node.position)
        }
        return parsed
    }

    func int(_ node: Node, _ key: String, _ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard case .scalar = node, let value = node.int else { throw fail(key, "a whole number", node) }
        guard range.contains(value) else {
            throw ConfigurationError(
                file: file, key: key, "must be between \(range.lowerBound) and \(range.upperBound)", at: node.position)
        }
        return value
    }

    func bool(_ node: Node, _ key: String) throws(ConfigurationError) -> Bool {
        guard case .scalar = node, let value = node.bool else { throw fail(key, "true or false", node) }
        return value
    }

    func list(_ node: Node, _ key: String) throws(ConfigurationError) -> [Node] {
        switch node {
        case .sequence(let sequence): return Array(sequence)
        case .scalar: return [node]  // a single value stands for a list of one
        default: throw fail(key, "a list", node)
        }
    }

    func path(_ node: Node, _ key: String) throws(ConfigurationError) -> FilePath {
        let text = try string(node, key)
        guard !text.isEmpty else {
            throw ConfigurationError(file: file, key: key, "must not be empty", at: node.position)
        }
        if text == "~" { return FilePath(home) }
        if text.hasPrefix("~/") { return FilePath(home).appending(String(text.dropFirst(2))) }
        return FilePath(text)
    }
}

extension Node {
    /// Where the node starts in its file: line and column, from 1.
    var position: (line: Int, column: Int)? { mark.map { ($0.line, $0.column) } }
}
