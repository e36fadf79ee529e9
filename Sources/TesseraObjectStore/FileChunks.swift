import NIOCore
import SystemPackage
import TesseraSystem

/// An open file's bytes a chunk at a time, for a streamed upload: each chunk read on a thread
/// of its own (the event loop never waits on a disk), so an upload holds one chunk in memory
/// whatever the file's size.
///
/// The iterator fails if the file holds fewer than `size` bytes (cut short since it was
/// hashed): the store would otherwise keep a body that is not the one signed.
struct FileChunks: AsyncSequence, Sendable {
    /// Bytes read at a time.
    static let chunkSize = 256 << 10

    let file: RegularFile
    let size: Int64

    struct AsyncIterator: AsyncIteratorProtocol {
        let file: RegularFile
        let size: Int64
        var offset: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            guard offset < size else { return nil }
            let (file, offset, count) = (file, offset, Int(Swift.min(Int64(FileChunks.chunkSize), size - offset)))
            let read = await DedicatedThread.run("upload") { () -> Result<[UInt8], SystemError> in
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
                defer { buffer.deallocate() }
                do throws(SystemError) {
                    return .success(Array(buffer.prefix(try file.read(at: offset, into: buffer))))
                } catch {
                    return .failure(error)
                }
            }
            let bytes: [UInt8]
            switch read {
            case .success(let read): bytes = read
            case .failure(let error): throw ObjectStoreError(.unreadable, "cannot read \(file.path): \(error)")
            }
            guard bytes.count == count else {
                throw ObjectStoreError(.unreadable, "\(file.path) was cut short while it was sent")
            }
            self.offset += Int64(count)
            return ByteBuffer(bytes: bytes)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(file: file, size: size) }
}
