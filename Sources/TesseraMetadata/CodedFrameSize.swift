/// The frame size a HEIF or AVIF image's codec will decode, from its codec configuration
/// (`hvcC`'s sequence parameter set, `av1C`'s sequence header): what the decoder allocates,
/// whatever the `ispe` property claims.
///
/// A file whose configuration says nothing readable gives
/// nil, and is budgeted by its `ispe`.
enum CodedFrameSize {
    /// `pic_width_in_luma_samples` × `pic_height_in_luma_samples` of the first SPS in an `hvcC`
    /// body (ISO/IEC 14496-15 8.3.3, ITU-T H.265 7.3.2.2).
    static func hevc(_ configuration: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        // 22 bytes of fixed fields, then arrays of NAL units: type, count, then length-prefixed units.
        var at = configuration.startIndex + 22
        guard at < configuration.endIndex else { return nil }
        let arrays = Int(configuration[at])
        at += 1
        for _ in 0..<arrays {
            guard configuration.endIndex - at >= 3 else { return nil }
            let type = configuration[at] & 0x3F
            let count = Int(configuration[at + 1]) << 8 | Int(configuration[at + 2])
            at += 3
            for _ in 0..<count {
                guard configuration.endIndex - at >= 2 else { return nil }
                let length = Int(configuration[at]) << 8 | Int(configuration[at + 1])
                at += 2
                guard configuration.endIndex - at >= length else { return nil }
                if type == 33 { return sequenceParameterSet(configuration[at..<(at + length)]) }
                at += length
            }
        }
        return nil
    }

    /// The luma size an HEVC SPS NAL unit (with its 2-byte header) declares.
    private static func sequenceParameterSet(_ unit: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        var bits = BitReader(unescaping: unit.dropFirst(2))
        guard bits.skip(4) else { return nil }  // sps_video_parameter_set_id
        guard let subLayers = bits.read(3) else { return nil }
        // temporal_id_nesting; profile_tier_level: general profile (88 bits) and level (8).
        guard bits.skip(1 + 88 + 8) else { return nil }
        var profilePresent: [Bool] = [], levelPresent: [Bool] = []
        for _ in 0..<subLayers {
            guard let profile = bits.read(1), let level = bits.read(1) else { return nil }
            profilePresent.append(profile == 1)
            levelPresent.append(level == 1)
        }
        if subLayers > 0 { guard bits.skip(2 * (8 - Int(subLayers))) else { return nil } }
        for layer in 0..<Int(subLayers) {
            guard bits.skip((profilePresent[layer] ? 88 : 0) + (levelPresent[layer] ? 8 : 0)) else { return nil }
        }
        // SPS id, chroma_format_idc.
        guard bits.exponentialGolomb() != nil, let chroma = bits.exponentialGolomb() else { return nil }
        if chroma == 3 { guard bits.skip(1) else { return nil } }  // separate_colour_plane_flag
        guard let width = bits.exponentialGolomb(), let height = bits.exponentialGolomb(), width > 0, height > 0 else {
            return nil
        }
        return (width, height)
    }

    /// `max_frame_width_minus_1 + 1` × `max_frame_height_minus_1 + 1` of the sequence header
    /// OBU among an `av1C` body's configOBUs (AV1 ISOBMFF binding 2.3.3, AV1 5.5.1); nil when
    /// there is none (it is optional there).
    static func av1(_ configuration: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        av1(obus: configuration.dropFirst(4))
    }

    /// The size the first sequence header OBU among `obus` declares (an AV1 frame's data, whose
    /// OBUs carry their sizes, begins with it, after an optional temporal delimiter); nil when
    /// the bytes end first.
    static func av1(obus configuration: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        var at = configuration.startIndex
        while configuration.endIndex - at >= 2 {
            let header = configuration[at]
            let type = header >> 3 & 0xF, hasExtension = header & 4 != 0, hasSize = header & 2 != 0
            at += hasExtension ? 2 : 1
            var size = configuration.endIndex - at
            if hasSize {
                // leb128: at most 8 bytes of 7 bits.
                var value = 0
                for byte in 0..<8 {
                    guard at < configuration.endIndex else { return nil }
                    let next = configuration[at]
                    at += 1
                    value |= Int(next & 0x7F) << (7 * byte)
                    if next & 0x80 == 0 { break }
                }
                size = value
            }
            guard size >= 0, size <= configuration.endIndex - at else { return nil }
            if type == 1 { return sequenceHeader(configuration[at..<(at + size)]) }
            at += size
        }
        return nil
    }

    private static func sequenceHeader(_ obu: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        var bits = BitReader(obu)
        guard bits.skip(4), let reduced = bits.read(1) else { return nil }  // seq_profile, still_picture
        if reduced == 1 {
            guard bits.skip(5) else { return nil }  // seq_level_idx[0]
        } else {
            guard let timing = bits.read(1) else { return nil }
            var decoderModel: UInt64 = 0, delayLength = 0
            if timing == 1 {
                guard bits.skip(64), let equal = bits.read(1) else { return nil }
                if equal == 1 { guard bits.uvlc() != nil else { return nil } }
                guard let model = bits.read(1) else { return nil }
                decoderModel = model
                if model == 1 {
                    guard let length = bits.read(5), bits.skip(32 + 5 + 5) else { return nil }
                    delayLength = Int(length) + 1
                }
            }
            guard let initialDelay = bits.read(1), let points = bits.read(5) else { return nil }
            for _ in 0...points {
                guard bits.skip(12), let level = bits.read(5) else { return nil }
                if level > 7 { guard bits.skip(1) else { return nil } }
                if decoderModel == 1 {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1 { guard bits.skip(2 * delayLength + 1) else { return nil } }
                }
                if initialDelay == 1 {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1 { guard bits.skip(4) else { return nil } }
                }
            }
        }
        guard let widthBits = bits.read(4), let heightBits = bits.read(4),
            let width = bits.read(Int(widthBits) + 1), let height = bits.read(Int(heightBits) + 1)
        else { return nil }
        return (Int(width) + 1, Int(height) + 1)
    }
}

/// Bits read most significant first, with every read bounded by the data.
private struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ data: ArraySlice<UInt8>) { bytes = Array(data) }

    /// An H.265 NAL unit's payload with its emulation prevention bytes (0x03 after 0x00 0x00) removed.
    init(unescaping data: ArraySlice<UInt8>) {
        var clean: [UInt8] = []
        clean.reserveCapacity(data.count)
        var zeros = 0
        for byte in data {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            clean.append(byte)
        }
        bytes = clean
    }

    /// The next `count` bits (at most 32) as a number; nil past the end.
    mutating func read(_ count: Int) -> UInt64? {
        guard count <= 32, bytes.count * 8 - position >= count else { return nil }
        var value: UInt64 = 0
        for _ in 0..<count {
            value = value << 1 | UInt64(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    /// Skips `count` bits; false past the end.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, bytes.count * 8 - position >= count else { return false }
        position += count
        return true
    }

    /// An unsigned Exp-Golomb number (H.265 ue(v)), at most 31 leading zeros.
    mutating func exponentialGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let bit = read(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            guard zeros < 32 else { return nil }
        }
        guard let rest = read(zeros) else { return nil }
        return (1 << zeros) - 1 + Int(rest)
    }

    /// AV1's uvlc(): leading zeros, then as many bits; at most 31 leading zeros.
    mutating func uvlc() -> Int? { exponentialGolomb() }
}
