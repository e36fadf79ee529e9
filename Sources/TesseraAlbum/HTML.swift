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

    /// A relative URL from raw path bytes: every byte outside the unreserved set is percent-encoded,
    /// so names with spaces, quotes, `#`, `?` or invalid UTF-8 still resolve on disk.
    static func url(_ bytes: [UInt8]) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            if unreserved.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
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

    static let style = """
        :root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        body{margin:0;background:Canvas;color:CanvasText}
        header{padding:16px 16px 4px;max-width:1280px;margin:0 auto}
        header h1{margin:4px 0;font-size:1.5rem;overflow-wrap:anywhere}
        header p{margin:0;opacity:.7}
        a{color:inherit}
        .layout{position:relative;margin:0 auto;display:none}
        .layout a.photo,.layout .header{position:absolute;overflow:hidden;box-sizing:border-box}
        .layout img{width:100%;height:100%;object-fit:cover;display:block;background:#8883}
        .layout .header{font-weight:600;font-size:.95rem;display:flex;align-items:flex-end;padding:0 4px 6px}
        .more{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;
          background:#0008;color:#fff;font-size:2rem;font-weight:600}
        .strip{overflow-x:auto;scroll-snap-type:x mandatory;position:relative}
        .strip .cells{position:relative}
        .strip a.photo{scroll-snap-align:center}
        .hidden-photos{max-width:1280px;margin:8px auto;padding:0 16px}
        .hidden-photos img{width:96px;height:96px;object-fit:cover;margin:2px}
        .w375{display:block}
        @media (min-width:768px){.w375{display:none}.w768{display:block}}
        @media (min-width:1280px){.w768{display:none}.w1280{display:block}}
        nav.pager{display:flex;gap:12px;justify-content:center;padding:24px}
        .albums{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:16px;padding:16px;
          max-width:1280px;margin:0 auto}
        .albums a{text-decoration:none}
        .albums img{width:100%;aspect-ratio:1;object-fit:cover;border-radius:6px;display:block;background:#8883}
        .albums .name{font-weight:600;margin-top:6px;overflow-wrap:anywhere}
        .albums .meta{opacity:.7;font-size:.85rem}
        """

    static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }
}
