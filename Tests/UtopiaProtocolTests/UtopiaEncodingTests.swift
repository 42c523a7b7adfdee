import Testing
import UtopiaProtocol

/// The size and consistency policy of encoding, and round trips of messages
/// the reference vectors do not cover.
@Suite("Encoding policy")
struct UtopiaEncodingTests {
    private func log(payloadLength: Int) -> UtopiaMessage {
        .log(Log(timestamp: 9, message: String(repeating: "x", count: payloadLength - 4)))
    }

    @Test func largestPayloadFits() throws {
        let bytes = try UtopiaCodec.encodeChecked(log(payloadLength: UtopiaCodec.maximumPayloadLength))
        #expect(bytes.count == 4 + 65_535)
        #expect(bytes[2] == 0xFF && bytes[3] == 0xFF)
        #expect(try UtopiaCodec.decode(frame: bytes) == [log(payloadLength: 65_535)])
    }

    @Test func oversizedPayloadThrowsAndIsNeverTruncated() {
        let message = log(payloadLength: 65_536)
        #expect(throws: UtopiaEncodingError.payloadTooLarge(.log, length: 65_536)) {
            try UtopiaCodec.encodeChecked(message)
        }
        #expect(UtopiaCodec.encode(message).isEmpty)
        var buffer: [UInt8] = [1, 2, 3]
        #expect(UtopiaCodec.encode(message, into: &buffer) == false)
        #expect(buffer == [1, 2, 3])
        #expect(throws: UtopiaEncodingError.self) { try UtopiaCodec.encodeChecked(message, into: &buffer) }
        #expect(buffer == [1, 2, 3])
    }

    @Test func oversizedDataPacketThrows() {
        let samples = [[Float]](repeating: [Float](repeating: 1, count: 64), count: 256)
        #expect(throws: UtopiaEncodingError.payloadTooLarge(.dataPacket, length: 8 + 4 * 64 * 256)) {
            try UtopiaCodec.encodeChecked(.dataPacket(DataPacket(timestamp: 0, samples: samples)))
        }
    }

    @Test func inconsistentMessagesThrow() {
        let cases: [(UtopiaMessage, UtopiaEncodingError)] = [
            (.stimulusEvent(StimulusEvent(timestamp: 0, objIDs: [1, 2], objStates: [1])),
             .mismatchedCounts(.stimulusEvent, objIDs: 2, values: 1)),
            (.stimulusEvent(StimulusEvent(timestamp: 0, objIDs: .init(repeating: 1, count: 256),
                                          objStates: .init(repeating: 0, count: 256))),
             .tooManyObjects(.stimulusEvent, count: 256)),
            (.predictedTargetDist(PredictedTargetDist(timestamp: 0, objIDs: [1], probabilities: [])),
             .mismatchedCounts(.predictedTargetDist, objIDs: 1, values: 0)),
            (.predictedTargetDist(PredictedTargetDist(timestamp: 0, objIDs: .init(repeating: 1, count: 300),
                                                      probabilities: .init(repeating: 0, count: 300))),
             .tooManyObjects(.predictedTargetDist, count: 300)),
            (.dataPacket(DataPacket(timestamp: 0, samples: [[1, 2], [3]])),
             .raggedSamples(row: 1, channels: 1, expected: 2)),
            (.dataPacket(DataPacket(timestamp: 0, samples: [[], []])), .samplesWithoutChannels(sampleCount: 2)),
            (.dataHeader(DataHeader(timestamp: 0, channelCount: 2, sampleRate: 250, labels: ["O1", "O2, Oz"])),
             .labelContainsSeparator(index: 1)),
        ]
        for (message, error) in cases {
            #expect(throws: error) { try UtopiaCodec.encodeChecked(message) }
            #expect(UtopiaCodec.encode(message).isEmpty)
            #expect(error.description.contains(message.messageType.label))
        }
    }

    @Test func appendingGrowsOneBuffer() throws {
        var buffer = [UInt8]()
        let beat = UtopiaMessage.heartbeat(Heartbeat(timestamp: 7))
        for _ in 0..<1000 { #expect(UtopiaCodec.encode(beat, into: &buffer)) }
        #expect(buffer.count == 8000)
        #expect(try UtopiaCodec.decode(frame: buffer).count == 1000)
    }

    @Test(arguments: [
        UtopiaMessage.heartbeat(Heartbeat(timestamp: -1, stateMessage: "")),
        .heartbeat(Heartbeat(timestamp: 3, stateMessage: "décodeur prêt")),
        .stimulusEvent(StimulusEvent(timestamp: 0, objIDs: [255, 0], objStates: [7, 255])),
        .predictedTargetProb(PredictedTargetProb(timestamp: 1, objID: -128, errorProbability: .infinity)),
        .predictedTargetDist(PredictedTargetDist(timestamp: 2, objIDs: [], probabilities: [])),
        .dataPacket(DataPacket(timestamp: 3, samples: [])),
        .dataPacket(DataPacket(timestamp: 4, samples: [[1], [-2], [3.5]])),
        .dataHeader(DataHeader(timestamp: 5, channelCount: 0, sampleRate: 0, labels: [])),
        .dataHeader(DataHeader(timestamp: 6, channelCount: 3, sampleRate: 512, labels: ["a,", "", " b"])),
        .modeChange(ModeChange(timestamp: 7, newMode: "")),
        .signalQuality(SignalQuality(timestamp: 8, quality: [])),
        .subscribe(Subscribe(timestamp: 9, messageIDs: "PFTMHL")),
        .certaintyThreshold(CertaintyThreshold(timestamp: Int32.min, threshold: 0.95)),
    ])
    func roundTrips(_ message: UtopiaMessage) throws {
        let bytes = try UtopiaCodec.encodeChecked(message)
        #expect(try UtopiaCodec.decode(frame: bytes) == [message])
        #expect(bytes.first == message.messageType.rawValue)
        #expect(message.messageType.rawValue == message.messageID)
    }

    @Test func heartbeatVersionFollowsStateText() {
        #expect(UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: 0)))[1] == 0)
        #expect(UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: 0, stateMessage: "")))[1] == 1)
    }

    @Test func encodingInPlaceWritesTheSameBytesOrNothing() throws {
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: UtopiaCodec.headerLength + UtopiaCodec.maximumPayloadLength,
                                                         alignment: 8)
        defer { out.deallocate() }
        let everyObject = StimulusEvent(timestamp: -5, objIDs: (0...254).map { UInt8($0) },
                                        objStates: (0...254).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let messages: [UtopiaMessage] = [
            .stimulusEvent(everyObject),
            .stimulusEvent(StimulusEvent(timestamp: Int32.max, objIDs: [], objStates: [])),
            .heartbeat(Heartbeat(timestamp: 3, stateMessage: "prêt")),
            log(payloadLength: UtopiaCodec.maximumPayloadLength),
        ]
        for message in messages {
            let expected = try UtopiaCodec.encodeChecked(message)
            let length = try #require(UtopiaCodec.encode(message, into: out))
            #expect(Array(out[..<length]) == expected)
            // One byte short: refused, never truncated.
            #expect(UtopiaCodec.encode(message, into: UnsafeMutableRawBufferPointer(rebasing: out[..<(length - 1)])) == nil)
        }
        #expect(UtopiaCodec.encode(.stimulusEvent(StimulusEvent(timestamp: 0, objIDs: [1, 2], objStates: [1])), into: out) == nil)
        #expect(UtopiaCodec.encode(log(payloadLength: 65_536), into: out) == nil)
    }
}
