public import Foundation

/// The compatibility entry points of docs/LAYOUT.md §7: JSON in, JSON out, no album extensions.
public enum ReferenceEntryPoints {
    /// `tessera layout reference flickr`: one case (`{"input": [...], "config": {...}|null}`) or an array of them.
    public static func flickr(_ input: Data) throws -> Data {
        try eachCase(input) { object in
            let items = object["input"] as? [Any] ?? []
            var aspects: [Double] = []
            for (index, item) in items.enumerated() {
                if let number = jsonNumber(item) {
                    aspects.append(number)
                } else if let box = item as? [String: Any], let width = jsonNumber(box["width"]),
                    let height = jsonNumber(box["height"]), width != 0, height != 0
                {
                    aspects.append(width / height)
                } else {
                    return ["error": "Item \(index) has an invalid aspect ratio"]
                }
            }
            let result = FlickrJustified.layout(
                aspects: aspects, config: flickrConfig(object["config"] as? [String: Any]))
            let boxes: [[String: Any]] = result.boxes.map { box in
                var out: [String: Any] = [
                    "top": box.top, "left": box.left, "width": box.width, "height": box.height,
                    "aspectRatio": box.aspectRatio,
                ]
                if box.forcedAspectRatio { out["forcedAspectRatio"] = true }
                return out
            }
            return ["containerHeight": result.containerHeight, "widowCount": result.widowCount, "boxes": boxes]
        }
    }

    /// `tessera layout reference rows-optimal`: one case (`{"photos": [...], "params": {...}}`) or an array.
    public static func rowsOptimal(_ input: Data) throws -> Data {
        try eachCase(input) { object in
            let photos = object["photos"] as? [[String: Any]] ?? []
            let aspects = photos.map { photo -> Double in
                let width = jsonNumber(photo["width"]) ?? .nan
                let height = jsonNumber(photo["height"]) ?? .nan
                let aspect = width / height
                return aspect.isFinite ? aspect : 1
            }
            let params = object["params"] as? [String: Any] ?? [:]
            func number(_ key: String) -> Double? { jsonNumber(params[key]) }
            // Sizes must be finite, the target height and width positive, photo counts whole and positive.
            let width = number("containerWidth") ?? 0, target = number("targetRowHeight") ?? 0
            let spacing = number("spacing") ?? 0, padding = number("padding") ?? 0
            guard width > 0, width.isFinite, target > 0, target.isFinite, spacing.isFinite, padding.isFinite else {
                return [
                    "error":
                        "containerWidth and targetRowHeight must be positive finite numbers; spacing and padding finite"
                ]
            }
            func count(_ key: String) -> (value: Int?, valid: Bool) {
                guard let value = number(key) else { return (nil, params[key] == nil || params[key] is NSNull) }
                guard let whole = Int(exactly: value), whole >= 1 else { return (nil, false) }
                return (whole, true)
            }
            let (minPhotos, maxPhotos) = (count("minPhotos"), count("maxPhotos"))
            guard minPhotos.valid, maxPhotos.valid else {
                return ["error": "minPhotos and maxPhotos must be whole numbers from 1"]
            }
            let rows = OptimalRows.rows(
                aspects: aspects,
                params: .init(
                    containerWidth: width, spacing: spacing, padding: padding, targetRowHeight: target,
                    minPhotos: minPhotos.value, maxPhotos: maxPhotos.value))
            guard let rows else { return ["rows": NSNull()] }
            return [
                "rows": rows.map { row in
                    row.indices.map { index in
                        ["index": index, "width": aspects[index] * row.height, "height": row.height] as [String: Any]
                    }
                }
            ]
        }
    }

    private static func flickrConfig(_ object: [String: Any]?) -> FlickrJustified.Config {
        var config = FlickrJustified.Config()
        guard let object else { return config }
        let number = jsonNumber
        if let width = number(object["containerWidth"]) { config.containerWidth = width }
        if let padding = number(object["containerPadding"]) {
            config.padding = .init(top: padding, left: padding, bottom: padding, right: padding)
        } else if let sides = object["containerPadding"] as? [String: Any] {
            config.padding = .init(
                top: number(sides["top"]) ?? 0, left: number(sides["left"]) ?? 0, bottom: number(sides["bottom"]) ?? 0,
                right: number(sides["right"]) ?? 0)
        }
        if let spacing = number(object["boxSpacing"]) {
            (config.spacingHorizontal, config.spacingVertical) = (spacing, spacing)
        } else if let spacing = object["boxSpacing"] as? [String: Any] {
            config.spacingHorizontal = number(spacing["horizontal"]) ?? 0
            config.spacingVertical = number(spacing["vertical"]) ?? 0
        }
        if let target = number(object["targetRowHeight"]) { config.targetRowHeight = target }
        if let tolerance = number(object["targetRowHeightTolerance"]) { config.tolerance = tolerance }
        if let rows = number(object["maxNumRows"]), rows.isFinite {
            config.maxNumRows = Int(exactly: rows.rounded(.down)) ?? Int.max
        }
        if let forced = number(object["forceAspectRatio"]) { config.forceAspectRatio = forced }
        if let show = object["showWidows"] as? Bool { config.showWidows = show }
        if let cadence = number(object["fullWidthBreakoutRowCadence"]), cadence > 0 {
            config.breakoutCadence = Int(exactly: cadence.rounded(.down)) ?? Int.max
        }
        if let style = object["widowLayoutStyle"] as? String { config.widowLayoutStyle = style }
        return config
    }

    /// A JSON number as a Double; nil for anything else, booleans included (on Linux a
    /// parsed `true` is an NSNumber too, told apart only by its `objCType` "c").
    public static func jsonNumber(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return number.doubleValue
    }

    /// Runs `body` on one object or on each object of an array, keeping the shape.
    ///
    /// A case whose answer holds numbers JSON cannot carry (inputs so extreme that sizes
    /// overflow to infinity) answers with an error instead.
    private static func eachCase(_ input: Data, _ body: ([String: Any]) -> [String: Any]) throws -> Data {
        let parsed = try JSONSerialization.jsonObject(with: input)
        func answer(_ object: Any) -> [String: Any] {
            let result = body(object as? [String: Any] ?? [:])
            guard (try? JSONSerialization.data(withJSONObject: result)) != nil else {
                return ["error": "these inputs give sizes that are not finite numbers"]
            }
            return result
        }
        let output: Any = (parsed as? [Any]).map { $0.map(answer) } ?? answer(parsed)
        return try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys])
    }
}
