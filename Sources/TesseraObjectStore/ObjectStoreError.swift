/// Why the object store could not do what was asked.
public struct ObjectStoreError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable {
        let name: String
        /// The configuration's `renditions_url` or the endpoint is not usable.
        public static let badLocation = Code(name: "bad location")
        /// No access key to sign with.
        public static let noCredentials = Code(name: "no credentials")
        /// The store refused the request (a 4xx other than a missing object): not tried again.
        public static let refused = Code(name: "refused")
        /// The store did not answer, or answered 5xx, until the retry deadline passed.
        public static let unavailable = Code(name: "unavailable")
        /// The store's answer could not be read.
        public static let badAnswer = Code(name: "bad answer")
        /// The file to store could not be read on this machine.
        public static let unreadable = Code(name: "unreadable")
    }

    public let code: Code
    public let description: String

    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
