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
        // Slots as (right column?, width, height), in slot order.
        let half = available / 2
        func sub(_ size: Double) -> Double { max(0, min(size, available)) }
        let slots: [(Bool, Double, Double)]
        switch shown {
        case 1 where config.tilesSingleAspect:
            let height = min(available / photos[0].aspect, available * singleTallest)
            slots = [(false, min(available, height * photos[0].aspect), height)]
        case 1: slots = [(false, available, config.tilesSingleHeight)]
        case 2: slots = [(false, half, half), (true, half, half)]
        case 3:
            let s = sub(config.tilesThreeSub)
            slots = [(false, s, s), (true, available - s, 2 * s), (false, s, s)]
        case 4:
            let s = sub(config.tilesFourSub)
            slots = [(false, available - s, s), (true, s, s), (false, s, s), (true, available - s, s)]
        case 5:
            let s = sub(config.tilesFiveSub), main = config.tilesFiveMainHeight
            slots = [
                (false, s, s), (true, available - s, main), (false, s, s), (true, available - s, main), (false, s, s),
            ]
        default:
            let s = sub(config.tilesSixSub)
            slots = [
                (false, s, s), (true, available - s, s), (false, half, half), (true, half, half),
                (false, available - s, s), (true, s, s),
            ]
        }
        var columnHeight = [0.0, 0.0]
        for (slot, (right, width, height)) in slots.enumerated() {
            let column = right ? 1 : 0
            let x = right ? margin + available - width : margin
            var item = Body.Item(photo: slot, x: x, y: columnHeight[column], width: width, height: height)
            item.crop = isCrop(width: width, height: height, aspect: photos[slot].aspect)
            if slot == 5, photos.count > 6 {
                let hidden = photos[6...].map(\.record.id)
                item.overlay = LayoutOverlay(count: hidden.count, text: "+\(hidden.count)", hiddenPhotoIds: hidden)
            }
            body.items.append(item)
            columnHeight[column] += height
        }
        body.height = columnHeight.max() ?? 0
        return body
    }
}
