public import TesseraMetadata
import TesseraSystem

extension FactExplanation {
    /// What `tessera explain` prints: each fact, the rule that gave it, and each place that said
    /// something, the chosen one ticked; control characters from the file made visible.
    public static func text(_ facts: [FactExplanation]) -> String {
        var lines: [String] = []
        for fact in facts {
            lines.append("\(fact.fact): \(fact.value ?? "none")")
            lines.append("  from \(fact.rule)")
            for candidate in fact.candidates {
                let chosen = candidate.outcome == "chosen"
                lines.append(
                    "  \(chosen ? "✓" : "·") \(candidate.source)"
                        + (candidate.value.isEmpty ? "" : " \(candidate.value)")
                        + (chosen ? "" : ": \(candidate.outcome)"))
            }
        }
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }
}
