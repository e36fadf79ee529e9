import Foundation
import TesseraTestSupport
import Testing

/// `--help` as an 80-column terminal shows it.
struct HelpTextTests {
    /// Every command, found from the top-level help's list (and `album build`).
    static func commands() throws -> [[String]] {
        let help = try TesseraProcess.run(["--help"], environment: ["COLUMNS": "80"]).stdout
        let listed = help.split(separator: "\n").drop { !$0.hasPrefix("SUBCOMMANDS:") }.dropFirst()
            .compactMap { line -> [String]? in
                // "  scan        Scan photo folders…": a name two spaces in; wrapped abstracts are further in.
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else {
                    return nil
                }
                return [String(name)]
            }
        return [[]] + listed + [["album", "build"]]
    }

    @Test func proseWrapsAtWordBoundariesWithinEightyColumns() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 12, "\(commands)")
        for command in commands {
            let help = try TesseraProcess.run(command + ["--help"], environment: ["COLUMNS": "80"])
            #expect(help.status == 0)
            let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // (The usage line is ArgumentParser's own, which it does not wrap.)
            for line in lines where !line.hasPrefix("USAGE:") { #expect(line.count <= 80, "\(command): \(line)") }
            // The overview and discussion, above USAGE: a line ends early only where its paragraph
            // does, or where the next word would not have fit in the 79 columns ArgumentParser
            // fills (a hard break mid-sentence fails).
            let prose = lines.prefix { !$0.hasPrefix("USAGE:") }
            for (line, next) in zip(prose, prose.dropFirst())
            where !line.isEmpty && !next.isEmpty && !next.hasPrefix(" ") && !next.hasPrefix("-") {
                let word = next.split(separator: " ").first.map(String.init) ?? ""
                #expect(
                    line.count + 1 + word.count > 79,
                    "\(command): a line broken before \"\(word)\" would have fit:\n\(line)\n\(next)")
            }
        }
    }
}
