/// A section of photos, newest first, and how photos are grouped into sections (docs/LAYOUT.md §1.4).
struct Section {
    /// What the styles need of a photo: not its record, whose capture time (a text of its own)
    /// a collection of many need not keep once its sections are made.
    struct Photo {
        let id: String
        /// `LayoutPhoto.bodyHeight`.
        let bodyHeight: Double?
        let aspect: Double
        let aspectEstimated: Bool
        let key: CaptureKey?
        /// `LayoutPhoto.heightLimit`.
        let limit: Double
    }

    let id: String
    let title: String
    let photos: [Photo]

    /// The id of the one section of `none`.
    static let allID = "all"
    /// The id of `auto`'s one section of dated photos, when they are sparse at every level.
    static let datedID = "dated"

    /// Sections newest first by key, undated last; photos newest first, ties by id bytes.
    ///
    /// `sparse`: the level `auto` takes when the photos are sparse at every level; `auto`
    /// itself gathers the dated ones in one section. Sections side by side (§4.4) take months:
    /// small sections share rows there, and a month's label fits over one photo.
    static func group(
        _ records: some RandomAccessCollection<LayoutPhoto>, by groupBy: LayoutConfig.GroupBy,
        sparse: LayoutConfig.GroupBy = .auto
    ) -> [Section] {
        // What ordering needs of each photo (a few words), sorted in place; each photo is made
        // once, into its section: a collection of any size is held once, as its sections.
        var order: [Place] = []
        order.reserveCapacity(records.count)
        for (position, record) in records.enumerated() {
            order.append(Place(position: position, key: record.capturedAt.flatMap(CaptureKey.init), id: record.id))
        }
        let split = order.partition { $0.key == nil }
        order[split...].sort { byteOrder($0.id, $1.id) }
        func photos(_ places: ArraySlice<Place>) -> [Photo] {
            places.map { place in
                let record = records[records.index(records.startIndex, offsetBy: place.position)]
                let (aspect, estimated) = record.aspect
                return Photo(
                    id: record.id, bodyHeight: record.bodyHeight, aspect: aspect, aspectEstimated: estimated,
                    key: place.key, limit: record.heightLimit)
            }
        }
        func newestFirst(_ a: Place, _ b: Place) -> Bool {
            let (ka, kb) = (a.key?.sortValue ?? 0, b.key?.sortValue ?? 0)
            return ka != kb ? ka > kb : byteOrder(a.id, b.id)
        }
        var sections: [Section] = []
        var level = groupBy == .auto ? autoLevel(order[..<split].lazy.compactMap(\.key)) : groupBy
        if level == .auto { level = sparse }
        switch level {
        case .none:
            order[..<split].sort(by: newestFirst)
            if !order.isEmpty { sections.append(Section(id: allID, title: "", photos: photos(order[...]))) }
            return sections
        case .auto:
            // Sparse at every level (a few photos over many years): the dated ones together, under
            // the years they span, so the page still says when they are from.
            order[..<split].sort(by: newestFirst)
            let years = order[..<split].compactMap(\.key?.year)
            if let oldest = years.min(), let newest = years.max() {
                let span = oldest == newest ? newest : "\(oldest) – \(newest)"
                sections.append(Section(id: datedID, title: span, photos: photos(order[..<split])))
            }
        case let level:
            // Newest section first (keys compared as the text they are), newest photo first in each.
            let width = level.keyLength
            func section(_ place: Place) -> Substring.UTF8View { (place.key?.day ?? "").utf8.prefix(width) }
            order[..<split].sort { a, b in
                let (first, second) = (section(a), section(b))
                return first.elementsEqual(second) ? newestFirst(a, b) : second.lexicographicallyPrecedes(first)
            }
            var start = 0
            while start < split {
                let key = section(order[start])
                var end = start + 1
                while end < split && section(order[end]).elementsEqual(key) { end += 1 }
                let title = String(Substring(key))
                sections.append(Section(id: title, title: title, photos: photos(order[start..<end])))
                start = end
            }
        }
        if split < order.count {
            sections.append(Section(id: "undated", title: "undated", photos: photos(order[split...])))
        }
        return sections
    }

    /// A photo's place among the others: its position in the input, and what orders it.
    private struct Place {
        let position: Int
        let key: CaptureKey?
        let id: String
    }

    /// At most this share of `auto`'s sections may hold fewer than `autoMinimum` photos.
    static let autoSparseShare = 0.25
    /// About a row's worth: fewer leaves most of a row empty.
    static let autoMinimum = 4

    /// The finest level at which at most a quarter of the sections hold fewer than four photos
    /// (a folder of one photo a day is shown by month or year, a day's outing by day); `auto`
    /// itself when even years are that sparse: one section of the dated photos, under the
    /// years they span.
    static func autoLevel(_ keys: some Swift.Collection<CaptureKey>) -> LayoutConfig.GroupBy {
        for level in [LayoutConfig.GroupBy.day, .month, .year] {
            var counts: [String: Int] = [:]
            for key in keys { counts[level.key(key), default: 0] += 1 }
            let sparse = counts.values.filter { $0 < autoMinimum }.count
            if Double(sparse) <= autoSparseShare * Double(counts.count) { return level }
        }
        return .auto
    }

    /// This section's photos laid out in `style` at width `width`.
    func body(style: LayoutConfig.Style, width: Double, config: LayoutConfig) -> Body {
        body(of: photos, style: style, width: width, config: config)
    }

    func body(of photos: [Photo], style: LayoutConfig.Style, width: Double, config: LayoutConfig) -> Body {
        switch style {
        case .tiles: Tiles.layout(photos, width: width, config: config)
        case .masonry: Masonry.layout(photos, width: width, config: config)
        case .grid: Grid.layout(photos, width: width, config: config)
        case .strip: Strip.layout(photos, width: width, config: config)
        case .justified:
            config.justifiedGreedy
                ? FlickrJustified.layout(photos, width: width, config: config)
                : OptimalRows.layout(photos, width: width, config: config)
        }
    }
}

extension LayoutConfig.GroupBy {
    /// The section key of a dated photo at this level.
    func key(_ key: CaptureKey) -> String {
        String(key.day.prefix(keyLength))
    }

    /// How much of a day (`YYYY-MM-DD`) the key at this level is.
    var keyLength: Int {
        switch self {
        case .day: 10
        case .month: 7
        case .year, .auto, .none: 4
        }
    }
}
