/// XMP sidecars as digiKam and darktable write them, with a rating, one keyword and an orientation.
public enum SampleSidecar {
    public static func xmp(rating: Int, keyword: String, orientation: Int = 1) -> [UInt8] {
        Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
             xmlns:dc="http://purl.org/dc/elements/1.1/"
             xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmp:Rating="\(rating)" tiff:Orientation="\(orientation)">
            <dc:subject><rdf:Bag><rdf:li>\(keyword)</rdf:li></rdf:Bag></dc:subject>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
    }
}
