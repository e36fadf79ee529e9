import AsyncHTTPClient
import Crypto
import Foundation
public import Logging
import NIOCore
import NIOHTTP1
public import SystemPackage
import TesseraSystem

/// An S3-compatible bucket (under a prefix) that renditions are written to: signed requests,
/// tried again with backoff while the store is away, never given up early.
///
/// Keys are relative to the location's prefix. Every call is safe to repeat: a write of a key
/// that exists is skipped by a conditional write where the store supports one (keys are derived
/// from content, so the bytes are the same), and a delete of a missing key succeeds.
public final class ObjectStore: Sendable {
    /// How long a request waits for an answer, and for how long failures are tried again.
    public struct Patience: Sendable {
        public var requestTimeout: Duration
        /// Past this, a request that keeps failing (no answer, 5xx, 429) throws `unavailable`.
        public var retryFor: Duration
        public var firstBackoff: Duration
        public var longestBackoff: Duration

        public init(
            requestTimeout: Duration = .seconds(30), retryFor: Duration = .seconds(600),
            firstBackoff: Duration = .milliseconds(100), longestBackoff: Duration = .seconds(5)
        ) {
            self.requestTimeout = requestTimeout
            self.retryFor = retryFor
            self.firstBackoff = firstBackoff
            self.longestBackoff = longestBackoff
        }
    }

    public let location: ObjectStoreLocation
    private let signer: SignatureV4
    private let patience: Patience
    private let logger: Logger
    private let client: HTTPClient

    public init(
        location: ObjectStoreLocation, credentials: ObjectStoreCredentials, patience: Patience = Patience(),
        logger: Logger
    ) {
        self.location = location
        signer = SignatureV4(credentials: credentials, region: location.region)
        self.patience = patience
        self.logger = logger
        client = HTTPClient.shared
    }

    /// Writes the file at `path` at `key`, unless an object is already there, streamed: its
    /// SHA-256 is read first (the signature covers the payload), then each attempt sends it a
    /// chunk at a time.
    public func put(_ key: String, file path: FilePath, contentType: String) async throws(ObjectStoreError) {
        let file: RegularFile
        do {
            file = try RegularFile(opening: path)
        } catch {
            throw ObjectStoreError(.unreadable, "cannot read \(path): \(error)")
        }
        let digest = await DedicatedThread.run("hash \(key)") { Self.sha256(of: file) }
        let answer = try await send(
            "PUT", key: key, headers: ["content-type": contentType, "if-none-match": "*"],
            payload: .file(file, sha256: try digest.get()))
        // 412: the key exists (the conditional write declined). 200: written.
        guard answer.status == 200 || answer.status == 412 else {
            throw refused("PUT", key, answer)
        }
    }

    /// The bytes at `key`; nil when there is no such object.
    public func get(_ key: String, limit: Int = 256 << 20) async throws(ObjectStoreError) -> [UInt8]? {
        let answer = try await send("GET", key: key, limit: limit)
        if answer.status == 404 { return nil }
        guard answer.status == 200 else { throw refused("GET", key, answer) }
        return answer.body
    }

    /// Whether an object is at `key`.
    public func exists(_ key: String) async throws(ObjectStoreError) -> Bool {
        let answer = try await send("HEAD", key: key)
        if answer.status == 404 { return false }
        guard answer.status == 200 else { throw refused("HEAD", key, answer) }
        return true
    }

    /// Removes the object at `key` (nothing when there is none).
    public func delete(_ key: String) async throws(ObjectStoreError) {
        let answer = try await send("DELETE", key: key)
        guard answer.status == 204 || answer.status == 200 || answer.status == 404 else {
            throw refused("DELETE", key, answer)
        }
    }

    /// Calls `visit` with the objects under `prefix` (relative to the location's), a page at a
    /// time, in key order, while it returns true.
    public func list(
        under prefix: String = "", _ visit: ([StoredObject]) async throws(ObjectStoreError) -> Bool
    ) async throws(ObjectStoreError) {
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", location.prefix + prefix), ("max-keys", "1000")]
            if let token { query.append(("continuation-token", token)) }
            let answer = try await send("GET", key: nil, query: query, limit: 16 << 20)
            guard answer.status == 200 else { throw refused("LIST", prefix, answer) }
            let page = try ListingPage(xml: answer.body, prefix: location.prefix)
            guard try await visit(page.entries) else { return }
            token = page.truncated ? page.nextToken : nil
        } while token != nil
    }

    private struct Answer {
        var status: Int
        var body: [UInt8]
    }

    /// What a request sends.
    private enum Payload {
        case empty
        /// An open file, whose SHA-256 is `sha256` (hexadecimal).
        case file(RegularFile, sha256: String)

        static let emptySHA256 = SignatureV4.hex(SHA256.hash(data: [UInt8]()))

        var sha256: String {
            switch self {
            case .empty: Self.emptySHA256
            case .file(_, let sha256): sha256
            }
        }
    }

    /// The SHA-256 of `file` (hexadecimal), read a chunk at a time.
    private static func sha256(of file: RegularFile) -> Result<String, ObjectStoreError> {
        var hasher = SHA256()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: FileChunks.chunkSize, alignment: 1)
        defer { chunk.deallocate() }
        var offset: Int64 = 0
        while offset < file.status.size {
            let got: Int
            do throws(SystemError) {
                got = try file.read(at: offset, into: chunk)
            } catch {
                return .failure(ObjectStoreError(.unreadable, "cannot read \(file.path): \(error)"))
            }
            guard got > 0 else { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: chunk[..<got]))
            offset += Int64(got)
        }
        guard offset == file.status.size else {
            return .failure(ObjectStoreError(.unreadable, "\(file.path) was cut short while it was read"))
        }
        return .success(SignatureV4.hex(hasher.finalize()))
    }

    private func refused(_ method: String, _ key: String, _ answer: Answer) -> ObjectStoreError {
        let message = ListingPage.text(of: "Message", in: answer.body) ?? ListingPage.text(of: "Code", in: answer.body)
        return ObjectStoreError(
            .refused,
            "\(method) \(location.description)\(key): \(answer.status)" + (message.map { " (\($0))" } ?? ""))
    }

    /// Sends one request, again and again with backoff while it cannot be answered (no
    /// connection, a timeout, 5xx, 429), until `patience.retryFor` has passed.
    private func send(
        _ method: String, key: String?, query: [(String, String)] = [], headers: [String: String] = [:],
        payload: Payload = .empty, limit: Int = 1 << 20
    ) async throws(ObjectStoreError) -> Answer {
        let started = ContinuousClock.now
        var backoff = patience.firstBackoff
        var attempt = 0
        while true {
            attempt += 1
            let problem: String
            do {
                let answer = try await attemptOnce(
                    method, key: key, query: query, headers: headers, payload: payload, limit: limit)
                if answer.status < 500 && answer.status != 429 && answer.status != 408 { return answer }
                problem = "answered \(answer.status)"
            } catch let error as ObjectStoreError where error.code == .unreadable {
                throw error
            } catch {
                problem = "\(error)"
            }
            let waited = ContinuousClock.now - started
            guard waited + backoff < patience.retryFor else {
                throw ObjectStoreError(
                    .unavailable,
                    "\(method) \(location.description)\(key ?? ""): \(problem), after \(attempt) attempts")
            }
            if attempt == 1 || attempt % 10 == 0 {
                logger.warning("object store: \(method) \(key ?? "(listing)"): \(problem); trying again")
            }
            // Full jitter: many workers coming back at once do not strike together.
            let (whole, fraction) = backoff.components
            let seconds = Double(whole) + Double(fraction) / 1e18
            try? await Task.sleep(for: .seconds(Double.random(in: seconds / 2...seconds)))
            backoff = min(backoff * 2, patience.longestBackoff)
        }
    }

    private func attemptOnce(
        _ method: String, key: String?, query: [(String, String)], headers: [String: String], payload: Payload,
        limit: Int
    ) async throws -> Answer {
        var (url, host, path) = key.map { location.address(of: location.prefix + $0) } ?? location.bucketAddress()
        if !query.isEmpty {
            url +=
                "?"
                + query.map { "\(SignatureV4.encode($0.0))=\(SignatureV4.encode($0.1))" }.joined(separator: "&")
        }
        var signed = headers
        signed["host"] = host
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in signer.sign(
            method: method, path: path, query: query, headers: signed, payloadHash: payload.sha256, at: Date())
        {
            request.headers.add(name: name, value: value)
        }
        switch payload {
        case .empty: break
        case .file(let file, _):
            request.body = .stream(FileChunks(file: file, size: file.status.size), length: .known(file.status.size))
        }
        let (seconds, attoseconds) = patience.requestTimeout.components
        let timeout = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let response = try await client.execute(request, timeout: timeout)
        let body = method == "HEAD" ? ByteBuffer() : try await response.body.collect(upTo: limit)
        return Answer(status: Int(response.status.code), body: Array(body.readableBytesView))
    }
}

extension ObjectStoreLocation {
    /// The address of `key` and the `host` header to sign with it.
    func address(of key: String) -> (url: String, host: String, path: String) {
        let encoded = SignatureV4.encode(key, path: true)
        let scheme = endpoint.prefix { $0 != ":" }
        let authority = String(endpoint.dropFirst(scheme.count + 3))
        if pathStyle {
            let path = "/\(bucket)/\(encoded)"
            return (endpoint + path, authority, path)
        }
        let host = "\(bucket).\(authority)"
        return ("\(scheme)://\(host)/\(encoded)", host, "/\(encoded)")
    }
}
