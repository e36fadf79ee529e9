/// A section of photos, newest first, and how photos are grouped into sections (docs/LAYOUT.md §1.4).
struct Section {
    struct Photo {
        let record: LayoutPhoto
        let aspect: Double
        let aspectEstimated: Bool
        let key: CaptureKey?
    }

    let id: String
    let title: String
    let photos: [Photo]

    /// Sections newest first by key, undated last; photos newest first, ties by id bytes.
    static func group(_ records: [LayoutPhoto], by groupBy: LayoutConfig.GroupBy) -> [Section] {
        let photos = records.map { record in
            let (aspect, estimated) = record.aspect
            return Photo(record: record, aspect: aspect, aspectEstimated: estimated, key: record.capturedAt.flatMap(CaptureKey.init))
        }
        let dated = photos.filter { $0.key != nil }
        let undated = photos.filter { $0.key == nil }.sorted { byteOrder($0.record.id, $1.record.id) }
        func newestFirst(_ a: Photo, _ b: Photo) -> Bool {
            let (ka, kb) = (a.key?.sortValue ?? 0, b.key?.sortValue ?? 0)
            return ka != kb ? ka > kb : byteOrder(a.record.id, b.record.id)
        }
        var sections: [Section] = []
        switch groupBy {
        case .none:
            let all = dated.sorted(by: newestFirst) + undated
            if !all.isEmpty { sections.append(Section(id: "all", title: "", photos: all)) }
            return sections
        case .day, .month:
            var groups: [String: [Photo]] = [:]
            for photo in dated {
                guard let key = photo.key else { continue }
                groups[groupBy == .day ? key.day : key.month, default: []].append(photo)
            }
            for key in groups.keys.sorted(by: >) {
                sections.append(Section(id: key, title: key, photos: (groups[key] ?? []).sorted(by: newestFirst)))
            }
        }
        if !undated.isEmpty { sections.append(Section(id: "undated", title: "undated", photos: undated)) }
        return sections
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
