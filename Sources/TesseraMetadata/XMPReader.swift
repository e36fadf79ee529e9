import CExempi
public import TesseraFacts
import TesseraSystem

/// The XMP properties Tessera uses, as Exempi reads them from one packet.
public struct XMPFields: Sendable, Equatable {
    /// `exif:DateTimeOriginal`, `xmp:CreateDate`, `photoshop:DateCreated`: ISO 8601 text as stored.
    public var dateTimeOriginal: String?
    public var createDate: String?
    public var dateCreated: String?
    /// `xmp:Rating`: -1 (rejected) to 5.
    public var rating: Int?
    /// `xmp:Label`, a colour name or a word.
    public var label: String?
    /// `dc:title` and `dc:description`, in their default language.
    public var title: String?
    public var description: String?
    /// `dc:subject`, then `digiKam:TagsList` and `lr:HierarchicalSubject` (levels joined by
    /// "/"), without repeats.
    public var keywords: [String] = []
    /// `tiff:Orientation`.
    public var orientation: Int?
    /// What a sidecar or an editor records of the camera's: `tiff:Make`, `tiff:Model`,
    /// `exifEX:LensModel` (or `aux:Lens`), `exif:ExposureTime`, `exif:ExposureBiasValue`, `exif:FNumber`,
    /// `exif:ISOSpeedRatings`, `exif:FocalLength`, `exif:FocalLengthIn35mmFilm`.
    public var make: String?
    public var model: String?
    public var lensModel: String?
    /// `exifEX:BodySerialNumber`, or `aux:SerialNumber`.
    public var serialNumber: String?
    public var exposureTime: Double?
    public var exposureBias: Double?
    public var fNumber: Double?
    public var iso: Int?
    public var focalLength: Double?
    public var focalLength35mm: Double?
    /// `exif:GPSLatitude`, `exif:GPSLongitude` ("48,51.3N" or "48,51,18N"), `exif:GPSAltitude`
    /// and `exif:GPSAltitudeRef`: a geotagger's position, in a sidecar most often.
    public var gps: GPSPosition?
    /// The photo's words for where it was taken.
    public var location: LocationWords?
    /// The faces it names: MWG's regions (`mwg-rs:Regions`), else Microsoft's (`MP:RegionInfo`).
    public var faceRegions: [FaceRegion] = []
    /// What could not be read as a position, for the photo's warnings.
    var gpsWarning: String?
    /// Where Google's motion-photo XMP says its video lies (Container directory, MicroVideo).
    var motionPhoto: MotionPhoto.Hint?

    public init() {}

    /// Properties of `other` fill what this packet lacks; this packet's win.
    ///
    /// Keywords are joined.
    func filling(from other: XMPFields) -> XMPFields {
        var merged = self
        merged.dateTimeOriginal = dateTimeOriginal ?? other.dateTimeOriginal
        merged.createDate = createDate ?? other.createDate
        merged.dateCreated = dateCreated ?? other.dateCreated
        merged.rating = rating ?? other.rating
        merged.label = label ?? other.label
        merged.title = title ?? other.title
        merged.description = description ?? other.description
        merged.keywords = keywords.isEmpty ? other.keywords : keywords
        merged.orientation = orientation ?? other.orientation
        merged.make = make ?? other.make
        merged.model = model ?? other.model
        merged.lensModel = lensModel ?? other.lensModel
        merged.serialNumber = serialNumber ?? other.serialNumber
        merged.exposureTime = exposureTime ?? other.exposureTime
        merged.exposureBias = exposureBias ?? other.exposureBias
        merged.fNumber = fNumber ?? other.fNumber
        merged.iso = iso ?? other.iso
        merged.focalLength = focalLength ?? other.focalLength
        merged.focalLength35mm = focalLength35mm ?? other.focalLength35mm
        merged.motionPhoto = motionPhoto ?? other.motionPhoto
        merged.gps = gps ?? other.gps
        // (the words of one packet go together: a sidecar's city with the file's country could name no place)
        merged.location = location ?? other.location
        // (a sidecar's regions whole, as its words: a tool rewrote them all)
        merged.faceRegions = faceRegions.isEmpty ? other.faceRegions : faceRegions
        return merged
    }
}

/// Reads XMP packets through Exempi (the Adobe XMP Toolkit), which parses the RDF in all its
/// forms (attributes, elements, `rdf:Bag`/`rdf:Seq`/`rdf:Alt`) so that Tessera never does.
public enum XMPReader {
    /// The largest packet handed to Exempi: main and extended XMP of a real photo are a few
    /// hundred kilobytes at most.
    public static let maxLength = 8 << 20
    /// The most items read of one array property.
    static let maxArrayItems = 10_000

    /// The namespaces read (Exempi's constants are unsized C arrays Swift cannot import).
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let tiff = "http://ns.adobe.com/tiff/1.0/"
    static let xmpBasic = "http://ns.adobe.com/xap/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let exifAux = "http://ns.adobe.com/exif/1.0/aux/"
    static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
    static let digiKam = "http://www.digikam.org/ns/1.0/"
    static let exifEX = "http://cipa.jp/exif/1.0/"
    static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
    static let iptcExtension = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
    static let googleCamera = "http://ns.google.com/photos/1.0/camera/"
    static let googleContainer = "http://ns.google.com/photos/1.0/container/"
    static let googleItem = "http://ns.google.com/photos/1.0/container/item/"
    static let mwgRegions = "http://www.metadataworkinggroup.com/schemas/regions/"
    static let area = "http://ns.adobe.com/xmp/sType/Area#"
    static let microsoftPhoto = "http://ns.microsoft.com/photo/1.2/"
    static let microsoftRegionInfo = "http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
    static let microsoftRegion = "http://ns.microsoft.com/photo/1.2/t/Region#"
    /// The most face regions of one packet read (a list of 100,000 is cut there).
    static let maxFaceRegions = 256
    /// The most items of a Container directory looked at.
    static let maxDirectoryItems = 16

    /// Exempi initialises the toolkit once per process, and Tessera's namespaces with it
    /// (a property of an unregistered namespace cannot even be asked for).
    private static let initialised: Bool = {
        guard xmp_init() else { return false }
        let registered = xmp_string_new()
        defer { xmp_string_free(registered) }
        // Asking for a property of an unregistered namespace makes Exempi print an error.
        for (namespace, prefix) in [
            (digiKam, "digiKam"), (exifEX, "exifEX"), (lightroom, "lr"), (exifAux, "aux"),
            (googleCamera, "GCamera"), (googleContainer, "Container"), (googleItem, "Item"),
            (iptcCore, "Iptc4xmpCore"), (iptcExtension, "Iptc4xmpExt"), (mwgRegions, "mwg-rs"), (area, "stArea"),
            (microsoftPhoto, "MP"), (microsoftRegionInfo, "MPRI"), (microsoftRegion, "MPReg"),
        ] {
            _ = xmp_register_namespace(namespace, prefix, registered)
        }
        return true
    }()

    /// The fields of one packet, or nil with a warning when it is not XMP Exempi can parse.
    public static func read(packet: [UInt8]) -> (fields: XMPFields?, warning: String?) {
        guard packet.count <= maxLength else {
            return (nil, "XMP packet of \(packet.count) bytes is too large; ignored")
        }
        guard initialised else { return (nil, "the XMP toolkit could not be initialised; XMP ignored") }
        // The toolkit wants XML text: a packet padded with NULs (as some writers leave it) ends there,
        // and one that a tool rewrote in place, shorter, ends at its own end marker.
        let bytes = Self.packetEnd(packet.firstOffset(of: 0).map { Array(packet[..<$0]) } ?? packet)
        guard let document = XMPDocument(bytes) else { return (nil, "XMP packet is not well-formed; ignored") }
        return (document.fields(), nil)
    }

    private static let trailer = Array("<?xpacket end=".utf8)
    private static let closing = Array("</x:xmpmeta>".utf8)
    private static let questionClose = Array("?>".utf8)

    /// `bytes` up to the end of its first packet: the `<?xpacket end="…"?>` trailer's `?>`, or
    /// without a trailer the `</x:xmpmeta>` that closes the first packet; what follows (the tail
    /// of a longer packet it replaced) is no part of it.
    ///
    /// As exiftool reads them.
    static func packetEnd(_ bytes: [UInt8]) -> [UInt8] {
        if let start = bytes.firstOffset(of: trailer),
            let end = bytes.firstOffset(of: questionClose, from: start + trailer.count)
        {
            return Array(bytes[..<(end + questionClose.count)])
        }
        if let end = bytes.firstOffset(of: closing) { return Array(bytes[..<(end + closing.count)]) }
        return bytes
    }
}

/// One parsed packet; the only owner of its `XmpPtr`, freed when it goes.
private struct XMPDocument: ~Copyable {
    let xmp: XmpPtr

    init?(_ bytes: [UInt8]) {
        guard !bytes.isEmpty,
            let xmp = bytes.withUnsafeBufferPointer({ buffer in
                buffer.withMemoryRebound(to: CChar.self) { xmp_new($0.baseAddress, $0.count) }
            })
        else { return nil }
        self.xmp = xmp
    }

    deinit { xmp_free(xmp) }

    func fields() -> XMPFields {
        var fields = XMPFields()
        fields.dateTimeOriginal = text(XMPReader.exif, "DateTimeOriginal")
        fields.createDate = text(XMPReader.xmpBasic, "CreateDate")
        fields.dateCreated = text(XMPReader.photoshop, "DateCreated")
        if let rating = text(XMPReader.xmpBasic, "Rating").flatMap(Double.init), rating.isFinite,
            (-1...5).contains(rating)
        {
            fields.rating = Int(rating.rounded())
        }
        fields.label = text(XMPReader.xmpBasic, "Label")
        fields.title = localized(XMPReader.dublinCore, "title")
        fields.description = localized(XMPReader.dublinCore, "description")
        var keywords: [String] = []
        for keyword in items(XMPReader.dublinCore, "subject") + items(XMPReader.digiKam, "TagsList")
            + items(XMPReader.lightroom, "hierarchicalSubject").map({ $0.replacing("|", with: "/") })
        where !keywords.contains(keyword) {
            keywords.append(keyword)
        }
        fields.keywords = keywords
        fields.orientation = text(XMPReader.tiff, "Orientation").flatMap { Int($0) }
        fields.make = text(XMPReader.tiff, "Make")
        fields.model = text(XMPReader.tiff, "Model")
        fields.lensModel = text(XMPReader.exifEX, "LensModel") ?? text(XMPReader.exifAux, "Lens")
        fields.serialNumber = text(XMPReader.exifEX, "BodySerialNumber") ?? text(XMPReader.exifAux, "SerialNumber")
        fields.exposureTime = text(XMPReader.exif, "ExposureTime").flatMap(Self.number)
        fields.exposureBias = text(XMPReader.exif, "ExposureBiasValue").flatMap(Self.number)
        fields.fNumber = text(XMPReader.exif, "FNumber").flatMap(Self.number)
        fields.iso = (items(XMPReader.exif, "ISOSpeedRatings").first ?? text(XMPReader.exif, "ISOSpeedRatings")).flatMap
        { Int($0) }
        fields.focalLength = text(XMPReader.exif, "FocalLength").flatMap(Self.number)
        fields.focalLength35mm = text(XMPReader.exif, "FocalLengthIn35mmFilm").flatMap(Self.number)
        fields.motionPhoto = motionPhoto()
        (fields.gps, fields.gpsWarning) = position()
        fields.location = location()
        fields.faceRegions = mwgFaceRegions() ?? microsoftFaceRegions()
        return fields
    }

    /// MWG's named face regions (`mwg-rs:Type` Face, or none): `stArea` gives each box by its
    /// centre; nil when the packet has no MWG region list.
    private func mwgFaceRegions() -> [FaceRegion]? {
        var regions: [FaceRegion] = []
        var found = false
        for index in 1...XMPReader.maxFaceRegions {
            let item = "Regions/mwg-rs:RegionList[\(index)]/mwg-rs:"
            let area = item + "Area/stArea:"
            let name = text(XMPReader.mwgRegions, item + "Name")
            let x = number(area + "x"), y = number(area + "y"), w = number(area + "w"), h = number(area + "h")
            guard name != nil || x != nil else { break }
            found = true
            guard ["Face", nil].contains(text(XMPReader.mwgRegions, item + "Type")),
                let name, let x, let y, let w, let h,
                let region = FaceRegion(name: name, x: x - w / 2, y: y - h / 2, width: w, height: h).checked
            else { continue }
            regions.append(region)
        }
        return found ? regions : nil
    }

    /// Microsoft's (Windows Live Photo Gallery's) regions: a name and "x, y, w, h" from the top left.
    private func microsoftFaceRegions() -> [FaceRegion] {
        var regions: [FaceRegion] = []
        for index in 1...XMPReader.maxFaceRegions {
            let item = "RegionInfo/MPRI:Regions[\(index)]/MPReg:"
            let name = text(XMPReader.microsoftPhoto, item + "PersonDisplayName")
            let rectangle = text(XMPReader.microsoftPhoto, item + "Rectangle")
            guard name != nil || rectangle != nil else { break }
            let values = (rectangle ?? "").split(separator: ",").compactMap { Double(String($0).trimmingSpaces) }
            guard let name, values.count == 4,
                let region = FaceRegion(name: name, x: values[0], y: values[1], width: values[2], height: values[3])
                    .checked
            else { continue }
            regions.append(region)
        }
        return regions
    }

    private func number(_ path: String) -> Double? {
        text(XMPReader.mwgRegions, path).flatMap(Self.number)
    }

    /// The position, or why there is none though the packet has a coordinate.
    private func position() -> (GPSPosition?, String?) {
        let latitudeText = text(XMPReader.exif, "GPSLatitude"), longitudeText = text(XMPReader.exif, "GPSLongitude")
        guard latitudeText != nil || longitudeText != nil else { return (nil, nil) }
        guard let latitudeText, let longitudeText else {
            let has = latitudeText == nil ? "Longitude" : "Latitude"
            return (nil, "XMP has exif:GPS\(has) without the other; no position")
        }
        guard let latitude = GPSCoordinate.xmp(latitudeText, positive: "N", negative: "S", limit: 90),
            let longitude = GPSCoordinate.xmp(longitudeText, positive: "E", negative: "W", limit: 180)
        else {
            let given = "exif:GPSLatitude \"\(latitudeText)\", exif:GPSLongitude \"\(longitudeText)\""
            return (nil, "XMP \(given) is no position (out of range, or a letter not its axis's); ignored")
        }
        var altitude = text(XMPReader.exif, "GPSAltitude").flatMap(Self.number)
        if text(XMPReader.exif, "GPSAltitudeRef") == "1" { altitude = altitude.map { -$0 } }
        return (GPSPosition(latitude: latitude, longitude: longitude, altitude: altitude), nil)
    }

    /// `photoshop:City`, `photoshop:State`, `photoshop:Country`, `Iptc4xmpCore:CountryCode` and
    /// `Iptc4xmpCore:Location`; without them, the first `Iptc4xmpExt:LocationShown` (never some of
    /// each: they may name two places).
    private func location() -> LocationWords? {
        let legacy = LocationWords(
            city: text(XMPReader.photoshop, "City"), region: text(XMPReader.photoshop, "State"),
            country: text(XMPReader.photoshop, "Country"), countryCode: text(XMPReader.iptcCore, "CountryCode"),
            sublocation: text(XMPReader.iptcCore, "Location"))
        let shown = "LocationShown[1]/Iptc4xmpExt:"
        let extended = LocationWords(
            city: text(XMPReader.iptcExtension, shown + "City"),
            region: text(XMPReader.iptcExtension, shown + "ProvinceState"),
            country: text(XMPReader.iptcExtension, shown + "CountryName"),
            countryCode: text(XMPReader.iptcExtension, shown + "CountryCode"),
            sublocation: text(XMPReader.iptcExtension, shown + "Sublocation"))
        return legacy.nonEmpty ?? extended.nonEmpty
    }

    /// Google's motion-photo properties: the video item of the Container directory (semantic
    /// `MotionPhoto`), whose length counts from the end of the file, or MicroVideo's offset.
    private func motionPhoto() -> MotionPhoto.Hint? {
        var hint = MotionPhoto.Hint()
        for index in 1...XMPReader.maxDirectoryItems {
            // `<rdf:li><Container:Item Item:…/></rdf:li>` makes Container:Item the item's type
            // (its fields are the li's own); with rdf:parseType="Resource" it is a field.
            let typed = "Directory[\(index)]/Item:", field = "Directory[\(index)]/Container:Item/Item:"
            guard let item = [typed, field].first(where: { text(XMPReader.googleContainer, $0 + "Semantic") != nil }),
                let semantic = text(XMPReader.googleContainer, item + "Semantic")
            else { break }
            if semantic == "MotionPhoto",
                let length = text(XMPReader.googleContainer, item + "Length").flatMap({ Int64($0) })
            {
                hint.videoItemLength = length
            }
        }
        if text(XMPReader.googleCamera, "MicroVideo") == "1" {
            hint.microVideoOffset = text(XMPReader.googleCamera, "MicroVideoOffset").flatMap { Int64($0) }
        }
        return hint.videoItemLength != nil || hint.microVideoOffset != nil ? hint : nil
    }

    /// A simple property's text, trimmed; nil when absent, empty or not simple.
    private func text(_ schema: String, _ name: String) -> String? {
        withString { value in
            var options: UInt32 = 0
            guard xmp_get_property(xmp, schema, name, value, &options),
                options & UInt32(XMP_PROP_COMPOSITE_MASK.rawValue) == 0
            else { return nil }
            return Self.trimmed(xmp_string_cstr(value))
        }
    }

    /// The `x-default` (or only) item of a language alternative.
    private func localized(_ schema: String, _ name: String) -> String? {
        withString { value in
            guard xmp_get_localized_text(xmp, schema, name, "", "x-default", nil, value, nil) else { return nil }
            return Self.trimmed(xmp_string_cstr(value))
        }
    }

    /// The items of an array property (1-based in XMP), trimmed, empty ones left out.
    private func items(_ schema: String, _ name: String) -> [String] {
        withString { value in
            var options: UInt32 = 0
            guard xmp_get_property(xmp, schema, name, value, &options),
                options & UInt32(XMP_PROP_VALUE_IS_ARRAY.rawValue) != 0
            else { return [] }
            var found: [String] = []
            var index: Int32 = 1
            while index <= XMPReader.maxArrayItems, xmp_get_array_item(xmp, schema, name, index, value, nil) {
                if let item = Self.trimmed(xmp_string_cstr(value)) { found.append(item) }
                index += 1
            }
            return found
        }
    }

    private func withString<T>(_ body: (XmpStringPtr) -> T?) -> T? {
        guard let string = xmp_string_new() else { return nil }
        defer { xmp_string_free(string) }
        return body(string)
    }

    private func withString(_ body: (XmpStringPtr) -> [String]) -> [String] {
        guard let string = xmp_string_new() else { return [] }
        defer { xmp_string_free(string) }
        return body(string)
    }

    private static func trimmed(_ text: UnsafePointer<CChar>?) -> String? {
        guard let text else { return nil }
        let value = String(cString: text).trimmingSpaces
        return value.isEmpty ? nil : value
    }

    /// An XMP rational ("10/2500") or real ("0.004"); nil for a zero denominator or nonsense.
    static func number(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        switch parts.count {
        case 1: value = Double(text)
        case 2:
            guard let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator != 0 else {
                return nil
            }
            value = numerator / denominator
        default: value = nil
        }
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }
}
