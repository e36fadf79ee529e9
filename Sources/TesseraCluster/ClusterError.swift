/// Why the cluster's index, queue or workers could not do what was asked.
public struct ClusterError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable {
        let name: String
        /// `index_url` cannot be read.
        public static let badAddress = Code(name: "bad address")
        /// The database refused or could not be reached in time.
        public static let database = Code(name: "database")
        /// The object store refused or could not be reached in time.
        public static let store = Code(name: "store")
        /// The database holds a schema newer than this build's.
        public static let newerSchema = Code(name: "newer schema")
        /// The configuration lacks what the deployment needs.
        public static let configuration = Code(name: "configuration")
        /// A file could not be written or read on this machine.
        public static let local = Code(name: "local")
    }

    public let code: Code
    public let description: String

    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
