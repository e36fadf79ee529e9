public import Foundation
public import SystemPackage
public import TesseraDesktop
public import TesseraFacts
public import TesseraImage
public import TesseraLayout
import TesseraSystem

/// Everything Tessera can be configured with; every key has a default.
///
/// `config/tessera.yaml` documents each key. Paths may start with `~/`.
public struct Configuration: Sendable {
    public var roots: [FilePath] = []
    /// Whether `roots` came from a configuration file: then a scan of them retires (marks
    /// missing) what lies under no root, a root taken out of the file.
    public var rootsFromFile = false
    /// Days a file found gone stays in the index (hidden) before its row and renditions go.
    public var keepMissingDays = 7
    /// Places given to folders and photos over what their files say (docs/PLACES.md).
    public var placeCorrections: [PlaceCorrection] = []
    /// Where the site shows no position and no place finer than the town.
    public var privateZones: [PrivateZone] = []
    /// Folders the site shows only encrypted (docs/PRIVATE.md).
    public var privateAlbums: [PrivateAlbum] = []
    /// Globs matched against each entry's name and its path relative to its root.
    public var exclude: [String] = []
    public var followSymlinks = false
    public var index: FilePath
    public var cache: FilePath
    /// The index and its work queue in PostgreSQL (`postgres://…`) instead of the `index` file.
    ///
    /// This is the deployment of docs/SCALE.md. The `cache` then
    /// holds a worker's renditions only until they are stored.
    public var indexURL: String?
    /// Where that deployment keeps renditions: `s3://BUCKET/PREFIX`.
    public var renditionsURL: String?
    /// An AWS credentials file for the object store, instead of the environment's keys.
    public var renditionsCredentials: FilePath?
    /// The renditions every photo gets: squares for grids, fits for justified rows and the
    /// viewer, each at 1× and 2× of what a page shows.
    public var renditions: [RenditionSpec] = [.square(256), .square(512), .fit(1024), .fit(2048)]
    public var rendering = RenderOptions()
    /// Parallel render workers; 0 means one per core.
    public var workers = 0
    /// Whether a scan makes a web rendition (H.264 and AAC) of each video browsers cannot play.
    public var webVideos = true
    /// The cores one web rendition takes while it is made: the budget videos get.
    public var webVideoThreads = 1
    /// Whether a scan finds and describes the faces of each photo (docs/PEOPLE.md).
    public var faces = true
    /// Time zone for capture times written without a UTC offset; nil means the system's.
    public var timeZone: TimeZone?
    /// Daemon: the control socket's path.
    public var controlSocket: FilePath
    /// Daemon: scan once when it starts.
    public var scanOnStart = true
    /// Daemon: seconds between periodic rescans; 0 turns them off.
    public var rescanInterval: Int = 0
    /// Daemon: seconds of idle time between checks of the whole rendition cache for files gone
    /// from it (which the next scan renders again); 0 turns them off.
    public var cacheCheckInterval: Int = 3600
    /// Daemon: watch local roots with inotify and rescan after changes.
    public var watch = true
    /// Daemon: rebuild album pages here after each scan; nil to not build them.
    public var albumDirectory: FilePath?
    /// Album page style.
    public var albumStyle = LayoutConfig.Style.justified
    /// What the album site carries of the originals.
    public var albumOriginals = AlbumOriginals.symlink
    /// How the album site orders albums beside each other.
    public var albumOrder = AlbumOrder.name
    /// Whether the album site shows every copy of a photo, not only the one to keep.
    public var albumShowCopies = false
    /// Whom the album site shows on its People pages, in its viewer and in Find.
    public var albumPeople = AlbumPeople.named
    /// Whether to fill the freedesktop thumbnail cache that file managers read.
    public var desktopThumbnails = DesktopThumbnails.auto
    /// Which of its sizes to fill.
    public var desktopThumbnailSizes: [DesktopThumbnailCache.Size] = [.large, .xLarge]
    /// The freedesktop thumbnail cache: `$XDG_CACHE_HOME/thumbnails`.
    public var desktopThumbnailRoot: FilePath
    /// The home directory, inside which a library is the user's own.
    public var home: FilePath

    /// `desktop_thumbnails`: on, off, or `auto`, on for a user's own library (every root inside
    /// the home directory); the system service's folders lie elsewhere, so it writes none.
    public enum DesktopThumbnails: String, Sendable, CaseIterable {
        case auto, on = "true", off = "false"
    }

    /// Defaults for this environment: systemd's directories when set, XDG otherwise.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        func xdg(_ variable: String, _ fallback: String) -> FilePath {
            if let value = environment[variable], value.hasPrefix("/") { return FilePath(value) }
            return FilePath(home).appending(fallback)
        }
        // systemd's StateDirectory=, CacheDirectory= and RuntimeDirectory= export these.
        let state =
            environment["STATE_DIRECTORY"].map { FilePath($0) }
            ?? xdg("XDG_STATE_HOME", ".local/state").appending("tessera")
        let cache =
            environment["CACHE_DIRECTORY"].map { FilePath($0) } ?? xdg("XDG_CACHE_HOME", ".cache").appending("tessera")
        let runtime =
            environment["RUNTIME_DIRECTORY"].map { FilePath($0) }
            ?? FilePath(environment["XDG_RUNTIME_DIR"] ?? "/tmp/tessera-\(getuid())").appending("tessera")
        self.home = FilePath(home)
        desktopThumbnailRoot = xdg("XDG_CACHE_HOME", ".cache").appending("thumbnails")
        index = state.appending("index.sqlite")
        self.cache = cache.appending("thumbnails")
        controlSocket = runtime.appending("control.sock")
        roots = [FilePath(home).appending("Pictures")]
    }

    /// What Tessera itself writes: the cache, the index and its companion files, the album
    /// pages.
    ///
    /// The walker and the watcher never enter them, even when they lie inside a root.
    public var ownFiles: Set<FilePath> {
        let index = FileSystem.absolute(index)
        var paths: Set<FilePath> = [FileSystem.absolute(cache), index]
        for suffix in ["-wal", "-shm", "-journal", ".lock", ".reading"] {
            paths.insert(FilePath(index.string + suffix))
        }
        if let albumDirectory { paths.insert(FileSystem.absolute(albumDirectory)) }
        return paths
    }

    /// What the renditions of a photo answer to: the configured kinds and sizes, and every
    /// setting that changes their pixels.
    public var renderSettings: RenderSettings {
        RenderSettings(renditions: renditions, options: rendering, desktop: desktopThumbnailCache?.specs ?? [])
    }

    /// The freedesktop thumbnail cache to fill, when `desktop_thumbnails` says to.
    public var desktopThumbnailCache: DesktopThumbnailCache? {
        let home = FileSystem.absolute(home)
        let enabled =
            switch desktopThumbnails {
            case .on: true
            case .off: false
            case .auto:
                !home.components.isEmpty && !roots.isEmpty
                    && roots.allSatisfy { FileSystem.absolute($0).starts(with: home) }
            }
        return enabled && !desktopThumbnailSizes.isEmpty
            ? DesktopThumbnailCache(root: desktopThumbnailRoot, sizes: desktopThumbnailSizes) : nil
    }

    /// The effective worker count.
    public var workerCount: Int {
        workers > 0 ? workers : ProcessInfo.processInfo.activeProcessorCount
    }

    /// The configuration file to use: `explicit`, then `$TESSERA_CONFIG`, then
    /// `/etc/tessera/config.yaml`, then `$XDG_CONFIG_HOME/tessera/config.yaml`.
    ///
    /// Nil when none exists (defaults apply); an explicit file must exist.
    public static func locate(
        explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> FilePath? {
        if let explicit {
            guard Self.exists(explicit) else {
                throw ConfigurationError(file: FilePath(explicit), key: nil, "no such file")
            }
            return FilePath(explicit)
        }
        if let variable = environment["TESSERA_CONFIG"], !variable.isEmpty {
            guard Self.exists(variable) else {
                throw ConfigurationError(file: FilePath(variable), key: nil, "no such file (from $TESSERA_CONFIG)")
            }
            return FilePath(variable)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        for candidate in ["/etc/tessera/config.yaml", configHome + "/tessera/config.yaml"]
        where Self.exists(candidate) {
            return FilePath(candidate)
        }
        return nil
    }

    private static func exists(_ path: String) -> Bool {
        (try? FileSystem.status(of: FilePath(path))) != nil
    }

    /// A configuration file's text: a regular file of at most a MiB, in UTF-8 (the first byte
    /// that is not is named by line and column).
    static func text(of file: FilePath) throws(ConfigurationError) -> String {
        let opened: RegularFile
        do throws(FileReadError) {
            opened = try RegularFile(opening: file)
        } catch {
            switch error.kind {
            case .notRegularFile(let type):
                throw ConfigurationError(file: file, key: nil, "is \(type), not a configuration file")
            case .system(let error): throw ConfigurationError(file: file, key: nil, error.reason)
            case .truncated(let what): throw ConfigurationError(file: file, key: nil, "ends inside \(what)")
            }
        }
        let read = Result { () throws(SystemError) in try opened.contents(limit: 1 << 20) }
        var bytes: [UInt8]
        switch read {
        case .success(let contents?): bytes = contents
        case .success(nil):
            throw ConfigurationError(
                file: file, key: nil, "is \(opened.status.size) bytes; a configuration file has at most 1 MiB")
        case .failure(let error): throw ConfigurationError(file: file, key: nil, error.reason)
        }
        // A byte-order mark (what some Windows editors start UTF-8 with) is no part of the text.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        if bytes.starts(with: bom) { bytes.removeFirst(bom.count) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // The first bad byte, found in one pass: count lines and columns up to it.
        var valid = 0
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) { valid += scalar.count }
        let before = bytes[..<valid]
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = valid - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        throw ConfigurationError(
            file: file, key: nil, "is not UTF-8 text (byte 0x\(String(bytes[valid], radix: 16)))", at: (line, column))
    }

    /// Defaults, overlaid with the file that `locate` finds.
    public static func load(
        explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration(environment: environment)
        if let file = try locate(explicit: explicit, environment: environment) {
            let text = try Self.text(of: file)
            try configuration.apply(yaml: text, file: file, home: environment["HOME"] ?? NSHomeDirectory())
        }
        return configuration
    }
}

/// A configuration problem: the file, where in it (line and column, from 1), the key when one
/// is at fault, and what is wrong.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var file: FilePath?
    public var position: (line: Int, column: Int)?
    public var key: String?
    public var message: String

    public init(file: FilePath?, key: String?, _ message: String, at position: (line: Int, column: Int)? = nil) {
        self.file = file
        self.key = key
        self.message = message
        self.position = position
    }

    public var description: String {
        let place = (file.map { "\($0)" } ?? "configuration") + (position.map { ":\($0.line):\($0.column)" } ?? "")
        return key.map { "\(place): key '\($0)': \(message)" } ?? "\(place): \(message)"
    }
}
