import Foundation
import Testing

/// Videos made with ffmpeg for the tests that need them.
public enum VideoFixture {
    /// ffmpeg's path, or nil when it is not installed (the suites that need it then say so).
    public static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// A 3.5 s clip at 10 fps, keyframes every second: 2.5 s of black, then a frame whose left
    /// half is red and right half blue, stored `width`×`height`, with a display matrix that
    /// turns it `clockwise` degrees to show it (90, as a phone held upright writes).
    public static func clip(
        in directory: TemporaryDirectory, name: String = "clip.mp4", codec: String = "libx264", width: Int = 320,
        height: Int = 180,
        clockwise: Int = 0, extra: [String] = []
    ) throws -> String {
        let path = directory.appending(name)
        let half = width / 2
        let graph =
            "color=c=black:s=\(width)x\(height):d=2.5:r=10[b];color=c=red:s=\(half)x\(height):d=1:r=10[r];"
            + "color=c=blue:s=\(half)x\(height):d=1:r=10[u];[r][u]hstack[p];[b][p]concat=n=2:v=1:a=0,format=yuv420p[v]"
        var arguments = ["-v", "error", "-y", "-filter_complex", graph, "-map", "[v]", "-c:v", codec, "-g", "10"]
        if codec == "libx265" { arguments += ["-x265-params", "log-level=error", "-tag:v", "hvc1"] }
        try run(arguments + extra + [path])
        if clockwise != 0 {
            // The legacy `rotate` tag sets the matrix when a stream is copied (ffmpeg 5.1), and
            // counts the other way: 270 is a quarter turn clockwise.
            let turned = directory.appending("turned-" + name)
            try run([
                "-v", "error", "-y", "-i", path, "-c", "copy", "-metadata:s:v:0", "rotate=\((360 - clockwise) % 360)",
                turned,
            ])
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.moveItem(atPath: turned, toPath: path)
        }
        return path
    }

    /// Runs ffmpeg with `arguments`; a failure fails the test.
    public static func run(_ arguments: [String]) throws {
        let process = try Process.run(URL(fileURLWithPath: try #require(ffmpeg)), arguments: arguments)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ffmpeg \(arguments.joined(separator: " "))")
    }
}
