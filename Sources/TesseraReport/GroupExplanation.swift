public import TesseraIndex
public import TesseraMetadata

/// What `tessera explain` says of an indexed file's stack and copies: the groups the index
/// records it in, by which rule, and of each file a lookup finds near it, whether it is a copy
/// and why (docs/DUPLICATES.md).
public enum GroupExplanation {
    public static func facts(
        stack: Stack?, copies: DuplicateGroup?, near: [(file: ComparedFile, verdict: DuplicateGroups.Verdict)]
    ) -> [FactExplanation] {
        let path = { (file: ComparedFile) in String(decoding: file.pathBytes, as: UTF8.self) }
        let stacked = FactExplanation(
            fact: "stack",
            value: stack.map { "\($0.kind.rawValue) of \($0.members.count) files, its face \(path($0.members[0]))" },
            rule: stack.map { "\(StackGroups.rule($0.kind)); the face: \($0.why)" } ?? "in no stack",
            candidates: (stack?.members ?? []).enumerated().map { position, member in
                .init(source: path(member), value: "", outcome: position == 0 ? "chosen" : "a member")
            })
        let copied = FactExplanation(
            fact: "copies",
            value: copies.map { "\($0.rule.rawValue), \($0.members.count) files, keep \(path($0.members[0]))" },
            rule: (copies.map { "keep the first: \($0.why); " } ?? "in no group of copies; ")
                + "copies are the same bytes, or the same picture: perceptual hashes at most "
                + "\(DuplicateGroups.threshold) bits apart, their details at most \(DuplicateGroups.detailThreshold), "
                + "nothing in the metadata says they are different shots, and colours that agree; a group holds no "
                + "two different shots, nor hashes more than \(DuplicateGroups.spread) bits apart (details "
                + "\(DuplicateGroups.detailSpread))",
            candidates: near.map { other in
                let grouped = copies?.members.contains { $0.id == other.file.id } ?? false
                return .init(
                    source: path(other.file), value: other.verdict.distance.map { "(hash \($0) bits away)" } ?? "",
                    outcome: other.verdict.rule.map {
                        grouped
                            ? "a copy (\($0.rawValue)): \(other.verdict.reason)"
                            : "alike (\($0.rawValue)): \(other.verdict.reason); but grouped apart, as its group or "
                                + "this file's would then hold different shots or hashes more than "
                                + "\(DuplicateGroups.spread) bits apart (details \(DuplicateGroups.detailSpread))"
                    } ?? "not a copy: \(other.verdict.reason)")
            })
        return [stacked, copied]
    }
}
