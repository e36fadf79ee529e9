import Foundation
import TesseraAlbum
import TesseraConfiguration
import TesseraIndex
import TesseraLayout

/// `tessera layout`: album page geometry (docs/LAYOUT.md) as JSON, from the index or from photo
/// records.
public struct LayoutRequest: Sendable {
    /// The engine's parameters by their docs/LAYOUT.md names, in order.
    public var parameters: [(key: String, value: String)] = []
    /// Then more, as `key=value` (`--option`).
    public var assignments: [String] = []
    /// Only this album and the albums inside it.
    public var album: String?
    /// Only the newest N photos.
    public var limit: Int?
    /// Photo records as JSON instead of the index ('-' for standard input).
    public var photos: String?
    /// Also report errors as JSON on standard output.
    public var json = false
    /// The command-line spelling of a parameter that has an option of its own.
    public var optionNames: [String: String] = [:]

    public init() {}

    public func run(in context: CommandContext) async throws {
        var config = LayoutConfig()
        do {
            for (key, value) in parameters { try config.set(key, value) }
            for assignment in assignments { try config.set(assignment: assignment) }
            let records = if let photos { try Self.records(from: photos) } else { try await indexRecords(context) }
            context.say(try AlbumLayout.layout(records, config: config).canonicalJSON())
        } catch let error as LayoutError {
            if json {
                context.say(try error.canonicalJSON())
            } else {
                let field = optionNames[error.error.field] ?? error.error.field
                context.note("tessera: \(field) \(error.error.message ?? "is not valid")")
            }
            throw CommandFailure.status(2)
        }
    }

    /// Photos from the index, newest first, with their row ids as ids.
    private func indexRecords(_ context: CommandContext) async throws -> [LayoutPhoto] {
        let configuration = try await context.store.readingConfiguration()
        let index = try PhotoIndex(path: configuration.index, readOnly: true)
        let folder = try album.map { try AlbumArgument.resolve($0, in: index) }
        return try index.photos(.init(folder: folder, limit: limit.map { max(0, $0) })).map { LayoutPhoto($0) }
    }

    /// Photo records from JSON; every field is checked before the engine sees it.
    static func records(from source: String) throws -> [LayoutPhoto] {
        let data: Data
        do {
            data =
                source == "-"
                ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: source))
        } catch {
            throw CommandFailure("\(source): cannot read: \(error.localizedDescription)")
        }
        do {
            return try LayoutPhoto.records(json: data)
        } catch {
            throw CommandFailure("\(source): \(error)", status: 2)
        }
    }
}
