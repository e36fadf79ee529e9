/// A section of photos, newest first, and how photos are grouped into sections (docs/LAYOUT.md §1.4).
struct Section {
    struct Photo {
        let record: LayoutPhoto
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
        _ records: [LayoutPhoto], by groupBy: LayoutConfig.GroupBy, sparse: LayoutConfig.GroupBy = .auto
    ) -> [Section] {
        let photos = records.map { record in
            let (aspect, estimated) = record.aspect
            return Photo(
                record: record, aspect: aspect, aspectEstimated: estimated,
                key: record.capturedAt.flatMap(CaptureKey.init), limit: record.heightLimit)
        }
        let dated = photos.filter { $0.key != nil }
        let undated = photos.filter { $0.key == nil }.sorted { byteOrder($0.record.id, $1.record.id) }
        func newestFirst(_ a: Photo, _ b: Photo) -> Bool {
            let (ka, kb) = (a.key?.sortValue ?? 0, b.key?.sortValue ?? 0)
            return ka != kb ? ka > kb : byteOrder(a.record.id, b.record.id)
        }
        var sections: [Section] = []
        var level = groupBy == .auto ? autoLevel(dated.compactMap(\.key)) : groupBy
        if level == .auto { level = sparse }
        switch level {
        case .none:
            let all = dated.sorted(by: newestFirst) + undated
            if !all.isEmpty { sections.append(Section(id: allID, title: "", photos: all)) }
            return sections
        case .auto:
            // Sparse at every level (a few photos over many years): the dated ones together, under
            // the years they span, so the page still says when they are from.
            let years = dated.compactMap(\.key?.year)
            if let oldest = years.min(), let newest = years.max() {
                let span = oldest == newest ? newest : "\(oldest) – \(newest)"
                sections.append(Section(id: datedID, title: span, photos: dated.sorted(by: newestFirst)))
            }
        case let level:
            var groups: [String: [Photo]] = [:]
            for photo in dated {
                guard let key = photo.key else { continue }
                groups[level.key(key), default: []].append(photo)
            }
            for key in groups.keys.sorted(by: >) {
                sections.append(Section(id: key, title: key, photos: (groups[key] ?? []).sorted(by: newestFirst)))
            }
        }
        if !undated.isEmpty { sections.append(Section(id: "undated", title: "undated", photos: undated)) }
        return sections
    }

    /// At most this share of `auto`'s sections may hold fewer than `autoMinimum` photos.
    static let autoSparseShare = 0.25
    /// About a row's worth: fewer leaves most of a row empty.
    static let autoMinimum = 4

    /// The finest level at which at most a quarter of the sections hold fewer than four photos
    /// (a folder of one photo a day is shown by month or year, a day's outing by day); `auto`
    /// itself when even years are that sparse: one section of the dated photos, under the
    /// years they span.
    static func autoLevel(_ keys: [CaptureKey]) -> LayoutConfig.GroupBy {
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
        switch self {
        case .day: key.day
        case .month: key.month
        case .year, .auto, .none: key.year
        }
    }
}
