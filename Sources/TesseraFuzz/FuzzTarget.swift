import Foundation
import SystemPackage
import TesseraFacts
import TesseraMetadata
import TesseraSystem

/// One parser that reads bytes from outside, called as the scan (or the daemon) calls it, from
/// bytes in memory, with each parser's own limits; each checks what its caller relies on.
///
/// The targets are a table (`all`): adding a parser is an entry in the file of its concern. A
/// broken invariant traps, which libFuzzer reports as a crash with its input.
struct FuzzTarget: Sendable {
    /// Its name for `--list`, `TESSERA_FUZZ_TARGET` and scripts/fuzz.sh.
    let name: String
    /// What it reads, for `--list`.
    let summary: String
    /// The magic words libFuzzer's mutations may splice in.
    let dictionary: [String]
    /// Which seed files of the shared corpus suit it, by extension (empty: any file).
    let seedExtensions: Set<String>
    /// Runs the parser on one input; `check` traps on what it must never give.
    let run: @Sendable (_ bytes: [UInt8], _ check: Check) -> Void

    static let all = formatTargets + serviceTargets + placeTargets

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// Runs the target on `bytes`.
    func callAsFunction(_ bytes: [UInt8]) { run(bytes, Check(target: name)) }

    /// What a target asserts of a parser's answer.
    struct Check: Sendable {
        let target: String

        func callAsFunction(_ condition: Bool, _ what: @autoclosure () -> String) {
            guard condition else {
                fatalError("\(target): \(what())")  // invariant: a fuzz target traps, so libFuzzer keeps the input
            }
        }
    }

    /// The name fuzz inputs are read under.
    static let path = FilePath("fuzz-input")
    static let mtime = FileTime(seconds: 0, nanoseconds: 0)

    /// `body` with a reader of `bytes`; nil when it throws.
    static func withReader<Value>(
        _ bytes: [UInt8], _ body: (borrowing FileReader) throws(PhotoError) -> Value
    ) -> Value? {
        try? FileReader.withBytes(bytes, path: path, mtime: mtime, body)
    }

    /// A format's header reader (`PhotoHeader`), seeded with the corpus's files of its formats:
    /// whatever it reads has a size (when `sized`), and passes `check`.
    static func header<Header: PhotoHeader>(
        _ type: Header.Type, _ name: String, _ summary: String, dictionary: [String], sized: Bool = true,
        check more: @escaping @Sendable (Header, [UInt8], Check) -> Void = { _, _, _ in }
    ) -> FuzzTarget {
        FuzzTarget(
            name: name, summary: summary, dictionary: dictionary,
            seedExtensions: Set(Header.formats.flatMap(\.traits.extensions)),
            run: { bytes, check in
                guard let header = withReader(bytes, { reader throws(PhotoError) in try Header.read(reader) }) else {
                    return
                }
                let size = header.storedSize
                check(!sized || (size.width > 0 && size.height > 0), "a header read without a size")
                more(header, bytes, check)
            })
    }
}
