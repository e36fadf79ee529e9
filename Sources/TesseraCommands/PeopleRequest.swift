import Foundation
import TesseraConfiguration
import TesseraDaemon
import TesseraIndex
import TesseraScan
import TesseraSystem

/// `tessera people`: the people the faces were grouped into, and a user's decisions about them
/// (docs/PEOPLE.md), which the index keeps across every scan.
public struct PeopleRequest: Sendable {
    public enum Action: String, Sendable, CaseIterable {
        case list, show, name, merge, split, hide, unhide, forget
    }

    public static let discussion = """
        list: every person, most faces first (--json: [{"id", "name", "photos": [path, …]}]; \
        --hidden lists hidden people too). show PERSON: their faces and photos. name PERSON NAME \
        (an empty NAME takes it away). merge PERSON OTHER…: one person. split PERSON FACE…: the \
        faces are not this person; they go to a new one. hide PERSON, or hide --face FACE: never \
        shown (unhide shows again). forget --all: every face and person removed (a scan with \
        faces on finds the faces again). A daemon that serves the index carries the decision out; \
        without one it is written here. Exits 75 while a one-shot scan writes the index.
        """

    public var action: Action
    public var values: [String]
    public var face: Int64?
    public var all: Bool
    public var hidden: Bool
    public var json: Bool

    public init(
        _ action: Action = .list, _ values: [String] = [], face: Int64? = nil, all: Bool = false, hidden: Bool = false,
        json: Bool = false
    ) {
        (self.action, self.values, self.face, self.all, self.hidden, self.json) = (
            action, values, face, all, hidden, json
        )
    }

    public func run(in context: CommandContext) async throws {
        let configuration = try await context.store.readingConfiguration()
        switch action {
        case .list:
            let index = try PhotoIndex(path: configuration.index, readOnly: true)
            let people = try index.people(hidden: hidden)
            if json { return try context.json(people.map(Listed.init)) }
            guard !people.isEmpty else { return context.note("No people in \(configuration.index) yet.") }
            for person in people {
                let name = person.name ?? "(no name)"
                let counts = "\(Wording.count(person.faces, "face")), \(Wording.count(person.photos.count, "photo"))"
                context.say("\(person.id)\t\(name)\t\(counts)")
            }
        case .show:
            let person = try number(values.first, "PERSON")
            let faces = try PhotoIndex(path: configuration.index, readOnly: true).faces(photo: nil, person: person)
            if json { return try context.json(faces) }
            for face in faces { context.say("face \(face.id)\(face.hidden ? " (hidden)" : "")\t\(face.path)") }
        default:
            try decide(try decision(), configuration, context)
        }
    }

    /// What the action and its values decide.
    private func decision() throws -> PeopleDecision {
        switch action {
        case .name:
            guard values.count == 2 else { throw CommandFailure("people name takes a PERSON and a NAME") }
            return .name(person: try number(values[0], "PERSON"), name: values[1])
        case .merge:
            guard values.count >= 2 else { throw CommandFailure("people merge takes a PERSON and the OTHERs") }
            return .merge(
                into: try number(values[0], "PERSON"), people: try values.dropFirst().map { try number($0, "OTHER") })
        case .split:
            guard values.count >= 2 else { throw CommandFailure("people split takes a PERSON and their FACEs") }
            return .split(
                person: try number(values[0], "PERSON"), faces: try values.dropFirst().map { try number($0, "FACE") })
        case .hide, .unhide:
            guard face != nil || values.count == 1 else {
                throw CommandFailure("people \(action) takes a PERSON or --face")
            }
            return .hide(
                person: try values.first.map { try number($0, "PERSON") }, face: face, hidden: action == .hide)
        default:
            guard all else { throw CommandFailure("people forget needs --all") }
            return .forgetAll
        }
    }

    private func number(_ text: String?, _ what: String) throws -> Int64 {
        guard let text, let value = Int64(text) else {
            throw CommandFailure(
                "\(what) is a number (tessera people list), not \(text.map { "'\($0)'" } ?? "nothing")")
        }
        return value
    }

    /// Carries `decision` out: in the index when no one writes it, else by the daemon that does.
    private func decide(
        _ decision: PeopleDecision, _ configuration: Configuration, _ context: CommandContext
    ) throws {
        let lock = IndexLock(index: configuration.index)
        if let holder = try lock.acquire(role: .scan, socket: nil) {
            guard holder.role == .serve, let socket = holder.socket else {
                context.note("\(configuration.index) is being written by \(holder); try again when it ends")
                throw CommandFailure.status(ScanRequest.busyStatus)
            }
            let outcome = try ControlClient.request(
                ControlRequest(command: .people, decision: decision), to: socket, progress: { _ in })
            if let error = outcome.error { throw CommandFailure(error) }
            return context.say(outcome.done ?? "done")
        }
        defer { lock.release() }
        context.say(try PhotoIndex(path: configuration.index).apply(decision))
    }

    /// A person as `list --json` gives them: `name` null until they are named.
    struct Listed: Encodable {
        var id: Int64
        var name: String?
        var photos: [String]

        init(_ person: PersonSummary) {
            (id, name, photos) = (person.id, person.name, person.photos)
        }

        private enum CodingKeys: CodingKey { case id, name, photos }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)  // (a nil is written as null, not left out)
            try container.encode(photos, forKey: .photos)
        }
    }
}
