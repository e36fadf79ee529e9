import ArgumentParser
import Foundation
import SystemPackage
import TesseraIndex
import TesseraMetadata
import TesseraService
import TesseraSystem

/// `tessera list`: photos newest first, read from the index (read-only).
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List indexed photos newest first, or the files that failed.")

    @OptionGroup var store: StoreOptions

    @Flag(help: "An array of objects with the fields of `tessera inspect --json` plus album, thumbnails, status.")
    var json = false

    @Option(help: "Only this album: its folder relative to its root, or its absolute path.")
    var album: String?

    @Option(help: "At most this many photos.")
    var limit: Int?

    @Flag(help: "The files that could not be read, with their reasons.")
    var errors = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func run() throws {
        let configuration = try store.configuration()
        let photos: [PhotoJSON]
        do {
            let index = try PhotoIndex(path: configuration.index, readOnly: true)
            photos = try index.photos(.init(album: album, limit: limit, errors: errors))
        } catch {
            throw CLIError("\(error)")
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(photos), as: UTF8.self))
            return
        }
        for photo in photos {
            if errors {
                print(TerminalText.escaped("\(photo.path): \(photo.error ?? "unknown error")"))
            } else {
                let offset = photo.utcOffset.map { " \($0)" } ?? ""
                let size = "\(photo.displayWidth ?? 0)×\(photo.displayHeight ?? 0)"
                print(TerminalText.escaped("\(photo.capturedAt ?? "?")\(offset)  \(size)  \(photo.path)"))
            }
        }
    }
}
