/// Text made safe to print on a terminal or into a log line.
///
/// File names may hold any byte but `/` and NUL: a newline forges an extra line of
/// output, an ESC starts a terminal escape sequence (colours, cursor moves, window
/// titles), and bidirectional overrides reorder what is shown. Each such character
/// is written as a visible escape instead: `\n`, `\r`, `\t`, `\e`, or `\u{…}`.
/// JSON output needs none of this: its encoder escapes control characters itself.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{1B}": out += "\\e"
            default: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return out
    }

    /// C0 and C1 controls, DEL, and the bidirectional embedding, override and isolate marks.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
