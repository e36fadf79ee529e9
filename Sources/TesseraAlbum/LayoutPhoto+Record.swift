public import TesseraIndex
public import TesseraLayout

extension LayoutPhoto {
    /// The layout engine's view of an indexed photo: its id is `id` (default: its row id), its
    /// capture wall clock keeps the UTC offset when one is known.
    public init(_ record: PhotoRecord, id: String? = nil) {
        self.init(
            id: id ?? String(record.id), pixelWidth: record.width.map(Double.init),
            pixelHeight: record.height.map(Double.init),
            orientation: record.orientation, capturedAt: record.capturedAt.map { $0 + (record.utcOffset ?? "") })
    }

    /// The layout engine's view of a photo's outline, as `init(_:id:)` gives that of its record.
    init(_ outline: PhotoOutline, id: String) {
        self.init(
            id: id, pixelWidth: outline.width.map(Double.init), pixelHeight: outline.height.map(Double.init),
            orientation: outline.orientation, capturedAt: outline.capturedAt)
    }
}
