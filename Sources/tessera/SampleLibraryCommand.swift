import ArgumentParser
import SystemPackage
import TesseraSamples

/// `tessera sample-library DIR`: a generated library to try Tessera on (hidden; used by scripts/run.sh).
struct SampleLibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-library", abstract: "Write a small generated photo library into a folder.",
        shouldDisplay: false)

    @Argument(help: "Folder to write into (created when missing).", completion: .directory)
    var directory: String

    @Flag(help: "Only say what the library's broken file is, writing nothing.")
    var note = false

    func run() throws {
        if note { return print(SampleLibrary.brokenFileNote) }
        let count = try SampleLibrary.write(to: FilePath(directory))
        print("Wrote \(count) sample files to \(directory). \(SampleLibrary.brokenFileNote)")
    }
}
