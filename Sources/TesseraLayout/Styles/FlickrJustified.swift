/// Flickr justified-layout v4.1.0's greedy row breaking, quirks included (docs/LAYOUT.md §3.5.1).
public struct FlickrJustified: Sendable {
    public struct Config: Sendable, Equatable {
        public var containerWidth = 1060.0
        public var padding = LayoutConfig.Insets(top: 10, left: 10, bottom: 10, right: 10)
        public var spacingHorizontal = 10.0
        public var spacingVertical = 10.0
        public var targetRowHeight = 320.0
        public var tolerance = 0.25
        public var maxNumRows: Int?
        public var forceAspectRatio: Double?
        public var showWidows = true
        public var breakoutCadence: Int?
        public var widowLayoutStyle = "left"

        public init() {}
    }

    public struct Box: Sendable, Equatable {
        public var top, left, width, height, aspectRatio: Double
        public var forcedAspectRatio: Bool
        /// Index of the input item.
        public var item: Int
    }

    public struct Result: Sendable, Equatable {
        public var containerHeight: Double
        public var widowCount: Int
        public var boxes: [Box]
        public var rows: Int
    }

    public static func layout(aspects input: [Double], config: Config) -> Result {
        var rows = Rows(input, config: config)
        let (low, high, target) = (rows.low, rows.high, config.targetRowHeight)
        for item in rows.aspects.indices {
            guard !rows.stopped else { break }
            var offered = true
            while offered && !rows.stopped {
                offered = false
                let aspect = rows.aspects[item]
                if rows.breakout && rows.row.isEmpty && aspect >= 1 {
                    rows.close([item], proposed: rows.rowWidth / aspect)
                    break
                }
                let (row, sum) = (rows.row, rows.sum)
                let newSum = sum + aspect
                let count = row.count
                if newSum < low {
                    rows.row.append(item)
                    rows.sum = newSum
                } else if newSum > high {
                    if row.isEmpty {
                        rows.close([item], proposed: rows.inner(1) / newSum)
                    } else if abs(newSum - rows.inner(count + 1) / target) > abs(sum - rows.inner(count) / target) {
                        rows.close(row, proposed: rows.inner(count) / sum)
                        offered = true  // offer the rejected item to the new row
                    } else {
                        rows.close(row + [item], proposed: rows.inner(count + 1) / (newSum))
                    }
                } else {
                    rows.close(row + [item], proposed: rows.inner(count + 1) / newSum)
                }
            }
        }
        return rows.finish()
    }

    /// The rows laid out so far, and the row being filled.
    private struct Rows {
        let config: Config
        let aspects: [Double]
        let forced: Bool
        let rowWidth: Double
        /// The sums of aspect ratios a row may close at without a second look.
        let low: Double, high: Double
        let minHeight: Double, maxHeight: Double
        var boxes: [Box] = []
        var top: Double
        var rowCount = 0
        var totalHeight = 0.0
        var previousHeight: Double?
        var previousBreakout = false
        var row: [Int] = []
        var sum = 0.0
        var rowNumber = 1
        var breakout: Bool
        var stopped = false

        init(_ input: [Double], config: Config) {
            self.config = config
            forced = config.forceAspectRatio.map { $0 != 0 } ?? false
            aspects = forced ? input.map { _ in config.forceAspectRatio ?? 1 } : input
            rowWidth = config.containerWidth - config.padding.left - config.padding.right
            let target = config.targetRowHeight
            (low, high) = (rowWidth / target * (1 - config.tolerance), rowWidth / target * (1 + config.tolerance))
            (minHeight, maxHeight) = (target / 2, target * 2)
            top = config.padding.top
            breakout = config.breakoutCadence.map { $0 > 0 && 1 % $0 == 0 } ?? false
        }

        /// The width a row of `count` photos has for them, without the spacing between them.
        func inner(_ count: Int) -> Double { rowWidth - Double(count - 1) * config.spacingHorizontal }

        mutating func place(_ items: [Int], proposed: Double, fixUp: Bool, centre: Bool = false) -> Double {
            let (pad, sh) = (config.padding, config.spacingHorizontal)
            let height = min(max(proposed, minHeight), maxHeight)
            let span = inner(items.count)
            let factor = (span / height) / (span / proposed)
            var placed = items.map { i in
                Box(
                    top: top, left: 0, width: aspects[i] * height * factor, height: height, aspectRatio: aspects[i],
                    forcedAspectRatio: forced, item: i)
            }
            var left = pad.left
            if centre {
                let widths = placed.reduce(0) { $0 + $1.width }
                left = pad.left + (rowWidth - pad.left - widths - Double(placed.count) * sh) / 2 + sh
            }
            for index in placed.indices {
                placed[index].left = left
                left += placed[index].width + sh
            }
            if fixUp {
                let used = placed.reduce(0) { $0 + $1.width } + Double(placed.count - 1) * sh
                let excess = (used - rowWidth) / Double(placed.count)
                if placed.count == 1 {
                    placed[0].width -= roundHalfUp(excess)
                } else {
                    let steps = placed.indices.map { roundHalfUp(Double($0 + 1) * excess) }
                    placed[0].width -= steps[0]
                    for index in placed.indices.dropFirst() {
                        placed[index].left -= steps[index - 1]
                        placed[index].width -= steps[index] - steps[index - 1]
                    }
                }
            }
            boxes += placed
            return height
        }

        mutating func close(_ items: [Int], proposed: Double) {
            let height = place(items, proposed: proposed, fixUp: true)
            rowCount += 1
            totalHeight += height
            top += height + config.spacingVertical
            previousHeight = height
            previousBreakout = breakout
            row = []
            sum = 0
            if let limit = config.maxNumRows, rowCount >= limit {
                stopped = true
                return
            }
            rowNumber += 1
            breakout = config.breakoutCadence.map { $0 > 0 && rowNumber % $0 == 0 } ?? false
        }

        /// The widows' row, when shown, and the whole.
        mutating func finish() -> Result {
            var widows = 0
            if !stopped && !row.isEmpty && config.showWidows {
                let target = config.targetRowHeight
                let reference = previousHeight == nil || previousBreakout ? target : previousHeight ?? target
                let style = config.widowLayoutStyle
                let height = place(row, proposed: reference, fixUp: style == "justify", centre: style == "center")
                rowCount += 1
                totalHeight += height
                widows = row.count
            }
            let (pad, spacing) = (config.padding, config.spacingVertical)
            let containerHeight = pad.top + totalHeight + Double(rowCount - 1) * spacing + pad.bottom
            return Result(containerHeight: containerHeight, widowCount: widows, boxes: boxes, rows: rowCount)
        }
    }

    /// The album's `greedy` style: Flickr's rows inside the section body.
    static func layout(_ photos: [Section.Photo], width contentWidth: Double, config: LayoutConfig) -> Body {
        var body = Body()
        guard !photos.isEmpty else { return body }
        var flickr = Config()
        flickr.containerWidth = contentWidth
        flickr.padding = config.justifiedPadding
        flickr.spacingHorizontal = config.spacingHorizontal
        flickr.spacingVertical = config.spacingVertical
        flickr.targetRowHeight = config.targetRowHeight
        flickr.tolerance = config.tolerance
        flickr.maxNumRows = config.maxNumRows
        flickr.forceAspectRatio = config.forceAspectRatio
        flickr.showWidows = config.showWidows
        flickr.breakoutCadence = config.fullWidthBreakoutRowCadence
        flickr.widowLayoutStyle = config.widowLayoutStyle
        guard contentWidth - flickr.padding.left - flickr.padding.right > 0 else {
            body.warnings.append(("contentWidthTooSmall", "no row width left inside the padding"))
            return body
        }
        let result = layout(aspects: photos.map(\.aspect), config: flickr)
        for box in result.boxes {
            var item = Body.Item(photo: box.item, x: box.left, y: box.top, width: box.width, height: box.height)
            item.crop = isCrop(width: box.width, height: box.height, aspect: photos[box.item].aspect)
            body.items.append(item)
        }
        body.height = result.rows == 0 ? 0 : result.containerHeight
        return body
    }
}
