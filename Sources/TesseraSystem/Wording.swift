import Foundation

/// Counts and durations as a person reads them, the same in every command and page.
public enum Wording {
    /// Names as a sentence lists choices: "jpeg, png or webp".
    public static func either(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// "1 photo", "2 photos", "0 files".
    public static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// A file's size as file managers give it, in SI units: "812 bytes", "248 kB", "2.1 MB", "1.4 GB".
    public static func size(_ bytes: Int64) -> String {
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(bytes), unit = -1
        while value >= 999.5 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        guard unit >= 0 else { return count(Int(bytes), "byte") }
        return "\(number(value, decimals: value < 10 ? 1 : 0)) \(units[unit])"
    }

    /// `value` with at most `decimals` decimals and no trailing zeros: "5.6", "18", "0.35".
    public static func number(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        guard rounded.magnitude < 1e15 else { return String(rounded) }
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(format: "%.\(max(0, decimals))f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// A duration with its units, only as precise as a person needs: "0.04 s", "4.2 s", "42 s",
    /// "1 min 20 s", "2 h 5 min", "3 days 4 h".
    ///
    /// Hundredths are kept under a second and tenths under 10 s, where they say something; beyond a
    /// minute the smaller unit is kept only when it is not zero. Negative and non-finite values read as "0 s".
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0 s" }
        if seconds < 0.995 { return String(format: "%.2f s", seconds) }
        if seconds < 9.95 { return String(format: "%.1f s", seconds) }
        // Whole seconds from here; clamped so that the conversion cannot trap on a huge value.
        let total = Int(min(seconds, 1e15).rounded())
        func pair(_ large: Int, _ largeUnit: String, _ small: Int, _ smallUnit: String) -> String {
            small == 0 ? "\(large) \(largeUnit)" : "\(large) \(largeUnit) \(small) \(smallUnit)"
        }
        switch total {
        case ..<60: return "\(total) s"
        case ..<3600: return pair(total / 60, "min", total % 60, "s")
        case ..<86_400: return pair(total / 3600, "h", total / 60 % 60, "min")
        default:
            let days = total / 86_400
            return pair(days, days == 1 ? "day" : "days", total / 3600 % 24, "h")
        }
    }
}
