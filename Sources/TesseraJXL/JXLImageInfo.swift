/// What a JPEG XL codestream's header says about its image, as libjxl reads it.
public struct JXLImageInfo: Sendable, Equatable {
    /// Pixel size as stored, before `orientation`.
    public var width: Int
    public var height: Int
    /// The codestream's orientation, 1–8 as EXIF numbers them: for JPEG XL the only one that
    /// counts (an `Exif` box's is informative; libjxl's encoder resets it to 1).
    public var orientation: Int
    public var bitsPerSample: Int
    /// Bits of the exponent of floating-point samples; 0 for integers.
    public var exponentBits: Int
    /// Bits of the alpha channel; 0 without one.
    public var alphaBits: Int
    /// Channels besides the colour ones: alpha, depth, spot colours and others.
    public var extraChannels: Int
    public var isGray: Bool
    /// Whether the codestream holds an animation (Tessera shows its first frame).
    public var isAnimated: Bool
    /// Whether it was encoded in the XYB colour space: lossy, and decodable to any colour space.
    public var isXYB: Bool
    /// The colour space of the original image as an ICC profile; nil when it is sRGB.
    public var iccProfile: [UInt8]?
    /// The original colour space as named by the codestream (such as "sRGB", "Display P3" or an
    /// HDR transfer with its primaries), or "ICC profile" when it carries one.
    public var colorSpace: String
    /// The original colour space's transfer as an ITU-T H.273 code point (libjxl numbers them so),
    /// when the codestream names it: 16 is PQ, 18 HLG.
    public var transfer: Int?
    /// Its primaries as an H.273 code point: 1 BT.709/sRGB, 9 BT.2020, 11 P3.
    public var primaries: Int?

    /// Whether the image is HDR (PQ or HLG): decoded to 16-bit samples for tone mapping.
    public var isHDR: Bool { transfer == 16 || transfer == 18 }

    /// Bytes libjxl needs beyond the decoded image, a little over what it was measured to use
    /// (libjxl 0.7, 12 MP): about 3 a pixel for VarDCT and plain modular frames, and 9 to 10 a
    /// pixel for each channel of a squeezed modular frame (`JXLFrameLayout`).
    static let workingBytesPerPixel = 4, squeezedBytesPerChannel = 10

    /// Bytes a decode holds at its peak: the whole decoded image and libjxl's own buffers
    /// (libjxl 0.7 decodes whole frames; it has no reduced-size decode).
    public func memoryNeeded(squeezed: Bool) -> Int {
        let working =
            squeezed
            ? Self.squeezedBytesPerChannel * (isGray ? 1 : 3) + Self.squeezedBytesPerChannel * extraChannels
            : Self.workingBytesPerPixel
        let pixels = width.multipliedReportingOverflow(by: height)
        let bytes = pixels.partialValue.multipliedReportingOverflow(by: channels * (isHDR ? 2 : 1) + working)
        return pixels.overflow || bytes.overflow ? .max : bytes.partialValue
    }

    /// Channels of the decoded image: RGB, or RGBA with straight alpha.
    public var channels: Int { alphaBits > 0 ? 4 : 3 }

    /// "jxl lossy 8-bit", "jxl original colours 16-bit Rec. 2100 PQ +alpha animated"…
    public func coding(_ container: JXLContainer) -> String {
        let kind = container.jpegReconstruction ? "recompressed JPEG" : isXYB ? "lossy" : "original colours"
        let depth = exponentBits > 0 ? "\(bitsPerSample)-bit float" : "\(bitsPerSample)-bit"
        let colours = ["sRGB", "grey"].contains(colorSpace) ? "" : " \(colorSpace)"
        return "jxl \(kind) \(depth)\(isGray ? " grey" : "")\(colours)"
            + "\(alphaBits > 0 ? " +alpha" : "")\(isAnimated ? " animated" : "")"
    }
}
