import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraLayout

/// Documents, paging and properties of the whole engine.
struct AlbumLayoutTests {
    static func encode(_ document: LayoutDocument) throws -> String { try document.canonicalJSON() }

    /// The example of docs/LAYOUT.md §2.3, as the engine prints it.
    static let specExample = """
        {"document":{"height":484.5,"width":375},"pageSize":{"height":844,"width":375},"pages":[{"documentY":0,"height":844,"index":0,"items":[\
        {"clipped":false,"continued":false,"height":32,"sectionId":"2024-05-03","title":"2024-05-03","type":"header","width":375,"x":0,"y":0},\
        {"aspectEstimated":false,"clipped":false,"crop":true,"height":140,"index":0,"photoId":"p9","sectionId":"2024-05-03","type":"photo","width":140,"x":15,"y":32},\
        {"aspectEstimated":false,"clipped":false,"crop":true,"height":140,"index":1,"photoId":"p8","sectionId":"2024-05-03","type":"photo","width":205,"x":155,"y":32},\
        {"aspectEstimated":false,"clipped":false,"crop":true,"height":172.5,"index":2,"photoId":"p7","sectionId":"2024-05-03","type":"photo","width":172.5,"x":15,"y":172},\
        {"aspectEstimated":false,"clipped":false,"crop":true,"height":172.5,"index":3,"photoId":"p6","sectionId":"2024-05-03","type":"photo","width":172.5,"x":187.5,"y":172},\
        {"aspectEstimated":false,"clipped":false,"crop":true,"height":140,"index":4,"photoId":"p5","sectionId":"2024-05-03","type":"photo","width":205,"x":15,"y":344.5},\
        {"aspectEstimated":false,"clipped":false,"crop":true,"height":140,"index":5,"overlay":{"count":3,"hiddenPhotoIds":["p3","p2","p1"],"kind":"moreCount","text":"+3"},\
        "photoId":"p4","sectionId":"2024-05-03","type":"photo","width":140,"x":220,"y":344.5}],"width":375}],"schema":"album-layout/1",\
        "sections":[{"height":484.5,"id":"2024-05-03","photoCount":9,"title":"2024-05-03","y":0}],"style":"tiles","warnings":[]}
        """

    @Test func specDocumentExampleTilesAt375() throws {
        // §2.3: nine photos on one day, W = 375, tiles, viewport paging.
        let photos = (1...9).map { index in
            LayoutPhoto(id: "p\(index)", pixelWidth: 1500, pixelHeight: 1000, capturedAt: "2024-05-03T10:00:0\(index)")
        }
        var config = LayoutConfig()
        config.style = .tiles
        config.pageWidth = 375
        let document = try AlbumLayout.layout(photos, config: config)
        #expect(try Self.encode(document) == Self.specExample)
    }

    @Test func sectionsNewestFirstWithUndatedLastAndWallClockDays() throws {
        let photos = [
            LayoutPhoto(id: "b", pixelWidth: 10, pixelHeight: 10, capturedAt: "2024-05-03T23:30:00-07:00"),
            LayoutPhoto(id: "a", pixelWidth: 10, pixelHeight: 10, capturedAt: "2024-05-04T00:10:00+02:00"),
            LayoutPhoto(id: "z", pixelWidth: 10, pixelHeight: 10, capturedAt: nil),
            LayoutPhoto(id: "y", pixelWidth: nil, pixelHeight: 10, capturedAt: "not a date"),
            LayoutPhoto(id: "c", pixelWidth: 10, pixelHeight: 10, capturedAt: "2024-05-03T23:30:00"),
        ]
        let document = try AlbumLayout.layout(photos, config: LayoutConfig())
        #expect(document.sections.map(\.id) == ["2024-05-04", "2024-05-03", "undated"])
        // Items straddling a page boundary appear on both pages; the first page shows the order.
        let items = document.pages.flatMap(\.items).filter { $0.type == .photo }
        var seen: Set<String> = []
        #expect(items.compactMap(\.photoId).filter { seen.insert($0).inserted } == ["a", "b", "c", "y", "z"])
        #expect(items.first { $0.photoId == "y" }?.aspectEstimated == true)
    }

    /// `auto` picks the finest level whose sections mostly hold a row's worth: a day's outing
    /// by day, one photo a day by month, one a month by year, one a year in one section.
    @Test func autoSectionsFollowTheDensity() throws {
        func photos(_ dates: [String]) -> [LayoutPhoto] {
            dates.enumerated().map {
                LayoutPhoto(id: "p\($0.offset)", pixelWidth: 30, pixelHeight: 20, capturedAt: $0.element + "T12:00:00")
            }
        }
        var config = LayoutConfig()
        config.groupBy = .auto
        func sections(_ dates: [String]) throws -> [String] {
            try AlbumLayout.layout(photos(dates), config: config).sections.map(\.id)
        }
        #expect(
            try sections(Array(repeating: "2024-05-03", count: 5) + Array(repeating: "2024-05-04", count: 4)) == [
                "2024-05-04", "2024-05-03",
            ])
        #expect(try sections((1...12).map { String(format: "2024-03-%02d", $0) }) == ["2024-03"])
        #expect(
            try sections(
                (1...10).map { String(format: "2024-%02d-01", $0) } + [
                    "2023-01-01", "2023-02-01", "2023-03-01", "2023-04-01",
                ])
                == ["2024", "2023"])
        // Sparse at every level: one section, under the years its photos span.
        #expect(try sections((2001...2010).map { "\($0)-06-01" }) == ["dated"])
        let single = try AlbumLayout.layout(photos((2001...2010).map { "\($0)-06-01" }), config: config)
        let headers = single.pages.flatMap(\.items).filter { $0.type == .header }
        #expect(headers.map(\.title) == ["2001 – 2010"] && single.pages.flatMap(\.items).count == 11)
        // Undated photos form their own last section, after the dated ones kept together.
        let withUndated =
            photos((2001...2004).map { "\($0)-06-01" }) + [
                LayoutPhoto(id: "u", pixelWidth: 3, pixelHeight: 2, capturedAt: nil)
            ]
        #expect(
            try AlbumLayout.layout(withUndated, config: config).sections.map(\.id) == ["dated", "undated"])
        // Sections side by side keep each month's date instead: small sections share rows there.
        config.coalesce = true
        #expect(
            try AlbumLayout.layout(withUndated, config: config).sections.map(\.id) == [
                "2004-06", "2003-06", "2002-06", "2001-06", "undated",
            ])
        config.coalesce = false
        config.groupBy = .year
        #expect(try sections(["2023-12-31", "2024-01-01"]) == ["2024", "2023"])
    }

    /// Album extensions: a lone tile keeps its photo's aspect; masonry uses a column per photo
    /// when a section has fewer photos than columns.
    @Test func aLoneTileKeepsItsAspectAndMasonryUsesEveryColumn() throws {
        var config = LayoutConfig()
        config.pageWidth = 400
        config.style = .tiles
        config.tilesSingleAspect = true
        let sizes: [(Double, Double)] = [(3000, 2000), (1000, 3000), (4000, 1000)]
        for (width, height) in sizes {
            let photo = LayoutPhoto(id: "a", pixelWidth: width, pixelHeight: height, capturedAt: "2024-05-03T10:00:00")
            let items = try AlbumLayout.layout([photo], config: config).pages.flatMap(\.items)
            let frame = try #require(items.first { $0.type == .photo })
            let shown: Double = frame.width / frame.height
            #expect(abs(shown / (width / height) - 1) < 1e-9)
            #expect(frame.width <= 370 + 1e-9 && frame.height <= 370 * Tiles.singleTallest + 1e-9)
        }
        config.style = .masonry
        config.masonryColumns = 4
        config.masonryFillColumns = true
        let two = (0..<2).map {
            LayoutPhoto(id: "p\($0)", pixelWidth: 30, pixelHeight: 20, capturedAt: "2024-05-03T10:00:00")
        }
        let items = try AlbumLayout.layout(two, config: config).pages.flatMap(\.items).filter { $0.type == .photo }
        #expect(items.map(\.width) == [195, 195])
    }

    @Test func invalidConfigurationNamesTheField() {
        var config = LayoutConfig()
        config.tolerance = 1
        #expect { try AlbumLayout.layout([], config: config) } throws: {
            ($0 as? LayoutError)?.error.field == "justified.tolerance"
        }
        #expect { try config.set("nope", "1") } throws: { ($0 as? LayoutError)?.error.field == "nope" }
        #expect { try config.set("page.width", "wide") } throws: {
            ($0 as? LayoutError)?.description == #"page.width must be a finite number, not "wide""#
        }
    }

    @Test func viewportPagesClipItemsAcrossBands() throws {
        let photos = (0..<40).map {
            LayoutPhoto(
                id: String(format: "p%02d", $0), pixelWidth: 1000, pixelHeight: 1000,
                capturedAt: "2024-01-01T00:00:\(String(format: "%02d", $0))")
        }
        var config = LayoutConfig()
        config.style = .grid
        config.pageHeight = 300
        let document = try AlbumLayout.layout(photos, config: config)
        let height = try #require(document.document?.height)
        #expect(document.pages.count == Int((height / 300).rounded(.up)))
        for page in document.pages {
            for item in page.items {
                #expect(item.y < 300 && item.y + item.height > 0)
                #expect(item.clipped == !(item.y >= 0 && item.y + item.height <= 300))
            }
        }
        // Every photo appears on at least one page.
        #expect(Set(document.pages.flatMap(\.items).compactMap(\.photoId)).count == 40)
    }

    @Test func countPagingSplitsSectionsWithContinuedHeaders() throws {
        let photos = (0..<30).map {
            LayoutPhoto(
                id: "p\($0)", pixelWidth: 1500, pixelHeight: 1000,
                capturedAt: "2024-0\($0 < 20 ? 2 : 1)-01T10:00:00")
        }
        var config = LayoutConfig()
        config.paging = .count
        config.pageCount = 12
        let document = try AlbumLayout.layout(photos, config: config)
        #expect(document.pageSize.height == nil && document.document == nil)
        #expect(document.pages.map { $0.items.filter { $0.type == .photo }.count } == [12, 12, 6])
        let headers = document.pages.map {
            $0.items.filter { $0.type == .header }.map { "\($0.sectionId):\($0.continued == true)" }
        }
        #expect(headers == [["2024-02-01:false"], ["2024-02-01:true", "2024-01-01:false"], ["2024-01-01:true"]])
        #expect(document.pages.allSatisfy { $0.documentY == nil })
    }

    /// A page laid out alone, as a builder of a large album asks for it, is the page of the
    /// whole document: for every style, with sections, rounding and tiles' section units.
    @Test(arguments: LayoutConfig.Style.allCases)
    func countedPagesOneAtATimeAreTheDocumentsPages(style: LayoutConfig.Style) throws {
        var generator = SplitMix(seed: 11)
        let photos = (0..<250).map { index in
            LayoutPhoto(
                id: String(format: "%04d", index), pixelWidth: Double(300 + generator.next() % 4000),
                pixelHeight: Double(300 + generator.next() % 4000),
                capturedAt: "2023-06-\(10 + index / 40)T10:00:00")
        }
        var config = LayoutConfig()
        // (a tiles page counts sections, not photos)
        (config.style, config.paging, config.groupBy) = (style, .count, .day)
        config.pageCount = style == .tiles ? 2 : 23
        (config.pixelRounding, config.outputScale) = (true, 2)
        let document = try AlbumLayout.layout(photos, config: config)
        let pages = try AlbumLayout.CountedPages(photos, config: config)
        #expect(pages.count == document.pages.count && pages.count > 2)
        for index in 0..<pages.count {
            #expect(pages.page(index) == document.pages[index], "page \(index)")
        }
        config.paging = .viewport
        #expect(throws: LayoutError.self) { try AlbumLayout.CountedPages(photos, config: config) }
    }

    @Test(arguments: LayoutConfig.Style.allCases, [0, 1, 7, 60])
    func propertiesOverRandomInputs(style: LayoutConfig.Style, seed: Int) throws {
        var generator = SplitMix(seed: UInt64(seed) + 1)
        let count = seed == 0 ? 1 : 5 + Int(generator.next() % 120)
        let photos = (0..<count).map { index -> LayoutPhoto in
            let panorama = generator.next() % 17 == 0
            let width = panorama ? 8000.0 : Double(200 + generator.next() % 4000)
            let height = Double(200 + generator.next() % 4000)
            let day = 1 + Int(generator.next() % 4)
            return LayoutPhoto(
                id: "photo-\(index)", pixelWidth: generator.next() % 23 == 0 ? nil : width, pixelHeight: height,
                orientation: Int(1 + generator.next() % 8),
                capturedAt: "2023-06-0\(day)T1\(generator.next() % 10):00:00")
        }
        var config = LayoutConfig()
        config.style = style
        config.pageWidth = [320, 390, 768, 1280][seed % 4]
        let first = try AlbumLayout.layout(photos, config: config)
        let second = try AlbumLayout.layout(photos.reversed(), config: config)
        // Identical output for identical input, whatever order the records came in.
        #expect(try Self.encode(first) == Self.encode(second))

        let items = first.pages.flatMap(\.items).filter { $0.type == .photo }
        var placed: [String: LayoutItem] = [:]
        for page in first.pages {
            for item in page.items where item.type == .photo {
                var documentItem = item
                documentItem.y += page.documentY ?? 0
                if let earlier = placed[item.photoId ?? ""] {
                    #expect(abs(earlier.y - documentItem.y) < 1e-9, "a photo has one place in the document")
                }
                placed[item.photoId ?? ""] = documentItem
            }
        }
        // Every photo placed exactly once, except the tiles' hidden ones.
        let hidden = Set(items.compactMap(\.overlay).flatMap(\.hiddenPhotoIds))
        #expect(Set(placed.keys).union(hidden) == Set(photos.map(\.id)))
        #expect(hidden.isDisjoint(with: placed.keys))
        let frames = Array(placed.values)
        for item in frames where style != .strip {
            #expect(item.x >= -1e-9 && item.x + item.width <= config.pageWidth + 1e-9, "inside the content width")
        }
        // No two frames overlap (the strip's zoomed cell is scaled in place, so check at unit scale there).
        if style != .strip {
            for (i, a) in frames.enumerated() {
                for b in frames[(i + 1)...] {
                    let overlap =
                        a.x < b.x + b.width - 1e-9 && b.x < a.x + a.width - 1e-9
                        && a.y < b.y + b.height - 1e-9 && b.y < a.y + a.height - 1e-9
                    #expect(!overlap, "\(a.photoId ?? "") overlaps \(b.photoId ?? "")")
                }
            }
        }
    }

    @Test func itemQueryMatchesABruteForceScan() {
        var generator = SplitMix(seed: 99)
        let items = (0..<500).map { index in
            LayoutItem(
                type: .photo, sectionId: "s", photoId: "\(index)", x: Double(generator.next() % 300),
                y: Double(generator.next() % 5000), width: Double(generator.next() % 120),
                height: Double(generator.next() % 300), clipped: false)
        }
        let query = ItemQuery(items)
        for _ in 0..<200 {
            let (x, y) = (Double(generator.next() % 400), Double(generator.next() % 5200))
            let (w, h) = (Double(generator.next() % 200), Double(generator.next() % 900))
            let expected = items.filter {
                $0.width > 0 && $0.height > 0 && $0.x < x + w && x < $0.x + $0.width && $0.y < y + h
                    && y < $0.y + $0.height
            }
            #expect(query.items(inX: x, y: y, width: w, height: h) == expected)
        }
    }

    @Test func edgeCases() throws {
        // No photos: no pages, height 0.
        let empty = try AlbumLayout.layout([], config: LayoutConfig())
        #expect(empty.pages.isEmpty && empty.document?.height == 0)
        // Margins wider than the page: tiles and justified warn and place nothing.
        var config = LayoutConfig()
        config.pageWidth = 20
        config.style = .tiles
        let narrow = try AlbumLayout.layout([LayoutPhoto(id: "a", pixelWidth: 3, pixelHeight: 2)], config: config)
        #expect(narrow.warnings.map(\.code) == ["contentWidthTooSmall"])
        // A lone portrait in optimal rows is capped at maxRowHeight (2T) and not cropped.
        config = LayoutConfig()
        let portrait = try AlbumLayout.layout(
            [LayoutPhoto(id: "a", pixelWidth: 1000, pixelHeight: 3000)], config: config)
        let photo = try #require(portrait.pages.first?.items.first { $0.type == .photo })
        #expect(photo.height == 360 && photo.width == 120 && photo.crop == false)
        // Pixel rounding snaps edges so neighbours keep sharing them.
        config.pixelRounding = true
        config.outputScale = 3
        let rounded = try AlbumLayout.layout(
            (0..<5).map { LayoutPhoto(id: "\($0)", pixelWidth: 1000 + Double($0) * 37, pixelHeight: 1000) },
            config: config)
        for item in rounded.pages.flatMap(\.items) {
            #expect(abs((item.x * 3).rounded() - item.x * 3) < 1e-9 && abs((item.y * 3).rounded() - item.y * 3) < 1e-9)
        }
    }
}
