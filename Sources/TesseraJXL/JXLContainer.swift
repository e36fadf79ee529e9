public import TesseraSystem

/// What a JPEG XL file's container boxes hold besides the image: its EXIF and XMP, and whether
/// it keeps what rebuilds the JPEG it was made from (ISO/IEC 18181-2).
///
/// The boxes are walked by their headers, seeking past the codestream, so a file's metadata costs
/// a few reads whatever its size. A bare codestream (`FF 0A`) has no boxes and no metadata.
public struct JXLContainer: Sendable, Equatable {
    /// Whether the file is a container (else a bare codestream).
    public var isContainer = false
    /// The TIFF structure of the `Exif` box (its leading offset applied).
    public var exif: [UInt8]?
    /// The packet of the `xml ` box.
    public var xmp: [UInt8]?
    /// Whether a `jbrd` box keeps what rebuilds the original JPEG bit for bit.
    public var jpegReconstruction = false
    /// Problems that lose a box, not the photo.
    public var warnings: [String] = []
    /// Where the codestream lies in the file, in order: one `jxlc` box's content, or the parts of
    /// `jxlp` boxes (metadata boxes may lie between them); the whole file for a bare codestream.
    public var codestream: [Range<Int64>] = []

    /// The first twelve bytes of a container: its signature box.
    public static let signature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
    /// The first two bytes of a bare codestream.
    public static let codestreamSignature: [UInt8] = [0xFF, 0x0A]

    /// The largest metadata box read, compressed or not; larger ones are skipped with a warning.
    static let maximumBoxBytes = 16 << 20

    /// Reads the boxes of the file `reader` holds.
    public static func read(_ reader: borrowing FileReader) throws(JXLError) -> JXLContainer {
        var container = JXLContainer()
        guard reader.prefix.starts(with: signature) else {
            container.codestream = [0..<reader.size]
            return container
        }
        container.isContainer = true
        let list: ISOBox.List
        do {
            list = try reader.boxes()
        } catch {
            throw JXLError(.truncated, "the file ends inside a box header").at(reader.path)
        }
        switch list.stop {
        case .cutShort: throw JXLError(.truncated, "the file ends inside a box header").at(reader.path)
        case .impossibleSize(let type, let offset, let size):
            throw JXLError(
                .corrupt, "box \"\(type.boxName)\" at \(offset) declares \(size) bytes, less than its header"
            ).at(reader.path)
        default: break
        }
        for box in list.boxes {
            let (type, start, length) = (box.type, box.body, Int(box.bodyLength))
            switch type {
            case "jxlc", "jxlp":
                container.addCodestream(type, start..<box.end)
            case "Exif", "xml ":
                container.keep(
                    type, try payload(reader, at: start, count: length, type: type, warnings: &container.warnings))
            case "brob":
                guard length >= 4,
                    let compressed = try payload(
                        reader, at: start, count: length, type: type, warnings: &container.warnings)
                else { break }
                let inner = String(decoding: compressed.prefix(4), as: UTF8.self)
                guard inner == "Exif" || inner == "xml " else { break }
                if let content = Brotli.decompress(compressed.dropFirst(4), limit: maximumBoxBytes) {
                    container.keep(inner, content)
                } else {
                    container.warnings.append("the compressed \"\(inner.boxName)\" box cannot be decompressed")
                }
            case "jbrd":
                container.jpegReconstruction = true
            default:
                break
            }
        }
        switch list.stop {
        case .tooMany: container.warnings.append("boxes after the first \(ISOBox.maxBoxes) are not read")
        // A file cut short: the decoder says what that costs the image.
        case .overruns(let box) where box.type == "jxlc" || box.type == "jxlp":
            container.addCodestream(box.type, box.body..<box.end)
        case .overruns(let box): container.warnings.append("the file ends inside its \"\(box.type.boxName)\" box")
        default: break
        }
        return container
    }

    /// A box's content, or nil (with a warning) when it is larger than any metadata should be.
    private static func payload(
        _ reader: borrowing FileReader, at offset: Int64, count: Int, type: String, warnings: inout [String]
    ) throws(JXLError) -> [UInt8]? {
        guard count <= maximumBoxBytes else {
            warnings.append("the \"\(type.boxName)\" box of \(count) bytes is too large to read")
            return nil
        }
        do {
            return try reader.readExactly(at: offset, count: count, what: "box")
        } catch {
            throw JXLError(.truncated, "the file ends inside its \"\(type.boxName)\" box").at(reader.path)
        }
    }

    /// Records a codestream box's content: a `jxlp` box's starts with its 4-byte index.
    private mutating func addCodestream(_ type: String, _ range: Range<Int64>) {
        let skip: Int64 = type == "jxlp" ? 4 : 0
        if range.count > skip { codestream.append((range.lowerBound + skip)..<range.upperBound) }
    }

    /// Keeps the first box of each kind, as readers do.
    private mutating func keep(_ type: String, _ content: [UInt8]?) {
        guard let content else { return }
        if type == "xml " {
            if xmp == nil { xmp = content }
            return
        }
        // The Exif box starts with the offset of the TIFF header within the rest.
        guard exif == nil, content.count >= 4 else { return }
        let skip = Int(content.bigEndian(4))
        guard skip <= content.count - 4 else {
            warnings.append("the Exif box's TIFF offset \(skip) lies outside it")
            return
        }
        exif = Array(content[(4 + skip)...])
    }
}

extension String {
    /// A four-character box type without its padding spaces, for messages: "xml " is "xml".
    var boxName: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
