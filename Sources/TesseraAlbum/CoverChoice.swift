import TesseraFacts
import TesseraIndex

/// The photo a collection's card shows, chosen as its photos pass by in any order: the
/// best-rated one with the pixels for the card and a rendition, the first in the collection's
/// order among equals; when none has them, the one with the most pixels on its short side.
struct CoverChoice {
    private var sharp: (photo: PhotoRecord, rating: Int, position: Int)?
    private var largest: (photo: PhotoRecord, side: Int, position: Int)?

    /// Takes `photo`, at `position` in the collection's order, into account.
    mutating func consider(_ photo: PhotoRecord, position: Int) {
        let size = PhotoMedia.displaySize(photo)
        let side = min(size.width, size.height)
        if side >= AlbumBuilder.coverSide && !photo.renditions.isEmpty {
            let rating = photo.annotations.rating ?? 0
            if sharp.map({ rating > $0.rating || (rating == $0.rating && position < $0.position) }) ?? true {
                sharp = (photo, rating, position)
            }
        }
        if largest.map({ side > $0.side || (side == $0.side && position < $0.position) }) ?? true {
            largest = (photo, side, position)
        }
    }

    var photo: PhotoRecord? { sharp?.photo ?? largest?.photo }
}
