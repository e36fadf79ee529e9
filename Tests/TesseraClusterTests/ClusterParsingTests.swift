import Foundation
import SystemPackage
import TesseraFacts
import TesseraIndex
import Testing

@testable import TesseraCluster
@testable import TesseraObjectStore

/// What a cluster reads from outside the process without a server: its addresses, a credentials
/// file, the store's listings and the records rows hold (each also a fuzz target).
struct ClusterParsingTests {
    @Test func aCredentialsFileIsReadWhateverEndsItsLines() throws {
        let text =
            "# keys\r\n[default]\r\naws_access_key_id = AKIDEFAULT\r\naws_secret_access_key=s3cr3t\r\n\r\n"
            + "[other]\naws_access_key_id = AKIDOTHER\naws_secret_access_key = other\naws_session_token = token\n"
        let file = FilePath("/etc/tessera/s3-credentials")
        let found = try ObjectStoreCredentials.read(text, profile: "default", of: file)
        #expect(found.accessKeyID == "AKIDEFAULT" && found.secretAccessKey == "s3cr3t" && found.sessionToken == nil)
        let other = try ObjectStoreCredentials.read(text, profile: "other", of: file)
        #expect(other.accessKeyID == "AKIDOTHER" && other.sessionToken == "token")
        // A profile not there, keys left empty, a line that is not key = value: each names the file.
        for (bad, profile, says) in [
            (text, "absent", "profile [absent] lacks"),
            ("[default]\naws_access_key_id =\naws_secret_access_key = x\n", "default", "lacks"),
            ("[default]\r\naws_access_key_id AKID\r\n", "default", "line 2: expected key = value"),
        ] {
            #expect {
                try ObjectStoreCredentials.read(bad, profile: profile, of: file)
            } throws: { error in
                "\(error)".contains(file.string) && "\(error)".contains(says)
            }
        }
    }

    @Test func aDatabaseAddressIsReadAsLibpqReadsIt() throws {
        let environment = ["USER": "photos", "PGPASSWORD": "from-the-environment"]
        let tcp = try DatabaseAddress(
            url: "postgres://tessera:p%40ss@db.example:6543/library", environment: environment)
        #expect(tcp.place == .tcp(host: "db.example", port: 6543) && tcp.user == "tessera")
        #expect(tcp.password == "p@ss" && tcp.database == "library")
        #expect(!tcp.description.contains("p@ss"))
        let socket = try DatabaseAddress(url: "postgresql:///library?host=/run/postgresql", environment: environment)
        #expect(socket.place == .socket(path: "/run/postgresql/.s.PGSQL.5432") && socket.user == "photos")
        #expect(socket.password == "from-the-environment")
        let encoded = try DatabaseAddress(url: "postgres://u@%2Fvar%2Frun:5433/", environment: [:])
        #expect(encoded.place == .socket(path: "/var/run/.s.PGSQL.5433") && encoded.database == "u")
        let bracketed = try DatabaseAddress(url: "postgres://u@[::1]:5432/d", environment: [:])
        #expect(bracketed.place == .tcp(host: "::1", port: 5432))
        for bad in [
            "library", "postgres://u@host:0/d", "postgres://u@host:http/d", "postgres:///d", "postgres://h/d?x",
            "postgres://u@[::1/d", "postgres://u@[::1]x/d",
            // Found by fuzzing: a bracketed host of nothing once the brackets are off; no scheme.
            "postgres://u@[vvvvv::@]/d", "://u@db.example/d",
        ] {
            #expect(throws: ClusterError.self, "\(bad)") { try DatabaseAddress(url: bad, environment: [:]) }
        }
    }

    @Test func aListingIsReadByItsTagsAndLosesThePrefix() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>a&amp;b</NextContinuationToken>
            <Contents><Key>library/square-256/ab/one.jpg</Key><Size>1234</Size>\
            <LastModified>2026-11-29T01:02:03.000Z</LastModified></Contents>
            <Contents><Key>elsewhere/two.jpg</Key><Size>5</Size></Contents>
            <Contents><Key>library/fit-1024/cd/R&amp;D &lt;3&gt;.jpg</Key><Size>7</Size>\
            <LastModified>2026-11-29T01:02:03Z</LastModified></Contents></ListBucketResult>
            """
        let page = try ListingPage(xml: Array(xml.utf8), prefix: "library/")
        #expect(page.truncated && page.nextToken == "a&b")
        #expect(page.entries.map(\.key) == ["square-256/ab/one.jpg", "fit-1024/cd/R&D <3>.jpg"])
        #expect(page.entries.map(\.size) == [1234, 7])
        #expect(page.entries.allSatisfy { $0.lastModified == Date(timeIntervalSince1970: 1_795_914_123) })
        #expect(throws: ObjectStoreError.self) { try ListingPage(xml: Array("<Error/>".utf8), prefix: "") }
    }

    @Test func aRecordThatNamesARenditionOutsideThePrefixIsReadAsAFailedFile() throws {
        // A row's record as JSON, as something other than a worker may have written it.
        func json<Value: Encodable>(_ value: Value) throws -> Any {
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(value), options: .fragmentsAllowed)
        }
        let facts = try json(
            PhotoFacts(format: .jpeg, width: 640, height: 480, orientation: 1, bitDepth: 8, coding: "baseline"))
        let spec = try json(RenditionSpec(.square, 256))
        func read(_ objects: [String]) throws -> FileUpdate.Content {
            let record: [String: Any] = [
                "status": "ok", "device": 1, "inode": 2, "size": 3, "mtimeNanoseconds": 4, "warnings": [String](),
                "facts": facts,
                "renditions": [
                    "contentHash": "0123456789abcdef", "key": "0123456789abcdef", "settings": "q85",
                    "entries": objects.map {
                        ["spec": spec, "width": 256, "height": 256, "bytes": 100, "object": $0, "source": "decoded"]
                    },
                ],
            ]
            return try FileRecord.read(Array(JSONSerialization.data(withJSONObject: record)))
                .content(cacheRoot: FilePath("/cache"))
        }
        guard case .photo(_, _, let made) = try read(["square-256/01/0123456789abcdef.jpg"]) else {
            Issue.record("a plain key is a photo's rendition")
            return
        }
        #expect(made.renditions.map(\.path) == ["/cache/square-256/01/0123456789abcdef.jpg"])
        for outside in ["../../etc/cron.d/job", "/etc/passwd", "square-256//x.jpg", "a/./b.jpg", "a/b\n.jpg", ""] {
            guard case .failed(let format, let error, _) = try read(["square-256/01/ok.jpg", outside]) else {
                Issue.record("\(outside.debugDescription) was read as a rendition")
                continue
            }
            #expect(format == .jpeg && error.message.contains("outside the store's prefix"))
        }
    }
}
