import TesseraFacts
import TesseraIndex
import TesseraMetadata

/// What `tessera explain` says of a photo's people (docs/PEOPLE.md): each face found, the person
/// it is in and who put it there, where that person's name came from, and the names the
/// photo's XMP gives to boxes where no face was found.
enum PeopleExplanation {
    static func fact(faces: [FaceSummary], regions: [FaceRegion]) -> FactExplanation {
        var candidates: [FactExplanation.Candidate] = []
        for (number, face) in faces.enumerated() {
            candidates.append(
                .init(
                    source: "face \(number + 1) \(box(face.x, face.y, face.width, face.height))",
                    value: face.personName ?? face.personID.map { "person \($0), not named" } ?? "no person yet",
                    outcome: outcome(face)))
        }
        // A region that no face found lies in names no one here.
        for region in regions where !faces.contains(where: { covers($0, region) }) {
            candidates.append(
                .init(
                    source: "an XMP face region \(box(region.x, region.y, region.width, region.height))",
                    value: region.name, outcome: "no face found there: names no one"))
        }
        let names = faces.filter { !$0.hidden && !$0.personHidden }.compactMap(\.personName)
        let rule =
            faces.isEmpty
            ? "none: no face found (faces are found after a photo's renditions; `faces: false` turns them off)"
            : "faces found by dlib and grouped into people; a name is a user's or a photo's XMP"
        return FactExplanation(
            fact: "people", value: names.isEmpty ? nil : names.joined(separator: ", "), rule: rule,
            candidates: candidates)
    }

    /// "at 12 %, 20 %, 15 % × 18 % of the photo".
    private static func box(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> String {
        let percent = { (value: Double) in "\(Int((value * 100).rounded())) %" }
        return "at \(percent(x)), \(percent(y)), \(percent(width)) × \(percent(height)) of the photo"
    }

    /// Who put the face in its person, and where the name came from.
    private static func outcome(_ face: FaceSummary) -> String {
        if face.hidden { return "hidden (tessera people hide --face): never shown" }
        if face.personHidden { return "their person is hidden (tessera people hide): never shown" }
        guard face.personID != nil else { return "not grouped yet: the next scan groups it" }
        let placed =
            switch face.assignedBy {
            case "user": "placed by you (tessera people merge or split)"
            case "xmp": "placed by this photo's XMP face region"
            default: "grouped with the faces most like it"
            }
        let named =
            switch (face.personName, face.nameSource) {
            case (nil, _): "no name yet (tessera people name)"
            case (_, "xmp"): "the name from an XMP face region of one of their photos"
            default: "the name given by you (tessera people name)"
            }
        return placed + "; " + named
    }

    /// Whether the region's centre lies in the face's box.
    private static func covers(_ face: FaceSummary, _ region: FaceRegion) -> Bool {
        let (x, y) = (region.x + region.width / 2, region.y + region.height / 2)
        return x >= face.x && x <= face.x + face.width && y >= face.y && y <= face.y + face.height
    }
}
