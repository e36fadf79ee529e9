/// Minimum-cost row breaking, react-photo-album's rows layout (docs/LAYOUT.md §3.5.2).
public enum OptimalRows {
    public struct Params: Sendable, Equatable {
        public var containerWidth: Double
        public var spacing: Double
        public var padding: Double
        public var targetRowHeight: Double
        public var minPhotos: Int?
        public var maxPhotos: Int?
        /// Album extension: a last row taller than the target costs nothing and is drawn ragged at T.
        public var raggedLastRow = false

        public init(
            containerWidth: Double, spacing: Double, padding: Double, targetRowHeight: Double,
            minPhotos: Int? = nil, maxPhotos: Int? = nil
        ) {
            self.containerWidth = containerWidth
            self.spacing = spacing
            self.padding = padding
            self.targetRowHeight = targetRowHeight
            self.minPhotos = minPhotos
            self.maxPhotos = maxPhotos
        }
    }

    /// One row: the photo indices, their image height, and whether it is the ragged last row.
    public struct Row: Sendable, Equatable {
        public var indices: Range<Int>
        public var height: Double
        public var ragged: Bool
    }

    /// The rows, or nil when no layout satisfies the constraints.
    public static func rows(aspects: [Double], params: Params) -> [Row]? {
        let n = aspects.count
        guard n > 0 else { return [] }
        let width = params.containerWidth, s = params.spacing, p = params.padding, target = params.targetRowHeight
        var prefix = [0.0]
        for aspect in aspects { prefix.append(prefix[prefix.count - 1] + aspect) }
        func height(_ i: Int, _ j: Int) -> Double {
            let count = Double(j - i)
            return (width - (count - 1) * s - 2 * p * count) / (prefix[j] - prefix[i])
        }
        let minAspect = aspects.min() ?? 1
        let minimum = params.minPhotos ?? 1
        let automatic = Int(
            saturating: roundHalfUp(width / target / minAspect + 0x1p-52) + Double(params.minPhotos ?? 0) + 2)
        let maximum = max(1, min(automatic, params.maxPhotos ?? Int.max))
        var cost = [Double](repeating: .infinity, count: n + 1)
        var previous = [Int](repeating: -1, count: n + 1)
        cost[0] = 0
        for j in 1...n {
            var i = j - minimum
            while i >= max(0, j - maximum) {
                defer { i -= 1 }
                guard cost[i].isFinite else { continue }
                let h = height(i, j)
                guard h > 0 else { break }
                let rowCost =
                    params.raggedLastRow && j == n && h > target ? 0 : Double(j - i) * (h - target) * (h - target)
                let candidate = cost[i] + rowCost
                if !cost[j].isFinite || (candidate < cost[j] && (candidate == 0 || cost[j] / candidate > 1.005)) {
                    cost[j] = candidate
                    previous[j] = i
                }
            }
        }
        guard cost[n].isFinite else { return nil }
        var rows: [Row] = []
        var end = n
        while end > 0 {
            let start = previous[end]
            let count = Double(end - start)
            let sum = aspects[start..<end].reduce(0, +)
            let h = (width - (count - 1) * s - 2 * p * count) / sum
            let ragged = params.raggedLastRow && end == n && h > target
            rows.append(Row(indices: start..<end, height: ragged ? target : h, ragged: ragged))
            end = start
        }
        return rows.reversed()
    }

    /// The height of a row's photos that are not held at their own size, when `available` is
    /// the width left for photos: a photo whose `limits` is below the height keeps that height,
    /// and the others share what it leaves; infinite when every photo is held.
    static func fitted(_ indices: Range<Int>, aspects: [Double], limits: [Double], available: Double) -> Double {
        var held = [Bool](repeating: false, count: indices.count)
        while true {
            var fixed = 0.0, free = 0.0
            for k in indices {
                if held[k - indices.lowerBound] { fixed += aspects[k] * limits[k] } else { free += aspects[k] }
            }
            guard free > 0 else { return .infinity }
            let height = (available - fixed) / free
            var more = false
            for k in indices where !held[k - indices.lowerBound] && limits[k] < height {
                held[k - indices.lowerBound] = true
                more = true
            }
            if !more { return height }
        }
    }

    /// The album's default `justified` style.
    static func layout(_ photos: [Section.Photo], width contentWidth: Double, config: LayoutConfig) -> Body {
        var body = Body()
        guard !photos.isEmpty else { return body }
        let pad = config.justifiedPadding
        let rowWidth = contentWidth - pad.left - pad.right
        guard rowWidth > 0 else {
            body.warnings.append(("contentWidthTooSmall", "no row width left inside the padding"))
            return body
        }
        let aspects = photos.map(\.aspect)
        var params = Params(
            containerWidth: rowWidth, spacing: config.spacingHorizontal, padding: config.photoPadding,
            targetRowHeight: config.targetRowHeight, minPhotos: config.minPhotosPerRow,
            maxPhotos: config.maxPhotosPerRow)
        params.raggedLastRow = config.lastRowRagged
        var rows = Self.rows(aspects: aspects, params: params)
        if rows == nil && (params.minPhotos != nil || params.maxPhotos != nil) {
            params.minPhotos = nil
            params.maxPhotos = nil
            rows = Self.rows(aspects: aspects, params: params)
            body.warnings.append(("constraintsRelaxed", "minPhotosPerRow/maxPhotosPerRow dropped"))
        }
        guard let rows else {
            body.warnings.append(("contentWidthTooSmall", "no row fits the width"))
            return body
        }
        let maxHeight = config.maxRowHeight ?? 2 * config.targetRowHeight
        let padding = config.photoPadding
        let limits = photos.map { config.noEnlarge ? $0.limit : .infinity }
        var y = pad.top
        for row in rows {
            let count = Double(row.indices.count)
            let free =
                row.ragged || !config.noEnlarge
                ? row.height
                : fitted(
                    row.indices, aspects: aspects, limits: limits,
                    available: rowWidth - (count - 1) * config.spacingHorizontal - 2 * padding * count)
            let heights = row.indices.map { min(free, maxHeight, limits[$0]) }
            let rowHeight = heights.max() ?? 0
            var x = pad.left
            for (index, height) in zip(row.indices, heights) {
                let width = aspects[index] * height
                // (a photo held at its own size sits in the middle of the row's height)
                var item = Body.Item(
                    photo: index, x: x + padding, y: y + padding + (rowHeight - height) / 2, width: width,
                    height: height)
                item.crop = false
                body.items.append(item)
                x += width + 2 * padding + config.spacingHorizontal
            }
            y += rowHeight + 2 * padding + config.spacingVertical
        }
        body.height = y - config.spacingVertical + pad.bottom
        return body
    }
}
