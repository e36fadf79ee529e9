import Foundation
import TesseraIndex
import TesseraMetadata

/// What the viewer's panel says about a photo, in the order a person reads it.
struct PhotoFact: Encodable, Equatable {
    var label: String
    var value: String
    /// Where the value links to (the map for a place).
    var link: String?
    /// The value is a guess (a date from a file name or a modification time).
    var guess: Bool

    init(_ label: String, _ value: String, link: String? = nil, guess: Bool = false) {
        self.label = label
        self.value = value
        self.link = link
        self.guess = guess
    }

    /// Date and where it came from, camera, lens, exposure, size and format, place, file name.
    static func facts(of photo: PhotoRecord) -> [PhotoFact] {
        var facts: [PhotoFact] = []
        if let captured = photo.capturedAt {
            facts.append(PhotoFact("Date", FriendlyDate.moment(captured, offset: photo.utcOffset)))
        }
        if let source = photo.dateSource {
            let (text, guess) = describe(source)
            facts.append(PhotoFact("Date from", text, guess: guess))
        }
        if let camera = camera(photo) { facts.append(PhotoFact("Camera", camera)) }
        if let lens = photo.camera.lensModel, !lens.isEmpty { facts.append(PhotoFact("Lens", lens)) }
        let exposure = exposureText(photo.camera)
        if !exposure.isEmpty { facts.append(PhotoFact("Exposure", exposure)) }
        if let width = photo.displayWidth ?? photo.width, let height = photo.displayHeight ?? photo.height {
            let megapixels = Double(width) * Double(height) / 1_000_000
            // A scan of a few thousand pixels has no megapixels worth saying.
            let mp = megapixels >= 0.1 ? " (\(formatted(megapixels, decimals: 1)) MP)" : ""
            facts.append(PhotoFact("Size", "\(width) × \(height) px\(mp), \(photo.format.rawValue.uppercased())"))
        }
        if let motion = Motion(photo) {
            let parts = [motion.duration.map(Motion.clock), motion.codec?.uppercased(),
                         photo.video?.frameRate.map { "\(formatted($0, decimals: 0)) fps" }].compactMap { $0 }
            facts.append(PhotoFact(motion.kind == .video ? "Video" : "Motion", parts.joined(separator: ", ")))
        }
        if let gps = photo.gps, gps.latitude.isFinite, gps.longitude.isFinite {
            let latitude = formatted(gps.latitude, decimals: 5), longitude = formatted(gps.longitude, decimals: 5)
            facts.append(PhotoFact(
                "Place", "\(latitude), \(longitude)",
                link: "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=15/\(latitude)/\(longitude)"))
        }
        facts.append(PhotoFact("File", AlbumBuilder.name(photo)))
        return facts
    }

    static func camera(_ photo: PhotoRecord) -> String? { photo.camera.name }

    /// Where a capture date came from, and whether it is a guess.
    static func describe(_ source: DateSource) -> (String, Bool) {
        switch source {
        case .exifOriginal: ("EXIF, when the photo was taken", false)
        case .gpsOffset: ("EXIF, when the photo was taken; its time zone from the GPS clock", false)
        case .exifDigitized: ("EXIF, when the photo was digitised", false)
        case .xmp: ("XMP, as the photo's tools recorded it", false)
        case .png: ("the PNG's own time", false)
        case .filename: ("a guess from the file name", true)
        case .exifModified: ("a guess from EXIF's last-modified time", true)
        case .quicktime: ("the video's own time, as the camera recorded it", false)
        case .containerUTC: ("the video's own time, recorded in UTC and shown in this time zone", false)
        case .undated: ("undated: nothing in the file or its name says when", true)
        }
    }

    private static func exposureText(_ camera: PhotoRecord.Camera) -> String {
        var parts: [String] = []
        if let time = camera.exposureTime, time > 0, time.isFinite {
            parts.append(time < 1 ? "1/\(formatted(1 / time, decimals: 0)) s" : "\(formatted(time, decimals: 1)) s")
        }
        if let fNumber = camera.fNumber, fNumber > 0, fNumber.isFinite { parts.append("f/\(formatted(fNumber, decimals: 1))") }
        if let iso = camera.iso, iso > 0 { parts.append("ISO \(iso)") }
        if let focal = camera.focalLength, focal > 0, focal.isFinite {
            var text = "\(formatted(focal, decimals: 1)) mm"
            if let equivalent = camera.focalLength35mm, equivalent > 0, equivalent.isFinite,
               abs(equivalent - focal) >= 0.5 {
                text += " (\(formatted(equivalent, decimals: 0)) mm in 35 mm terms)"
            }
            parts.append(text)
        }
        return parts.joined(separator: ", ")
    }

    /// At most `decimals` decimals, without trailing zeros.
    static func formatted(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        guard rounded.magnitude < 1e15 else { return String(rounded) }
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
