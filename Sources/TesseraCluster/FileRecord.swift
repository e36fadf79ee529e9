import Foundation
package import SystemPackage
import TesseraAnalysis
import TesseraFacts
package import TesseraIndex
import TesseraSystem

/// What a worker read of a file, as `files.record` keeps it (JSON): the content of the
/// `FileUpdate` a scan would write, with each rendition's key in the object store instead of
/// its path in a cache.
package struct FileRecord: Codable, Sendable {
    enum Status: String, Codable, Sendable { case ok, failed, unsupported }

    struct Failure: Codable, Sendable, Equatable {
        var format: ImageFormat
        var code: String
        var message: String
        var cause: String?
    }

    struct Rendition: Codable, Sendable, Equatable {
        var spec: RenditionSpec
        var width: Int
        var height: Int
        var bytes: Int?
        /// Relative to the store's prefix, as to the cache's root: `RenditionCache`'s own naming.
        var object: String
        var source: RenditionSource
    }

    struct Renditions: Codable, Sendable, Equatable {
        var contentHash: String
        var key: String
        var entries: [Rendition]
        /// Base64.
        var thumbhash: String?
        var settings: String
        var posterTime: Double?
        /// The picture hashes (`AnalysisOutput.pictureHashes`), hexadecimal (JSON numbers lose a
        /// 64-bit hash's low bits in many readers); nil when not done.
        var perceptualHash: String?
        /// Base64 of its 32 bytes, as the index keeps them.
        var detailHash: String?
        /// The faces found (`AnalysisOutput.faces`); nil when not done (faces off, or no models).
        var faces: Faces?

        /// The picture-hashes analysis as recorded: pending (for the analysis stage of whatever
        /// scans the exported index) when the worker could not do it.
        var pictureHashes: AnalysisResult {
            let analysis = PictureHashing()
            guard let hash = perceptualHash.flatMap({ UInt64($0, radix: 16) }),
                let detail = detailHash.flatMap({ Data(base64Encoded: $0) }).flatMap(DetailHash.init(bytes:))
            else { return AnalysisResult(name: analysis.name, version: analysis.version, outcome: .pending) }
            return AnalysisResult(
                name: analysis.name, version: analysis.version, outcome: .done(.pictureHashes(hash, detail)))
        }
    }

    var status: Status
    /// The identity of the file as it was read.
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var mtimeNanoseconds: Int64
    var facts: PhotoFacts?
    var warnings: [String] = []
    var failure: Failure?
    var unsupported: String?
    var renditions: Renditions?

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()

    /// The record `json` holds (a row's `record`; fuzzed as `file-record`).
    ///
    /// One whose renditions are not all named by plain paths (no `..`, no leading `/`: written
    /// by something else than a worker) is read as a failed file without renditions, so no
    /// reader fetches or writes a file outside its cache for it.
    package static func read(_ json: [UInt8]) throws -> FileRecord {
        var record = try decoder.decode(FileRecord.self, from: Data(json))
        if let renditions = record.renditions, !renditions.entries.allSatisfy({ isPlainKey($0.object) }) {
            record.status = .failed
            record.renditions = nil
            record.failure = Failure(
                format: record.facts?.format ?? .unsupported, code: PhotoError.Code.corrupt.description,
                message: "the cluster's record names a rendition outside the store's prefix")
        }
        return record
    }

    /// Whether `key` is a relative path of plain names: what a worker stores renditions under.
    package static func isPlainKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 1024 && !key.unicodeScalars.contains { $0.value < 0x20 || $0 == "\\" }
            && key.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && $0 != "." && $0 != ".."
            }
    }

    /// The record of `update`, whose rendition paths lie in the cache at `cacheRoot`.
    init(_ update: FileUpdate, cacheRoot: FilePath) {
        device = update.identity.device
        inode = update.identity.inode
        size = update.identity.size
        mtimeNanoseconds = update.identity.mtimeNanoseconds
        switch update.content {
        case .photo(let facts, let warnings, let made):
            status = .ok
            self.facts = facts
            self.warnings = warnings
            renditions = Renditions(
                contentHash: made.contentHash, key: made.key,
                entries: made.renditions.map {
                    Rendition(
                        spec: $0.spec, width: $0.width, height: $0.height, bytes: $0.bytes,
                        object: Self.object(of: $0.path, in: cacheRoot), source: $0.source)
                },
                thumbhash: made.thumbhash.map { Data($0).base64EncodedString() }, settings: made.settings,
                posterTime: made.posterTime)
            for case .pictureHashes(let hash, let detail) in made.analyses.compactMap(\.output) {
                renditions?.perceptualHash = String(hash, radix: 16)
                renditions?.detailHash = Data(detail.bytes).base64EncodedString()
            }
            for result in made.analyses where result.name == .faces {
                if case .done(let output) = result.outcome {
                    let found: [FoundFace] = if case .faces(let faces) = output { faces } else { [] }
                    renditions?.faces = Faces(version: result.version, found: found.map(Face.init))
                }
            }
        case .failed(let format, let error, let facts):
            status = .failed
            self.facts = facts
            failure = Failure(
                format: format, code: error.code.description, message: error.message, cause: error.cause)
        case .unsupported(let reason):
            status = .unsupported
            unsupported = reason
        }
    }

    /// A file whose workers kept stopping while reading it: recorded as failed, as a file
    /// that crashes a scan's reader is.
    init(crashed identity: FileIdentity, reason: String) {
        status = .failed
        device = identity.device
        inode = identity.inode
        size = identity.size
        mtimeNanoseconds = identity.mtimeNanoseconds
        failure = Failure(format: .unsupported, code: PhotoError.Code.crashed.description, message: reason)
    }

    /// The key of the cache file at `path`: its path below `root`.
    static func object(of path: String, in root: FilePath) -> String {
        let base = root.string.hasSuffix("/") ? root.string : root.string + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    var identity: FileIdentity {
        FileIdentity(device: device, inode: inode, size: size, mtimeNanoseconds: mtimeNanoseconds)
    }

    /// The content of the update a scan would have written, its renditions in the cache at
    /// `cacheRoot` (where `export-index` puts their objects).
    package func content(cacheRoot: FilePath) -> FileUpdate.Content {
        switch status {
        case .ok:
            guard let facts, let renditions else {
                return .failed(
                    format: facts?.format ?? .unsupported,
                    error: PhotoError(.corrupt, "the cluster's record of this file is incomplete"), facts: facts)
            }
            let base = cacheRoot.string.hasSuffix("/") ? cacheRoot.string : cacheRoot.string + "/"
            return .photo(
                facts, warnings: warnings,
                renditions: PhotoRenditions(
                    contentHash: renditions.contentHash, key: renditions.key,
                    renditions: renditions.entries.map {
                        RenditionEntry(
                            spec: $0.spec, width: $0.width, height: $0.height, bytes: $0.bytes,
                            path: base + $0.object, source: $0.source)
                    },
                    thumbhash: renditions.thumbhash.flatMap { Data(base64Encoded: $0) }.map { Array($0) },
                    settings: renditions.settings, posterTime: renditions.posterTime,
                    analyses: [renditions.pictureHashes] + (renditions.faces.map { [$0.result] } ?? [])))
        case .failed:
            let failure = failure ?? Failure(format: .unsupported, code: "corrupt", message: "unknown failure")
            return .failed(
                format: failure.format,
                error: PhotoError(
                    PhotoError.Code(failure.code) ?? .corrupt, failure.message, cause: failure.cause),
                facts: facts)
        case .unsupported:
            return .unsupported(reason: unsupported ?? "not a photo")
        }
    }
}

extension FileRecord {
    /// The faces a worker found in a photo, with the version of the analysis that found them.
    struct Faces: Codable, Sendable, Equatable {
        var version: Int
        var found: [Face]

        /// The analysis as recorded: the faces whose descriptors are whole.
        var result: AnalysisResult {
            AnalysisResult(name: .faces, version: version, outcome: .done(.faces(found.compactMap(\.face))))
        }
    }

    /// One face: its box in fractions of the upright photo, and its descriptor as the base64 of
    /// 128 little-endian 32-bit floats (as the index keeps it).
    struct Face: Codable, Sendable, Equatable {
        var x, y, width, height, confidence: Double
        var descriptor: String

        init(_ face: FoundFace) {
            (x, y, width, height, confidence) = (face.x, face.y, face.width, face.height, face.confidence)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(face.descriptor.count * 4)
            for value in face.descriptor {
                let bits = value.bitPattern
                bytes += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: bits >> $0) }
            }
            descriptor = Data(bytes).base64EncodedString()
        }

        /// The face found; nil when the record's descriptor is not 128 numbers.
        var face: FoundFace? {
            guard let bytes = Data(base64Encoded: descriptor).map(Array.init), bytes.count == 128 * 4 else {
                return nil
            }
            let values = stride(from: 0, to: bytes.count, by: 4).map { start in
                Float(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[start + $1]) << (8 * $1) })
            }
            return FoundFace(x: x, y: y, width: width, height: height, confidence: confidence, descriptor: values)
        }
    }
}
