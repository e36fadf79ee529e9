import Foundation
import TesseraFacts
public import TesseraIndex
import TesseraSystem

/// `tessera list --stacks`: files shown as one, the face first and why.
public enum StackListing {
    /// A stack a few lines: its kind and why the first is its face, then each file's size,
    /// format, capture time and path, "face" beside the first.
    public static func text(_ stacks: [Stack]) -> String {
        let files = stacks.reduce(0) { $0 + $1.members.count }
        var lines = [
            "\(Wording.count(stacks.count, "stack")): \(Wording.count(files, "file")) shown as \(stacks.count)"
        ]
        for stack in stacks {
            lines.append("")
            lines.append("\(stack.kind.rawValue), its face: \(stack.why)")
            lines += PhotoListing.aligned(
                stack.members.enumerated().map { position, file in
                    [
                        position == 0 ? "  face" : "      ", "\(file.width ?? 0)×\(file.height ?? 0)",
                        file.format.rawValue, file.capturedAt ?? "undated",
                        String(decoding: file.pathBytes, as: UTF8.self),
                    ]
                })
        }
        return lines.joined(separator: "\n")
    }

    /// A stack in `list --stacks --json`.
    public struct Group: Encodable {
        var kind: Stack.Kind
        /// The path of its face (the first of `files`), and why.
        var face: String
        var why: String
        var files: [DuplicateListing.File]

        public init(_ stack: Stack) {
            (kind, why) = (stack.kind, stack.why)
            files = stack.members.map(DuplicateListing.File.init)
            face = files.first?.path ?? ""
        }
    }
}
