import Foundation

/// Where the PostgreSQL index is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, as libpq
/// reads it; a Unix socket by its directory, `?host=/run/postgresql` (or the host percent-encoded).
///
/// The password may come from `PGPASSWORD` instead of the address; it is never shown. (Fuzzed
/// as `database-url`.)
package struct DatabaseAddress: Sendable, CustomStringConvertible {
    package enum Place: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case socket(path: String)
    }

    package var place: Place
    var user: String
    var password: String?
    var database: String

    package init(url: String, environment: [String: String]) throws(ClusterError) {
        func fail(_ why: String) -> ClusterError { ClusterError(.badAddress, "index_url: \(why)") }
        guard let schemeEnd = url.range(of: "://"), ["postgres", "postgresql"].contains(url[..<schemeEnd.lowerBound])
        else { throw fail("not a postgres:// address") }
        var rest = Substring(url[schemeEnd.upperBound...])
        var query: [String: String] = [:]
        if let mark = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: mark)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { throw fail("\"\(pair)\" is not NAME=VALUE") }
                query[String(parts[0])] = String(parts[1]).removingPercentEncoding ?? String(parts[1])
            }
            rest = rest[..<mark]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        let name = rest[slash...].dropFirst()
        var hostPort = authority
        var user = environment["PGUSER"] ?? environment["USER"] ?? "postgres"
        var password = environment["PGPASSWORD"]
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            user = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            if parts.count == 2 { password = String(parts[1]).removingPercentEncoding ?? String(parts[1]) }
        }
        var host = String(hostPort)
        var port = 5432
        // An IPv6 address is bracketed, its port after the bracket: `[::1]:5432`.
        let bracket = host.hasPrefix("[") ? host.firstIndex(of: "]") : nil
        if host.hasPrefix("[") && bracket == nil { throw fail("\"\(host)\" lacks its closing bracket") }
        let portPart = bracket.map { host[host.index(after: $0)...] } ?? host[...]
        if let colon = portPart.lastIndex(of: ":") {
            let digits = portPart[portPart.index(after: colon)...]
            guard let number = Int(digits), (1...65535).contains(number) else {
                throw fail("\"\(digits)\" is not a port")
            }
            port = number
            host = String(host[..<colon])
        } else if bracket != nil && !portPart.isEmpty {
            throw fail("\"\(portPart)\" follows the host")
        }
        if let number = query["port"] {
            guard let value = Int(number), (1...65535).contains(value) else { throw fail("bad port \(number)") }
            port = value
        }
        host = query["host"] ?? host.removingPercentEncoding ?? host
        self.user = query["user"] ?? user
        self.password = password
        database = String(name).removingPercentEncoding ?? String(name)
        if database.isEmpty { database = self.user }
        if host.hasPrefix("/") {
            place = .socket(path: host + "/.s.PGSQL.\(port)")
        } else {
            // Found by fuzzing: `[@]` was a host until its brackets were taken off.
            host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            guard !host.isEmpty else { throw fail("names no host (give one, or ?host=/socket/directory)") }
            place = .tcp(host: host, port: port)
        }
    }

    package var description: String {
        switch place {
        case .tcp(let host, let port): "postgres://\(user)@\(host):\(port)/\(database)"
        case .socket(let path): "postgres://\(user)@/\(database) (socket \(path))"
        }
    }
}
