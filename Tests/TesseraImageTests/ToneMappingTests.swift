import TesseraFacts
import TesseraMetadata
import Testing

@testable import TesseraImage

/// PQ and HLG to SDR: reference white is white, what is darker keeps its light, highlights are
/// compressed in order rather than clipped together.
struct ToneMappingTests {
    /// One row of grey pixels of these 10-bit signal values, mapped.
    func map(_ signals: [Int], _ transfer: HDRTransfer) -> [UInt8] {
        let samples = signals.flatMap { [UInt16($0), UInt16($0), UInt16($0)] }
        let image = ToneMapping(transfer: transfer, primaries: 9).map(
            samples, width: signals.count, height: 1, channels: 3, maximum: 1023)
        return stride(from: 0, to: image.pixels.count, by: 3).map { image.pixels[$0] }
    }

    static func pq(nits: Double) -> Int { Int((ToneMapping.nitsToPQ(nits) * 1023).rounded()) }

    @Test func pqGreyBelowReferenceWhiteKeepsItsLight() {
        // 100 nits of 203: linear 0.49, sRGB 186 (no highlight here, so no compression at all).
        let grey = map([Self.pq(nits: 100), Self.pq(nits: 203)], .pq)
        #expect(abs(Int(grey[0]) - 186) <= 2 && grey[1] >= 253)
    }

    @Test func pqHighlightsAreCompressedInOrder() {
        let ramp = [10, 50, 100, 150, 203, 400, 1000, 4000].map { Self.pq(nits: Double($0)) }
        let mapped = map(ramp, .pq)
        #expect(zip(mapped, mapped.dropFirst()).allSatisfy { $0 < $1 }, "\(mapped)")
        // Below the knee, light passes: 10 nits stays 10/203 of white (sRGB 64).
        #expect(abs(Int(mapped[0]) - 64) <= 2, "\(mapped)")
    }

    @Test func hlgReferenceWhiteIsWhite() {
        // 75 % HLG is BT.2408's reference white, about 203 nits on a 1000-nit display: white, and
        // still nearly white beside a full-signal highlight (229: the knee starts near 95 nits to leave
        // the highlights room).
        let alone = map([0, 384, 767], .hlg)
        #expect(alone[0] == 0 && alone[1] < alone[2] && alone[2] >= 250, "\(alone)")
        let beside = map([0, 384, 767, 1023], .hlg)
        #expect(beside[2] >= 220 && beside[2] < beside[3], "\(beside)")
    }
}
