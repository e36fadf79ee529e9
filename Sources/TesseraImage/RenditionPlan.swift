import TesseraMetadata

/// The geometry of one photo's renditions: how far to decode, and where each rendition's
/// pixels come from.
///
/// All coordinates are in the stored (unrotated) frame of `width`×`height` pixels; a
/// decoded or resampled image covers either the whole frame or its centred square at
/// some scale (its pixels per stored pixel).
struct RenditionPlan {
    let width: Int
    let height: Int
    let specs: [RenditionSpec]

    /// The shortest side the decoded image must have, for the largest square.
    let shortNeeded: Int
    /// The longest side it must have, for the largest fit.
    let longNeeded: Int

    init(width: Int, height: Int, specs: [RenditionSpec]) {
        self.width = width
        self.height = height
        self.specs = Array(Set(specs))
        let outputs = specs.map { ($0.kind, $0.outputSize(width: width, height: height)) }
        shortNeeded = outputs.filter { $0.0 == .square }.map { $0.1.width }.max() ?? 1
        longNeeded = outputs.filter { $0.0 == .fit }.map { max($0.1.width, $0.1.height) }.max() ?? 1
    }

    /// The smallest JPEG DCT scale n/8 whose decoded image covers every rendition.
    func jpegNumerator(width: Int, height: Int) -> Int {
        let (short, long) = (min(width, height), max(width, height))
        for numerator in 1...8 where (short * numerator + 7) / 8 >= shortNeeded && (long * numerator + 7) / 8 >= longNeeded {
            return numerator
        }
        return 8
    }

    /// The largest whole factor a PNG can be averaged down by and still cover every rendition;
    /// never past one pixel on the short side (a 1×1 photo covers a 1-pixel need at any factor).
    func shrinkFactor(width: Int, height: Int) -> Int {
        let (short, long) = (min(width, height), max(width, height))
        var factor = 1
        while factor < short && (short + factor) / (factor + 1) >= shortNeeded && (long + factor) / (factor + 1) >= longNeeded {
            factor += 1
        }
        return factor
    }

    /// What part of the frame an image covers.
    enum Region {
        case frame
        /// The centred square of side min(width, height).
        case square
    }

    /// An image a rendition may be made from.
    struct Source {
        var image: PixelBuffer
        /// Its pixels per stored pixel.
        var scale: Double
        var region: Region
    }

    /// One rendition to make: its size in the stored frame, and the part of the frame it shows.
    struct Step {
        let spec: RenditionSpec
        let width: Int
        let height: Int
        let region: Region
        let plan: RenditionPlan

        /// Makes the rendition (unrotated, alpha kept) from the best of `sources`, and adds it
        /// to them for the smaller ones.
        func make(from sources: inout [Source]) -> PixelBuffer {
            let regionWidth = Double(region == .frame ? plan.width : min(plan.width, plan.height))
            let required = Double(width) / regionWidth
            let usable = sources.filter { $0.region == .frame || region == .square }
            // The smallest image with 1.5 times the resolution keeps Lanczos' quality at the least
            // cost; failing that, the largest there is (the decoded image).
            let source = usable.filter { $0.scale >= 1.5 * required }.min { $0.scale < $1.scale }
                ?? usable.max { $0.scale < $1.scale } ?? sources[0]
            let image: PixelBuffer
            if source.region == region && source.image.width == width && source.image.height == height {
                image = source.image  // the decoded image is this rendition (a fit at an exact DCT scale)
            } else {
                image = Resampler.resample(
                    source.image, rect: plan.rect(of: region, in: source), width: width, height: height, background: nil)
            }
            sources.append(Source(image: image, scale: required, region: region))
            return image
        }
    }

    /// The renditions to make, largest first.
    func steps() -> [Step] {
        let steps = specs.map { spec -> Step in
            let (outWidth, outHeight) = spec.outputSize(width: width, height: height)
            let region: Region = spec.kind == .fit ? .frame : .square
            return Step(spec: spec, width: outWidth, height: outHeight, region: region, plan: self)
        }
        // Largest first, so smaller ones can be made from them; a fit before a square of its size.
        return steps.sorted { first, second in
            let (a, b) = (first.width * first.height, second.width * second.height)
            return a != b ? a > b : first.spec.kind == .fit && second.spec.kind == .square
        }
    }

    /// `region` of the frame in the pixels of `source`, with fractional edges.
    func rect(of region: Region, in source: Source) -> Resampler.Rect {
        let side = Double(min(width, height))
        switch (region, source.region) {
        case (.frame, _):
            return .init(x: 0, y: 0, width: Double(width) * source.scale, height: Double(height) * source.scale)
        case (.square, .frame):
            let x = (Double(width) - side) / 2, y = (Double(height) - side) / 2
            return .init(x: x * source.scale, y: y * source.scale, width: side * source.scale, height: side * source.scale)
        case (.square, .square):
            return .init(x: 0, y: 0, width: side * source.scale, height: side * source.scale)
        }
    }

    /// The whole frame at most 100 pixels on its long side, from the smallest image of it: what
    /// the ThumbHash is computed from.
    func placeholder(from sources: [Source]) -> PixelBuffer {
        let frames = sources.filter { $0.region == .frame }
        let source = frames.min { $0.scale < $1.scale } ?? sources[0]
        let scale = min(1, 100 / Double(max(width, height)))
        let outWidth = max(1, min(100, Int((Double(width) * scale).rounded())))
        let outHeight = max(1, min(100, Int((Double(height) * scale).rounded())))
        return Resampler.resample(
            source.image, rect: rect(of: .frame, in: source), width: outWidth, height: outHeight, background: nil)
    }
}
