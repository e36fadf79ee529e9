import CLCMS
import TesseraSystem

/// A conversion from an embedded ICC profile to sRGB, through LittleCMS.
///
/// One object owns one LittleCMS transform and frees it in `deinit`; the profiles it
/// was built from are closed as soon as the transform exists (LittleCMS copies what
/// it needs). The rendering intent is perceptual, LittleCMS's and Pillow's default;
/// for the matrix-shaper profiles of cameras and phones (Adobe RGB, Display P3) it is
/// the same as relative colorimetric. See https://www.littlecms.com/ (API reference:
/// cmsOpenProfileFromMem, cmsCreateTransform, cmsDoTransform).
final class ColorTransform {
    /// The layout of the pixels handed to `apply`.
    enum Input: Hashable {
        case rgb, rgba, gray
        /// CMYK as libjpeg outputs it; `inverted` for Adobe's 0-is-full-ink files.
        case cmyk(inverted: Bool)

        fileprivate var format: cmsUInt32Number {
            switch self {
            case .rgb: CLCMS_TYPE_RGB_8
            case .rgba: CLCMS_TYPE_RGBA_8
            case .gray: CLCMS_TYPE_GRAY_8
            case .cmyk(let inverted): inverted ? CLCMS_TYPE_CMYK_8_REV : CLCMS_TYPE_CMYK_8
            }
        }

        fileprivate var colorSpace: cmsColorSpaceSignature {
            switch self {
            case .rgb, .rgba: cmsSigRgbData
            case .gray: cmsSigGrayData
            case .cmyk: cmsSigCmykData
            }
        }

        var channels: Int {
            switch self {
            case .rgb: 3
            case .rgba, .cmyk: 4
            case .gray: 1
            }
        }
    }

    private let transform: cmsHTRANSFORM
    let input: Input

    /// LittleCMS prints nothing by itself; keep its error log off stderr.
    private static let quiet: Void = cmsSetLogErrorHandler(nil)

    /// A transform from `profile` to sRGB, or nil when LittleCMS cannot read the profile or its
    /// colour space does not match `input` (an RGB profile on a CMYK image is ignored, not trusted).
    init?(profile: [UInt8], input: Input) {
        _ = Self.quiet
        guard let source = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        else { return nil }
        defer { cmsCloseProfile(source) }
        guard cmsGetColorSpace(source) == input.colorSpace, let srgb = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(srgb) }
        let output = input == .rgba ? CLCMS_TYPE_RGBA_8 : CLCMS_TYPE_RGB_8
        let flags = input == .rgba ? CLCMS_FLAGS_COPY_ALPHA : 0
        guard
            let transform = cmsCreateTransform(
                source, input.format, srgb, output, cmsUInt32Number(INTENT_PERCEPTUAL), flags)
        else { return nil }
        self.transform = transform
        self.input = input
    }

    deinit { cmsDeleteTransform(transform) }

    /// Converts `count` pixels from `source` (laid out as `input`) into sRGB `destination`
    /// (RGB, or RGBA keeping alpha for `.rgba`).
    func apply(_ source: UnsafeRawPointer, _ destination: UnsafeMutableRawPointer, count: Int) {
        cmsDoTransform(transform, source, destination, cmsUInt32Number(count))
    }

    /// Whether `profile` describes sRGB itself (same primaries and tone curves within what 8 bits
    /// can show), so that pixels tagged with it can skip the conversion.
    static func isSRGB(_ profile: [UInt8]) -> Bool {
        _ = quiet
        guard
            let source = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }),
            let srgb = cmsCreate_sRGBProfile()
        else { return false }
        defer {
            cmsCloseProfile(source)
            cmsCloseProfile(srgb)
        }
        guard cmsGetColorSpace(source) == cmsSigRgbData, cmsIsMatrixShaper(source) != 0 else { return false }
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let ours = cmsReadTag(source, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee,
                let theirs = cmsReadTag(srgb, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee,
                abs(ours.X - theirs.X) < 0.003, abs(ours.Y - theirs.Y) < 0.003, abs(ours.Z - theirs.Z) < 0.003
            else { return false }
        }
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            // cmsToneCurve is opaque: LittleCMS hands it out as a pointer to evaluate, nothing more.
            guard let ours = cmsReadTag(source, tag).map(OpaquePointer.init),
                let theirs = cmsReadTag(srgb, tag).map(OpaquePointer.init)
            else { return false }
            for x in stride(from: Float(0.05), through: 1, by: 0.05)
            where abs(cmsEvalToneCurveFloat(ours, x) - cmsEvalToneCurveFloat(theirs, x)) > 0.002 {
                return false
            }
        }
        return true
    }
}

extension ColorTransform {
    /// An ICC profile for an `nclx` colour description (ITU-T H.273 code points), for the
    /// conversion to sRGB; nil when there is nothing to convert (BT.709/sRGB primaries,
    /// unspecified) or nothing an SDR rendition can honour (PQ and HLG transfers: HDR tone
    /// mapping is not done here).
    static func iccProfile(nclxPrimaries primaries: Int, transfer: Int) -> [UInt8]? {
        // Red, green, blue chromaticities, and the white point (D65 but for DCI-P3).
        let table: [Int: (r: (Double, Double), g: (Double, Double), b: (Double, Double), white: (Double, Double))] = [
            9: ((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), (0.3127, 0.3290)),  // BT.2020
            11: ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.314, 0.351)),  // DCI-P3
            12: ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.3127, 0.3290)),  // Display P3
        ]
        guard let space = table[primaries] else { return nil }
        // sRGB's curve (13) and BT.709's (1, 6, 14, 15), as LittleCMS parametric type 4.
        let curve: [Double]
        switch transfer {
        case 13: curve = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        case 1, 6, 14, 15: curve = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
        default: return nil
        }
        _ = quiet
        var white = cmsCIExyY(x: space.white.0, y: space.white.1, Y: 1)
        var colorants = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: space.r.0, y: space.r.1, Y: 1), Green: cmsCIExyY(x: space.g.0, y: space.g.1, Y: 1),
            Blue: cmsCIExyY(x: space.b.0, y: space.b.1, Y: 1))
        guard let tone = curve.withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, 4, $0.baseAddress) }) else {
            return nil
        }
        defer { cmsFreeToneCurve(tone) }
        var curves: [OpaquePointer?] = [tone, tone, tone]
        guard let profile = cmsCreateRGBProfile(&white, &colorants, &curves) else { return nil }
        defer { cmsCloseProfile(profile) }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
        return bytes
    }
}

/// The transforms one worker has built, by profile: photos from one camera share a profile,
/// and building a transform costs far more than applying it to a thumbnail.
final class ColorTransformCache {
    private struct Key: Hashable {
        var profile: UInt64
        var input: ColorTransform.Input
    }

    private var transforms: [Key: ColorTransform?] = [:]
    private var srgb: [UInt64: Bool] = [:]
    private static let capacity = 16

    /// The transform for `profile`, or nil when the profile is sRGB (nothing to do) or unusable.
    func transform(for profile: [UInt8], input: ColorTransform.Input) -> ColorTransform? {
        let hash = XXH64.hash(profile)
        if input == .rgb || input == .rgba {
            let isSRGB = srgb[hash] ?? ColorTransform.isSRGB(profile)
            if srgb.count >= Self.capacity { srgb.removeAll() }
            srgb[hash] = isSRGB
            if isSRGB { return nil }
        }
        let key = Key(profile: hash, input: input)
        if let known = transforms[key] { return known }
        if transforms.count >= Self.capacity { transforms.removeAll() }
        let made = ColorTransform(profile: profile, input: input)
        transforms[key] = made
        return made
    }
}
