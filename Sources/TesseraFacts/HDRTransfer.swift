/// The transfer functions of high dynamic range images (ITU-R BT.2100).
public enum HDRTransfer: String, Sendable, Codable {
    /// Perceptual quantizer, SMPTE ST 2084: absolute light up to 10,000 nits.
    case pq
    /// Hybrid log-gamma: scene light, relative to the display's peak.
    case hlg

    /// The transfer of an ITU-T H.273 `transfer_characteristics` code point: 16 (PQ), 18 (HLG).
    public init?(h273 code: Int) {
        switch code {
        case 16: self = .pq
        case 18: self = .hlg
        default: return nil
        }
    }
}
