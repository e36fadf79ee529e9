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
