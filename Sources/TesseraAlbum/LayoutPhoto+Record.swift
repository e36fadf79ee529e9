public import TesseraIndex
public import TesseraLayout

extension LayoutPhoto {
    /// The layout engine's view of an indexed photo: its row id is its id, its capture
    /// wall clock keeps the UTC offset when one is known.
    public init(_ record: PhotoRecord) {
        self.init(
            id: String(record.id), pixelWidth: record.width.map(Double.init), pixelHeight: record.height.map(Double.init),
            orientation: record.orientation, capturedAt: record.capturedAt.map { $0 + (record.utcOffset ?? "") })
    }
}
