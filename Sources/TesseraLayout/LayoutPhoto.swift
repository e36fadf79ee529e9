/// One photo record as the engine reads it from the index (docs/LAYOUT.md §1.1).
public struct LayoutPhoto: Codable, Sendable, Equatable {
    public var id: String
    public var pixelWidth: Double?
    public var pixelHeight: Double?
    public var orientation: Int?
    public var capturedAt: String?
    /// Masonry only: height of the text area under the image.
    public var bodyHeight: Double?

    public init(
        id: String, pixelWidth: Double?, pixelHeight: Double?, orientation: Int? = nil, capturedAt: String? = nil,
        bodyHeight: Double? = nil
    ) {
        self.id = id
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.capturedAt = capturedAt
        self.bodyHeight = bodyHeight
    }

    /// The displayed aspect ratio and whether it had to be assumed (§1.2).
    var aspect: (value: Double, estimated: Bool) {
        let swapped = [5, 6, 7, 8].contains(orientation ?? 1)
        let width = swapped ? pixelHeight : pixelWidth
        let height = swapped ? pixelWidth : pixelHeight
        guard let width, let height, width.isFinite, height.isFinite, width > 0, height > 0 else {
            return (1, true)
        }
        return (width / height, false)
    }

    /// The most a frame may be tall without showing the photo larger than its pixels: its
    /// displayed height; unlimited when unknown, or one pixel (as a page gives an unknown size).
    var heightLimit: Double {
        let height = [5, 6, 7, 8].contains(orientation ?? 1) ? pixelWidth : pixelHeight
        guard aspect.estimated == false, let height, height > 1 else { return .infinity }
        return height
    }
}

/// The date facts of `capturedAt` (§1.3): keys from the wall clock as written, never converted.
struct CaptureKey: Comparable {
    /// `YYYY-MM-DD`.
    let day: String
    /// Seconds of the wall clock as if it were UTC, with the fraction.
    let sortValue: Double

    var year: String { String(day.prefix(4)) }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…][Z|±HH:MM]`; nil when invalid.
    init?(_ text: String) {
        let chars = Array(text.utf8)
        guard chars.count >= 19 else { return nil }
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(chars[index]) else { return nil }
                value = value * 10 + Int(chars[index] - 0x30)
            }
            return value
        }
        guard chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-"),
            chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " "),
            chars[13] == UInt8(ascii: ":"), chars[16] == UInt8(ascii: ":"),
            let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10),
            let hour = digits(11..<13), let minute = digits(14..<16), let second = digits(17..<19),
            (1...12).contains(month), day >= 1, day <= Self.days(month, year), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < chars.count, chars[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < chars.count, (0x30...0x39).contains(chars[index]) {
                fraction += Double(chars[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        let rest = Array(chars[index...])
        let validOffset =
            rest.isEmpty || rest == [UInt8(ascii: "Z")]
            || (rest.count == 6 && (rest[0] == UInt8(ascii: "+") || rest[0] == UInt8(ascii: "-"))
                && rest[3] == UInt8(ascii: ":") && [1, 2, 4, 5].allSatisfy { (0x30...0x39).contains(rest[$0]) })
        guard validOffset else { return nil }
        self.day = String(decoding: chars[0..<10], as: UTF8.self)
        let days = Self.daysFromCivil(year, month, day)
        sortValue = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
    }

    static func days(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        return era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
    }

    static func < (lhs: CaptureKey, rhs: CaptureKey) -> Bool { lhs.sortValue < rhs.sortValue }
}

/// JavaScript's `Math.round`: halves go up, also for negative numbers (§0.4).
@inline(__always)
func roundHalfUp(_ value: Double) -> Double { (value + 0.5).rounded(.down) }

/// Byte-wise string order (§1.4), not Swift's Unicode order.
func byteOrder(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
}
