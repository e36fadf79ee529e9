public import SystemPackage
public import TesseraSystem

/// An XMP sidecar: the file beside a photo where digiKam, darktable, Lightroom and others keep
/// what their user changed without touching the photo.
public struct Sidecar: Sendable {
    /// Its name in the photo's folder.
    public var name: String
    public var packet: [UInt8]

    public init(name: String, packet: [UInt8]) {
        self.name = name
        self.packet = packet
    }

    /// The sidecar at `path`, read whole; nil when it is not a regular file there or is larger
    /// than an XMP packet may be.
    public static func read(at path: FilePath) -> Sidecar? {
        guard let packet = FileSystem.smallFileContents(path, limit: XMPReader.maxLength) else { return nil }
        return Sidecar(name: path.lastComponent?.string ?? "", packet: packet)
    }

    /// The warning for a sidecar beside a photo that `read(at:)` could not read.
    public static func unreadable(_ name: String) -> String {
        "sidecar \(name) could not be read (not a regular file, gone, or over \(XMPReader.maxLength >> 20) MiB); "
            + "ignored"
    }

    /// Whether a file of this name is a sidecar (ends in `.xmp`, in any case) and so never an item.
    ///
    /// Asked of every file a scan walks, so it looks at the last four bytes where they are.
    public static func isSidecar(_ name: [UInt8]) -> Bool {
        let count = name.count
        return count > 4 && name[count - 4] == UInt8(ascii: ".") && name[count - 3] | 0x20 == UInt8(ascii: "x")
            && name[count - 2] | 0x20 == UInt8(ascii: "m") && name[count - 1] | 0x20 == UInt8(ascii: "p")
    }

    /// Which sidecar belongs to which file among the names of one folder.
    ///
    /// By the two naming conventions, compared without regard to ASCII case:
    /// - `IMG_1234.CR2.xmp` (darktable, digiKam) belongs to `IMG_1234.CR2`;
    /// - `IMG_1234.xmp` (Lightroom, Capture One) belongs to every `IMG_1234.*` that has no
    /// sidecar of the first kind.
    ///
    /// When two sidecars differ only in case, the first in byte order is used.
    public static func pairs(in names: [[UInt8]]) -> [NameKey: NameKey] {
        var byStem: [[UInt8]: [UInt8]] = [:]
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) where isSidecar(name) {
            let stem = lowercased(name.dropLast(4))
            if byStem[stem] == nil { byStem[stem] = name }
        }
        guard !byStem.isEmpty else { return [:] }
        var pairs: [NameKey: NameKey] = [:]
        for name in names where !isSidecar(name) {
            let lower = lowercased(name)
            if let sidecar = byStem[lower] {
                pairs[NameKey(name)] = NameKey(sidecar)
            } else if let dot = lower.lastIndex(of: UInt8(ascii: ".")), dot > 0,
                let sidecar = byStem[Array(lower[..<dot])]
            {
                pairs[NameKey(name)] = NameKey(sidecar)
            }
        }
        return pairs
    }

    private static func lowercased(_ bytes: some Collection<UInt8>) -> [UInt8] {
        bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
}

/// Finds the sidecars of photos given one by one (the files of `tessera inspect`), listing
/// each folder once however many of its photos are asked about.
public struct SidecarFinder {
    private var pairsByFolder: [[UInt8]: [NameKey: NameKey]] = [:]

    public init() {}

    /// The sidecar of the photo at `path`, by the rules of `Sidecar.pairs(in:)`.
    public mutating func sidecar(of path: FilePath) -> FilePath? {
        let bytes = path.rawBytes
        let slash = bytes.lastIndex(of: UInt8(ascii: "/"))
        let name = slash.map { bytes[($0 + 1)...] } ?? bytes[...]
        let folder = slash.map { Array(bytes[..<max($0, 1)]) } ?? Array(".".utf8)
        guard !name.isEmpty else { return nil }
        if pairsByFolder[folder] == nil {
            pairsByFolder[folder] = FileSystem.entries(of: FilePath(rawBytes: folder)).map(Sidecar.pairs(in:)) ?? [:]
        }
        guard let sidecar = pairsByFolder[folder]?[NameKey(name)] else { return nil }
        return FilePath(rawBytes: slash.map { Array(bytes[...$0]) + sidecar.bytes } ?? sidecar.bytes)
    }
}
