import Foundation
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// The albums as the folder tree: each under the folder above it, and every folder between an
/// album and its root a node too, though it holds no photo of its own (`Trips` above
/// `Trips/2023/Rome`): its page shows the albums inside it.
///
/// Nodes are `AlbumRecord`s. A folder's has an id below zero, derived from its path (the same
/// in every build), and its descendants' photo count and dates.
struct AlbumTree {
    /// Every node, deepest first: a node's albums come before it.
    private(set) var nodes: [AlbumRecord] = []
    /// The nodes no other holds, in the site's order.
    private(set) var roots: [AlbumRecord] = []
    /// The nodes inside each node, in the site's order.
    private(set) var children: [Int64: [AlbumRecord]] = [:]
    private var parent: [Int64: AlbumRecord] = [:]
    /// The dates of the photos in each node and below it.
    private var spans: [Int64: (oldest: String?, newest: String?)] = [:]

    init(_ albums: [AlbumRecord], order: AlbumOrder) {
        var byPath = Dictionary(albums.map { ($0.pathBytes, $0) }, uniquingKeysWith: { first, _ in first })
        var parentPath: [[UInt8]: [UInt8]] = [:]
        for album in albums {
            // Up one folder at a time, while still inside the album's root (its name is relative
            // to it); a folder on the way that is no album becomes a node.
            var path = album.pathBytes
            var components = album.name.split(separator: "/", omittingEmptySubsequences: false)
            if album.name.isEmpty { components = [] }
            while !components.isEmpty, let slash = path.lastIndex(of: UInt8(ascii: "/")) {
                let above = Array(path[..<slash])
                components.removeLast()
                if components.isEmpty {
                    // The root itself is a node only when it is an album (photos directly in it).
                    if byPath[above] != nil { parentPath[path] = above }
                    break
                }
                parentPath[path] = above
                if byPath[above] != nil { break }
                byPath[above] = AlbumRecord(
                    id: Self.folderID(above), pathBytes: above, name: components.joined(separator: "/"),
                    photoCount: 0)
                path = above
            }
        }
        // Each album's photos and dates count in every node above it.
        for album in albums {
            var path = album.pathBytes
            var steps = 0
            spans[album.id] = Self.span(spans[album.id], album)
            while let above = parentPath[path], steps < 256, var node = byPath[above] {
                spans[node.id] = Self.span(spans[node.id], album)
                if Self.isFolder(node) {
                    node.photoCount += album.photoCount
                    (node.oldestCapturedAt, node.newestCapturedAt) = spans[node.id] ?? (nil, nil)
                    byPath[above] = node
                }
                path = above
                steps += 1
            }
        }
        var depth: [Int64: Int] = [:]
        func depthOf(_ path: [UInt8]) -> Int {
            var (count, current) = (0, path)
            while let above = parentPath[current], count < 256 { (count, current) = (count + 1, above) }
            return count
        }
        for node in byPath.values {
            depth[node.id] = depthOf(node.pathBytes)
            if let above = parentPath[node.pathBytes].flatMap({ byPath[$0] }) {
                parent[node.id] = above
                children[above.id, default: []].append(node)
            } else {
                roots.append(node)
            }
        }
        let before = Self.ordering(order, newest: { [spans] in spans[$0.id]?.newest })
        roots.sort(by: before)
        for id in children.keys { children[id]?.sort(by: before) }
        nodes = byPath.values.sorted { first, second in
            let (one, two) = (depth[first.id] ?? 0, depth[second.id] ?? 0)
            return one != two ? one > two : first.pathBytes.lexicographicallyPrecedes(second.pathBytes)
        }
    }

    /// Whether the node is a folder that holds albums only.
    static func isFolder(_ node: AlbumRecord) -> Bool { node.id < 0 }

    /// From the outermost node down to the node's parent.
    func ancestors(of id: Int64) -> [AlbumRecord] {
        var chain: [AlbumRecord] = []
        var current = parent[id]
        while let node = current, chain.count < 256 {
            chain.insert(node, at: 0)
            current = parent[node.id]
        }
        return chain
    }

    /// The node's own name, below its parent ("Rome" in "Trips/2023/Rome").
    func title(_ node: AlbumRecord) -> String {
        let own = AlbumBuilder.title(node)
        guard let above = parent[node.id], !above.name.isEmpty, own.hasPrefix(above.name + "/") else {
            return own.split(separator: "/").last.map(String.init) ?? own
        }
        return String(own.dropFirst(above.name.count + 1))
    }

    /// `nodes`, those with the newest photos first.
    func newestFirst(_ nodes: [AlbumRecord]) -> [AlbumRecord] {
        nodes.sorted { first, second in
            let (one, two) = (spans[first.id]?.newest ?? "", spans[second.id]?.newest ?? "")
            return one != two ? one > two : first.pathBytes.lexicographicallyPrecedes(second.pathBytes)
        }
    }

    /// A folder's id: below zero, and the same for the same path in every build.
    private static func folderID(_ path: [UInt8]) -> Int64 {
        -Int64(XXH64.hash(path) >> 2) - 1
    }

    private static func ordering(
        _ order: AlbumOrder, newest: @escaping (AlbumRecord) -> String?
    ) -> (AlbumRecord, AlbumRecord) -> Bool {
        let byName = { (first: AlbumRecord, second: AlbumRecord) -> Bool in
            switch first.name.compare(second.name, options: [.caseInsensitive, .numeric]) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: first.pathBytes.lexicographicallyPrecedes(second.pathBytes)
            }
        }
        switch order {
        case .name: return byName
        case .date:
            return { first, second in
                let (one, two) = (newest(first) ?? "", newest(second) ?? "")
                return one != two ? one > two : byName(first, second)
            }
        }
    }

    /// "2023-05-01 – 2024-07-02", or one day: the dates of the node's photos and those below it.
    func range(of node: AlbumRecord) -> String {
        var dated = node
        (dated.oldestCapturedAt, dated.newestCapturedAt) = spans[node.id] ?? (nil, nil)
        return AlbumBuilder.dateRange(dated)
    }

    /// `span` widened by the album's dates.
    private static func span(
        _ span: (oldest: String?, newest: String?)?, _ album: AlbumRecord
    ) -> (oldest: String?, newest: String?) {
        func pick(_ one: String?, _ two: String?, _ better: (String, String) -> String) -> String? {
            guard let one, let two else { return one ?? two }
            return better(one, two)
        }
        return (
            pick(span?.oldest, album.oldestCapturedAt, min), pick(span?.newest, album.newestCapturedAt, max)
        )
    }
}
