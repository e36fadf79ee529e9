import Testing

@testable import TesseraAlbum

/// What plays, as the pages say it.
struct MotionTests {
    /// A video's length on its badge: a clip under a second is "0:01", never "0:00"; a length
    /// a file claims that is none gives no clock (the badge then says ▶), and nothing traps.
    @Test func aVideosLengthReadsAsAPlayerShowsIt() {
        #expect(Motion.clock(0.07) == "0:01")
        #expect(Motion.clock(0) == "0:00")
        #expect(Motion.clock(7.4) == "0:07")
        #expect(Motion.clock(3723) == "1:02:03")
        for nonsense in [Double.nan, .infinity, -.infinity, 1e300] { #expect(Motion.clock(nonsense) == nil) }
        #expect(Motion.clock(-5) == "0:00")
    }
}
