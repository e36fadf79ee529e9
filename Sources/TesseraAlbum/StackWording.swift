import TesseraIndex

/// How the site names a stack its face stands for: the tile's badge, and the viewer's fact.
enum StackWording {
    /// "5": the files the tile stands for (beside two squares the CSS draws, as no glyph of a
    /// stack is in every font).
    static func badge(_ stack: PhotoRecord.StackFace) -> String {
        "\(stack.memberIDs.count + 1)"
    }

    /// "A burst of 5 photos", "A bracket of 3 exposures", "RAW and processed image of one shot".
    static func title(_ stack: PhotoRecord.StackFace) -> String {
        let count = stack.memberIDs.count + 1
        return switch stack.kind {
        case .burst: "A burst of \(count) photos"
        case .bracket: "A bracket of \(count) exposures"
        case .rawPair: "One shot: the camera's RAW and the image it made (\(count) files)"
        }
    }
}
