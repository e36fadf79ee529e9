/// Sections side by side in `justified` (`sections.coalesce`, docs/LAYOUT.md §4.4 as this
/// engine does it).
///
/// The pieces' photos flow through one set of optimal rows, so that every row fills the width
/// (but a last row, which stops at the largest row height): small day groups share rows, as in
/// Google Photos, instead of each taking a row it leaves mostly empty. A piece that fits one row
/// at the target height is never split; a larger one may begin mid-row at a cost (`midRowStart`),
/// with two photos in that row at least, so that its date mostly stands over a row of its own
/// and never over a lone photo at a row's end. Photos of different pieces are `sectionSpacing`
/// apart in a row, and a row where pieces begin has a band above it holding each one's label
/// over its own photos.
enum FlowRows {
    /// One section's photos on the page.
    struct Piece {
        let section: Section
        let photos: ArraySlice<Section.Photo>
        let continued: Bool
    }

    /// The pieces placed from `y` down: items in piece order (each header, then its photos).
    static func place(
        _ pieces: [Piece], y top: Double, config: LayoutConfig
    ) -> (
        items: [LayoutItem], height: Double, records: [LayoutSection]
    ) {
        let pad = config.justifiedPadding
        let width = config.contentWidth - pad.left - pad.right
        let flat = pieces.enumerated().flatMap { number, piece in piece.photos.map { (number, $0) } }
        guard !flat.isEmpty, width > 0 else { return ([], 0, []) }
        let labelled = pieces.map {
            config.groupBy != .none && $0.section.id != Section.allID && config.headerHeight > 0
        }
        let rows = Self.rows(pieces: pieces, width: width, config: config)
        let aspects = flat.map(\.1.aspect)
        let limits = flat.map { config.noEnlarge ? $0.1.limit : .infinity }
        // Where each piece's photos start in the flow.
        var starts: [Int] = [], total = 0
        for piece in pieces {
            starts.append(total)
            total += piece.photos.count
        }
        let maxHeight = config.maxRowHeight ?? 2 * config.targetRowHeight
        let p = config.photoPadding
        var headers: [Int: [LayoutItem]] = [:]
        var photos: [Int: [LayoutItem]] = [:]
        var spans: [Int: (top: Double, bottom: Double)] = [:]
        var y = top + pad.top
        for (number, row) in rows.enumerated() {
            let free =
                config.noEnlarge
                ? OptimalRows.fitted(row.indices, aspects: aspects, limits: limits, available: row.available)
                : row.height
            let heights = row.indices.map { min(free, maxHeight, limits[$0]) }
            let rowHeight = heights.max() ?? 0
            let begins = row.indices.filter { k in
                labelled[flat[k].0] && (k == 0 || flat[k - 1].0 != flat[k].0)
            }
            if number > 0 { y += begins.isEmpty ? config.spacingVertical : config.sectionSpacing }
            let band = y
            if !begins.isEmpty { y += config.headerHeight }
            var x = config.insets.left + pad.left
            var runs: [Int: (left: Double, right: Double)] = [:]
            for (k, height) in zip(row.indices, heights) {
                let (piece, photo) = flat[k]
                if k > row.indices.lowerBound { x += gap(config, flat[k - 1].0 == piece) }
                let frameWidth = photo.aspect * height
                let index = pieces[piece].photos.startIndex + k - starts[piece]
                photos[piece, default: []].append(
                    LayoutItem(
                        type: .photo, sectionId: pieces[piece].section.id, photoId: photo.id, index: index,
                        x: x + p, y: y + p + (rowHeight - height) / 2, width: frameWidth, height: height, crop: false,
                        aspectEstimated: photo.aspectEstimated, clipped: false))
                runs[piece] = (runs[piece]?.left ?? x, x + frameWidth + 2 * p)
                let span = spans[piece]
                spans[piece] = (span?.top ?? band, y + rowHeight + 2 * p)
                x += frameWidth + 2 * p
            }
            for k in begins {
                let piece = flat[k].0
                guard let run = runs[piece] else { continue }
                headers[piece] = [
                    LayoutItem(
                        type: .header, sectionId: pieces[piece].section.id, title: pieces[piece].section.title,
                        continued: pieces[piece].continued, x: run.left, y: band, width: run.right - run.left,
                        height: config.headerHeight, clipped: false)
                ]
            }
            y += rowHeight + 2 * p
        }
        var items: [LayoutItem] = []
        var records: [LayoutSection] = []
        for (number, piece) in pieces.enumerated() {
            items += (headers[number] ?? []) + (photos[number] ?? [])
            let span = spans[number] ?? (top, top)
            records.append(
                LayoutSection(
                    id: piece.section.id, title: piece.section.title, photoCount: piece.section.photos.count,
                    y: span.top, height: span.bottom - span.top))
        }
        return (items, y + pad.bottom - top, records)
    }

    /// What a large piece beginning mid-row costs, in squared target heights: as much as one
    /// photo drawn about 70 % off the target, so that a day's first row is its own unless that
    /// leaves a row short.
    static let midRowStart = 0.5

    /// The space between two photos in a row: the photo spacing within a piece, the section
    /// spacing between two.
    static func gap(_ config: LayoutConfig, _ samePiece: Bool) -> Double {
        samePiece ? config.spacingHorizontal : config.sectionSpacing
    }

    /// Minimum-cost rows over all the pieces' photos (OptimalRows' cost and tie rule), breaking
    /// only where a row may end: between pieces, or inside a piece too large for one row.
    struct Row {
        var indices: Range<Int>
        /// The photos' height when the row spans the width.
        var height: Double
        /// The width the row leaves its photos (without the gaps between them).
        var available: Double
    }

    static func rows(pieces: [Piece], width: Double, config: LayoutConfig) -> [Row] {
        let target = config.targetRowHeight, p = config.photoPadding
        var aspects: [Double] = []
        var owner: [Int] = []
        var atomic: [Bool] = []
        for (number, piece) in pieces.enumerated() {
            let sum = piece.photos.reduce(0) { $0 + $1.aspect }
            let count = Double(piece.photos.count)
            atomic.append(sum * target + (count - 1) * config.spacingHorizontal + 2 * p * count <= width)
            for photo in piece.photos {
                aspects.append(photo.aspect)
                owner.append(number)
            }
        }
        let n = aspects.count
        // A row may end before photo j when j starts or ends the flow, or a piece, or falls inside a large one.
        func breakable(_ j: Int) -> Bool { j == 0 || j == n || owner[j - 1] != owner[j] || !atomic[owner[j]] }
        // largeStarts[k]: how many of photos 0..<k begin a large piece, which a row holds but
        // first at a cost.
        var largeStarts = [0]
        for k in 0..<n {
            largeStarts.append(largeStarts[k] + (!atomic[owner[k]] && (k == 0 || owner[k - 1] != owner[k]) ? 1 : 0))
        }
        func midStarts(_ i: Int, _ j: Int) -> Double { j - i < 2 ? 0 : Double(largeStarts[j] - largeStarts[i + 1]) }
        // lastLargeStart[j]: the last photo before j that begins a large piece (-1: none). One
        // begun mid-row has two photos in that row at least, so its date has room over them.
        var lastLargeStart = [-1]
        for k in 0..<n {
            let begins = !atomic[owner[k]] && (k == 0 || owner[k - 1] != owner[k])
            lastLargeStart.append(begins ? k : lastLargeStart[k])
        }
        func roomy(_ i: Int, _ j: Int) -> Bool { lastLargeStart[j] <= i || j - lastLargeStart[j] >= 2 }
        let penalty = midRowStart * target * target
        // prefix[k]: the aspects of photos 0..<k; gaps[k]: the gaps between photos 0...k, so a
        // row i..<j holds gaps[j - 1] - gaps[i] of them.
        var prefix = [0.0], gaps = [0.0]
        for k in 0..<n {
            prefix.append(prefix[k] + aspects[k])
            if k > 0 { gaps.append(gaps[k - 1] + gap(config, owner[k - 1] == owner[k])) }
        }
        func available(_ i: Int, _ j: Int) -> Double { width - (gaps[j - 1] - gaps[i]) - 2 * p * Double(j - i) }
        func height(_ i: Int, _ j: Int) -> Double { available(i, j) / (prefix[j] - prefix[i]) }
        let minAspect = aspects.min() ?? 1
        var longest = 0
        for (number, piece) in pieces.enumerated() where atomic[number] { longest = max(longest, piece.photos.count) }
        let maximum = max(1, Int(saturating: roundHalfUp(width / target / minAspect + 0x1p-52) + 2), longest)
        var cost = [Double](repeating: .infinity, count: n + 1)
        var previous = [Int](repeating: -1, count: n + 1)
        cost[0] = 0
        for j in 1...n where breakable(j) {
            var i = j - 1
            while i >= max(0, j - maximum) {
                defer { i -= 1 }
                guard breakable(i), cost[i].isFinite, roomy(i, j) else { continue }
                let h = height(i, j)
                guard h > 0 else { break }
                let candidate = cost[i] + Double(j - i) * (h - target) * (h - target) + midStarts(i, j) * penalty
                if !cost[j].isFinite || (candidate < cost[j] && (candidate == 0 || cost[j] / candidate > 1.005)) {
                    cost[j] = candidate
                    previous[j] = i
                }
            }
        }
        var rows: [Row] = []
        var end = n
        // (no finite cost: each breakable stretch its own row, as wide as the width allows)
        while end > 0 {
            var start = previous[end]
            if start < 0 {
                start = end - 1
                while !breakable(start) { start -= 1 }
            }
            rows.append(Row(indices: start..<end, height: height(start, end), available: available(start, end)))
            end = start
        }
        return rows.reversed()
    }
}
