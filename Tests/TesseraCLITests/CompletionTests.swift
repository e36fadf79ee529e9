import Foundation
import TesseraTestSupport
import Testing

/// Bash completion as a shell runs it: the generated script sourced, its function called the
/// way `complete -F` calls it (command, word, previous word), COMPREPLY read back.
struct CompletionTests {
    static func complete(_ line: String, in directory: String) throws -> Set<String> {
        let script = """
            source <("$1" --generate-completion-script bash)
            cd "$2"
            COMP_LINE="$3"; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMPREPLY=()
            _tessera tessera "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, "bash", TesseraProcess.executable.path, directory, line]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    @Test func valuesAndPathsAreCompleted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for folder in ["photos-a", "photos-b"] {
            try FileManager.default.createDirectory(
                atPath: directory.appending(folder), withIntermediateDirectories: true)
        }
        for file in ["tessera.yaml", "notes.txt"] {
            #expect(FileManager.default.createFile(atPath: directory.appending(file), contents: nil))
        }
        #expect(
            try Self.complete("tessera layout --style ", in: directory.path) == [
                "tiles", "masonry", "grid", "strip", "justified",
            ])
        #expect(
            try Self.complete("tessera layout --sections ", in: directory.path) == [
                "day", "month", "year", "auto", "none",
            ])
        // Roots are folders; --config takes YAML files (and folders to get to them).
        #expect(try Self.complete("tessera scan photos-", in: directory.path) == ["photos-a", "photos-b"])
        #expect(
            try Self.complete("tessera scan --config ", in: directory.path) == ["tessera.yaml", "photos-a", "photos-b"])
        #expect(try Self.complete("tessera thumb --format ", in: directory.path) == ["jpeg", "png", "webp"])
    }
}
