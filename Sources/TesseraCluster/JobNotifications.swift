import PostgresNIO
import Synchronization

/// Wake-ups for idle workers: a scan that queues files says so on the `tessera_jobs` channel
/// (NOTIFY), and a worker listening waits no longer for its next poll. A hint only: a
/// notification lost (a listener reconnecting, a server restarted) costs at most one poll.
extension ClusterIndex {
    static let jobsChannel = "tessera_jobs"

    /// Says that jobs were queued.
    func notifyJobs() async throws(ClusterError) {
        try await perform("notify the workers") { [logger] connection in
            try await connection.query("SELECT pg_notify(\(Self.jobsChannel), '')", logger: logger)
        }
    }

    /// Listens on one connection of its own, calling `wake` for each notification and each time
    /// it starts listening again (what was queued meanwhile is looked for), until cancelled.
    func listenForJobs(_ wake: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        Task { [client] in
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.jobsChannel) { notifications in
                            wake()
                            for try await _ in notifications { wake() }
                        }
                    }
                } catch {
                    // The server is away or the connection went: listen again shortly.
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}

/// Where an idle worker waits: until woken (or woken since it last waited), or a timeout.
final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when signalled or after `timeout`, whichever comes first.
    ///
    /// One waiter at a time.
    func wait(upTo timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.next() }
            await group.next()
            group.cancelAll()
        }
    }

    private func next() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Cancelled before the continuation is kept: the handler below found none to resume.
                let now = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
    }
}
