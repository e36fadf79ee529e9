import TesseraSystem

/// One coordinate of a position, checked: a value that is not a number, is out of range or
/// names the wrong hemisphere gives no position (a warning says so), never a wrong one.
enum GPSCoordinate {
    /// XMP's GPSCoordinate: "DDD,MM,SSk" or "DDD,MM.mmk" (k the hemisphere's letter); a
    /// signed decimal ("-9.1393") as some writers leave it.
    static func xmp(_ text: String, positive: Character, negative: Character, limit: Double) -> Double? {
        var body = Substring(text.trimmingSpaces)
        var sign = 1.0
        if let last = body.last?.uppercased().first, last.isLetter {
            guard last == positive || last == negative else { return nil }
            sign = last == negative ? -1 : 1
            body = body.dropLast()
        }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Double] = []
        for part in parts {
            guard let number = Double(String(part).trimmingSpaces), number.isFinite else { return nil }
            numbers.append(number)
        }
        // (minutes and seconds are below 60, and only degrees carry a sign)
        guard numbers.dropFirst().allSatisfy({ (0..<60).contains($0) }),
            numbers.count == 1 || numbers[0] >= 0, sign > 0 || numbers[0] >= 0
        else { return nil }
        let magnitude =
            abs(numbers[0])
            + numbers.dropFirst().enumerated().reduce(0) { sum, item in
                sum + item.element / (item.offset == 0 ? 60 : 3600)
            }
        let value = (numbers[0] < 0 ? -magnitude : magnitude) * sign
        return abs(value) <= limit ? value : nil
    }

    /// An EXIF coordinate from its three rationals and reference letter; nil when either is not
    /// a coordinate (a letter other than the axis's two, a value past `limit`).
    static func exif(
        degrees: Double, minutes: Double?, seconds: Double?, reference: String?, positive: String, negative: String,
        limit: Double
    ) -> Double? {
        let minutes = minutes ?? 0, seconds = seconds ?? 0
        guard degrees.isFinite, minutes.isFinite, seconds.isFinite, degrees >= 0, minutes >= 0, seconds >= 0 else {
            return nil
        }
        let value = degrees + minutes / 60 + seconds / 3600
        let letter = reference?.trimmingSpaces.uppercased()
        // (a missing letter reads as the positive one, as exiftool reads it)
        guard letter == nil || letter == "" || letter == positive || letter == negative, value <= limit else {
            return nil
        }
        return letter == negative ? -value : value
    }
}
