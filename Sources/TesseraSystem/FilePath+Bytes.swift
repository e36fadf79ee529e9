import Glibc
public import SystemPackage

extension FilePath {
    /// The path's exact bytes: on Linux a name is any bytes but `/` and NUL, valid UTF-8 or not.
    public var rawBytes: [UInt8] {
        withPlatformString { pointer in
            Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
        }
    }

    /// The path made of exactly `bytes` (which must not contain NUL).
    public init(rawBytes bytes: some Collection<UInt8>) {
        let count = bytes.count
        let terminated = [CChar](unsafeUninitializedCapacity: count + 1) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.copyBytes(from: bytes)
            raw[count] = 0
            initialized = count + 1
        }
        self = terminated.withUnsafeBufferPointer { buffer in
            // invariant: a non-empty array's buffer has a base address.
            FilePath(platformString: buffer.baseAddress.unsafelyUnwrapped)
        }
    }
}

/// A file name's exact bytes as a dictionary key, hashed in one pass.
public struct NameKey: Hashable, Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
