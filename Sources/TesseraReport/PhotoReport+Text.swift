import Foundation
import TesseraFacts
import TesseraIndex
import TesseraSystem

/// A photo's report as `tessera inspect` shows it to a person.
extension PhotoReport {
    /// Every fact of the JSON, grouped and rounded for a person at a terminal (the JSON keeps
    /// them exact).
    public var text: String {
        let report = self
        guard report.error == nil, let width = report.width, let height = report.height else {
            return TerminalText.escaped("\(report.path): \(report.error ?? "unreadable")")
        }
        var text = ReportText(title: report.path)
        text.group("File")
        text.add(
            "format", "\(report.format.uppercased())" + (report.coding.map { ", \($0)" } ?? "") + " (\(report.kind))")
        text.add("sidecar", report.annotations.sidecar)
        text.group("Image")
        let megapixels = Double(width) * Double(height) / 1_000_000
        text.add(
            "size",
            "\(width) × \(height) px" + (megapixels >= 0.1 ? " (\(Wording.number(megapixels, decimals: 1)) MP)" : ""))
        let orientation = report.orientation ?? 1
        text.add(
            "orientation",
            "\(orientation), \(Self.orientationNames[orientation] ?? "unknown")"
                + " → shown \(report.displayWidth ?? width) × \(report.displayHeight ?? height)")
        text.add("HDR", report.hdr.map { "\($0.uppercased()), tone-mapped to SDR for renditions" })
        text.add(
            "colour",
            report.nclx.map { nclx in
                ["primaries", "transfer", "matrix"].compactMap { key in nclx[key].map { "\(key) \($0)" } }.joined(
                    separator: ", ") + " (nclx)"
            })
        text.group("Capture")
        if let captured = report.capturedAt {
            text.add(
                "date", captured.replacingOccurrences(of: "T", with: " ") + (report.utcOffset.map { " \($0)" } ?? ""))
        }
        text.add("date from", (report.dateSource.flatMap(DateSource.init(rawValue:)) ?? .undated).explanation)
        text.group("Camera and exposure")
        text.add("make", report.camera.make)
        text.add("model", report.camera.model)
        text.add("lens", report.camera.lensModel)
        text.add("exposure", report.camera.exposure.isEmpty ? nil : report.camera.exposure)
        text.group("Description")
        text.add("rating", report.annotations.rating.map { $0 < 0 ? "rejected" : "\($0) of 5" })
        text.add("label", report.annotations.label)
        text.add("title", report.annotations.title)
        text.add("description", report.annotations.description)
        text.add(
            "keywords", report.annotations.keywords.isEmpty ? nil : report.annotations.keywords.joined(separator: ", "))
        text.group("Place")
        if let gps = report.gps {
            // Six decimals are 11 cm: more digits say nothing a receiver measured.
            text.add(
                "position",
                "\(Wording.number(gps.latitude, decimals: 6)), \(Wording.number(gps.longitude, decimals: 6))")
            text.add("altitude", gps.altitude.map { "\(Wording.number($0, decimals: 1)) m" })
        }
        if report.gps != nil || report.place != nil {
            text.add("place", report.place.map(Self.place) ?? report.placeUnknown.map { "unknown: \($0)" })
        }
        text.group(report.kind == "video" ? "Video" : "Motion")
        if let video = report.video {
            text.add("duration", video.duration.map(Wording.duration))
            text.add("codec", video.codec)
            text.add("frame rate", video.frameRate.map { "\(Wording.number($0, decimals: 2)) fps" })
            text.add("rotation", video.rotation.map { $0 == 0 ? "none" : "\($0)° clockwise" })
            text.add("poster", video.posterTime.map { "the frame at \(Wording.duration($0))" })
            text.add("web video", video.webVideo)
        }
        if let motion = report.motion {
            text.add(
                "motion photo",
                "an MP4 of \(motion.length) bytes at byte \(motion.offset)"
                    + ([motion.duration.map(Wording.duration), motion.codec].compactMap { $0 }.map { ", \($0)" }
                        .joined()))
            text.add("web video", report.motionWebVideo)
        }
        text.add("Live Photo", report.contentIdentifier.map { "identifier \($0)" })
        text.add("its video", report.livePhotoVideo)
        text.group("In the index")
        text.add("album", report.album)
        text.add("status", report.status)
        for (title, group) in [("stack", report.stack), ("copies", report.copies)] {
            guard let group, let first = group.files.first else { continue }
            let this = group.files.firstIndex { $0.path == report.path } == 0 ? " (this file)" : ""
            text.add(title, "\(group.rule), \(Wording.count(group.files.count, "file")); first: \(group.why)\(this)")
            for (position, member) in group.files.enumerated() {
                let distance = position == 0 ? "" : member.distance.map { ", hash \($0) bits from the first's" } ?? ""
                text.add(
                    position == 0 ? "  first" : "  then", member.path + (member.path == first.path ? "" : distance))
            }
        }
        if let faces = report.faces { Self.add(faces, to: &text) }
        for rendition in report.renditions ?? [] {
            let shape = rendition.kind == "square" ? "\(rendition.size) square" : "\(rendition.size) fit"
            text.add(shape, "\(rendition.width) × \(rendition.height), from \(rendition.source): \(rendition.path)")
        }
        text.add("placeholder", report.thumbhash.map { "ThumbHash \($0)" })
        text.group("Warnings")
        for warning in report.warnings { text.add("warning", warning) }
        // Names and tags come from the file: nothing in them may drive the terminal.
        return text.lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    /// The photo's faces: each with its person (or none yet) and where it is.
    private static func add(_ faces: [FaceSummary], to text: inout ReportText) {
        text.add("faces", faces.isEmpty ? "none found" : Wording.count(faces.count, "face"))
        for face in faces {
            let who = face.personID.map { id in face.personName.map { "\($0) (person \(id))" } ?? "person \(id)" }
            let box = [face.x, face.y, face.width, face.height].map { Wording.number($0 * 100, decimals: 1) }
            text.add(
                "  face \(face.id)",
                (who ?? "no person yet") + (face.hidden ? ", hidden" : "")
                    + "; at \(box[0]) %, \(box[1]) %, \(box[2]) × \(box[3]) % of the photo"
                    + (face.assignedBy.map { ", by \($0)" } ?? ""))
        }
    }

    /// EXIF orientations as exiftool names them.
    static let orientationNames = [
        1: "horizontal (normal)", 2: "mirror horizontal", 3: "rotate 180", 4: "mirror vertical",
        5: "mirror horizontal and rotate 270 CW", 6: "rotate 90 CW", 7: "mirror horizontal and rotate 90 CW",
        8: "rotate 270 CW",
    ]
}

/// Lines under group headings, each group shown only when it has a line.
private struct ReportText {
    var lines: [String]
    private var heading: String?

    init(title: String) { lines = [title] }

    mutating func group(_ name: String) { heading = name }

    mutating func add(_ label: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        if let heading {
            lines.append("  \(heading)")
            self.heading = nil
        }
        lines.append("    " + label.padding(toLength: 14, withPad: " ", startingAt: 0) + value)
    }
}

extension PhotoReport {
    /// The place in words, and what decided it when the position alone did not.
    static func place(_ place: PlaceName) -> String {
        switch place.source {
        case .gps: place.text
        case .words: "\(place.text) (the photo's own words)"
        case .correction: "\(place.text) (corrected in the configuration)"
        }
    }
}
