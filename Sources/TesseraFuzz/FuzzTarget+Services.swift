import Foundation
import SystemPackage
import TesseraCluster
import TesseraConfiguration
import TesseraDaemon
import TesseraIndex
import TesseraObjectStore

/// The parsers of what the services read from outside: the configuration file, the control
/// socket, and what a cluster reads from its store and its database.
extension FuzzTarget {
    static let serviceTargets: [FuzzTarget] = [
        FuzzTarget(
            name: "configuration", summary: "the YAML configuration file",
            dictionary: [
                "roots:", "workers:", "memory_limit:", "thumbnails:", "fit:", "square:", "exclude:", "\n  - ",
            ],
            seedExtensions: ["yaml", "yml"],
            run: { bytes, _ in
                guard let text = String(validating: bytes, as: UTF8.self) else { return }
                var configuration = Configuration(environment: ["HOME": "/home/fuzz"])
                try? configuration.apply(yaml: text, file: FilePath("/etc/tessera.yaml"), home: "/home/fuzz")
            }),
        FuzzTarget(
            name: "control-request",
            summary: "the control socket's request lines, read in chunks as a client sends them",
            dictionary: ["{\"command\":", "\"status\"", "\"rescan\"", "\"roots\":", "\"full\":", "\"wait\":", "true"],
            seedExtensions: ["txt"], run: controlRequest),
        FuzzTarget(
            name: "s3-listing", summary: "an object store's ListObjectsV2 answer (the cluster's prune)",
            dictionary: [
                "<ListBucketResult>", "<Contents>", "</Contents>", "<Key>", "</Key>", "<Size>", "</Size>",
                "<LastModified>", "</LastModified>", "<IsTruncated>true</IsTruncated>", "&amp;", "&lt;",
            ],
            seedExtensions: ["xml"],
            run: { bytes, check in
                guard let page = try? ListingPage(xml: bytes, prefix: "library/") else { return }
                // Each entry is a `<Contents>` element of its own.
                check(page.entries.count * 10 <= bytes.count, "\(page.entries.count) objects in \(bytes.count) bytes")
            }),
        FuzzTarget(
            name: "s3-credentials", summary: "an S3 credentials file (renditions_credentials)",
            dictionary: ["[default]", "aws_access_key_id", "aws_secret_access_key", "aws_session_token", " = "],
            seedExtensions: ["ini"],
            run: { bytes, check in
                let text = String(decoding: bytes, as: UTF8.self)
                guard let found = try? ObjectStoreCredentials.read(text, profile: "default", of: path) else { return }
                check(
                    !found.accessKeyID.isEmpty && !found.secretAccessKey.isEmpty
                        && !(found.accessKeyID + found.secretAccessKey).contains(where: \.isNewline),
                    "credentials read as \(found.accessKeyID.debugDescription)")
            }),
        FuzzTarget(
            name: "database-url", summary: "a PostgreSQL address (index_url)",
            dictionary: ["postgres://", "postgresql://", "@", ":5432", "?host=/", "&port=", "%2F", "[::1]"],
            seedExtensions: ["url"],
            run: { bytes, check in
                guard let text = String(validating: bytes, as: UTF8.self),
                    let address = try? DatabaseAddress(url: text, environment: ["USER": "fuzz"])
                else { return }
                switch address.place {
                case .tcp(let host, let port): check(!host.isEmpty && (1...65535).contains(port), "\(host):\(port)")
                case .socket(let socket): check(socket.hasPrefix("/"), "socket \(socket)")
                }
            }),
        FuzzTarget(
            name: "file-record",
            summary: "a cluster row's record of a file, as the commands that read the cluster's index read it",
            dictionary: [
                "\"status\":\"ok\"", "\"facts\":", "\"renditions\":", "\"entries\":", "\"object\":", "../",
                "\"failure\":", "\"format\":\"jpeg\"", "\"spec\":", "\"thumbhash\":", "\"detailHash\":",
            ],
            seedExtensions: ["json"],
            run: { bytes, check in
                guard let record = try? FileRecord.read(bytes) else { return }
                guard case .photo(_, _, let made) = record.content(cacheRoot: FilePath("/cache")) else { return }
                for rendition in made.renditions {
                    check(
                        rendition.path.hasPrefix("/cache/") && !rendition.path.split(separator: "/").contains(".."),
                        "a rendition at \(rendition.path)")
                }
            }),
    ]

    /// The client's bytes in the chunks the first byte says, as the socket may deliver them.
    private static func controlRequest(_ bytes: [UInt8], _ check: Check) {
        let stride = Int(bytes.first ?? 1) % 64 + 1
        var reader = ControlRequestLine()
        for start in Swift.stride(from: 1, to: bytes.count, by: stride) {
            switch reader.append(bytes[start..<min(start + stride, bytes.count)]) {
            case .incomplete, .tooLong: continue
            case .line(let line):
                check(
                    line.count <= ControlRequest.maximumLength && !line.contains(UInt8(ascii: "\n")),
                    "a request line of \(line.count) bytes")
                _ = try? ControlRequest.parse(line).requestedRoots()
            }
        }
    }
}
