public import TesseraFacts
public import TesseraSystem

/// What a HEIF or AVIF file's `meta` box says about its primary image: stored size, the
/// rotation and mirroring to display it, colour, the Exif block and the thumbnails.
///
/// Read from the ISOBMFF boxes (ISO/IEC 14496-12, ISO/IEC 23008-12) without decoding: `pitm`
/// names the primary item, `iprp` gives its properties (`ispe` size, `irot`, `imir`, `colr`,
/// `pixi`), `iref` links thumbnails (`thmb`), auxiliary images (`auxl`) and metadata (`cdsc`)
/// to it, and `iloc` says where the Exif item's bytes are. The transformations are turned
/// into the equivalent EXIF orientation, so the renditions apply them exactly once; an EXIF
/// Orientation tag inside a HEIF is never applied (the transformations are what HEIF
/// readers display).
public struct HEIFHeader: Sendable, Equatable {
    /// Stored size of the primary image (its `ispe`), before the transformations.
    public var width: Int
    public var height: Int
    /// The EXIF orientation equivalent to the primary image's `irot` and `imir`.
    public var orientation: Int
    public var bitDepth: Int
    public var hasAlpha: Bool
    /// The TIFF structure of the Exif item.
    public var exif: [UInt8]?
    /// The XMP packet of a `mime` item of type `application/rdf+xml`.
    public var xmp: [UInt8]?
    /// The primary image's clean aperture (`clap`), in stored pixels: the crop applied before
    /// the rotation and mirroring (ISO/IEC 23008-12 orders them clap, irot, imir).
    public var cleanAperture: CleanAperture?
    public var iccProfile: [UInt8]?
    /// The `nclx` colour description: primaries, transfer characteristics, matrix.
    public var nclx: (primaries: Int, transfer: Int, matrix: Int)?
    /// Stored sizes of the thumbnail images of the primary.
    public var thumbnails: [(width: Int, height: Int)]
    /// Whether the primary image is a grid of tiles.
    public var isGrid: Bool
    /// The most pixels any codec configuration in the file says its decoder makes in one frame
    /// (`CodedFrameSize`); 0 when none says.
    ///
    /// Budgets trust this, not `ispe`.
    public var largestCodedFrame: Int = 0

    public static func == (lhs: HEIFHeader, rhs: HEIFHeader) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.orientation == rhs.orientation
            && lhs.exif == rhs.exif && lhs.iccProfile == rhs.iccProfile
    }

    /// "heic 8-bit grid", "avif 10-bit +alpha".
    public func coding(_ format: ImageFormat) -> String {
        "\(format == .avif ? "avif" : "heic") \(bitDepth)-bit\(isGrid ? " grid" : "")\(hasAlpha ? " +alpha" : "")"
    }

    /// The largest `meta` box read; real ones are a few kilobytes.
    static let maxMetaBox = 16 << 20
    /// The largest Exif item read.
    static let maxExif = 4 << 20

    public static func read(_ bytes: borrowing FileReader) throws(PhotoError) -> HEIFHeader {
        // Find the top-level meta box; only box headers are read on the way, and a box running
        // past the end ends the search.
        let list = try bytes.photoBoxes { $0.type != "meta" }
        var meta: [UInt8]?
        switch list.stop {
        case .refused(let box):  // the meta box, whole
            guard box.bodyLength <= maxMetaBox else {
                throw PhotoError(.unsupported, "meta box of \(box.bodyLength) bytes")
            }
            meta = Array(try bytes.photoBytes(at: box.body, count: Int(box.bodyLength), what: "the meta box"))
        case .overruns(let box) where box.type == "meta":
            throw PhotoError(.truncated, "file ends inside the meta box")
        case .impossibleSize(_, _, let size): throw PhotoError(.corrupt, "box of impossible size \(size)")
        default: break
        }
        guard let meta, meta.count >= 4 else { throw PhotoError(.corrupt, "no meta box: not a HEIF image") }
        let parsed = try HEIFMeta(meta.dropFirst(4))  // after the FullBox version and flags
        guard let primary = parsed.primary else { throw PhotoError(.corrupt, "no primary item (pitm)") }
        let properties = parsed.properties(of: primary)
        guard let size = properties.compactMap({ if case .size(let w, let h) = $0 { (w, h) } else { nil } }).first,
            size.0 > 0, size.1 > 0
        else { throw PhotoError(.corrupt, "primary image without its size (ispe)") }

        // The Exif item describing the primary (cdsc), else any Exif item.
        var exif: [UInt8]?
        let exifItems = parsed.items.filter { $0.value == "Exif" }.map { $0.key }.sorted()
        let describing = exifItems.first { item in
            parsed.references["cdsc", default: []].contains { $0.from == item && $0.to.contains(primary) }
        }
        if let item = describing ?? exifItems.first,
            let location = parsed.locations[item], location.length <= maxExif, location.offset >= 0,
            location.offset <= bytes.size - Int64(location.length)
        {
            let data = try bytes.photoBytes(at: location.offset, count: location.length)
            if data.count >= 4 {
                let skip = Int(data.bigEndian(4)) + 4
                if skip < data.count { exif = Array(data[skip...]) }
            }
        }
        var xmp: [UInt8]?
        let xmpItems = parsed.contentTypes.filter { $0.value == "application/rdf+xml" }.map { $0.key }.sorted()
        if let item = xmpItems.first,
            let location = parsed.locations[item], location.length <= XMPReader.maxLength, location.offset >= 0,
            location.offset <= bytes.size - Int64(location.length)
        {
            xmp = Array(try bytes.photoBytes(at: location.offset, count: location.length, what: "the XMP item"))
        }
        let thumbnails = parsed.references["thmb", default: []].filter { $0.to.contains(primary) }.compactMap {
            reference in
            parsed.properties(of: reference.from).compactMap {
                if case .size(let w, let h) = $0 { (width: w, height: h) } else { nil }
            }.first
        }
        let alpha = parsed.references["auxl", default: []].contains {
            $0.to.contains(primary) && parsed.isAlpha($0.from)
        }
        var icc: [UInt8]?, nclx: (Int, Int, Int)?, depth = 8
        // A grid's colour and depth may be given on its tiles alone (Canon's HIF): the first
        // tile's stand for the grid, as libheif reads them.
        let firstTile = parsed.references["dimg", default: []].first { $0.from == primary }?.to.first
        for property in properties + (firstTile.map { parsed.properties(of: $0) } ?? []) {
            switch property {
            case .icc(let profile): icc = icc ?? profile
            case .nclx(let p, let t, let m): nclx = nclx ?? (p, t, m)
            case .bitDepth(let bits): depth = bits
            default: break
            }
        }
        return HEIFHeader(
            width: size.0, height: size.1, orientation: Self.orientation(properties), bitDepth: depth, hasAlpha: alpha,
            exif: exif, xmp: xmp,
            cleanAperture: properties.lazy.compactMap { property -> CleanAperture? in
                if case .cleanAperture(let fractions) = property {
                    CleanAperture(fractions, width: size.0, height: size.1)
                } else {
                    nil
                }
            }.first,
            iccProfile: icc, nclx: nclx, thumbnails: thumbnails, isGrid: parsed.items[primary] == "grid",
            largestCodedFrame: try largestCodedFrame(primary: primary, parsed, bytes))
    }

    /// The most pixels a decoder makes for one frame of what a decode of the primary may
    /// decode: the primary (a grid's first tile: a grid's tiles are all one size), its alpha
    /// image and its thumbnails.
    ///
    /// From each frame's codec configuration, or, for an AV1 frame
    /// whose `av1C` leaves the sequence header out (libavif's do), from its data's first OBUs.
    private static func largestCodedFrame(
        primary: UInt32, _ parsed: HEIFMeta, _ bytes: borrowing FileReader
    ) throws(PhotoError) -> Int {
        let related =
            [primary]
            + parsed.references["thmb", default: []].filter { $0.to.contains(primary) }.map(\.from)
            + parsed.references["auxl", default: []].filter { $0.to.contains(primary) && parsed.isAlpha($0.from) }.map(
                \.from)
        var largest = 0
        for item in related {
            let frame =
                parsed.items[item] == "grid"
                ? parsed.references["dimg", default: []].first { $0.from == item }?.to.first : item
            guard let frame else { continue }
            var size = parsed.properties(of: frame).lazy.compactMap { property -> (width: Int, height: Int)? in
                if case .codedSize(let width, let height) = property { (width, height) } else { nil }
            }.first
            if size == nil, parsed.items[frame] == "av01", let location = parsed.locations[frame], location.offset >= 0,
                location.offset < bytes.size
            {
                let start = try bytes.photoBytes(at: location.offset, count: min(location.length, maxSequenceHeader))
                size = CodedFrameSize.av1(obus: start[...])
            }
            guard let size else { continue }
            let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
            largest = max(largest, overflow ? Int.max : pixels)
        }
        return largest
    }

    /// The most bytes of an AV1 frame's data read for its sequence header, which comes first
    /// and is a few dozen bytes.
    static let maxSequenceHeader = 1024

    /// The EXIF orientation of `irot` then `imir`, in the order the item lists them.
    ///
    /// Orientations are elements of the dihedral group: r clockwise quarter turns after an
    /// optional left-right flip (EXIF 1 (0, no flip), 6 (1), 3 (2), 8 (3); 2 (0, flip), 7 (1),
    /// 4 (2), 5 (3)). `irot` turns anticlockwise; `imir` axis 0 flips top to bottom, axis 1
    /// left to right (libheif's reading of the standard).
    static func orientation(_ properties: [Property]) -> Int {
        var (turns, flipped) = (0, false)
        for property in properties {
            switch property {
            case .rotation(let anticlockwise):
                turns = (turns + 4 - anticlockwise % 4) % 4
            case .mirror(let axis):
                // A flip after r turns: F∘R^r = R^-r∘F; a top-bottom flip is R²∘F.
                turns = ((axis == 0 ? 2 : 0) - turns + 8) % 4
                flipped.toggle()
            default:
                break
            }
        }
        return flipped ? [2, 7, 4, 5][turns] : [1, 6, 3, 8][turns]
    }

    enum Property {
        case size(Int, Int)
        /// Anticlockwise quarter turns.
        case rotation(Int)
        case mirror(Int)
        case icc([UInt8])
        case nclx(Int, Int, Int)
        case bitDepth(Int)
        case auxiliaryType(String)
        /// Width, height, horizontal and vertical offset, each as numerator and denominator.
        case cleanAperture([(Int64, Int64)])
        /// The frame size a codec configuration (`hvcC`, `av1C`) declares.
        case codedSize(Int, Int)
        case other
    }
}

/// A crop rectangle in an image's stored pixels.
public struct CleanAperture: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// The rectangle a `clap` box describes in an image of `width`×`height`, as libheif and
    /// the standard compute it: centred at the image centre moved by the offsets, rounded to
    /// whole pixels.
    ///
    /// Nil when a denominator is 0, or the rectangle is empty, leaves the
    /// image, or is the whole image.
    init?(_ fractions: [(Int64, Int64)], width: Int, height: Int) {
        guard fractions.count == 4, fractions.allSatisfy({ $0.1 > 0 }) else { return nil }
        func value(_ index: Int) -> Double { Double(fractions[index].0) / Double(fractions[index].1) }
        let (cropWidth, cropHeight) = (value(0), value(1))
        let centreX = value(2) + Double(width - 1) / 2, centreY = value(3) + Double(height - 1) / 2
        let left = (centreX - (cropWidth - 1) / 2).rounded(), top = (centreY - (cropHeight - 1) / 2).rounded()
        let right = (centreX + (cropWidth - 1) / 2).rounded(), bottom = (centreY + (cropHeight - 1) / 2).rounded()
        guard left >= 0, top >= 0, right < Double(width), bottom < Double(height), right >= left, bottom >= top else {
            return nil
        }
        (x, y) = (Int(left), Int(top))
        (self.width, self.height) = (Int(right - left) + 1, Int(bottom - top) + 1)
        if self.width == width && self.height == height { return nil }
    }
}

extension HEIFHeader {
    /// PQ or HLG, from the primary image's `nclx` box; nil for SDR.
    public var hdrTransfer: HDRTransfer? { nclx.flatMap { HDRTransfer(h273: $0.transfer) } }
}

extension HEIFHeader: PhotoHeader {
    public static let formats: Set<ImageFormat> = [.heif, .avif]

    /// By the `ftyp` brands, the major one and the compatible ones (ISO/IEC 23008-12 Annex B,
    /// AV1-ISOBMFF).
    public static func identify(_ bytes: [UInt8]) -> ImageFormat? {
        guard let brands = ISOBox.brands(bytes), brands.first != "crx " else { return nil }
        if brands.contains(where: { ["avif", "avis"].contains($0) }) && !brands.contains("heic") { return .avif }
        let heif = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        return brands.contains(where: heif.contains) ? .heif : nil
    }
    /// The photo is what its clean aperture leaves of the stored image.
    public var storedSize: (width: Int, height: Int, bitDepth: Int) {
        (cleanAperture?.width ?? width, cleanAperture?.height ?? height, bitDepth)
    }
    public func coding(as format: ImageFormat) -> String { coding(format) }
    public var sizeRule: String {
        cleanAperture == nil
            ? "HEIF ispe property of the primary image"
            : "HEIF clean aperture (clap) of the primary image's \(width)×\(height) (ispe)"
    }
    public var exifTIFF: [UInt8]? { exif }
    public var xmpPacket: [UInt8]? { xmp }
    public var ownOrientation: (value: Int, rule: String)? { (orientation, "HEIF transformations (irot, imir)") }
    public var describesColour: Bool { iccProfile != nil || nclx != nil }
    public var hdr: HDRTransfer? { hdrTransfer }
}
