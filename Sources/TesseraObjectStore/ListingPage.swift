public import Foundation

/// One object of a listing.
public struct StoredObject: Sendable, Equatable {
    /// Relative to the prefix.
    public var key: String
    public var size: Int64
    public var lastModified: Date?
}

/// One page of a `ListObjectsV2` answer, read from its XML (the store's answer: fuzzed as
/// `s3-listing`).
///
/// The answer's shape is fixed and flat (`Contents` elements holding `Key`, `Size` and
/// `LastModified`), so it is read by its tags rather than by a general XML parser.
package struct ListingPage {
    package var entries: [StoredObject] = []
    var truncated = false
    var nextToken: String?

    /// Keys lose `prefix`, the location's.
    package init(xml: [UInt8], prefix: String) throws(ObjectStoreError) {
        let text = String(decoding: xml, as: UTF8.self)
        guard text.contains("ListBucketResult") else {
            throw ObjectStoreError(.badAnswer, "a listing that is not a ListBucketResult")
        }
        truncated = Self.text(of: "IsTruncated", in: text) == "true"
        nextToken = Self.text(of: "NextContinuationToken", in: text)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        for part in text.components(separatedBy: "<Contents>").dropFirst() {
            guard let key = Self.text(of: "Key", in: part), key.hasPrefix(prefix) else { continue }
            let modified = Self.text(of: "LastModified", in: part)
            entries.append(
                StoredObject(
                    key: String(key.dropFirst(prefix.count)),
                    size: Self.text(of: "Size", in: part).flatMap { Int64($0) } ?? 0,
                    lastModified: modified.flatMap { iso.date(from: $0) ?? plain.date(from: $0) }))
        }
    }

    static func text(of tag: String, in bytes: [UInt8]) -> String? {
        text(of: tag, in: String(decoding: bytes.prefix(64 << 10), as: UTF8.self))
    }

    /// The text of the first `<tag>` element in `xml`, its entities decoded.
    static func text(of tag: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<\(tag)>"),
            let close = xml.range(of: "</\(tag)>", range: open.upperBound..<xml.endIndex)
        else { return nil }
        return String(xml[open.upperBound..<close.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
