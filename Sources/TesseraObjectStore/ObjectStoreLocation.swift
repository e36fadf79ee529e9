import Foundation
public import SystemPackage
import TesseraSystem

/// Where renditions are kept in an S3-compatible store: `s3://BUCKET/PREFIX` from the
/// configuration, the endpoint and region from the usual variables.
public struct ObjectStoreLocation: Sendable, Equatable {
    public var bucket: String
    /// Prepended to every key: empty, or ends in `/`.
    public var prefix: String
    /// `scheme://host[:port]`, without a path.
    public var endpoint: String
    public var region: String
    /// Path-style requests (`endpoint/BUCKET/KEY`), as custom endpoints need; AWS's own
    /// endpoint takes the bucket in the host name.
    public var pathStyle: Bool

    /// Reads `url` (`s3://BUCKET/PREFIX`) with `AWS_ENDPOINT_URL` (else AWS's endpoint for the
    /// region) and `AWS_REGION` (else `AWS_DEFAULT_REGION`, else `us-east-1`) from `environment`.
    public init(url: String, environment: [String: String]) throws(ObjectStoreError) {
        guard url.hasPrefix("s3://") else {
            throw ObjectStoreError(.badLocation, "\(url) is not an s3://BUCKET/PREFIX address")
        }
        let rest = url.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        guard Self.isBucketName(bucket) else {
            throw ObjectStoreError(.badLocation, "\(url): \"\(bucket)\" is not a bucket name")
        }
        var prefix = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
        if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
        self.bucket = bucket
        self.prefix = prefix
        region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1"
        if let custom = environment["AWS_ENDPOINT_URL_S3"] ?? environment["AWS_ENDPOINT_URL"], !custom.isEmpty {
            guard let parsed = URL(string: custom), let scheme = parsed.scheme, scheme == "http" || scheme == "https",
                let host = parsed.host, !host.isEmpty
            else {
                throw ObjectStoreError(.badLocation, "AWS_ENDPOINT_URL \"\(custom)\" is not an http(s) address")
            }
            endpoint = "\(scheme)://\(host)" + (parsed.port.map { ":\($0)" } ?? "")
            pathStyle = true
        } else {
            endpoint = "https://s3.\(region).amazonaws.com"
            pathStyle = false
        }
    }

    /// The bucket's own address (for listings) and its `host` header and path.
    func bucketAddress() -> (url: String, host: String, path: String) {
        let scheme = endpoint.prefix { $0 != ":" }
        let authority = String(endpoint.dropFirst(scheme.count + 3))
        if pathStyle { return (endpoint + "/\(bucket)", authority, "/\(bucket)") }
        return ("\(scheme)://\(bucket).\(authority)/", "\(bucket).\(authority)", "/")
    }

    public var description: String { "s3://\(bucket)/\(prefix) at \(endpoint)" }

    /// S3's rule: 3 to 63 lower-case letters, digits, dots and hyphens.
    static func isBucketName(_ name: String) -> Bool {
        (3...63).contains(name.count)
            && name.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".")
            }
    }
}

/// The keys that sign requests.
///
/// Their description never shows the secret.
public struct ObjectStoreCredentials: Sendable, CustomStringConvertible {
    public var accessKeyID: String
    package var secretAccessKey: String
    var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String { "access key \(accessKeyID)" }

    /// From `file` when the configuration names one (AWS's credentials format: an INI file whose
    /// section `AWS_PROFILE`, else `default`, holds `aws_access_key_id` and
    /// `aws_secret_access_key`), else from `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`.
    public static func load(
        file: FilePath?, environment: [String: String]
    ) throws(ObjectStoreError) -> ObjectStoreCredentials {
        guard let file else {
            guard let id = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"],
                !id.isEmpty, !secret.isEmpty
            else {
                throw ObjectStoreError(
                    .noCredentials,
                    "no credentials for the object store: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                        + "or name a credentials file (renditions_credentials)")
            }
            return ObjectStoreCredentials(
                accessKeyID: id, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
        }
        guard let bytes = FileSystem.smallFileContents(file, limit: 1 << 20) else {
            throw ObjectStoreError(.noCredentials, "cannot read the credentials file \(file)")
        }
        return try read(
            String(decoding: bytes, as: UTF8.self), profile: environment["AWS_PROFILE"] ?? "default", of: file)
    }

    /// The credentials of section `profile` of `text`, a credentials file's (fuzzed as
    /// `s3-credentials`).
    package static func read(
        _ text: String, profile: String, of file: FilePath
    ) throws(ObjectStoreError) -> ObjectStoreCredentials {
        var section = ""
        var values: [String: String] = [:]
        // Lines end as any editor ends them: a "\r\n" is one Character, which "\n" does not split.
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw ObjectStoreError(
                    .noCredentials, "\(file), line \(number + 1): expected key = value")
            }
            if section == profile {
                values[line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()] =
                    line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }
        }
        guard let id = values["aws_access_key_id"], let secret = values["aws_secret_access_key"], !id.isEmpty,
            !secret.isEmpty
        else {
            throw ObjectStoreError(
                .noCredentials,
                "\(file): profile [\(profile)] lacks aws_access_key_id or aws_secret_access_key")
        }
        return ObjectStoreCredentials(
            accessKeyID: id, secretAccessKey: secret, sessionToken: values["aws_session_token"])
    }
}
