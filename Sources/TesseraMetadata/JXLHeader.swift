public import TesseraFacts
public import TesseraJXL
public import TesseraSystem

/// What a JPEG XL file says about itself: its codestream header (through libjxl) and the
/// metadata boxes of its container.
public struct JXLHeader: Sendable, Equatable {
    public var info: JXLImageInfo
    public var container: JXLContainer

    /// The coding in words, such as "jxl lossy 8-bit" or "jxl recompressed JPEG 8-bit".
    public var coding: String { info.coding(container) }

    /// Reads the header and the boxes of the file `reader` holds.
    public static func read(_ reader: borrowing FileReader) throws(PhotoError) -> JXLHeader {
        do throws(JXLError) {
            let container = try JXLContainer.read(reader)
            let info = try JXLDecoder(stream: reader.stream()).info()
            return JXLHeader(info: info, container: container)
        } catch {
            throw PhotoError(jxl: error)
        }
    }
}

extension PhotoError {
    /// The photo error for a JPEG XL failure.
    public init(jxl error: JXLError) {
        let code: Code =
            switch error.code {
            case .truncated: .truncated
            case .unsupported: .unsupported
            case .tooLarge: .tooLarge
            default: .corrupt
            }
        self.init(code, path: error.path, error.message)
    }
}

extension JXLHeader: PhotoHeader {
    public static let formats: Set<ImageFormat> = [.jxl]

    /// The container's signature box, or a bare codestream's.
    public static func identify(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.starts(with: JXLContainer.signature) || bytes.starts(with: JXLContainer.codestreamSignature) ? .jxl : nil
    }
    public var storedSize: (width: Int, height: Int, bitDepth: Int) { (info.width, info.height, info.bitsPerSample) }
    public func coding(as format: ImageFormat) -> String { coding }
    public var sizeRule: String { "the JPEG XL codestream's size header (libjxl)" }
    public var exifTIFF: [UInt8]? { container.exif }
    public var xmpPacket: [UInt8]? { container.xmp }
    public var readWarnings: [String] { container.warnings }
    public var ownOrientation: (value: Int, rule: String)? { (info.orientation, "the JPEG XL codestream header") }
    public var describesColour: Bool { info.iccProfile != nil }
    public var hdr: HDRTransfer? { info.transfer.flatMap { HDRTransfer(h273: $0) } }
}
