import Foundation
import TesseraSystem

/// The JSON every `--json` of the command line prints: indented by two spaces, `"key" : value`,
/// keys sorted by their UTF-8 bytes, slashes as they are, dates in ISO 8601, empty arrays and
/// objects as `[]` and `{}`.
///
/// Foundation's `JSONEncoder` writes the same text (but for empty containers) at about 20 µs a
/// photo report; this encoder builds a small tree of already-escaped scalars and writes it out
/// in a few, so `inspect` and `list` on a whole library spend their time reading photos.
public enum JSONText {
    /// `value` as JSON text, its inner lines indented as if it stood `depth` levels deep.
    public static func encode(_ value: some Encodable, depth: Int = 0) throws -> [UInt8] {
        var output: [UInt8] = []
        write(try node(for: value, codingPath: []), into: &output, depth: depth)
        return output
    }

    fileprivate static func node<Value: Encodable>(for value: Value, codingPath: [any CodingKey]) throws -> Node {
        // Comparing types first spares the casts for every other value.
        if Value.self == Date.self, let date = value as? Date {
            return Node(scalar: JSONString.quoted(date.formatted(.iso8601)))
        }
        if Value.self == Data.self, let data = value as? Data {
            return Node(scalar: JSONString.quoted(data.base64EncodedString()))
        }
        if Value.self == URL.self, let url = value as? URL {
            return Node(scalar: JSONString.quoted(url.absoluteString))
        }
        let encoder = TreeEncoder(codingPath: codingPath)
        try value.encode(to: encoder)
        // A value that opened no container encodes as an empty object, as Foundation's does.
        return encoder.root ?? Node(object: [:])
    }

    private static func write(_ node: Node, into output: inout [UInt8], depth: Int) {
        switch node.content {
        case .scalar(let text):
            output.append(contentsOf: text.utf8)
        case .array(let elements):
            guard !elements.isEmpty else { return output.append(contentsOf: "[]".utf8) }
            output.append(contentsOf: "[\n".utf8)
            for (index, element) in elements.enumerated() {
                indent(&output, depth + 1)
                write(element, into: &output, depth: depth + 1)
                output.append(contentsOf: (index == elements.count - 1 ? "\n" : ",\n").utf8)
            }
            indent(&output, depth)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return output.append(contentsOf: "{}".utf8) }
            output.append(contentsOf: "{\n".utf8)
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                indent(&output, depth + 1)
                output.append(contentsOf: JSONString.quoted(member.key).utf8)
                output.append(contentsOf: " : ".utf8)
                write(member.value, into: &output, depth: depth + 1)
                output.append(contentsOf: (index == sorted.count - 1 ? "\n" : ",\n").utf8)
            }
            indent(&output, depth)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func indent(_ output: inout [UInt8], _ depth: Int) {
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// A number as Foundation writes it: the shortest text that reads back the same, without ".0".
    fileprivate static func number(
        _ value: some BinaryFloatingPoint & LosslessStringConvertible, codingPath: [any CodingKey]
    ) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
        }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

/// One value of the tree: a scalar already in JSON, or a container the encoder may still add to.
private final class Node {
    enum Content {
        case scalar(String)
        case array([Node])
        case object([String: Node])
    }

    var content: Content

    init(scalar: String) { content = .scalar(scalar) }
    init(array: [Node]) { content = .array(array) }
    init(object: [String: Node]) { content = .object(object) }

    func append(_ node: Node) {
        if case .array(var elements) = content {
            content = .scalar("")  // drops the reference so that the append does not copy
            elements.append(node)
            content = .array(elements)
        }
    }

    func set(_ node: Node, for key: String) {
        if case .object(var members) = content {
            content = .scalar("")
            members[key] = node
            content = .object(members)
        }
    }
}

private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var root: Node?

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let node = root ?? Node(object: [:])
        root = node
        return KeyedEncodingContainer(KeyedContainer(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let node = root ?? Node(array: [])
        root = node
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }
}

/// How each container turns a value into a node: scalars directly, the rest through their own
/// `encode(to:)`.
private protocol NodeMaking {
    var codingPath: [any CodingKey] { get }
}

extension NodeMaking {
    func node(_ value: Bool) -> Node { Node(scalar: value ? "true" : "false") }
    func node(_ value: String) -> Node { Node(scalar: JSONString.quoted(value)) }
    func node(_ value: some BinaryInteger) -> Node { Node(scalar: "\(value)") }
    func node(_ value: Double, at key: (any CodingKey)?) throws -> Node {
        try Node(scalar: JSONText.number(value, codingPath: codingPath + (key.map { [$0] } ?? [])))
    }
    func node(_ value: Float, at key: (any CodingKey)?) throws -> Node {
        try Node(scalar: JSONText.number(value, codingPath: codingPath + (key.map { [$0] } ?? [])))
    }
    func node(_ value: some Encodable, at key: (any CodingKey)?) throws -> Node {
        try JSONText.node(for: value, codingPath: codingPath + (key.map { [$0] } ?? []))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, NodeMaking {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { node.set(Node(scalar: "null"), for: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        node.set(try node(value, at: key), for: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        node.set(try node(value, at: key), for: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: Int8, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: Int16, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: Int32, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: Int64, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: UInt8, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: UInt16, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: UInt32, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) { node.set(node(value), for: key.stringValue) }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        node.set(try node(value, at: key), for: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = Node(object: [:])
        node.set(child, for: key.stringValue)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = Node(array: [])
        node.set(child, for: key.stringValue)
        return UnkeyedContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath)
        let child = Node(object: [:])
        encoder.root = child
        node.set(child, for: name)
        return encoder
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer, NodeMaking {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
    }

    mutating func encodeNil() { node.append(Node(scalar: "null")) }
    mutating func encode(_ value: Bool) { node.append(node(value)) }
    mutating func encode(_ value: String) { node.append(node(value)) }
    mutating func encode(_ value: Double) throws { node.append(try node(value, at: nil)) }
    mutating func encode(_ value: Float) throws { node.append(try node(value, at: nil)) }
    mutating func encode(_ value: Int) { node.append(node(value)) }
    mutating func encode(_ value: Int8) { node.append(node(value)) }
    mutating func encode(_ value: Int16) { node.append(node(value)) }
    mutating func encode(_ value: Int32) { node.append(node(value)) }
    mutating func encode(_ value: Int64) { node.append(node(value)) }
    mutating func encode(_ value: UInt) { node.append(node(value)) }
    mutating func encode(_ value: UInt8) { node.append(node(value)) }
    mutating func encode(_ value: UInt16) { node.append(node(value)) }
    mutating func encode(_ value: UInt32) { node.append(node(value)) }
    mutating func encode(_ value: UInt64) { node.append(node(value)) }
    mutating func encode(_ value: some Encodable) throws { node.append(try node(value, at: nil)) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = Node(object: [:])
        node.append(child)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = Node(array: [])
        node.append(child)
        return UnkeyedContainer(node: child, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath)
        let child = Node(object: [:])
        encoder.root = child
        node.append(child)
        return encoder
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer, NodeMaking {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func encodeNil() { encoder.root = Node(scalar: "null") }
    func encode(_ value: Bool) { encoder.root = node(value) }
    func encode(_ value: String) { encoder.root = node(value) }
    func encode(_ value: Double) throws { encoder.root = try node(value, at: nil) }
    func encode(_ value: Float) throws { encoder.root = try node(value, at: nil) }
    func encode(_ value: Int) { encoder.root = node(value) }
    func encode(_ value: Int8) { encoder.root = node(value) }
    func encode(_ value: Int16) { encoder.root = node(value) }
    func encode(_ value: Int32) { encoder.root = node(value) }
    func encode(_ value: Int64) { encoder.root = node(value) }
    func encode(_ value: UInt) { encoder.root = node(value) }
    func encode(_ value: UInt8) { encoder.root = node(value) }
    func encode(_ value: UInt16) { encoder.root = node(value) }
    func encode(_ value: UInt32) { encoder.root = node(value) }
    func encode(_ value: UInt64) { encoder.root = node(value) }
    func encode(_ value: some Encodable) throws { encoder.root = try node(value, at: nil) }
}
