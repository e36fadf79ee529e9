import SystemPackage
import TesseraFacts
import TesseraImage

/// A person's face on their card (PeoplePages): a square around it, cut from a preview
/// rendition in the cache, as a JPEG in the site.
struct FacePicture {
    /// A card (160 CSS px, up to 200 on a wide phone) at a pixel ratio of 2.
    static let side = 400
    /// The square's side in face boxes: the hair, the chin and a little around them.
    static let context = 2.4

    /// The preview in the cache, and its size.
    let path: String
    let width, height: Int
    /// The face's box, in fractions of the upright photo from its top left.
    let x, y, boxWidth, boxHeight: Double

    /// The JPEG; nil when the preview cannot be read (gone from the cache: the card has no face).
    func crop() -> [UInt8]? {
        let spec = RenditionSpec.fit(max(width, height))
        guard width > 0, height > 0,
            let rendered = try? Renderer(options: RenderOptions()).render(
                file: FilePath(path), specs: [], keeping: [spec], placeholder: false),
            let image = rendered.images[spec]
        else { return nil }
        let (width, height) = (Double(image.width), Double(image.height))
        let side = min(width, height, Self.context * max(boxWidth * width, boxHeight * height))
        guard side >= 1 else { return nil }
        let left = min(max(0, (x + boxWidth / 2) * width - side / 2), width - side)
        // (a detector's box is the face from the brows down: its centre a little higher is the head's)
        let top = min(max(0, (y + boxHeight * 0.4) * height - side / 2), height - side)
        let face = Resampler.resample(
            image, rect: Resampler.Rect(x: left, y: top, width: side, height: side), width: Self.side,
            height: Self.side, background: (255, 255, 255))
        return try? JPEGEncoder.encode(face, quality: 85)
    }
}
