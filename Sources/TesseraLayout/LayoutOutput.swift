import Foundation

/// The `+N` badge on the sixth tile of a section with more than six photos.
public struct LayoutOverlay: Codable, Sendable, Equatable {
    public var kind = "moreCount"
    public var count: Int
    public var text: String
    public var hiddenPhotoIds: [String]
}

/// A header or photo frame on a page (docs/LAYOUT.md §2.2).
public struct LayoutItem: Codable, Sendable, Equatable {
    /// What a layout item shows.
    public enum Kind: String, Codable, Sendable {
        /// A section's header band.
        case header
        /// One photo's frame.
        case photo
    }

    public var type: Kind
    public var sectionId: String
    public var title: String?
    public var continued: Bool?
    public var photoId: String?
    public var index: Int?
    public var x, y, width, height: Double
    public var crop: Bool?
    public var aspectEstimated: Bool?
    public var clipped: Bool
    public var imageHeight: Double?
    public var scale: Double?
    public var contentX: Double?
    public var visible: Bool?
    public var overlay: LayoutOverlay?
}

public struct LayoutSection: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var photoCount: Int
    public var y: Double?
    public var height: Double?
    /// Strip only: the scrolling row's content width and the offset it is shown at.
    public var contentWidth: Double?
    public var contentOffset: Double?
}

public struct LayoutPage: Codable, Sendable, Equatable {
    public var index: Int
    public var width: Double
    public var height: Double
    /// The page's top in document coordinates; null in count mode.
    public var documentY: Double?
    public var items: [LayoutItem]

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(documentY, forKey: .documentY)
        try container.encode(items, forKey: .items)
    }
}

public struct LayoutWarning: Codable, Sendable, Equatable {
    public var code: String
    public var sectionId: String?
    public var detail: String?
}

/// The whole result: sections, pages of items, warnings; or an error naming a field.
public struct LayoutDocument: Codable, Sendable, Equatable {
    public struct Size: Codable, Sendable, Equatable {
        public var width: Double
        public var height: Double?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
        }
    }

    public var schema = "album-layout/1"
    public var style: String
    public var pageSize: Size
    public var document: Size?
    public var sections: [LayoutSection]
    public var pages: [LayoutPage]
    public var warnings: [LayoutWarning]

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schema, forKey: .schema)
        try container.encode(style, forKey: .style)
        try container.encode(pageSize, forKey: .pageSize)
        try container.encode(document, forKey: .document)
        try container.encode(sections, forKey: .sections)
        try container.encode(pages, forKey: .pages)
        try container.encode(warnings, forKey: .warnings)
    }
}

/// `{"error": {"code": "invalidConfig", "field": "…", "message": "…"}}` (§2.1, plus the message).
public struct LayoutError: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    public struct Detail: Codable, Sendable, Equatable {
        public var code: String
        public var field: String
        /// What is wrong and what is allowed, such as "must be a number from 1 to 1000000".
        public var message: String?
    }

    public var error: Detail

    public init(field: String, _ message: String) {
        error = Detail(code: "invalidConfig", field: field, message: message)
    }

    /// "justified.targetRowHeight must be a number from 1 to 1000000, not 1e-300".
    public var description: String { "\(error.field) \(error.message ?? "is not valid")" }
}

/// A style's output for one section, in body coordinates (§3).
struct Body {
    struct Item {
        var photo: Int
        var x, y, width, height: Double
        var crop: Bool?
        var imageHeight: Double?
        var scale: Double?
        var contentX: Double?
        var visible: Bool?
        var overlay: LayoutOverlay?
    }

    var items: [Item] = []
    var height = 0.0
    var warnings: [(code: String, detail: String)] = []
    var contentWidth: Double?
    var contentOffset: Double?
}

/// Whether a frame's aspect differs from the photo's by more than 1e-9, relatively (§2.2).
func isCrop(width: Double, height: Double, aspect: Double) -> Bool {
    guard height > 0 else { return true }
    return abs(width / height - aspect) / aspect > 1e-9
}

extension Encodable {
    /// Canonical JSON (§0.2): sorted keys, shortest round-trip numbers, unescaped slashes.
    public func canonicalJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
