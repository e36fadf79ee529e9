import Foundation

/// Escaping and URL helpers for the generated pages.
enum HTML {
    /// Text safe inside element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Escaped text that may break after each "/" and nowhere inside a word ("formats/<wbr>progressive").
    static func breakingAtSlashes(_ text: String) -> String {
        escape(text).replacingOccurrences(of: "/", with: "/<wbr>")
    }

    /// Which bytes a URL path keeps as they are, by value.
    private static let unreserved: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// A relative URL from raw path bytes: every byte outside the unreserved set is percent-encoded,
    /// so names with spaces, quotes, `#`, `?` or invalid UTF-8 still resolve on disk.
    static func url(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            if unreserved[Int(byte)] {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The path of `target` relative to the directory `from` (both absolute, as bytes).
    static func relative(_ target: [UInt8], from directory: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let targetParts = target.split(separator: slash)
        let baseParts = directory.split(separator: slash)
        var common = 0
        while common < min(targetParts.count, baseParts.count) && targetParts[common].elementsEqual(baseParts[common]) {
            common += 1
        }
        let ups = [[UInt8]](repeating: Array("..".utf8), count: baseParts.count - common)
        let rest = targetParts[common...].map(Array.init)
        return Array((ups + rest).joined(separator: [slash]))
    }

    /// A number for CSS pixels: at most two decimals, no trailing zeros.
    static func px(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// A page that uses the shared style sheet and script, `depth` (`../../`) below the output;
    /// `head`: more of its head (what it fetches first).
    static func document(
        title: String, body: String, bodyAttributes: String = "", depth: String = "../../", head: String = ""
    ) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <link rel="stylesheet" href="\(depth)assets/album.css">
        <link rel="icon" href="\(depth)assets/icon.svg" type="image/svg+xml">
        <script src="\(depth)assets/album.js"></script>\(head)
        </head>
        <body\(bodyAttributes)>
        \(body)
        </body>
        </html>

        """
    }
}
