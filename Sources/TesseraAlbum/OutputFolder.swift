import Foundation
import SystemPackage
import TesseraSystem

/// The folder a build writes, with every folder below it a real directory: a symbolic link
/// (or a file) found where a folder of the site belongs is replaced by a directory before
/// anything is written or removed there, so a build never writes or deletes outside it.
///
/// The output folder itself may be a link: that is the user's choice of where the site lives.
final class OutputFolder {
    let root: FilePath
    private let rootText: String
    /// Relative folders checked (or made) in this build; forgotten past `remembered` (checked
    /// again when next written to), so that a site of any number of albums holds a bounded set.
    private var checked: Set<Substring> = [""]
    static let remembered = 4096

    init(root: FilePath) {
        self.root = root
        rootText = root.string
    }

    /// The path of `relative` (a file or folder inside the output; not checked itself).
    func path(_ relative: some StringProtocol) -> FilePath {
        FilePath(rootText + "/" + relative)
    }

    /// Makes sure `relative` and every folder above it inside the output are real directories.
    @discardableResult
    func directory(_ relative: Substring) throws(AlbumError) -> FilePath {
        guard !checked.contains(relative) else { return path(relative) }
        if let slash = relative.lastIndex(of: "/") {
            try directory(relative[..<slash])
        }
        let target = path(relative)
        do throws(SystemError) {
            switch (try? FileSystem.linkStatus(of: target))?.type {
            case .directory?:
                break
            case nil:
                try FileSystem.createDirectories(target)
            case _?:
                try FileSystem.removeFile(target)
                try FileSystem.createDirectories(target)
            }
        } catch {
            throw AlbumError(.output, "\(target): cannot create the folder: \(error)")
        }
        if checked.count >= Self.remembered { checked = [""] }
        checked.insert(relative)
        return target
    }

    @discardableResult
    func directory(_ relative: String) throws(AlbumError) -> FilePath {
        try directory(Substring(relative))
    }

    /// The folder of the file `relative`, made sure of as `directory(_:)` does.
    func parent(of relative: String) throws(AlbumError) {
        try directory(relative[..<(relative.lastIndex(of: "/") ?? relative.startIndex)])
    }

    /// Removes `relative` (a file, a link, or a folder and what it holds); its parents are
    /// checked first, so nothing outside the output is reached.
    func remove(_ relative: String) throws(AlbumError) {
        try parent(of: relative)
        // Only folders are ever checked: a file removed leaves nothing to forget (and a build
        // removes one for every original it links again, so this must not cost a pass each).
        if checked.contains(Substring(relative)) {
            checked = checked.filter { !($0 == relative || $0.hasPrefix(relative + "/")) }
        }
        let target = path(relative)
        do throws(SystemError) {
            // Removes a link itself, never what it points to, and does not follow links inside.
            try FileSystem.removeTree(target)
        } catch {
            throw AlbumError(.output, "\(target): cannot remove: \(error.errno)")
        }
    }

    /// A folder emptied: removed with what it holds, then made again.
    func recreate(_ relative: String) throws(AlbumError) -> FilePath {
        try remove(relative)
        return try directory(relative)
    }

    /// Writes `text` to `relative` atomically (a temporary file renamed over it, which replaces
    /// a link there rather than writing through it), so a browser never loads half a page.
    func write(_ text: String, to relative: String) throws(AlbumError) {
        try write(bytes: Array(text.utf8), to: relative)
    }

    /// Writes `bytes` to `relative` atomically, as `write(_:to:)` does.
    func write(bytes: [UInt8], to relative: String) throws(AlbumError) {
        try parent(of: relative)
        let target = path(relative)
        do throws(SystemError) {
            try FileSystem.writeAtomically(bytes, to: target)
        } catch {
            throw AlbumError(.output, "\(target): cannot write: \(error)")
        }
    }

    /// A file to write in parts, put in place at `relative` whole when closed.
    func file(_ relative: String) throws(AlbumError) -> OutputFile {
        try parent(of: relative)
        let target = path(relative)
        do throws(SystemError) {
            return OutputFile(writer: try FileWriter(target))
        } catch {
            throw AlbumError(.output, "\(target): cannot write: \(error)")
        }
    }

    /// Writes `text` to `relative` unless the file there holds exactly that already: a build
    /// that changes nothing writes nothing.
    func writeIfChanged(_ text: String, to relative: String) throws(AlbumError) {
        let bytes = Array(text.utf8)
        if let status = try? FileSystem.linkStatus(of: path(relative)), status.type == .regular,
            status.size == bytes.count, FileSystem.smallFileContents(path(relative), limit: bytes.count + 1) == bytes
        {
            return
        }
        try write(text, to: relative)
    }

    /// Puts the folder `staging`, written whole, in place of `relative`: the folder there before
    /// stays until then, so a build that fails while writing (a full disk) leaves it as it was.
    func replace(_ relative: String, with staging: String) throws(AlbumError) {
        let retired = relative + ".retired"
        try remove(retired)
        let target = path(relative)
        do throws(SystemError) {
            if (try? FileSystem.linkStatus(of: target)) != nil { try FileSystem.move(target, to: path(retired)) }
            try FileSystem.move(path(staging), to: target)
        } catch {
            throw AlbumError(.output, "\(target): cannot put the new pages in place: \(error)")
        }
        checked = checked.filter { !($0 == staging || $0.hasPrefix(staging + "/") || $0.hasPrefix(relative + "/")) }
        try remove(retired)
    }
}

/// A file of the output written in parts (`OutputFolder.file`).
struct OutputFile {
    let writer: FileWriter

    func append(_ text: String) throws(AlbumError) {
        do throws(SystemError) {
            try writer.append(text.utf8)
        } catch {
            throw AlbumError(.output, "\(writer.path): cannot write: \(error)")
        }
    }

    /// Puts the file in place.
    func close() throws(AlbumError) {
        do throws(SystemError) {
            try writer.finish()
        } catch {
            throw AlbumError(.output, "\(writer.path): cannot write: \(error)")
        }
    }
}
