public import SystemPackage
import TesseraSystem

/// The place lookup file (`places.bin`, written by scripts/build-places.py from GeoNames data),
/// mapped: countries, regions and populated places, the places filed by the half-degree cell they
/// lie in, most populous first.
///
/// Little-endian throughout:
///
///     "TSPLACE2", then UInt32: countries, regions, places, string bytes, columns (720), rows (360)
///     countries   8 bytes each: name (string offset), ISO code (2 bytes), 0
///     regions     8 bytes each: name, country (UInt16), 0
///     cells       UInt32 × (columns · rows + 1): the first place of each cell, row by row from 90° S;
///                 a cell's places most populous first
///     places     28 bytes each: latitude, longitude (Int32, millionths of a degree), population,
///                name, region (0xFFFFFFFF: none), country (UInt16), 0, alternate names (a string
///                of names each ended by 0x1F; 0xFFFFFFFF: none)
///     strings     each a UInt16 length and its UTF-8
///
/// Every offset read from the file is checked against it: a damaged file gives no place, never
/// a read outside the mapping.
public final class PlaceTable: Sendable {
    public struct Place: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var population: Int
        public var name: Int
        public var region: Int?
        public var country: Int
        /// The string of its other names, when it has some.
        public var alternates: Int?
    }

    static let magic = Array("TSPLACE2".utf8)
    static let columns = 720, rows = 360
    /// Degrees of latitude and of longitude a cell spans.
    static let cellDegrees = 0.5
    private static let headerSize = 32, countrySize = 8, regionSize = 8, placeSize = 28

    private let file: MappedFile
    /// The file it was read from.
    public let path: FilePath
    public let countryCount: Int, regionCount: Int, placeCount: Int
    private let regionsAt: Int, cellsAt: Int, placesAt: Int, stringsAt: Int

    /// Maps the file at `path` and checks its header and size.
    public init(path: FilePath) throws(PlaceTableError) {
        self.path = path
        do {
            file = try MappedFile(path: path)
        } catch {
            throw PlaceTableError(path: path, error.isVanished ? "not installed" : "cannot be read: \(error.errno)")
        }
        let header: [Int]? = file.withUnsafeBytes { bytes in
            guard bytes.count >= Self.headerSize, Array(bytes[0..<8]) == Self.magic else { return nil }
            return (0..<6).map {
                Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 + 4 * $0, as: UInt32.self)))
            }
        }
        guard let header, header[4] == Self.columns, header[5] == Self.rows else {
            throw PlaceTableError(path: path, "is not a place lookup file of this version")
        }
        (countryCount, regionCount, placeCount) = (header[0], header[1], header[2])
        regionsAt = Self.headerSize + countryCount * Self.countrySize
        cellsAt = regionsAt + regionCount * Self.regionSize
        placesAt = cellsAt + 4 * (Self.columns * Self.rows + 1)
        stringsAt = placesAt + placeCount * Self.placeSize
        guard stringsAt + header[3] == file.count else {
            throw PlaceTableError(path: path, "is cut short or too long (\(file.count) bytes)")
        }
    }

    /// The file's size in bytes.
    public var byteCount: Int { file.count }

    /// The places filed under the cell of `row` (0: 90° S to 89.5° S) and `column` (0: 180° W).
    func places(row: Int, column: Int) -> Range<Int> {
        let cell = row * Self.columns + column
        guard (0..<Self.rows).contains(row), (0..<Self.columns).contains(column) else { return 0..<0 }
        let (start, end) = (integer(at: cellsAt + 4 * cell), integer(at: cellsAt + 4 * cell + 4))
        return start <= end && end <= placeCount ? start..<end : 0..<0
    }

    /// The latitude and longitude of the place at `index`, which must be below `placeCount`.
    func position(_ index: Int) -> (latitude: Double, longitude: Double) {
        let at = placesAt + index * Self.placeSize
        return (
            Double(Int32(truncatingIfNeeded: integer(at: at))) / 1e6,
            Double(Int32(truncatingIfNeeded: integer(at: at + 4))) / 1e6
        )
    }

    /// The population of the place at `index`, which must be below `placeCount`.
    func population(_ index: Int) -> Int { integer(at: placesAt + index * Self.placeSize + 8) }

    /// The place at `index`, which must be below `placeCount`.
    public func place(_ index: Int) -> Place {
        let at = placesAt + index * Self.placeSize
        let (region, alternates) = (integer(at: at + 16), integer(at: at + 24))
        return Place(
            latitude: Double(Int32(truncatingIfNeeded: integer(at: at))) / 1e6,
            longitude: Double(Int32(truncatingIfNeeded: integer(at: at + 4))) / 1e6,
            population: integer(at: at + 8), name: integer(at: at + 12),
            region: region < regionCount ? region : nil, country: integer(at: at + 20) & 0xFFFF,
            alternates: alternates == 0xFFFF_FFFF ? nil : alternates)
    }

    /// The country's name and ISO code; nil past the table.
    public func country(_ index: Int) -> (name: String, code: String)? {
        guard index < countryCount else { return nil }
        let at = Self.headerSize + index * Self.countrySize
        guard let name = string(integer(at: at)) else { return nil }
        let code = file.withUnsafeBytes { String(decoding: $0[(at + 4)..<(at + 6)], as: UTF8.self) }
        return (name, code)
    }

    /// The region's name.
    public func region(_ index: Int) -> String? {
        index < regionCount ? string(integer(at: regionsAt + index * Self.regionSize)) : nil
    }

    /// The string at `offset` in the strings; nil when it does not fit in them.
    public func string(_ offset: Int) -> String? {
        file.withUnsafeBytes { bytes in
            let at = stringsAt + offset
            guard offset >= 0, at + 2 <= bytes.count else { return nil }
            let length = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
            guard at + 2 + length <= bytes.count else { return nil }
            return String(decoding: bytes[(at + 2)..<(at + 2 + length)], as: UTF8.self)
        }
    }

    /// The UInt32 at `offset` (within the file: every caller's offset is below `stringsAt`).
    private func integer(at offset: Int) -> Int {
        file.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
    }
}

/// Why the place lookup file cannot be used.
public struct PlaceTableError: Error, Sendable, CustomStringConvertible {
    public var path: FilePath
    public var reason: String

    public init(path: FilePath, _ reason: String) {
        (self.path, self.reason) = (path, reason)
    }

    public var description: String { "\(path): \(reason)" }
}
