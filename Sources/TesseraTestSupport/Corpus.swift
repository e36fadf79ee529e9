public import Foundation
public import Testing

/// The shared corpus of real photos beside the project (`../shared/corpus`), read in place.
///
/// Tests that need it carry `.enabled(if: Corpus.isAvailable, Corpus.missingNote)`,
/// so a checkout without `../shared` reports them as skipped, with the reason.
public enum Corpus {
    /// The project root, found from this source file's location.
    public static let projectRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/corpus` relative to the project root.
    public static let root: URL = projectRoot.appendingPathComponent("../shared/corpus").standardizedFileURL

    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("MANIFEST.tsv").path)
    }

    public static let missingNote: Comment = "needs ../shared/corpus beside the project; not found"

    /// The absolute path of a corpus file given relative to the corpus folder.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// Rows of the top-level MANIFEST.tsv (or of `folder`'s, which may have more columns),
    /// keyed by column name; empty without the corpus.
    public static func manifest(folder: String? = nil) -> [ManifestRow] {
        let file = folder.map { root.appendingPathComponent($0) } ?? root
        guard let text = try? String(contentsOf: file.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst()
        return lines.map { cells in
            ManifestRow(fields: Dictionary(uniqueKeysWithValues: zip(header, cells)))
        }
    }
}

/// One MANIFEST.tsv row; `-` reads as nil.
public struct ManifestRow: Sendable, CustomTestStringConvertible {
    public let fields: [String: String]

    public subscript(_ column: String) -> String? {
        guard let value = fields[column], value != "-" else { return nil }
        return value
    }

    public var file: String { fields["file"] ?? "" }
    public var path: String { Corpus.path(file) }
    public var testDescription: String { file }
}
