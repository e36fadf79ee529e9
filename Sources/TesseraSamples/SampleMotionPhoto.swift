public import TesseraFacts

/// Motion photos as Google's cameras write them: a JPEG whose XMP says where the video that
/// follows it starts (its Container directory gives the video's length, which ends the file).
public enum SampleMotionPhoto {
    /// A 64×48 JPEG followed by `video`, which need not be a real MP4.
    public static func jpeg(video: [UInt8]) throws(PhotoError) -> [UInt8] {
        let xmp = Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" \
            xmlns:Container="http://ns.google.com/photos/1.0/container/" \
            xmlns:Item="http://ns.google.com/photos/1.0/container/item/" GCamera:MotionPhoto="1">
            <Container:Directory><rdf:Seq>
            <rdf:li><Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li>
            <rdf:li><Container:Item Item:Semantic="MotionPhoto" Item:Mime="video/mp4" \
            Item:Length="\(video.count)"/></rdf:li>
            </rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
        let payload = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + xmp
        let still = try SampleImage.jpeg(SampleImage.pixels(width: 64, height: 48))
        let length = payload.count + 2
        let segment = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(still.prefix(2)) + segment + Array(still.dropFirst(2)) + video
    }

    /// An MP4's start whose second box claims `largeSize` bytes in a 64-bit size: an `ftyp`, then
    /// a `moov` of size 1 (the size follows the type) and eight bytes of body.
    public static func boxes(largeSize: UInt64) -> [UInt8] {
        let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0]
        let large = (0..<8).map { UInt8(truncatingIfNeeded: largeSize >> (8 * UInt64(7 - $0))) }
        return ftyp + [0, 0, 0, 1] + Array("moov".utf8) + large + [UInt8](repeating: 0, count: 8)
    }
}
