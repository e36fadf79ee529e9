import Crypto
import Foundation

/// AWS Signature Version 4 for S3 requests (the header form): what every S3-compatible store
/// checks, so a request signed here is accepted by AWS, MinIO, SeaweedFS, Ceph or Garage alike.
///
/// The payload is signed by its SHA-256, which a streamed upload reads before it sends.
struct SignatureV4: Sendable {
    let credentials: ObjectStoreCredentials
    let region: String
    let service = "s3"

    /// The headers to send: `headers` but `host` (which the HTTP client sends), `x-amz-date`,
    /// `x-amz-content-sha256` and `authorization` (and the session token, with temporary
    /// credentials).
    ///
    /// - Parameters:
    ///   - path: the request's path, already percent-encoded as it is sent.
    ///   - query: the query's items, not encoded.
    ///   - headers: the other headers to sign (`host` among them), by lower-case name.
    func sign(
        method: String, path: String, query: [(String, String)], headers: [String: String], payloadHash: String,
        at date: Date
    ) -> [(String, String)] {
        let stamp = Self.timestamp(date)
        let day = String(stamp.prefix(8))
        var signed = headers
        signed["x-amz-date"] = stamp
        signed["x-amz-content-sha256"] = payloadHash
        if let token = credentials.sessionToken { signed["x-amz-security-token"] = token }
        let names = signed.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(signed[$0, default: ""].trimmingCharacters(in: .whitespaces))\n" }
            .joined()
        let encoded: [(name: String, value: String)] = query.map { (Self.encode($0.0), Self.encode($0.1)) }
        let ordered = encoded.sorted { left, right in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        let canonicalQuery = ordered.map { $0.name + "=" + $0.value }.joined(separator: "&")
        let signedNames = names.joined(separator: ";")
        let request = [method, path, canonicalQuery, canonicalHeaders, signedNames, payloadHash]
            .joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let toSign = [
            "AWS4-HMAC-SHA256", stamp, scope, Self.hex(SHA256.hash(data: Array(request.utf8))),
        ].joined(separator: "\n")
        var key = SymmetricKey(data: Array("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Array(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Array(toSign.utf8), using: key))
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), "
            + "SignedHeaders=\(signedNames), Signature=\(signature)"
        return names.filter { $0 != "host" }.map { ($0, signed[$0, default: ""]) } + [
            ("authorization", authorization)
        ]
    }

    /// `YYYYMMDDTHHMMSSZ`, in UTC.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let text = String(value ?? 0)
            return text.count < 2 ? "0" + text : text
        }
        return String(parts.year ?? 1970) + two(parts.month) + two(parts.day) + "T" + two(parts.hour)
            + two(parts.minute) + two(parts.second) + "Z"
    }

    /// Percent-encodes all but the unreserved characters (RFC 3986), `/` too unless `path`.
    static func encode(_ text: String, path: Bool = false) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where path:
                out += "/"
            default:
                out +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true)
                    + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }

    static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var out = ""
        for byte in bytes {
            out += String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }
        return out
    }
}
