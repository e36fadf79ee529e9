import PostgresNIO
import Synchronization

/// One attempt of `ClusterIndex.perform`: `body` on a connection of the pool, given up when no
/// connection comes within `connectionWait`, or (with `answerWithin`) no answer within that.
///
/// The pool keeps a request waiting while it cannot connect (a minute, before its circuit
/// breaker fails them all), and a command would say nothing meanwhile; and a server restarted
/// at the wrong moment has left a request waiting for good. An attempt given up fails at once,
/// without waiting for its request to notice: that is cancelled, and left to end as it will.
enum DatabaseAttempt {
    /// How long an attempt waits for a connection.
    static let connectionWait = Duration.seconds(10)

    struct GivenUp: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    static func run<T: Sendable>(
        on client: PostgresClient, answerWithin: Duration?,
        _ body: @Sendable @escaping (PostgresConnection) async throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.arm(continuation)
                let request = Task {
                    do {
                        let value = try await client.withConnection { connection in
                            outcome.leased()
                            return try await body(connection)
                        }
                        outcome.end(.success(value))
                    } catch {
                        outcome.end(.failure(error))
                    }
                }
                let deadline = Task {
                    do {
                        try await Task.sleep(for: connectionWait)
                        guard outcome.isLeased else {
                            return outcome.end(
                                .failure(GivenUp("no connection to the server within \(connectionWait)")))
                        }
                        guard let answerWithin else { return }
                        try await Task.sleep(for: answerWithin)
                        outcome.end(.failure(GivenUp("no answer from the server within \(answerWithin)")))
                    } catch {
                        // Cancelled: the attempt ended first.
                    }
                }
                outcome.hold([request, deadline])
            }
        } onCancel: {
            outcome.end(.failure(CancellationError()))
        }
    }

    /// The first of the request's end, its deadline and the caller's cancellation: it resumes
    /// the caller and cancels the others.
    private final class Outcome<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var ended: Result<T, any Error>?
            var leased = false
            var tasks: [Task<Void, Never>] = []
        }
        private let state = Mutex(State())

        var isLeased: Bool { state.withLock { $0.leased } }

        func leased() { state.withLock { $0.leased = true } }

        /// Takes the caller's continuation: resumed at once when the attempt has ended already.
        func arm(_ continuation: CheckedContinuation<T, any Error>) {
            let ended = state.withLock { state in
                if state.ended == nil { state.continuation = continuation }
                return state.ended
            }
            if let ended { continuation.resume(with: ended) }
        }

        /// Keeps the attempt's tasks, to cancel when it ends (at once, when it has ended).
        func hold(_ running: [Task<Void, Never>]) {
            let over = state.withLock { state in
                state.tasks = running
                return state.ended != nil
            }
            if over { for task in running { task.cancel() } }
        }

        func end(_ result: Result<T, any Error>) {
            let taken = state.withLock { state -> (CheckedContinuation<T, any Error>?, [Task<Void, Never>])? in
                guard state.ended == nil else { return nil }
                state.ended = result
                defer { (state.continuation, state.tasks) = (nil, []) }
                return (state.continuation, state.tasks)
            }
            guard let (continuation, tasks) = taken else { return }
            for task in tasks { task.cancel() }
            continuation?.resume(with: result)
        }
    }
}
