import Foundation
import TesseraImage
import TesseraIndex

/// Each photo's ThumbHash as a tiny PNG data URL, painted behind its image until the image
/// loads; made once per build, since a photo appears on its album's, its month's and its own page.
final class Placeholders {
    private var urls: [Int64: String?] = [:]

    func url(_ photo: PhotoRecord) -> String? {
        if let known = urls[photo.id] { return known }
        let url = photo.thumbhash.flatMap(ThumbHash.placeholderPNG).map {
            "data:image/png;base64," + Data($0).base64EncodedString()
        }
        urls[photo.id] = .some(url)
        return url
    }
}
