public import Foundation

extension LayoutPhoto {
    /// Photo records given as JSON (`tessera layout --photos`): an array of objects with `id`
    /// (a string or a whole number), `width` and `height` (or `pixelWidth`, `pixelHeight`),
    /// and optionally `orientation` (1–8), `capturedAt` and `bodyHeight`.
    ///
    /// - Throws: `LayoutError` whose field names the photo and key, such as `photo 3: width`.
    public static func records(json data: Data) throws(LayoutError) -> [LayoutPhoto] {
        guard let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
            throw LayoutError(field: "photos", "must be a JSON array of photo objects")
        }
        var records: [LayoutPhoto] = []
        for (index, object) in list.enumerated() {
            func fail(_ field: String, _ expected: String) -> LayoutError {
                LayoutError(field: "photo \(index): \(field)", "must be \(expected)")
            }
            guard
                let id = object["id"] as? String
                    ?? (object["id"] as? NSNumber).flatMap({ Int64(exactly: $0.doubleValue) }).map(String.init)
            else { throw fail("id", "a string or a whole number") }
            func number(_ keys: String...) throws(LayoutError) -> Double? {
                for key in keys where object[key] != nil && !(object[key] is NSNull) {
                    guard let value = ReferenceEntryPoints.jsonNumber(object[key]) else { throw fail(key, "a number") }
                    return value
                }
                return nil
            }
            var orientation: Int?
            if let value = try number("orientation") {
                guard let whole = Int(exactly: value), (1...8).contains(whole) else {
                    throw fail("orientation", "a whole number from 1 to 8")
                }
                orientation = whole
            }
            let capturedAt = object["capturedAt"].flatMap { $0 is NSNull ? nil : $0 }
            guard capturedAt == nil || capturedAt is String else { throw fail("capturedAt", "a string") }
            records.append(
                LayoutPhoto(
                    id: id, pixelWidth: try number("width", "pixelWidth"),
                    pixelHeight: try number("height", "pixelHeight"),
                    orientation: orientation, capturedAt: capturedAt as? String, bodyHeight: try number("bodyHeight")))
        }
        return records
    }
}
