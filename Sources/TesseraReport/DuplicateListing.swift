import Foundation
import TesseraFacts
public import TesseraIndex
import TesseraSystem

/// `tessera list --duplicates`: groups of copies, the one to keep first and why.
public enum DuplicateListing {
    /// A group a few lines: its rule and why the first is kept, then each file's size, format,
    /// bytes, capture time and path, "keep" beside the first.
    public static func text(_ groups: [DuplicateGroup]) -> String {
        let files = groups.reduce(0) { $0 + $1.members.count }
        var lines = [
            "\(Wording.count(groups.count, "group")) of copies: \(Wording.count(files, "file")), "
                + "\(files - groups.count) of them copies of another (nothing is deleted or moved)"
        ]
        for group in groups {
            lines.append("")
            lines.append("\(group.rule.rawValue), keep the first: \(group.why)")
            let rows = group.members.enumerated().map { position, file in
                [
                    position == 0 ? "  keep" : "      ", "\(file.width ?? 0)×\(file.height ?? 0)", file.format.rawValue,
                    Wording.size(file.bytes), file.capturedAt ?? "undated",
                    String(decoding: file.pathBytes, as: UTF8.self),
                ]
            }
            lines += PhotoListing.aligned(rows)
        }
        return lines.joined(separator: "\n")
    }

    /// A group in `list --duplicates --json`.
    public struct Group: Encodable {
        var rule: DuplicateGroup.Rule
        /// The path of the one to keep (the first of `files`), and why.
        var keep: String
        var why: String
        var files: [File]

        public init(_ group: DuplicateGroup) {
            (rule, why) = (group.rule, group.why)
            files = group.members.map(File.init)
            keep = files.first?.path ?? ""
        }
    }

    struct File: Encodable {
        var id: Int64
        var path: String
        var format: String
        var width, height: Int?
        var bytes: Int64
        var contentHash: String
        var perceptualHash: String?
        var detailHash: String?
        var capturedAt: String?
        var make, model: String?

        init(_ file: ComparedFile) {
            (id, path, format) = (file.id, String(decoding: file.pathBytes, as: UTF8.self), file.format.rawValue)
            (width, height, bytes, contentHash) = (file.width, file.height, file.bytes, file.contentHash)
            perceptualHash = file.perceptualHash.map { String($0, radix: 16) }
            detailHash = file.detailHash?.hex
            (capturedAt, make, model) = (file.capturedAt, file.make, file.model)
        }
    }
}
