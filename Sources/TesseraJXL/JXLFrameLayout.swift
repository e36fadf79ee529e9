/// How the first shown frame of a JPEG XL codestream is coded, read from the frame headers and
/// tables of contents (TOC) before it (ISO/IEC 18181-1, sections C and F), for what decoding it
/// costs in memory.
///
/// libjxl 0.7 holds about 10 bytes a pixel for each channel of a modular frame whose squeeze
/// transform (lossless `--responsive`, lossy modular) puts data in its LF groups, against about 3
/// a pixel for a VarDCT frame or a modular one without it; the squeeze itself is only named
/// inside entropy-coded data, but the sizes of the LF groups' sections in the TOC show it.
struct JXLFrameLayout {
    /// What the codestream header says that the frame headers depend on.
    struct Image {
        var width: Int
        var height: Int
        var isXYB: Bool
        var extraChannels: Int
        var isAnimated: Bool
        var hasTimecodes: Bool
        /// The preview frame's size, when the codestream has one (it comes first).
        var preview: (width: Int, height: Int)?
    }

    /// What one frame's header and TOC say.
    struct Frame {
        var type: UInt32
        var isModular: Bool
        /// The TOC's section sizes in stored order; nil when permuted (the permutation is
        /// entropy-coded, and so are the sizes' order).
        var sections: [Int]?
        var lfGroups: Int
        /// Bytes from the frame's start to the end of its TOC.
        var headerBytes: Int

        /// Whether a modular frame's LF groups hold data: the squeeze transform's channels of 1/8
        /// the resolution or less that are too large for the global section.
        ///
        /// A frame of one LF
        /// group keeps them all in the global section, among data only entropy decoding can
        /// tell apart: it counts as squeezed (it has 4 MP or less unless its groups are larger).
        var mayBeSqueezed: Bool {
            guard isModular else { return false }
            guard let sections, lfGroups > 1 else { return true }
            return sections[1...lfGroups].contains { $0 > 0 }
        }
    }

    /// The frame types of the standard.
    static let regularFrame: UInt32 = 0, lfFrame: UInt32 = 1, referenceOnly: UInt32 = 2, skipProgressive: UInt32 = 3

    /// Whether the first shown frame may be squeezed, from the codestream bytes `read` gives
    /// (offset, count), its first frame starting at `start` and the shown frame's TOC ending at
    /// `tocEnd` (where libjxl stopped to report it).
    ///
    /// True whenever that cannot be told: frames in a
    /// permuted order, headers this reader does not end exactly where libjxl did.
    static func mayBeSqueezed(image: Image, start: Int, tocEnd: Int, read: (Int, Int) -> [UInt8]?) -> Bool {
        var position = start
        var isPreview = image.preview != nil
        // Frames before the shown one: a preview, LF frames (progressive DC), frames blended into it.
        for _ in 0..<64 {
            guard position < tocEnd,
                let bytes = read(position, min(tocEnd - position, 256 << 10)),
                let frame = try? parse(bytes, image: image, isPreview: isPreview)
            else { return true }
            let headerEnd = position + frame.headerBytes
            // A regular frame whose TOC is permuted (groups centre first) cannot be measured, but
            // a VarDCT one needs no more.
            if headerEnd == tocEnd || (frame.sections == nil && frame.type == regularFrame) {
                return frame.mayBeSqueezed
            }
            guard headerEnd < tocEnd, let sections = frame.sections else { return true }
            position = headerEnd + sections.reduce(0, +)
            isPreview = false
        }
        return true
    }

    /// Reads one frame header and its TOC from `bytes`, which start with it.
    static func parse(_ bytes: [UInt8], image: Image, isPreview: Bool) throws(Overrun) -> Frame {
        var bits = BitReader(bytes)
        var type = regularFrame
        var isModular = false
        var flags: UInt64 = 0
        var upsampling = 1
        var groupSizeShift = 1
        var passes = 1
        var lfLevel = 0
        var (width, height) =
            isPreview ? (image.preview?.width ?? 0, image.preview?.height ?? 0) : (image.width, image.height)
        let allDefault = try bits.bool()
        if !allDefault {
            type = try bits.u32(.value(0), .value(1), .value(2), .value(3))
            isModular = try bits.bool()
            flags = try bits.u64()
            let usesLFFrame = flags & 32 != 0
            // YCbCr (not XYB), and its chroma subsampling.
            if !image.isXYB, try bits.bool(), !usesLFFrame { try bits.skip(6) }
            if !usesLFFrame {
                upsampling = Int(try bits.u32(.value(1), .value(2), .value(4), .value(8)))
                for _ in 0..<image.extraChannels { _ = try bits.u32(.value(1), .value(2), .value(4), .value(8)) }
            }
            if isModular { groupSizeShift = Int(try bits.bits(2)) }
            if !isModular && image.isXYB { try bits.skip(6) }
            if type != referenceOnly {
                passes = Int(try bits.u32(.value(1), .value(2), .value(3), .bits(3, offset: 4)))
                if passes != 1 {
                    let downsampled = Int(try bits.u32(.value(0), .value(1), .value(2), .bits(1, offset: 3)))
                    try bits.skip(2 * (passes - 1))
                    for _ in 0..<downsampled { _ = try bits.u32(.value(1), .value(2), .value(4), .value(8)) }
                    for _ in 0..<downsampled { _ = try bits.u32(.value(0), .value(1), .value(2), .bits(3, offset: 0)) }
                }
            }
            if type == lfFrame { lfLevel = Int(try bits.u32(.value(1), .value(2), .value(3), .value(4))) }
            var isPartial = false
            if type != lfFrame, try bits.bool() {
                let coordinate: [U32Distribution] = [
                    .bits(8, offset: 0), .bits(11, offset: 256), .bits(14, offset: 2304), .bits(30, offset: 18688),
                ]
                var (x0, y0) = (0, 0)
                if type == regularFrame || type == skipProgressive {
                    x0 = Self.unpackSigned(try bits.u32(coordinate))
                    y0 = Self.unpackSigned(try bits.u32(coordinate))
                }
                let (frameWidth, frameHeight) = (Int(try bits.u32(coordinate)), Int(try bits.u32(coordinate)))
                if type == regularFrame || type == skipProgressive {
                    isPartial = x0 > 0 || y0 > 0 || frameWidth + x0 < width || frameHeight + y0 < height
                }
                (width, height) = (frameWidth, frameHeight)
            }
            try skipBlendingToExtensions(&bits, type: type, image: image, isPartial: isPartial, isModular: isModular)
        }
        if lfLevel > 0 {
            let scale = 1 << (3 * lfLevel)
            (width, height) = ((width + scale - 1) / scale, (height + scale - 1) / scale)
        }
        (width, height) = ((width + upsampling - 1) / upsampling, (height + upsampling - 1) / upsampling)
        let groupSide = 128 << groupSizeShift
        func count(_ length: Int, _ side: Int) -> Int { (length + side - 1) / side }
        let groups = count(width, groupSide) * count(height, groupSide)
        let lfGroups = count(count(width, 8), groupSide) * count(count(height, 8), groupSide)
        let entries = groups == 1 && passes == 1 ? 1 : 2 + lfGroups + groups * passes
        guard !(try bits.bool()) else {
            return Frame(type: type, isModular: isModular, sections: nil, lfGroups: lfGroups, headerBytes: 0)
        }
        bits.alignToByte()
        guard entries <= bytes.count else { throw Overrun() }  // each entry takes 12 bits or more
        var sections: [Int] = []
        sections.reserveCapacity(entries)
        for _ in 0..<entries {
            sections.append(
                Int(
                    try bits.u32(
                        .bits(10, offset: 0), .bits(14, offset: 1024), .bits(22, offset: 17408),
                        .bits(30, offset: 4_211_712))))
        }
        bits.alignToByte()
        return Frame(
            type: type, isModular: isModular, sections: sections, lfGroups: lfGroups, headerBytes: bits.position / 8)
    }

    /// The rest of a frame header after its size: blending, animation, whether it is the last,
    /// how it is saved, its name, the restoration filter and the extensions, none of which the
    /// layout needs.
    private static func skipBlendingToExtensions(
        _ bits: inout BitReader, type: UInt32, image: Image, isPartial: Bool, isModular: Bool
    ) throws(Overrun) {
        var isLast = type == regularFrame
        var duration: UInt32 = 0
        var replaces = true
        if type == regularFrame || type == skipProgressive {
            for channel in 0...image.extraChannels {
                let mode = try bits.u32(.value(0), .value(1), .value(2), .bits(2, offset: 3))
                if channel == 0 { replaces = mode == 0 }
                let blendsAlpha = image.extraChannels > 0 && (mode == 2 || mode == 3)
                if blendsAlpha { _ = try bits.u32(.value(0), .value(1), .value(2), .bits(3, offset: 3)) }
                if blendsAlpha || mode == 4 { _ = try bits.bool() }
                if mode != 0 || isPartial { _ = try bits.u32(.value(0), .value(1), .value(2), .value(3)) }
            }
            if image.isAnimated {
                duration = try bits.u32(.value(0), .value(1), .bits(8, offset: 0), .bits(32, offset: 0))
                if image.hasTimecodes { try bits.skip(32) }
            }
            isLast = try bits.bool()
        }
        if type != regularFrame { isLast = false }
        var savedAs: UInt32 = 0
        if type != lfFrame && !isLast { savedAs = try bits.u32(.value(0), .value(1), .value(2), .value(3)) }
        if type != lfFrame {
            let referenced = !isLast && (duration == 0 || savedAs != 0)
            if referenced && replaces && !isPartial && (type == regularFrame || type == skipProgressive) {
                _ = try bits.bool()
            } else if type == referenceOnly {
                _ = try bits.bool()
            }
        }
        let nameBytes = Int(
            try bits.u32(.value(0), .bits(4, offset: 0), .bits(5, offset: 16), .bits(10, offset: 48)))
        try bits.skip(8 * nameBytes)
        try skipRestorationFilter(&bits, isModular: isModular)
        try bits.skipExtensions()
    }

    /// The restoration filter's fields (Gabor-like smoothing and the edge-preserving filter).
    private static func skipRestorationFilter(_ bits: inout BitReader, isModular: Bool) throws(Overrun) {
        guard !(try bits.bool()) else { return }
        if try bits.bool(), try bits.bool() { try bits.skip(16 * 6) }
        if try bits.bits(2) > 0 {
            if !isModular, try bits.bool() { try bits.skip(16 * 8) }
            if try bits.bool() { try bits.skip(16 * 5) }
            if try bits.bool() { try bits.skip(16 * (isModular ? 3 : 4)) }
            if isModular { try bits.skip(16) }
        }
        try bits.skipExtensions()
    }

    static func unpackSigned(_ value: UInt32) -> Int {
        value & 1 == 0 ? Int(value >> 1) : -Int(value >> 1) - 1
    }

    /// The header ended before its fields did.
    struct Overrun: Error {}

    /// One of the four ways a U32 field may be coded, chosen by its 2-bit selector.
    enum U32Distribution {
        case value(UInt32)
        case bits(Int, offset: UInt32)
    }

    /// Reads a codestream's fields: bits from the least significant of each byte on.
    struct BitReader {
        let bytes: [UInt8]
        private(set) var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func bits(_ count: Int) throws(Overrun) -> UInt64 {
            guard position + count <= bytes.count * 8 else { throw Overrun() }
            var value: UInt64 = 0
            for index in 0..<count {
                let bit = UInt64(bytes[(position + index) >> 3] >> UInt8((position + index) & 7) & 1)
                value |= bit << UInt64(index)
            }
            position += count
            return value
        }

        mutating func bool() throws(Overrun) -> Bool { try bits(1) == 1 }

        mutating func skip(_ count: Int) throws(Overrun) {
            guard count >= 0, count <= bytes.count * 8 - position else { throw Overrun() }
            position += count
        }

        mutating func alignToByte() { position = (position + 7) & ~7 }

        mutating func u32(
            _ a: U32Distribution, _ b: U32Distribution, _ c: U32Distribution, _ d: U32Distribution
        ) throws(Overrun) -> UInt32 {
            try u32([a, b, c, d])
        }

        mutating func u32(_ distributions: [U32Distribution]) throws(Overrun) -> UInt32 {
            switch distributions[Int(try bits(2))] {
            case .value(let value): return value
            case .bits(let count, let offset): return UInt32(truncatingIfNeeded: try bits(count)) &+ offset
            }
        }

        mutating func u64() throws(Overrun) -> UInt64 {
            switch try bits(2) {
            case 0: return 0
            case 1: return 1 + (try bits(4))
            case 2: return 17 + (try bits(8))
            default:
                var value = try bits(12)
                var shift: UInt64 = 12
                while try bool() {
                    if shift == 60 {
                        value |= try bits(4) << 60
                        break
                    }
                    value |= try bits(8) << shift
                    shift += 8
                }
                return value
            }
        }

        /// An extensions field: a mask, then the size in bits of each extension, then the extensions.
        mutating func skipExtensions() throws(Overrun) {
            let mask = try u64()
            var total: UInt64 = 0
            for bit in 0..<64 where mask >> UInt64(bit) & 1 == 1 {
                let (sum, overflow) = total.addingReportingOverflow(try u64())
                guard !overflow, sum <= UInt64(bytes.count * 8) else { throw Overrun() }
                total = sum
            }
            try skip(Int(total))
        }
    }
}
