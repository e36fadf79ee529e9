import Foundation
import TesseraScan
import TesseraSystem

/// One client of the control socket, as the server's poll loop sees it.
///
/// A client has `requestTimeout` from the moment it connects to send its whole
/// request line, however it dribbles the bytes in; answers that it does not
/// read within `writeTimeout` get it dropped. Nothing a client does can block
/// the loop that serves the others.
final class ControlConnection {
    static let requestTimeout: Duration = .seconds(5)
    static let writeTimeout: Duration = .seconds(5)

    enum Phase {
        /// Waiting for the request line.
        case reading
        /// A `rescan --wait` client, waiting for scan `ticket` to end.
        case waiting(ticket: Int)
        /// Sending the last answer, then closing.
        case closing
    }

    let socket: UnixSocket
    let connected = ContinuousClock.now
    var phase = Phase.reading
    private var input = ControlRequestLine()
    private(set) var output: [UInt8] = []
    private var outputSince: ContinuousClock.Instant?
    var lastProgress: ContinuousClock.Instant?
    /// Set once the server has given up on this client; it is closed at the end of the round.
    var dropped = false

    init(socket: UnixSocket) {
        self.socket = socket
    }

    var isReading: Bool {
        if case .reading = phase { return true }
        return false
    }

    var hasOutput: Bool { !output.isEmpty }

    /// Whether the connection is done: its answer is sent and it can be closed.
    var isFinished: Bool {
        if case .closing = phase { return output.isEmpty }
        return false
    }

    /// What a read brought.
    enum Received {
        case nothing
        case request([UInt8])
        /// More than `ControlRequest.maximumLength` bytes without a newline: refused unread.
        case tooLong
    }

    /// Reads what the client sent.
    ///
    /// - Throws: `ControlError` when the client went away.
    func receive() throws(ControlError) -> Received {
        let chunk: [UInt8]?
        do throws(SystemError) {
            chunk = try socket.receive(maximum: ControlRequest.maximumLength + 1)
        } catch {
            throw ControlError(.client, "receive failed: \(error)")
        }
        guard let chunk else { return .nothing }
        guard !chunk.isEmpty else { throw ControlError(.client, "the client went away") }
        guard isReading else { return .nothing }  // anything after the request is ignored
        switch input.append(chunk) {
        case .incomplete: return .nothing
        case .line(let line): return .request(line)
        case .tooLong: return .tooLong
        }
    }

    /// Queues `line` to be sent; `last` closes the connection once it is out.
    func send(_ response: ControlResponse, last: Bool) {
        if output.isEmpty { outputSince = .now }
        output += response.line
        if last { phase = .closing }
    }

    /// Sends what the client will take now.
    ///
    /// - Throws: `ControlError` when the client went away or stopped reading for too long.
    func flush(now: ContinuousClock.Instant) throws(ControlError) {
        guard !output.isEmpty else { return }
        let sent: Int
        do {
            sent = try socket.send(output[...])
        } catch {
            throw ControlError(.client, "send failed: \(error)")
        }
        if sent > 0 {
            output.removeFirst(sent)
            outputSince = output.isEmpty ? nil : now
        } else if let since = outputSince, since.duration(to: now) > Self.writeTimeout {
            throw ControlError(.client, "the client stopped reading")
        }
    }

    /// Whether a client still reading has run out of time for its request.
    func requestExpired(now: ContinuousClock.Instant) -> Bool {
        isReading && connected.duration(to: now) > Self.requestTimeout
    }
}
