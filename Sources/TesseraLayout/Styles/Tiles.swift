/// `tiles`: one social-post cell per section (docs/LAYOUT.md §3.1).
enum Tiles {
    /// How tall a one-photo cell that keeps its aspect may be, as a share of the width.
    static let singleTallest = 1.25

    static func layout(_ photos: [Section.Photo], width contentWidth: Double, config: LayoutConfig) -> Body {
        var body = Body()
        let margin = config.tilesMargin
        let available = contentWidth - 2 * margin
        guard !photos.isEmpty else { return body }
        guard available > 0 else {
            body.warnings.append(("contentWidthTooSmall", "tiles need a width above \(2 * margin)"))
            return body
        }
        let shown = min(photos.count, max(1, config.tilesMaxShown), 6)
        let spec = specSlots(shown, first: photos[0].aspect, available: available, config: config)
        var cells = spec.map { (photo: $0.0, frame: $0.1) }
        if config.tilesFitOrientation && shown > 1 {
            cells = fitted(photos[..<shown].map(\.aspect), spec: spec.map(\.1), available: available)
        }
        for (photo, frame) in cells.sorted(by: { $0.photo < $1.photo }) {
            var item = Body.Item(
                photo: photo, x: margin + frame.x, y: frame.y, width: frame.width, height: frame.height)
            item.crop = isCrop(width: frame.width, height: frame.height, aspect: photos[photo].aspect)
            // The last slot tells how many more there are.
            if frame.last, photos.count > 6 {
                let hidden = photos[6...].map(\.id)
                item.overlay = LayoutOverlay(count: hidden.count, text: "+\(hidden.count)", hiddenPhotoIds: hidden)
            }
            body.items.append(item)
            body.height = max(body.height, frame.y + frame.height)
        }
        return body
    }

    /// A slot of a cell: where, and whether it is the cell's last (the "+N" one).
    struct Slot {
        var x, y, width, height: Double
        var last = false
    }

    /// The specification's slots for `shown` photos, each with the photo it holds (slot order).
    static func specSlots(
        _ shown: Int, first: Double, available: Double, config: LayoutConfig
    ) -> [(Int, Slot)] {
        let half = available / 2
        func sub(_ size: Double) -> Double { max(0, min(size, available)) }
        // Slots as (right column?, width, height), stacked in their column.
        let columns: [(Bool, Double, Double)]
        switch shown {
        case 1 where config.tilesSingleAspect:
            let height = min(available / first, available * singleTallest)
            columns = [(false, min(available, height * first), height)]
        case 1: columns = [(false, available, config.tilesSingleHeight)]
        case 2: columns = [(false, half, half), (true, half, half)]
        case 3:
            let s = sub(config.tilesThreeSub)
            columns = [(false, s, s), (true, available - s, 2 * s), (false, s, s)]
        case 4:
            let s = sub(config.tilesFourSub)
            columns = [(false, available - s, s), (true, s, s), (false, s, s), (true, available - s, s)]
        case 5:
            let s = sub(config.tilesFiveSub), main = config.tilesFiveMainHeight
            columns = [
                (false, s, s), (true, available - s, main), (false, s, s), (true, available - s, main), (false, s, s),
            ]
        default:
            let s = sub(config.tilesSixSub)
            columns = [
                (false, s, s), (true, available - s, s), (false, half, half), (true, half, half),
                (false, available - s, s), (true, s, s),
            ]
        }
        var columnHeight = [0.0, 0.0]
        return columns.enumerated().map { slot, cell in
            let (right, width, height) = cell
            let column = right ? 1 : 0
            let frame = Slot(
                x: right ? available - width : 0, y: columnHeight[column], width: width, height: height,
                last: slot == 5)
            columnHeight[column] += height
            return (slot, frame)
        }
    }

    /// The other patterns a cell of `shown` photos may take: halves, thirds and a wide top.
    static func alternatives(_ shown: Int, available a: Double) -> [[Slot]] {
        let (h, t) = (a / 2, a / 3)
        func square(_ x: Double, _ y: Double, _ size: Double) -> Slot { Slot(x: x, y: y, width: size, height: size) }
        switch shown {
        case 2: return [[Slot(x: 0, y: 0, width: a, height: h), Slot(x: 0, y: h, width: a, height: h)]]
        case 3: return [[Slot(x: 0, y: 0, width: a, height: h), square(0, h, h), square(h, h, h)]]
        case 4:
            return [
                [square(0, 0, h), square(h, 0, h), square(0, h, h), square(h, h, h)],
                [Slot(x: 0, y: 0, width: a, height: h), square(0, h, t), square(t, h, t), square(2 * t, h, t)],
            ]
        case 5: return [[square(0, 0, h), square(h, 0, h), square(0, h, t), square(t, h, t), square(2 * t, h, t)]]
        default:
            return [
                [
                    square(0, 0, t), square(t, 0, t), square(2 * t, 0, t), square(0, t, t), square(t, t, t),
                    square(2 * t, t, t),
                ]
            ]
        }
    }

    /// How far a slot is from a photo's aspect: the larger of the two ratios (1 when equal).
    static func mismatch(_ slot: Slot, _ aspect: Double) -> Double {
        let shape = slot.height > 0 ? slot.width / slot.height : 1
        return max(shape / aspect, aspect / shape)
    }

    /// The pattern and the order of the photos in it that keep every photo closest to its aspect.
    ///
    /// The least worst mismatch wins, then the least sum; the specification's pattern and the
    /// photos' own order win ties. Past `fitLimit` even so, the photos in justified rows instead.
    static func fitted(_ aspects: [Double], spec: [Slot], available: Double) -> [(photo: Int, frame: Slot)] {
        let n = aspects.count
        var patterns = [spec] + alternatives(n, available: available)
        for index in patterns.indices where n == 6 { patterns[index][5].last = true }
        var best: (worst: Double, sum: Double, pattern: Int, order: [Int])?
        for (number, pattern) in patterns.enumerated() {
            var order = Array(0..<n)
            repeat {
                var worst = 0.0, sum = 0.0
                for (slot, photo) in order.enumerated() {
                    let off = mismatch(pattern[slot], aspects[photo])
                    worst = max(worst, off)
                    sum += off
                }
                if let current = best {
                    if worst < current.worst - 1e-9 || (abs(worst - current.worst) <= 1e-9 && sum < current.sum - 1e-9)
                    {
                        best = (worst, sum, number, order)
                    }
                } else {
                    best = (worst, sum, number, order)
                }
            } while nextPermutation(&order)
        }
        guard let best, best.worst <= fitLimit else { return rows(aspects, available: available) }
        return best.order.enumerated().map { slot, photo in (photo, patterns[best.pattern][slot]) }
    }

    /// The most a tile may be wider or taller than its photo, in its proportions.
    static let fitLimit = 2.0

    /// The photos in optimal justified rows at half the width's height, no gaps: each tile of
    /// its photo's aspect brought within 1:2 and 2:1 as far as `fitLimit` lets it (rows of
    /// slivers and strips are no mosaic), a row at most 1.25 × the width's height.
    static func rows(_ photoAspects: [Double], available: Double) -> [(photo: Int, frame: Slot)] {
        let aspects = photoAspects.map { min(max(min(max($0, 0.5), 2), $0 / fitLimit), $0 * fitLimit) }
        let params = OptimalRows.Params(
            containerWidth: available, spacing: 0, padding: 0, targetRowHeight: available / 2)
        var cells: [(photo: Int, frame: Slot)] = []
        var y = 0.0
        for row in OptimalRows.rows(aspects: aspects, params: params) ?? [] {
            let height = min(row.height, available * singleTallest)
            var x = 0.0
            for photo in row.indices {
                let width = min(available, aspects[photo] * height)
                cells.append((photo, Slot(x: x, y: y, width: width, height: height)))
                x += width
            }
            y += height
        }
        if cells.count == 6 { cells[5].frame.last = true }
        return cells
    }

    /// The next order in lexicographic order; false after the last.
    static func nextPermutation(_ order: inout [Int]) -> Bool {
        var i = order.count - 2
        while i >= 0 && order[i] >= order[i + 1] { i -= 1 }
        guard i >= 0 else { return false }
        var j = order.count - 1
        while order[j] <= order[i] { j -= 1 }
        order.swapAt(i, j)
        order[(i + 1)...].reverse()
        return true
    }
}
