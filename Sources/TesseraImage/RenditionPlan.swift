import TesseraFacts

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

    /// Bytes the renditions take once the photo is decoded: each made image is kept as a source
    /// for the smaller ones (RGBA at most), and the largest is copied twice more at a time, turned
    /// upright and flattened for its encoder; the encoded bytes are far smaller.
    var memoryNeeded: Int {
        let sizes = specs.map { spec in
            let size = spec.outputSize(width: width, height: height)
            return size.width.multipliedReportingOverflow(by: size.height).partialValue * 4
        }
        return sizes.reduce(0, +) + 2 * (sizes.max() ?? 0)
    }

    /// The smallest JPEG DCT scale n/8 whose decoded image covers every rendition.
    func jpegNumerator(width: Int, height: Int) -> Int {
        let (short, long) = (min(width, height), max(width, height))
        for numerator in 1...8
        where (short * numerator + 7) / 8 >= shortNeeded && (long * numerator + 7) / 8 >= longNeeded {
            return numerator
        }
        return 8
    }

    /// The largest whole factor a PNG can be averaged down by and still cover every rendition;
    /// never past one pixel on the short side (a 1×1 photo covers a 1-pixel need at any factor).
    func shrinkFactor(width: Int, height: Int) -> Int {
        let (short, long) = (min(width, height), max(width, height))
        var factor = 1
        while factor < short && (short + factor) / (factor + 1) >= shortNeeded
            && (long + factor) / (factor + 1) >= longNeeded
        {
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
        /// The part of the frame it covers in full.
        var region: Region
        /// Where its top-left pixel lies in the stored frame, in stored pixels: the region's
        /// corner, or a little above and left of it for a decode cropped to whole iMCUs.
        var origin: (x: Double, y: Double)

        init(
            image: PixelBuffer, scale: Double, region: Region, origin: (x: Double, y: Double)? = nil,
            plan: RenditionPlan
        ) {
            self.image = image
            self.scale = scale
            self.region = region
            self.origin = origin ?? plan.corner(of: region)
        }
    }

    /// The top-left corner of `region` in the stored frame.
    ///
    /// A square starts on a whole pixel
    /// (the odd one left over goes to the right or bottom): a square at the photo's own size
    /// is then its pixels as they are, not each resampled half a pixel over.
    func corner(of region: Region) -> (x: Double, y: Double) {
        switch region {
        case .frame: (0, 0)
        case .square: (Double((width - min(width, height)) / 2), Double((height - min(width, height)) / 2))
        }
    }

    /// Whether only centred squares are asked for, so a decode may be cropped to the square.
    var squaresOnly: Bool { specs.allSatisfy { $0.kind == .square } }

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
            let source =
                usable.filter { $0.scale >= 1.5 * required }.min { $0.scale < $1.scale }
                ?? usable.max { $0.scale < $1.scale } ?? sources[0]
            let image: PixelBuffer
            let corner = plan.corner(of: region)
            if source.region == region && source.origin == corner && source.image.width == width
                && source.image.height == height
            {
                image = source.image  // the decoded image is this rendition (a fit at an exact DCT scale)
            } else {
                image = Resampler.resample(
                    source.image, rect: plan.rect(of: region, in: source), width: width, height: height, background: nil
                )
            }
            sources.append(Source(image: image, scale: required, region: region, plan: plan))
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
        // Largest first, so smaller ones can be made from them; a fit before a square of its size;
        // then the smaller size asked, so that renditions that come out alike (a photo smaller
        // than both) are always made in the same order, and share the first one's file.
        return steps.sorted { first, second in
            let (a, b) = (first.width * first.height, second.width * second.height)
            if a != b { return a > b }
            if first.spec.kind != second.spec.kind { return first.spec.kind == .fit }
            return first.spec.size < second.spec.size
        }
    }

    /// `region` of the frame in the pixels of `source` (which covers it), with fractional edges.
    func rect(of region: Region, in source: Source) -> Resampler.Rect {
        let corner = corner(of: region)
        let (regionWidth, regionHeight) =
            region == .frame
            ? (Double(width), Double(height)) : (Double(min(width, height)), Double(min(width, height)))
        return .init(
            x: (corner.x - source.origin.x) * source.scale, y: (corner.y - source.origin.y) * source.scale,
            width: regionWidth * source.scale, height: regionHeight * source.scale)
    }

    /// The whole frame at most 100 pixels on its long side, from the smallest image of it: what
    /// the ThumbHash is computed from.
    ///
    /// Nil when no source covers the frame (a cropped decode).
    func placeholder(from sources: [Source]) -> PixelBuffer? {
        guard let source = sources.filter({ $0.region == .frame }).min(by: { $0.scale < $1.scale }) else { return nil }
        let side = Renderer.placeholderSide
        let scale = min(1, Double(side) / Double(max(width, height)))
        let outWidth = max(1, min(side, Int((Double(width) * scale).rounded())))
        let outHeight = max(1, min(side, Int((Double(height) * scale).rounded())))
        return Resampler.resample(
            source.image, rect: rect(of: .frame, in: source), width: outWidth, height: outHeight, background: nil)
    }
}
