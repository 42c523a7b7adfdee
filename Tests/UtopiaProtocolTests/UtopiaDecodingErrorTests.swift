import Testing
import UtopiaProtocol

/// One malformed frame and the error decoding it must throw.
struct MalformedFrame: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let error: UtopiaDecodingError
    var testDescription: String { name }
}

private typealias F = FrameBuilder
private let ts = F.int32(1234)
private let newTarget = F.frame("N", ts)

/// Every way a frame can be malformed, one example (or more) each.
private let malformedFrames: [MalformedFrame] = [
    // Framing
    .init(name: "empty frame", bytes: [], error: .emptyFrame),
    .init(name: "short header", bytes: [0x48, 0x00], error: .truncatedHeader(available: 2)),
    .init(name: "trailing bytes after a message", bytes: newTarget + [0x4E, 0x00],
          error: .trailingBytes(offset: 8, count: 2)),
    .init(name: "payload length beyond the frame", bytes: F.frame("N", declaredLength: 8, ts),
          error: .payloadBeyondFrame(messageID: 0x4E, offset: 0, declaredLength: 8, available: 4)),
    .init(name: "second message's length beyond the frame", bytes: newTarget + F.frame("Z", declaredLength: 300, [1]),
          error: .payloadBeyondFrame(messageID: 0x5A, offset: 8, declaredLength: 300, available: 1)),
    .init(name: "unknown id", bytes: F.frame("Z", ts), error: .unknownMessageID(0x5A, offset: 0)),
    .init(name: "lower-case id after a valid message", bytes: newTarget + F.frame("h", ts),
          error: .unknownMessageID(0x68, offset: 8)),
    .init(name: "unsupported version", bytes: F.frame("N", version: 1, ts),
          error: .unsupportedVersion(.newTarget, version: 1)),
    .init(name: "heartbeat version 2", bytes: F.frame("H", version: 2, ts),
          error: .unsupportedVersion(.heartbeat, version: 2)),
    // Fixed fields
    .init(name: "heartbeat without timestamp", bytes: F.frame("H", [1, 2]),
          error: .payloadTooShort(.heartbeat, minimum: 4, actual: 2)),
    .init(name: "prediction too short", bytes: F.frame("P", ts),
          error: .payloadTooShort(.predictedTargetProb, minimum: 9, actual: 4)),
    .init(name: "data header too short", bytes: F.frame("A", ts + F.int32(8)),
          error: .payloadTooShort(.dataHeader, minimum: 12, actual: 8)),
    .init(name: "stimulus event without count", bytes: F.frame("E", ts),
          error: .payloadTooShort(.stimulusEvent, minimum: 5, actual: 4)),
    .init(name: "threshold without value", bytes: F.frame("T", ts),
          error: .payloadTooShort(.certaintyThreshold, minimum: 8, actual: 4)),
    .init(name: "calibration result with a fitted byte of 2",
          bytes: F.frame("C", ts + [2] + F.int32(10) + [0, 0, 0, 0, 0, 0, 0, 0]),
          error: .invalidFlag(.calibrationResult, field: "fitted", value: 2)),
    .init(name: "version-0 heartbeat with text", bytes: F.frame("H", ts + [0x61]),
          error: .payloadLengthMismatch(.heartbeat, expected: 4, actual: 5)),
    .init(name: "new target with extra byte", bytes: F.frame("N", ts + [0]),
          error: .payloadLengthMismatch(.newTarget, expected: 4, actual: 5)),
    .init(name: "reset with extra byte", bytes: F.frame("R", ts + [0]),
          error: .payloadLengthMismatch(.reset, expected: 4, actual: 5)),
    .init(name: "selection with extra byte", bytes: F.frame("S", ts + [1, 2]),
          error: .payloadLengthMismatch(.selection, expected: 5, actual: 6)),
    .init(name: "prediction with extra byte", bytes: F.frame("P", ts + [1] + F.float32(0.5) + [9]),
          error: .payloadLengthMismatch(.predictedTargetProb, expected: 9, actual: 10)),
    .init(name: "threshold with extra byte", bytes: F.frame("T", ts + F.float32(0.5) + [9]),
          error: .payloadLengthMismatch(.certaintyThreshold, expected: 8, actual: 9)),
    // Counts
    .init(name: "stimulus count overruns payload", bytes: F.frame("E", ts + [3, 1, 0]),
          error: .countOverrunsPayload(.stimulusEvent, count: 3, needed: 6, available: 2)),
    .init(name: "stimulus pairs beyond count", bytes: F.frame("E", ts + [1, 1, 0, 2, 1]),
          error: .payloadLengthMismatch(.stimulusEvent, expected: 7, actual: 9)),
    .init(name: "distribution count overruns payload", bytes: F.frame("F", ts + [2, 1] + F.float32(0.5)),
          error: .countOverrunsPayload(.predictedTargetDist, count: 2, needed: 10, available: 5)),
    .init(name: "distribution with stray byte", bytes: F.frame("F", ts + [1, 1] + F.float32(0.5) + [7]),
          error: .payloadLengthMismatch(.predictedTargetDist, expected: 10, actual: 11)),
    .init(name: "data packet negative sample count", bytes: F.frame("D", ts + F.int32(-1)),
          error: .negativeCount(.dataPacket, count: -1)),
    .init(name: "data packet sample count overruns payload", bytes: F.frame("D", ts + F.int32(3) + [UInt8](repeating: 0, count: 8)),
          error: .countOverrunsPayload(.dataPacket, count: 3, needed: 12, available: 8)),
    .init(name: "data packet with samples but no values", bytes: F.frame("D", ts + F.int32(Int32.max)),
          error: .countOverrunsPayload(.dataPacket, count: Int(Int32.max), needed: 4 * Int(Int32.max), available: 0)),
    .init(name: "data packet rows uneven", bytes: F.frame("D", ts + F.int32(2) + [UInt8](repeating: 0, count: 12)),
          error: .misalignedValues(.dataPacket, byteCount: 12, stride: 8)),
    .init(name: "data packet zero samples with values", bytes: F.frame("D", ts + F.int32(0) + F.float32(1)),
          error: .payloadLengthMismatch(.dataPacket, expected: 8, actual: 12)),
    .init(name: "signal quality not whole floats", bytes: F.frame("Q", ts + [0, 0, 0x80, 0x3F, 1, 2]),
          error: .misalignedValues(.signalQuality, byteCount: 6, stride: 4)),
    // Text
    .init(name: "mode with a bare continuation byte", bytes: F.frame("M", ts + [0x69, 0x80]),
          error: .invalidUTF8(.modeChange, field: "mode", byteOffset: 5)),
    .init(name: "log with an overlong NUL", bytes: F.frame("L", ts + [0xC0, 0x80]),
          error: .invalidUTF8(.log, field: "text", byteOffset: 4)),
    .init(name: "heartbeat state with a surrogate", bytes: F.frame("H", version: 1, ts + [0x61, 0xED, 0xA0, 0x80]),
          error: .invalidUTF8(.heartbeat, field: "state text", byteOffset: 5)),
    .init(name: "subscribe with a cut sequence", bytes: F.frame("B", ts + [0x50, 0xE2, 0x9C]),
          error: .invalidUTF8(.subscribe, field: "message ids", byteOffset: 5)),
    .init(name: "labels above U+10FFFF", bytes: F.frame("A", ts + F.int32(1) + F.float32(250) + [0xF4, 0x90, 0x80, 0x80]),
          error: .invalidUTF8(.dataHeader, field: "labels", byteOffset: 12)),
    .init(name: "log with 0xFF", bytes: F.frame("L", ts + [0x61, 0x62, 0xFF]),
          error: .invalidUTF8(.log, field: "text", byteOffset: 6)),
]

@Suite("Malformed frames")
struct UtopiaDecodingErrorTests {
    @Test(arguments: malformedFrames)
    func throwsTheMatchingError(_ malformed: MalformedFrame) {
        #expect(throws: malformed.error) { try UtopiaCodec.decode(frame: malformed.bytes) }
        #expect(UtopiaCodec.decodeResult(frame: malformed.bytes) == .failure(malformed.error))
        #expect(throws: malformed.error) {
            try malformed.bytes.withUnsafeBytes { raw in
                Result { () throws(UtopiaDecodingError) in try UtopiaCodec.decode(frame: raw) }
            }.get()
        }
    }

    @Test func errorsAreReportedFromDecodeOneToo() {
        #expect(throws: UtopiaDecodingError.unknownMessageID(0x5A, offset: 0)) {
            try UtopiaCodec.decodeOne(F.frame("Z", ts)[...])
        }
        #expect(throws: UtopiaDecodingError.emptyFrame) { try UtopiaCodec.decodeOne([UInt8]()[...]) }
    }

    @Test func decodeOneIgnoresBytesAfterTheFirstMessage() throws {
        let (message, byteCount) = try UtopiaCodec.decodeOne((newTarget + [0xFF, 0xFF])[...])
        #expect(message == .newTarget(NewTarget(timestamp: 1234)))
        #expect(byteCount == 8)
    }

    @Test func validMultiByteTextIsAccepted() throws {
        let text = "é ✓ 😀 \u{10FFFF}"
        let bytes = F.frame("L", ts + Array(text.utf8))
        #expect(try UtopiaCodec.decode(frame: bytes) == [.log(Log(timestamp: 1234, message: text))])
    }

    @Test func descriptionsNameTheMessageAndTheReason() {
        let expected: [(UtopiaDecodingError, String)] = [
            (.emptyFrame, "empty frame: no Utopia message header"),
            (.truncatedHeader(available: 2), "truncated header: a Utopia message header needs 4 bytes, the frame has 2"),
            (.trailingBytes(offset: 8, count: 1), "1 trailing byte at offset 8 do not form a message (a header needs 4)"),
            (.payloadBeyondFrame(messageID: 0x50, offset: 0, declaredLength: 9, available: 4),
             "PREDICTEDTARGETPROB (\"P\") at offset 0 declares a 9-byte payload, but only 4 bytes follow the header"),
            (.unknownMessageID(0x5A, offset: 12), "unknown id \"Z\" (0x5A) at offset 12"),
            (.unknownMessageID(0x07, offset: 0), "unknown id 0x07 at offset 0"),
            (.unsupportedVersion(.heartbeat, version: 3), "HEARTBEAT (\"H\") version 3 is not supported (latest known: 1)"),
            (.payloadTooShort(.dataHeader, minimum: 12, actual: 8), "DATAHEADER (\"A\") payload is 8 bytes, it needs at least 12"),
            (.payloadLengthMismatch(.selection, expected: 5, actual: 6),
             "SELECTION (\"S\") payload is 6 bytes, its fields take exactly 5"),
            (.countOverrunsPayload(.stimulusEvent, count: 3, needed: 6, available: 2),
             "STIMULUSEVENT (\"E\") count 3 needs 6 bytes, the payload has 2 left"),
            (.negativeCount(.dataPacket, count: -1), "DATAPACKET (\"D\") count is negative (-1)"),
            (.misalignedValues(.signalQuality, byteCount: 6, stride: 4),
             "SIGNALQUALITY (\"Q\") value bytes (6) are not a multiple of 4"),
            (.invalidUTF8(.modeChange, field: "mode", byteOffset: 5),
             "MODECHANGE (\"M\") mode is not valid UTF-8 (payload byte 5)"),
            (.invalidFlag(.calibrationResult, field: "fitted", value: 7),
             "CALIBRATIONRESULT (\"C\") fitted is 7, it must be 0 or 1"),
        ]
        for (error, text) in expected { #expect(error.description == text) }
    }

    @Test(arguments: malformedFrames)
    func descriptionNamesTheMessageType(_ malformed: MalformedFrame) {
        let type: UtopiaMessageType?
        switch malformed.error {
        case .emptyFrame, .truncatedHeader, .trailingBytes, .unknownMessageID: type = nil
        case .payloadBeyondFrame(let id, _, _, _): type = UtopiaMessageType(rawValue: id)
        case .unsupportedVersion(let t, _), .payloadTooShort(let t, _, _), .payloadLengthMismatch(let t, _, _),
             .countOverrunsPayload(let t, _, _, _), .negativeCount(let t, _), .misalignedValues(let t, _, _),
             .invalidUTF8(let t, _, _), .invalidFlag(let t, _, _):
            type = t
        }
        if let type { #expect(malformed.error.description.hasPrefix(type.label)) }
    }
}
