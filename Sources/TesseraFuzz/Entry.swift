import Foundation

#if FUZZING
import CFuzzer

/// libFuzzer's driver, with each input going to the target `TESSERA_FUZZ_TARGET` names
/// (scripts/fuzz.sh builds this with `-sanitize=fuzzer,address -DFUZZING`).
@main
enum Fuzzer {
    static func main() {
        guard FuzzTarget.named(ProcessInfo.processInfo.environment["TESSERA_FUZZ_TARGET"] ?? "") != nil else {
            FileHandle.standardError.write(Data("TESSERA_FUZZ_TARGET names no target (see --list)\n".utf8))
            exit(2)
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            tessera_fuzzer_run(&argc, &argv) { data, size in
                selected(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
                return 0
            })
    }
}

/// Checked by `main` before the first input.
private let selected =
    FuzzTarget.named(ProcessInfo.processInfo.environment["TESSERA_FUZZ_TARGET"] ?? "") ?? FuzzTarget.all[0]
#else
/// Without libFuzzer: the targets listed, their dictionaries, and any input files run through
/// a target as the fuzzer runs them (the regression tests and the smoke run of the test command).
@main
enum Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "--list":
            for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
        case "--dictionary":
            guard let target = arguments.dropFirst().first.flatMap(FuzzTarget.named) else { usage() }
            for word in target.dictionary { print("\"\(escaped(word))\"") }
        case "--extensions":
            guard let target = arguments.dropFirst().first.flatMap(FuzzTarget.named) else { usage() }
            print(target.seedExtensions.sorted().joined(separator: " "))
        case let name?:
            guard let target = FuzzTarget.named(name) else { usage() }
            for file in arguments.dropFirst() {
                guard let bytes = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("\(file): cannot be read\n".utf8))
                    exit(1)
                }
                target([UInt8](bytes))
            }
        case nil:
            usage()
        }
    }

    /// A dictionary entry as libFuzzer reads one: printable ASCII as is, the rest as \xNN.
    static func escaped(_ word: String) -> String {
        word.unicodeScalars.map { scalar in
            (0x20..<0x7F).contains(scalar.value) && scalar != "\"" && scalar != "\\"
                ? String(scalar) : String(format: "\\x%02X", scalar.value & 0xFF)
        }.joined()
    }

    static func usage() -> Never {
        FileHandle.standardError.write(
            Data("usage: tessera-fuzz --list | --dictionary TARGET | --extensions TARGET | TARGET FILE…\n".utf8))
        exit(2)
    }
}
#endif
