import Foundation
import SystemPackage
import TesseraImage
import TesseraMetadata
import TesseraTestSupport
import Testing

struct ThumbnailCacheTests {
    @Test func pathsFanOutBySizeAndKey() {
        let cache = ThumbnailCache(root: "/cache")
        #expect(cache.path(key: "ab12cd", size: 256, format: .jpeg) == "/cache/256/ab/ab12cd.jpg")
        #expect(cache.path(key: "ab12cd", size: 128, format: .png) == "/cache/128/ab/ab12cd.png")
    }
}
