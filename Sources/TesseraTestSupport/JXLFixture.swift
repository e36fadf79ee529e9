public import Foundation
import Testing

/// JPEG XL files made with cjxl (Debian's libjxl-tools) for the tests that need them.
public enum JXLFixture {
    /// cjxl's path, or nil when it is not installed (the suites that need it then say so).
    public static let cjxl = ["/usr/bin/cjxl", "/usr/local/bin/cjxl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Encodes `source` (JPEG, PNG, PPM, APNG, GIF) as `name` in `directory` with cjxl's `arguments`.
    public static func make(
        _ source: String, as name: String, in directory: TemporaryDirectory, _ arguments: [String] = []
    ) throws -> String {
        let path = directory.appending(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(cjxl))
        process.arguments = arguments + [source, path, "--quiet"]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cjxl \(process.arguments?.joined(separator: " ") ?? "")")
        return path
    }

    /// A binary PPM of `width`×`height` whose pixel (x, y) is `colour(x, y)`.
    public static func ppm(_ width: Int, _ height: Int, colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Data {
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                bytes += [r, g, b]
            }
        }
        return Data(bytes)
    }

    /// One ISO BMFF box: its size, its four-character type, its content.
    public static func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + content.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array(type.utf8) + content
    }

    /// A JPEG XL container around a bare codestream: the signature and `ftyp` boxes, then
    /// `before`, the codestream as one `jxlc` box, then `after`.
    public static func container(codestream: [UInt8], before: [[UInt8]] = [], after: [[UInt8]] = []) -> [UInt8] {
        let signature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        let ftyp = box("ftyp", Array("jxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8))
        return signature + ftyp + before.joined() + box("jxlc", codestream) + after.joined()
    }
}
