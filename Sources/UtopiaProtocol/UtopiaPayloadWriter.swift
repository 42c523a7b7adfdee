/// Measures, validates and writes message payloads, field by field, straight
/// into the caller's buffer. The layouts follow MindAffect `utopiaclient.py`
/// `serialize()`; see Protocols/decoder-bridge-messages.md.
enum UtopiaPayloadWriter {
    /// The version byte the message is sent with: 1 for a heartbeat with a
    /// state text, 0 for everything else.
    static func version(of message: UtopiaMessage) -> UInt8 {
        if case .heartbeat(let beat) = message, beat.stateMessage != nil { return 1 }
        return 0
    }

    /// The payload's exact byte count, after checking that the message can be
    /// represented on the wire.
    static func payloadLength(of message: UtopiaMessage) throws(UtopiaEncodingError) -> Int {
        let length: Int
        switch message {
        case .heartbeat(let m): length = 4 + (m.stateMessage?.utf8.count ?? 0)
        case .stimulusEvent(let m): length = try framedLength(of: m) - UtopiaCodec.headerLength
        case .predictedTargetProb: length = 9
        case .predictedTargetDist(let m):
            try checkObjects(.predictedTargetDist, ids: m.objIDs.count, values: m.probabilities.count)
            length = 5 + 5 * m.objIDs.count
        case .dataPacket(let m): length = try dataPacketLength(m.samples)
        case .dataHeader(let m): length = try dataHeaderLength(m.labels)
        case .newTarget, .reset: length = 4
        case .selection: length = 5
        case .modeChange(let m): length = 4 + m.newMode.utf8.count
        case .log(let m): length = 4 + m.message.utf8.count
        case .signalQuality(let m): length = 4 + 4 * m.quality.count
        case .subscribe(let m): length = 4 + m.messageIDs.utf8.count
        case .certaintyThreshold: length = 8
        case .selectionRevised: length = 9
        case .calibrationResult(let m): length = 17 + m.summary.utf8.count
        }
        guard length <= UtopiaCodec.maximumPayloadLength else {
            throw .payloadTooLarge(message.messageType, length: length)
        }
        return length
    }

    /// Appends the payload (no header). Call only after `payloadLength(of:)`
    /// succeeded, and never for a STIMULUSEVENT (see `appendFramed`).
    static func writePayload(of message: UtopiaMessage, into buffer: inout [UInt8]) {
        buffer.appendLittleEndian(message.timestamp)
        switch message {
        case .heartbeat(let m):
            if let state = m.stateMessage { buffer.append(contentsOf: state.utf8) }
        case .stimulusEvent:
            preconditionFailure("STIMULUSEVENT frames are written whole by appendFramed")
        case .predictedTargetProb(let m):
            buffer.append(UInt8(bitPattern: m.objID))
            buffer.appendLittleEndian(m.errorProbability)
        case .predictedTargetDist(let m):
            buffer.append(UInt8(truncatingIfNeeded: m.objIDs.count))
            for index in m.objIDs.indices {
                buffer.append(m.objIDs[index])
                buffer.appendLittleEndian(m.probabilities[index])
            }
        case .dataPacket(let m):
            buffer.appendLittleEndian(Int32(truncatingIfNeeded: m.samples.count))
            for row in m.samples { buffer.appendLittleEndian(row) }
        case .dataHeader(let m):
            buffer.appendLittleEndian(m.channelCount)
            buffer.appendLittleEndian(m.sampleRate)
            for (index, label) in m.labels.enumerated() {
                if index > 0 { buffer.append(0x2C); buffer.append(0x20) }
                buffer.append(contentsOf: label.utf8)
            }
        case .newTarget, .reset: break
        case .selection(let m): buffer.append(m.objID)
        case .modeChange(let m): buffer.append(contentsOf: m.newMode.utf8)
        case .log(let m): buffer.append(contentsOf: m.message.utf8)
        case .signalQuality(let m): buffer.appendLittleEndian(m.quality)
        case .subscribe(let m): buffer.append(contentsOf: m.messageIDs.utf8)
        case .certaintyThreshold(let m): buffer.appendLittleEndian(m.threshold)
        case .selectionRevised(let m):
            buffer.appendLittleEndian(m.trialStamp)
            buffer.append(m.objID)
        case .calibrationResult(let m):
            buffer.append(m.fitted ? 1 : 0)
            buffer.appendLittleEndian(m.trials)
            buffer.appendLittleEndian(m.accuracy)
            buffer.appendLittleEndian(m.seconds)
            buffer.append(contentsOf: m.summary.utf8)
        }
    }

    static func checkObjects(
        _ type: UtopiaMessageType, ids: Int, values: Int
    ) throws(UtopiaEncodingError) {
        guard ids == values else { throw .mismatchedCounts(type, objIDs: ids, values: values) }
        guard ids <= 255 else { throw .tooManyObjects(type, count: ids) }
    }

    private static func dataPacketLength(_ samples: [[Float]]) throws(UtopiaEncodingError) -> Int {
        guard let channels = samples.first?.count else { return 8 }
        guard channels > 0 else { throw .samplesWithoutChannels(sampleCount: samples.count) }
        for (row, values) in samples.enumerated() where values.count != channels {
            throw .raggedSamples(row: row, channels: values.count, expected: channels)
        }
        return 8 + 4 * channels * samples.count
    }

    private static func dataHeaderLength(_ labels: [String]) throws(UtopiaEncodingError) -> Int {
        var length = 12 + 2 * Swift.max(labels.count - 1, 0)
        for (index, label) in labels.enumerated() {
            var previous: UInt8 = 0
            for byte in label.utf8 {
                if previous == 0x2C && byte == 0x20 { throw .labelContainsSeparator(index: index) }
                previous = byte
            }
            length += label.utf8.count
        }
        return length
    }
}
