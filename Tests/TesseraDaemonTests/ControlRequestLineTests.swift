import Testing

@testable import TesseraDaemon

/// The control socket's request reader: a line however the client's bytes are cut, and never
/// more than `ControlRequest.maximumLength` bytes held.
struct ControlRequestLineTests {
    @Test func aLineSentOneByteAtATimeIsOneRequest() throws {
        var reader = ControlRequestLine()
        let bytes = Array("{\"command\":\"status\"}\n".utf8)
        var outcomes: [ControlRequestLine.Outcome] = []
        for byte in bytes { outcomes.append(reader.append([byte])) }
        #expect(outcomes.dropLast().allSatisfy { $0 == .incomplete })
        #expect(outcomes.last == .line(Array(bytes.dropLast())))
        #expect(try ControlRequest.parse(Array(bytes.dropLast())).command == .status)
    }

    @Test func aLineOfTheLongestLengthIsTakenAndOneByteMoreIsRefusedUnread() {
        var reader = ControlRequestLine()
        let longest = [UInt8](repeating: UInt8(ascii: " "), count: ControlRequest.maximumLength)
        #expect(reader.append(longest) == .incomplete)
        #expect(reader.append([UInt8(ascii: "\n")]) == .line(longest))
        // One byte past the limit without a newline: refused before the rest arrives.
        #expect(reader.append(longest + [UInt8(ascii: " ")]) == .tooLong)
        // and the reader starts afresh.
        #expect(reader.append(Array("{}\n".utf8)) == .line(Array("{}".utf8)))
    }

    @Test func whatIsWrongWithALineIsSaid() {
        #expect(throws: ControlError.self) { try ControlRequest.parse(Array("not json".utf8)) }
        do {
            _ = try ControlRequest.parse(Array("{\"command\":\"reboot\"}".utf8))
            Issue.record("an unknown command was accepted")
        } catch {
            #expect(error.description == "unknown command \"reboot\" (status, rescan or people)")
        }
        do {
            _ = try ControlRequest.parse(Array("[1]".utf8))
            Issue.record("an array was accepted")
        } catch {
            #expect(error.description == "malformed request: expected one JSON object")
        }
    }
}
