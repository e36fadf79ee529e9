import TesseraFacts

/// Why a fact of a photo has the value it has: the value chosen, the tag or rule that gave
/// it, and the other places that said something, with what became of each.
public struct FactExplanation: Sendable, Codable, Equatable {
    /// What was decided: "date", "utc offset", "orientation", "size", "camera", "rating" and others.
    public var fact: String
    public var value: String?
    /// The tag or rule that won, in words ("EXIF DateTimeOriginal").
    public var rule: String
    public var candidates: [Candidate]

    public struct Candidate: Sendable, Codable, Equatable {
        /// Where the value was found ("XMP xmp:CreateDate (sidecar)").
        public var source: String
        public var value: String
        /// "chosen", or why not ("lower precedence", "malformed").
        public var outcome: String

        public init(source: String, value: String, outcome: String) {
            self.source = source
            self.value = value
            self.outcome = outcome
        }
    }

    public init(fact: String, value: String?, rule: String, candidates: [Candidate] = []) {
        self.fact = fact
        self.value = value
        self.rule = rule
        self.candidates = candidates
    }
}

extension PhotoMetadata {
    /// Every fact's explanation: the readers' (dates, offset, orientation, rating…), then the
    /// facts decided outside their precedence: size, camera, rendition source, and the sidecar
    /// read (or `unread`, the one beside the photo that could not be).
    public func explanations(sidecar: String?, unread: String?) -> [FactExplanation] {
        var facts = [
            FactExplanation(
                fact: "size",
                value:
                    "\(width)×\(height) → displayed \(displayWidth)×\(displayHeight)",
                rule: header.sizeRule)
        ]
        let camera = [exif?.make, exif?.model].compactMap { $0 }.joined(separator: " ")
        facts.append(
            FactExplanation(
                fact: "camera", value: camera.isEmpty ? nil : camera,
                rule: camera.isEmpty
                    ? "none recorded" : "EXIF Make and Model (XMP tiff:Make and tiff:Model where EXIF lacks them)"))
        var source = "the photo itself, decoded at the smallest scale that covers each rendition"
        if let raw = raw {
            source =
                raw.previews.first.map {
                    "the largest embedded preview, \($0.width)×\($0.height) at offset \($0.offset)"
                }
                ?? (raw.readByLibRaw && raw.previewWidth != nil
                    ? "LibRaw's embedded preview" : "none: no preview found")
        } else if format == .jxl {
            source =
                "the photo itself: only its frame's DC (1/8 of the detail, the rest of the file unread) "
                + "when that covers every rendition"
        } else if let previews = jpeg?.previews, !previews.isEmpty {
            let kinds = previews.map(\.kind.rawValue).joined(separator: ", ")
            source = "the photo, or an embedded preview (\(kinds)) that covers a rendition"
        }
        facts.append(FactExplanation(fact: "rendition source", value: nil, rule: source))
        facts.append(
            FactExplanation(
                fact: "sidecar", value: sidecar,
                rule: sidecar != nil
                    ? "found beside the photo"
                    : unread.map(Sidecar.unreadable)
                        ?? "none beside the photo"))
        return explanations + facts
    }
}
