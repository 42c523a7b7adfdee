/// Reads a message out of a payload that ``UtopiaPayloadValidator`` has
/// accepted: every length, count and text has been checked, so reading
/// cannot fail. Layouts as in Protocols/decoder-bridge-messages.md.
enum UtopiaPayloadReader {
    // Wire boundary: reads a payload already checked by UtopiaPayloadValidator, in place.
    static func message(from p: UnsafeRawBufferPointer, of type: UtopiaMessageType, version: UInt8) -> UtopiaMessage {
        let timestamp = p.int32(at: 0)
        switch type {
        case .heartbeat:
            return .heartbeat(Heartbeat(timestamp: timestamp, stateMessage: version == 0 ? nil : string(p[4...])))
        case .stimulusEvent:
            let (objIDs, states) = objects(p, stride: 2, values: p.uint8s)
            return .stimulusEvent(StimulusEvent(timestamp: timestamp, objIDs: objIDs, objStates: states))
        case .predictedTargetProb:
            return .predictedTargetProb(PredictedTargetProb(
                timestamp: timestamp, objID: Int8(bitPattern: p.uint8(at: 4)), errorProbability: p.float32(at: 5)))
        case .predictedTargetDist:
            let (objIDs, probabilities) = objects(p, stride: 5, values: p.float32s)
            return .predictedTargetDist(PredictedTargetDist(timestamp: timestamp, objIDs: objIDs, probabilities: probabilities))
        case .dataPacket:
            return .dataPacket(DataPacket(timestamp: timestamp, samples: samples(p)))
        case .dataHeader:
            return .dataHeader(DataHeader(
                timestamp: timestamp, channelCount: p.int32(at: 4), sampleRate: p.float32(at: 8),
                labels: labels(UnsafeRawBufferPointer(rebasing: p[12...]))))
        case .newTarget: return .newTarget(NewTarget(timestamp: timestamp))
        case .selection: return .selection(Selection(timestamp: timestamp, objID: p.uint8(at: 4)))
        case .reset: return .reset(Reset(timestamp: timestamp))
        case .modeChange: return .modeChange(ModeChange(timestamp: timestamp, newMode: string(p[4...])))
        case .log: return .log(Log(timestamp: timestamp, message: string(p[4...])))
        case .signalQuality:
            return .signalQuality(SignalQuality(timestamp: timestamp, quality: p.float32s(at: 4, count: (p.count - 4) / 4)))
        case .subscribe: return .subscribe(Subscribe(timestamp: timestamp, messageIDs: string(p[4...])))
        case .selectionRevised:
            return .selectionRevised(SelectionRevised(timestamp: timestamp, trialStamp: p.int32(at: 4), objID: p.uint8(at: 8)))
        case .certaintyThreshold:
            return .certaintyThreshold(CertaintyThreshold(timestamp: timestamp, threshold: p.float32(at: 4)))
        case .calibrationResult:
            return .calibrationResult(CalibrationResult(
                timestamp: timestamp, fitted: p.uint8(at: 4) != 0, trials: p.int32(at: 5), accuracy: p.float32(at: 9),
                seconds: p.float32(at: 13), summary: string(p[17...])))
        }
    }

    /// The per-object records of a STIMULUSEVENT or PREDICTEDTARGETDIST: the
    /// uint8 count at offset 4, then that many records of `stride` bytes,
    /// each an object ID and its value (read by `values(offset, count, stride)`).
    private static func objects<Value>(
        _ p: UnsafeRawBufferPointer, stride: Int, values: (Int, Int, Int) -> [Value]
    ) -> (ids: [UInt8], values: [Value]) {
        let count = Int(p.uint8(at: 4))
        return (p.uint8s(at: 5, count: count, stride: stride), values(6, count, stride))
    }

    /// DATAPACKET rows: the int32 sample count at offset 4, then that many
    /// rows of float32 channels, as many channels as the length implies.
    private static func samples(_ p: UnsafeRawBufferPointer) -> [[Float]] {
        let count = Int(p.int32(at: 4))
        guard count > 0 else { return [] }
        let channels = (p.count - 8) / (4 * count)
        var rows = [[Float]]()
        rows.reserveCapacity(count)
        for row in 0..<count { rows.append(p.float32s(at: 8 + 4 * channels * row, count: channels)) }
        return rows
    }

    /// A string from bytes the validator has checked to be UTF-8.
    private static func string(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes), as: UTF8.self)
    }

    /// DATAHEADER labels: the text split on ", "; none when it is empty.
    private static func labels(_ text: UnsafeRawBufferPointer) -> [String] {
        guard !text.isEmpty else { return [] }
        var labels = [String]()
        var start = 0
        var index = 0
        while index + 1 < text.count {
            if text[index] == 0x2C && text[index + 1] == 0x20 {
                labels.append(string(text[start..<index]))
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        labels.append(string(text[start...]))
        return labels
    }
}
