import Foundation
public import SystemPackage
public import TesseraFacts
public import TesseraImage
import TesseraMetadata
public import TesseraSystem

/// The freedesktop.org thumbnail cache that file managers and image viewers read (the
/// Thumbnail Managing Standard, version 0.9): Tessera fills it from the decode that makes its
/// own renditions, so Nautilus, Thunar, Dolphin and Nemo show a folder's photos at once.
///
/// Layout: `<root>/<size>/<md5 of the file's URI>.png`, `size` being `normal` (128 pixels),
/// `large` (256), `x-large` (512) or `xx-large` (1024) on the long edge, never enlarged. Each PNG
/// carries `Thumb::URI`, `Thumb::MTime` (the file's modification time in whole seconds),
/// `Thumb::Size`, `Thumb::Image::Width` and `::Height` (the original's) and `Software`; a
/// reader takes a thumbnail only when its URI and mtime are the file's. Files are written
/// atomically with mode 0600 in folders of mode 0700, as the standard asks. A file that
/// cannot be read gets `<root>/fail/tessera-<version>/<md5>.png`, so that others need not try.
public struct DesktopThumbnailCache: Sendable {
    /// The standard's sizes, by folder name.
    public enum Size: String, Sendable, CaseIterable, Comparable {
        case normal, large, xLarge = "x-large", xxLarge = "xx-large"

        /// The long edge in pixels.
        public var pixels: Int {
            switch self {
            case .normal: 128
            case .large: 256
            case .xLarge: 512
            case .xxLarge: 1024
            }
        }

        public static func < (lhs: Size, rhs: Size) -> Bool { lhs.pixels < rhs.pixels }
    }

    /// `$XDG_CACHE_HOME/thumbnails`.
    public let root: FilePath
    public let sizes: [Size]

    public init(root: FilePath, sizes: [Size]) {
        self.root = root
        self.sizes = sizes
    }

    /// What the cache needs to know of the file a thumbnail shows.
    public struct Original: Sendable {
        public var path: FilePath
        /// Modification time, whole seconds since the epoch.
        public var mtime: Int64
        public var bytes: Int64

        public init(path: FilePath, mtime: Int64, bytes: Int64) {
            self.path = path
            self.mtime = mtime
            self.bytes = bytes
        }

        /// The file at `path` as a scan found it.
        public init(path: FilePath, identity: FileIdentity) {
            // Whole seconds, rounded down as st_mtime is (before 1970 too).
            let nanoseconds = identity.mtimeNanoseconds
            let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds + 1) / 1_000_000_000 - 1
            self.init(path: path, mtime: seconds, bytes: identity.size)
        }
    }

    /// The renditions to make for the cache: fits of its sizes.
    public var specs: [RenditionSpec] { sizes.map { .fit($0.pixels) } }

    /// The `file://` URI of `path` as GLib's `g_filename_to_uri` writes it (and so as GNOME
    /// looks thumbnails up): every byte but ASCII letters, digits and `!$&'()*+,-./:=@_~`
    /// percent-encoded in upper case, bytes that are not UTF-8 included.
    public static func uri(of path: FilePath) -> String {
        var uri = "file://"
        for byte in path.rawBytes {
            if Self.unescaped.contains(byte) {
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                uri +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true)
                    + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return uri
    }

    private static let unescaped = Set(
        Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!$&'()*+,-./:=@_~".utf8))

    /// Where the thumbnail of `path` of `size` lives.
    public func path(of path: FilePath, size: Size) -> FilePath { location(Self.fileName(of: path), size: size) }

    /// Where the failure entry of `path` lives.
    public func failurePath(of path: FilePath) -> FilePath { failureLocation(Self.fileName(of: path)) }

    /// `<md5 of the URI>.png`, the name of every entry of `path`.
    static func fileName(of path: FilePath) -> String { MD5.hex(Array(uri(of: path).utf8)) + ".png" }

    private func location(_ name: String, size: Size) -> FilePath { root.appending(size.rawValue).appending(name) }

    private func failureLocation(_ name: String) -> FilePath { failureFolder.appending(name) }

    /// Tessera's own folder of failure entries, as the standard has each program keep one.
    private var failureFolder: FilePath { root.appending("fail").appending("tessera-\(TesseraVersion.current)") }

    /// Writes the thumbnails of `original` from `images`, its upright fits by size (those of
    /// `specs`), and removes a failure entry it had.
    ///
    /// `width` and `height` are the original's displayed size.
    /// - Throws: `PhotoError` naming the thumbnail when it cannot be written (nothing partial
    ///   is left).
    public func write(
        _ images: [Size: PixelBuffer], of original: Original, width: Int, height: Int
    ) throws(PhotoError) {
        let name = Self.fileName(of: original.path)
        let text = entries(
            original, extra: [("Thumb::Image::Width", "\(width)"), ("Thumb::Image::Height", "\(height)")])
        for (size, image) in images.sorted(by: { $0.key < $1.key }) {
            guard let png = PNGText.replacing(text, in: try PNGEncoder.encode(image, fast: true)) else {
                throw PhotoError(.encode, path: original.path, "cannot write the desktop thumbnail's text")
            }
            try store(png, at: location(name, size: size))
        }
        try? FileSystem.removeFile(failureLocation(name))
    }

    /// Writes the thumbnails of `original` from the fits of `rendered` (made with `specs` kept),
    /// and removes a failure entry it had.
    public func write(_ rendered: Renderer.Rendered, of original: Original) throws(PhotoError) {
        var images: [Size: PixelBuffer] = [:]
        for size in sizes { images[size] = rendered.images[.fit(size.pixels)] }
        try write(
            images, of: original, width: rendered.metadata.displayWidth, height: rendered.metadata.displayHeight)
    }

    /// Records that `original` cannot be read: a one-pixel PNG with its URI and mtime.
    public func writeFailure(of original: Original) throws(PhotoError) {
        let pixel = PixelBuffer(width: 1, height: 1, channels: 4, pixels: [0, 0, 0, 0])
        guard let png = PNGText.replacing(entries(original, extra: []), in: try PNGEncoder.encode(pixel)) else {
            throw PhotoError(.encode, path: original.path, "cannot write the desktop thumbnail's text")
        }
        try store(png, at: failurePath(of: original.path))
    }

    /// Moves the thumbnails of a file renamed from `old` to `original.path`: each one's text
    /// rewritten for the new URI, without decoding the photo again: whether every configured size
    /// was there and is moved (else the photo is decoded for those missing).
    public func move(from old: FilePath, to original: Original) -> Bool {
        defer { try? FileSystem.removeFile(failureLocation(Self.fileName(of: old))) }
        return transfer(from: old, to: original, keepingSource: false)
    }

    /// Gives `original` the thumbnails of `source`, a file of the same content (a copy), each
    /// one's text rewritten for it, without decoding it: whether it has every configured size now.
    public func copy(from source: FilePath, to original: Original) -> Bool {
        transfer(from: source, to: original, keepingSource: true)
    }

    /// The thumbnails of `old` rewritten for `original`; whether every configured size was there
    /// and is written.
    private func transfer(from old: FilePath, to original: Original, keepingSource: Bool) -> Bool {
        let (from, to) = (Self.fileName(of: old), Self.fileName(of: original.path))
        var complete = true
        for size in sizes {
            let source = location(from, size: size)
            defer { if !keepingSource { try? FileSystem.removeFile(source) } }
            guard let png = FileSystem.smallFileContents(source, limit: 16 << 20) else {
                complete = false
                continue
            }
            let kept = PNGText.entries(of: png).filter { $0.key.hasPrefix("Thumb::Image::") }.sorted { $0.key < $1.key }
            guard let moved = PNGText.replacing(entries(original, extra: kept.map { ($0.key, $0.value) }), in: png),
                (try? store(moved, at: location(to, size: size))) != nil
            else {
                complete = false
                continue
            }
        }
        return complete
    }

    /// Removes every thumbnail and the failure entry of the file at `path`.
    public func remove(_ path: FilePath) {
        let name = Self.fileName(of: path)
        for size in Size.allCases { try? FileSystem.removeFile(location(name, size: size)) }
        try? FileSystem.removeFile(failureLocation(name))
    }

    /// How many thumbnails each configured size's folder holds now (0 for a folder that is not
    /// there), counted without keeping the names: the cheap sign that some were deleted.
    public func entryCounts() -> Counts {
        Counts(
            Dictionary(
                uniqueKeysWithValues: sizes.map {
                    (
                        $0,
                        FileSystem.entryCount(of: root.appending($0.rawValue), skipping: FileSystem.temporaryPrefix)
                            ?? 0
                    )
                }))
    }

    /// How many thumbnails each size's folder holds, as a scan records them for the next one to
    /// compare (`recorded`, JSON by folder name, is what the index keeps).
    public struct Counts: Sendable, Equatable {
        public var bySize: [Size: Int]

        public init(_ bySize: [Size: Int]) { self.bySize = bySize }

        /// The counts `recorded` holds; empty when there are none or they cannot be read (the
        /// next scan then records them anew).
        public init(recorded: String?) {
            let decoded = recorded.flatMap { try? JSONDecoder().decode([String: Int].self, from: Data($0.utf8)) }
            bySize = Dictionary(
                uniqueKeysWithValues: (decoded ?? [:]).compactMap { name, count in
                    Size(rawValue: name).map { ($0, count) }
                })
        }

        /// The counts as JSON, keys sorted: `{"large":120,"x-large":118}`.
        public var recorded: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let named = Dictionary(uniqueKeysWithValues: bySize.map { ($0.key.rawValue, $0.value) })
            return (try? encoder.encode(named)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }

        /// Whether a folder of `sizes` holds fewer files now than `earlier`: some were deleted.
        public func dropped(since earlier: Counts, in sizes: [Size]) -> Bool {
            sizes.contains { bySize[$0, default: 0] < earlier.bySize[$0, default: 0] }
        }
    }

    /// The names each configured size's folder holds now.
    public struct Listing: Sendable {
        var names: [Size: Set<String>]
    }

    public func listing() -> Listing {
        Listing(
            names: Dictionary(
                uniqueKeysWithValues: sizes.map { size in
                    (
                        size,
                        Set(
                            (FileSystem.entries(of: root.appending(size.rawValue)) ?? []).map {
                                String(decoding: $0, as: UTF8.self)
                            })
                    )
                }))
    }

    /// Whether every configured size of the file at `path` is in `listing`.
    public func hasEveryThumbnail(of path: FilePath, in listing: Listing) -> Bool {
        let name = Self.fileName(of: path)
        return sizes.allSatisfy { listing.names[$0]?.contains(name) == true }
    }

    /// `entryCounts()`, and, in the same listing of each folder, removes the temporary files
    /// Tessera's writes left there when they were killed, once older than `age` seconds (a write
    /// takes milliseconds; a younger one may be another process's, still writing).
    ///
    /// Other
    /// programs' files are left alone: only names Tessera writes (`.tmp-<md5>.png-<number>`) go.
    public func survey(now: Int64, sweepingOlderThan age: Int64 = 600) -> Counts {
        let prefix = Array(FileSystem.temporaryPrefix.utf8)
        var counts: [Size: Int] = [:]
        for (size, folder) in sizes.map({ ($0, root.appending($0.rawValue)) }) + [(nil, failureFolder)] {
            var count = 0
            for name in FileSystem.entries(of: folder) ?? [] {
                guard name.starts(with: prefix) else {
                    count += 1
                    continue
                }
                let path = FilePath(rawBytes: folder.rawBytes + [UInt8(ascii: "/")] + name)
                guard Self.isOwnTemporary(name.dropFirst(prefix.count)), let status = try? FileSystem.status(of: path),
                    status.type == .regular, now - status.mtimeSeconds >= age
                else { continue }
                try? FileSystem.removeFile(path)
            }
            if let size { counts[size] = count }
        }
        return Counts(counts)
    }

    /// Whether `rest` (a temporary name after its prefix) is `<32 hex digits>.png-<digits>`.
    private static func isOwnTemporary(_ rest: ArraySlice<UInt8>) -> Bool {
        let hex = Array("0123456789abcdef".utf8), digits = Array("0123456789".utf8)
        let name = Array(rest)
        guard name.count > 37, name[..<32].allSatisfy(hex.contains), name[32..<37].elementsEqual(Array(".png-".utf8))
        else {
            return false
        }
        return name[37...].allSatisfy(digits.contains)
    }

    private func entries(_ original: Original, extra: [(String, String)]) -> [(key: String, value: String)] {
        ([
            ("Thumb::URI", Self.uri(of: original.path)), ("Thumb::MTime", "\(original.mtime)"),
            ("Thumb::Size", "\(original.bytes)"),
        ]
            + extra + [("Software", "Tessera \(TesseraVersion.current)")]).map { (key: $0.0, value: $0.1) }
    }

    private func store(_ png: [UInt8], at path: FilePath) throws(PhotoError) {
        do {
            try FileSystem.writeAtomically(png, to: path, mode: 0o600, directoryMode: 0o700)
        } catch {
            throw PhotoError(.io, path: path, "cannot write the desktop thumbnail: \(error.errno)")
        }
    }
}
