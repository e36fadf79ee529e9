import Foundation
public import SystemPackage
import TesseraConfiguration
import TesseraFacts
import TesseraIndex
import TesseraMetadata
import TesseraPlaces
import TesseraReport
import TesseraSystem

/// `tessera inspect`: what Tessera reads from files, without decoding pixels; for a file the
/// index holds, its album, status, renditions, stack and copies too.
public struct InspectRequest: Sendable {
    public var files: [FilePath] = []
    public var json = false

    public init() {}

    /// The arguments without `inspect`'s files after its first, which are added after parsing.
    ///
    /// ArgumentParser copies an array argument's values for each one it adds, so 20,000 files
    /// took 4 s to parse: they are taken out here, in order. Options and their values stay.
    ///
    /// - Parameter valueOptions: the options whose value is the next argument.
    public static func takingFiles(
        from arguments: [String], command: String, valueOptions: Set<String>
    ) -> (arguments: [String], files: [String]) {
        guard arguments.first == command else { return (arguments, []) }
        var kept: [String] = [], files: [String] = []
        var afterTerminator = false, keptOne = false, isValue = false
        for argument in arguments {
            if isValue || kept.isEmpty {
                kept.append(argument)
                isValue = false
            } else if !afterTerminator && argument == "--" {
                kept.append(argument)
                afterTerminator = true
            } else if !afterTerminator && argument.hasPrefix("-") && argument != "-" {
                kept.append(argument)
                isValue = valueOptions.contains(argument)
            } else if !keptOne {
                kept.append(argument)
                keptOne = true
            } else {
                files.append(argument)
            }
        }
        return (kept, files)
    }

    /// Prints each file's report (an array of JSON objects when several); a file that could not
    /// be read is reported too, and fails the command once all are.
    public func run(in context: CommandContext) async throws {
        var sidecars = SidecarFinder()
        var indexed = try await indexToConsult(context).map(IndexedFiles.init)
        var array = JSONArrayPrinter(write: context.output.out)
        var failed = false
        let places = PlaceNamer.installed(try? await context.store.consultingConfiguration(context))
        for (number, path) in files.enumerated() {
            var report = PhotoReport.read(at: path, sidecars: &sidecars)
            report.place = places.place(of: path, position: report.gps, words: report.location)
            if report.gps != nil, report.place == nil, case .failure(let error) = places.data {
                report.placeUnknown = "the place data \(error) (docs/PLACES.md)"
            }
            if let record = indexed?.record(of: path) {
                report.addIndexFields(of: record)
                if let groups = indexed?.groups(of: record.id) { (report.stack, report.copies) = groups }
                report.faces = indexed?.faces(of: record.id)
            }
            failed = failed || report.error != nil
            switch (json, files.count) {
            case (true, 1): try context.json(report)
            case (true, _): try array.print(report)
            case (false, _): context.say((number > 0 ? "\n" : "") + report.text)
            }
        }
        if json && files.count != 1 { array.finish() }
        if failed { throw CommandFailure.status(1) }
    }

    /// The index named by --index or the configuration, when there is one: inspecting files
    /// needs none, so only an index asked for by name must open (the configuration's may be
    /// missing, or of an older schema until the next scan migrates it).
    private func indexToConsult(_ context: CommandContext) async throws -> (any PhotoStore)? {
        let configuration = try await context.store.consultingConfiguration(context)
        guard context.store.index != nil else { return try? PhotoIndex(path: configuration.index, readOnly: true) }
        return try PhotoIndex(path: configuration.index, readOnly: true)
    }
}
