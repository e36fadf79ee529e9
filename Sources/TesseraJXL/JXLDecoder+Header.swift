import CJXL
import TesseraSystem

/// The codestream header libjxl reads before any pixel: size, orientation, samples, colour.
extension JXLDecoder {
    /// The codestream header: size, orientation, samples and colour space.
    ///
    /// Reads only as much of
    /// the file as the header takes.
    public func info() throws(JXLError) -> JXLImageInfo {
        if let header { return header }
        while true {
            let status = JxlDecoderProcessInput(decoder)
            if status == JXL_DEC_NEED_MORE_INPUT {
                guard try feed(chunk: 64 << 10, limit: 16 << 20) || closeInput() else {
                    throw failure(.truncated, "the file ends inside the JPEG XL header")
                }
            } else if status == JXL_DEC_BASIC_INFO {
                guard JxlDecoderGetBasicInfo(decoder, &basic) == JXL_DEC_SUCCESS else {
                    throw failure(.corrupt, "the JPEG XL header cannot be read")
                }
            } else if status == JXL_DEC_COLOR_ENCODING {
                let made = try colour()
                header = made
                return made
            } else if inputClosed {
                // libjxl fails, rather than waiting, once told there is no more to come.
                throw failure(.truncated, "the file ends inside the JPEG XL header")
            } else {
                throw failure(.corrupt, "the JPEG XL header is damaged")
            }
        }
    }

    /// The image info from `basic` and the colour encoding libjxl has just read; for an XYB
    /// image, asks libjxl for sRGB pixels (it converts XYB to any colour space exactly).
    func colour() throws(JXLError) -> JXLImageInfo {
        guard basic.xsize > 0, basic.ysize > 0 else { throw failure(.corrupt, "a JPEG XL image of no pixels") }
        var encoding = JxlColorEncoding()
        let named =
            JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &encoding)
            == JXL_DEC_SUCCESS
        let isSRGB =
            named && encoding.white_point == JXL_WHITE_POINT_D65
            && encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
            && (encoding.color_space == JXL_COLOR_SPACE_GRAY || encoding.primaries == JXL_PRIMARIES_SRGB)
        let gray = basic.num_color_channels == 1
        let hdr =
            named
            && (encoding.transfer_function == JXL_TRANSFER_FUNCTION_PQ
                || encoding.transfer_function == JXL_TRANSFER_FUNCTION_HLG)
        if basic.uses_original_profile == JXL_FALSE && hdr {
            // Kept in its own transfer, for Tessera's tone mapping.
            _ = JxlDecoderSetPreferredColorProfile(decoder, &encoding)
        } else if basic.uses_original_profile == JXL_FALSE {
            var srgb = JxlColorEncoding()
            srgb.color_space = gray ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB
            srgb.white_point = JXL_WHITE_POINT_D65
            srgb.primaries = JXL_PRIMARIES_SRGB
            srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB
            srgb.rendering_intent = JXL_RENDERING_INTENT_RELATIVE
            _ = JxlDecoderSetPreferredColorProfile(decoder, &srgb)
        }
        return JXLImageInfo(
            width: Int(basic.xsize), height: Int(basic.ysize), orientation: Int(basic.orientation.rawValue),
            bitsPerSample: Int(basic.bits_per_sample), exponentBits: Int(basic.exponent_bits_per_sample),
            alphaBits: Int(basic.alpha_bits), extraChannels: Int(basic.num_extra_channels), isGray: gray,
            isAnimated: basic.have_animation != JXL_FALSE,
            isXYB: basic.uses_original_profile == JXL_FALSE,
            iccProfile: isSRGB ? nil : iccProfile(JXL_COLOR_PROFILE_TARGET_ORIGINAL),
            colorSpace: named ? Self.name(encoding) : "ICC profile",
            transfer: named ? Int(encoding.transfer_function.rawValue) : nil,
            primaries: named && encoding.color_space == JXL_COLOR_SPACE_RGB ? Int(encoding.primaries.rawValue) : nil)
    }

    /// The colour profile libjxl gives for `target`, or nil.
    func iccProfile(_ target: JxlColorProfileTarget) -> [UInt8]? {
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, target, &size) == JXL_DEC_SUCCESS, size > 0, size <= 64 << 20
        else {
            return nil
        }
        var profile = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, target, &profile, size) == JXL_DEC_SUCCESS else {
            return nil
        }
        return profile
    }

    /// A colour encoding as people name it.
    static func name(_ encoding: JxlColorEncoding) -> String {
        let transfer = encoding.transfer_function
        if transfer == JXL_TRANSFER_FUNCTION_PQ {
            return encoding.primaries == JXL_PRIMARIES_2100 ? "Rec. 2100 PQ" : "PQ"
        }
        if transfer == JXL_TRANSFER_FUNCTION_HLG {
            return encoding.primaries == JXL_PRIMARIES_2100 ? "Rec. 2100 HLG" : "HLG"
        }
        let linear = transfer == JXL_TRANSFER_FUNCTION_LINEAR ? "linear " : ""
        if encoding.color_space == JXL_COLOR_SPACE_GRAY { return "\(linear)grey" }
        switch encoding.primaries {
        case JXL_PRIMARIES_SRGB: return "\(linear)sRGB"
        case JXL_PRIMARIES_P3:
            return encoding.white_point == JXL_WHITE_POINT_D65 ? "\(linear)Display P3" : "\(linear)DCI-P3"
        case JXL_PRIMARIES_2100: return "\(linear)Rec. 2020"
        default: return "custom primaries"
        }
    }
}
