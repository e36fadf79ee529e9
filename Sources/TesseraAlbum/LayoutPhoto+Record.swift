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
}
