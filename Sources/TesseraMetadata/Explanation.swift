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
