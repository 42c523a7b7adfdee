import Testing
import UtopiaProtocol

/// The codec against the byte vectors the MindAffect SDK itself produced.
@Suite("Reference vectors (utopia-messages.json)")
struct UtopiaFixtureTests {
    @Test func fileHoldsAllVectors() throws {
        let fixtures = try UtopiaFixture.loadAll()
        #expect(fixtures.count == 42)
        let types = Set(fixtures.map(\.message.messageType))
        #expect(types == Set(UtopiaMessageType.allCases).subtracting([.certaintyThreshold, .selectionRevised, .calibrationResult]))
    }

    @Test(arguments: try UtopiaFixture.loadAll())
    func encodesByteForByte(_ fixture: UtopiaFixture) {
        let bytes = UtopiaCodec.encode(fixture.message)
        #expect(bytes == fixture.bytes)
        #expect(bytes.count > 1 && bytes[1] == fixture.version)
        #expect(fixture.message.messageType.rawValue == fixture.message.messageID)
    }

    @Test(arguments: try UtopiaFixture.loadAll())
    func decodesToListedFields(_ fixture: UtopiaFixture) throws {
        #expect(try UtopiaCodec.decode(frame: fixture.bytes) == [fixture.message])
        let (message, byteCount) = try UtopiaCodec.decodeOne(fixture.bytes[...])
        #expect(message == fixture.message)
        #expect(byteCount == fixture.bytes.count)
    }

    @Test func concatenatedVectorsDecodeInOrder() throws {
        let fixtures = try UtopiaFixture.loadAll()
        let frame = fixtures.flatMap(\.bytes)
        #expect(try UtopiaCodec.decode(frame: frame) == fixtures.map(\.message))

        var appended = [UInt8]()
        for fixture in fixtures { #expect(UtopiaCodec.encode(fixture.message, into: &appended)) }
        #expect(appended == frame)
    }

    @Test func decodeOneWalksASlice() throws {
        let fixtures = try UtopiaFixture.loadAll()
        let frame = fixtures.flatMap(\.bytes)
        var rest = frame[...]
        var messages = [UtopiaMessage]()
        while !rest.isEmpty {
            let (message, byteCount) = try UtopiaCodec.decodeOne(rest)
            messages.append(message)
            rest = rest.dropFirst(byteCount)
        }
        #expect(messages == fixtures.map(\.message))
    }

    /// The extension message has no reference vector; this one is worked by hand:
    /// "T", version 0, length 8, int32 1, float32 0.9 = 0x3F666666.
    @Test func certaintyThresholdLayout() throws {
        let message = UtopiaMessage.certaintyThreshold(CertaintyThreshold(timestamp: 1, threshold: 0.9))
        let bytes: [UInt8] = [0x54, 0x00, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00, 0x66, 0x66, 0x66, 0x3F]
        #expect(UtopiaCodec.encode(message) == bytes)
        #expect(try UtopiaCodec.decode(frame: bytes) == [message])
    }

    /// "V", version 0, length 9, int32 timestamp 7, int32 trial stamp 4200 (0x1068), uint8 object 3.
    @Test func selectionRevisedLayout() throws {
        let message = UtopiaMessage.selectionRevised(SelectionRevised(timestamp: 7, trialStamp: 4200, objID: 3))
        let bytes: [UInt8] = [0x56, 0x00, 0x09, 0x00, 0x07, 0x00, 0x00, 0x00, 0x68, 0x10, 0x00, 0x00, 0x03]
        #expect(UtopiaCodec.encode(message) == bytes)
        #expect(try UtopiaCodec.decode(frame: bytes) == [message])
        var short = bytes
        short.removeLast()
        short[2] = 0x08
        #expect(throws: UtopiaDecodingError.self) { try UtopiaCodec.decode(frame: short) }
    }

    /// "C", version 0, length 21: int32 timestamp 9, uint8 fitted 1, int32 trials 10, float32 0.9, float32 4.2
    /// (0x40866666), then the summary "refe"; the example in Protocols/decoder-bridge-messages.md.
    @Test func calibrationResultLayout() throws {
        let message = UtopiaMessage.calibrationResult(CalibrationResult(timestamp: 9, fitted: true, trials: 10, accuracy: 0.9,
                                                                        seconds: 4.2, summary: "refe"))
        let bytes: [UInt8] = [0x43, 0x00, 0x15, 0x00, 0x09, 0x00, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x00,
                              0x66, 0x66, 0x66, 0x3F, 0x66, 0x66, 0x86, 0x40, 0x72, 0x65, 0x66, 0x65]
        #expect(UtopiaCodec.encode(message) == bytes)
        #expect(try UtopiaCodec.decode(frame: bytes) == [message])
        // Not measured: NaN accuracy and length read back as NaN; no summary is allowed.
        let failed = UtopiaMessage.calibrationResult(CalibrationResult(timestamp: 3, fitted: false, trials: 1, summary: ""))
        #expect(try UtopiaCodec.decode(frame: UtopiaCodec.encode(failed)) == [failed])
        // Cut before the fixed fields end, or a summary that is not UTF-8: one clear error each.
        var short = Array(bytes.prefix(4 + 16))
        short[2] = 16
        #expect(throws: UtopiaDecodingError.payloadTooShort(.calibrationResult, minimum: 17, actual: 16)) {
            try UtopiaCodec.decode(frame: short)
        }
        var garbled = bytes
        garbled[garbled.count - 1] = 0xFF
        #expect(throws: UtopiaDecodingError.self) { try UtopiaCodec.decode(frame: garbled) }
    }
}
