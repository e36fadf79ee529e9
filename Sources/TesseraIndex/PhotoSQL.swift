import TesseraFacts

/// The meanings the index's SQL asks again and again, each written once: a new state of a
/// photo changes them here, and every query that asks follows (docs/INDEX.md, "Meanings").
///
/// Each takes the name or alias `photos` has in its query ("photos" when it has none). The text
/// they give is what the schema's views were made with, word for word.
enum PhotoSQL {
    /// The statuses of a photo that was read: shown, listed, grouped and rendered.
    static let readableStatuses: [PhotoRecord.Status] = [.ok, .warning]

    /// A file the last walk of its folder found (not missing).
    static func present(_ photos: String = "photos") -> String {
        "\(photos).missing_since_ms IS NULL"
    }

    /// A file read as a photo or video (with or without warnings), not a failure or unsupported.
    static func readable(_ photos: String = "photos") -> String {
        "\(photos).status IN (\(readableStatuses.map { "'\($0.rawValue)'" }.joined(separator: ", ")))"
    }

    /// A photo the site and the listings show: readable and present.
    static func shown(_ photos: String = "photos") -> String {
        "\(readable(photos)) AND \(present(photos))"
    }

    /// A photo not of the albums `albumIDs` (numbers: never outside text).
    static func withheld(_ albumIDs: [Int64], _ photos: String = "photos") -> String {
        "\(photos).album_id NOT IN (\(albumIDs.map(String.init).joined(separator: ",")))"
    }

    /// A file whose format has `trait` (`FormatTraits`): the table of formats asked, never a
    /// format named.
    static func format(_ trait: (FormatTraits) -> Bool, _ photos: String = "photos") -> String {
        let names = ImageFormat.all(trait).map { "'\($0.rawValue)'" }
        return names.isEmpty ? "0" : "\(photos).format IN (\(names.joined(separator: ", ")))"
    }

    /// A present file of this status.
    static func present(_ status: PhotoRecord.Status, _ photos: String = "photos") -> String {
        "\(photos).status = '\(status.rawValue)' AND \(present(photos))"
    }
}
