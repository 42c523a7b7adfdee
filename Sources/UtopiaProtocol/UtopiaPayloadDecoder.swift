/// Turns one message's payload bytes into its value, checking every length
/// and count before reading. Layouts as in Protocols/decoder-bridge.md.
enum UtopiaPayloadDecoder {
    /// Decodes a payload whose type is known and whose version is supported.
    static func decode(
        _ type: UtopiaMessageType, version: UInt8, payload p: UnsafeRawBufferPointer
    ) throws(UtopiaDecodingError) -> UtopiaMessage {
        let minimum: Int
        switch type {
        case .dataPacket, .certaintyThreshold: minimum = 8
        case .predictedTargetProb: minimum = 9
        case .dataHeader: minimum = 12
        case .stimulusEvent, .predictedTargetDist, .selection: minimum = 5
        default: minimum = 4
        }
        guard p.count >= minimum else { throw .payloadTooShort(type, minimum: minimum, actual: p.count) }
        let timestamp = p.int32(at: 0)
        switch type {
        case .heartbeat:
            guard version >= 1 else {
                try exactLength(type, 4, p)
                return .heartbeat(Heartbeat(timestamp: timestamp))
            }
            let state = try text(type, field: "state text", p, from: 4)
            return .heartbeat(Heartbeat(timestamp: timestamp, stateMessage: state))
        case .stimulusEvent:
            let count = try objectCount(type, p, stride: 2)
            var ids = [UInt8](), states = [UInt8]()
            ids.reserveCapacity(count)
            states.reserveCapacity(count)
            for index in 0..<count {
                ids.append(p.uint8(at: 5 + 2 * index))
                states.append(p.uint8(at: 6 + 2 * index))
            }
            return .stimulusEvent(StimulusEvent(timestamp: timestamp, objIDs: ids, objStates: states))
        case .predictedTargetProb:
            try exactLength(type, 9, p)
            return .predictedTargetProb(PredictedTargetProb(
                timestamp: timestamp, objID: Int8(bitPattern: p.uint8(at: 4)), errorProbability: p.float32(at: 5)))
        case .predictedTargetDist:
            let count = try objectCount(type, p, stride: 5)
            var ids = [UInt8](), probabilities = [Float]()
            ids.reserveCapacity(count)
            probabilities.reserveCapacity(count)
            for index in 0..<count {
                ids.append(p.uint8(at: 5 + 5 * index))
                probabilities.append(p.float32(at: 6 + 5 * index))
            }
            return .predictedTargetDist(PredictedTargetDist(
                timestamp: timestamp, objIDs: ids, probabilities: probabilities))
        case .dataPacket:
            return .dataPacket(DataPacket(timestamp: timestamp, samples: try samples(p)))
        case .dataHeader:
            return .dataHeader(DataHeader(
                timestamp: timestamp, channelCount: p.int32(at: 4), sampleRate: p.float32(at: 8),
                labels: try labels(p)))
        case .newTarget:
            try exactLength(type, 4, p)
            return .newTarget(NewTarget(timestamp: timestamp))
        case .selection:
            try exactLength(type, 5, p)
            return .selection(Selection(timestamp: timestamp, objID: p.uint8(at: 4)))
        case .reset:
            try exactLength(type, 4, p)
            return .reset(Reset(timestamp: timestamp))
        case .modeChange:
            return .modeChange(ModeChange(timestamp: timestamp, newMode: try text(type, field: "mode", p, from: 4)))
        case .log:
            return .log(Log(timestamp: timestamp, message: try text(type, field: "text", p, from: 4)))
        case .signalQuality:
            guard (p.count - 4) % 4 == 0 else { throw .misalignedValues(type, byteCount: p.count - 4, stride: 4) }
            return .signalQuality(SignalQuality(timestamp: timestamp, quality: p.float32s(at: 4, count: (p.count - 4) / 4)))
        case .subscribe:
            return .subscribe(Subscribe(timestamp: timestamp, messageIDs: try text(type, field: "message ids", p, from: 4)))
        case .certaintyThreshold:
            try exactLength(type, 8, p)
            return .certaintyThreshold(CertaintyThreshold(timestamp: timestamp, threshold: p.float32(at: 4)))
        }
    }

    private static func exactLength(
        _ type: UtopiaMessageType, _ expected: Int, _ p: UnsafeRawBufferPointer
    ) throws(UtopiaDecodingError) {
        guard p.count == expected else { throw .payloadLengthMismatch(type, expected: expected, actual: p.count) }
    }

    /// Reads the uint8 object count at offset 4 and checks that exactly
    /// `count` records of `stride` bytes follow it.
    private static func objectCount(
        _ type: UtopiaMessageType, _ p: UnsafeRawBufferPointer, stride: Int
    ) throws(UtopiaDecodingError) -> Int {
        let count = Int(p.uint8(at: 4))
        let needed = stride * count
        let available = p.count - 5
        guard needed <= available else {
            throw .countOverrunsPayload(type, count: count, needed: needed, available: available)
        }
        try exactLength(type, 5 + needed, p)
        return count
    }

    /// DATAPACKET body: int32 sample count at offset 4, then count rows of
    /// float32 channels; the channel count is what the length implies.
    private static func samples(_ p: UnsafeRawBufferPointer) throws(UtopiaDecodingError) -> [[Float]] {
        let count = Int(p.int32(at: 4))
        let body = p.count - 8
        guard count >= 0 else { throw .negativeCount(.dataPacket, count: count) }
        guard count > 0 else {
            try exactLength(.dataPacket, 8, p)
            return []
        }
        let rowStride = 4 * count  // bytes per channel across all samples
        guard body >= rowStride else {
            throw .countOverrunsPayload(.dataPacket, count: count, needed: rowStride, available: body)
        }
        guard body % rowStride == 0 else { throw .misalignedValues(.dataPacket, byteCount: body, stride: rowStride) }
        let channels = body / rowStride
        var rows = [[Float]]()
        rows.reserveCapacity(count)
        for row in 0..<count { rows.append(p.float32s(at: 8 + 4 * channels * row, count: channels)) }
        return rows
    }

    /// DATAHEADER labels: UTF-8 text from offset 12, split on ", "; none when empty.
    private static func labels(_ p: UnsafeRawBufferPointer) throws(UtopiaDecodingError) -> [String] {
        let text = UnsafeRawBufferPointer(rebasing: p[12...])
        if let bad = UTF8Validator.firstInvalidIndex(in: text) {
            throw .invalidUTF8(.dataHeader, field: "labels", byteOffset: 12 + bad)
        }
        guard !text.isEmpty else { return [] }
        var labels = [String]()
        var start = 0
        var index = 0
        while index + 1 < text.count {
            if text[index] == 0x2C && text[index + 1] == 0x20 {
                labels.append(string(text, start..<index))
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        labels.append(string(text, start..<text.count))
        return labels
    }

    private static func text(
        _ type: UtopiaMessageType, field: String, _ p: UnsafeRawBufferPointer, from offset: Int
    ) throws(UtopiaDecodingError) -> String {
        let bytes = UnsafeRawBufferPointer(rebasing: p[offset...])
        if let bad = UTF8Validator.firstInvalidIndex(in: bytes) {
            throw .invalidUTF8(type, field: field, byteOffset: offset + bad)
        }
        return string(bytes, 0..<bytes.count)
    }

    /// A string from bytes already validated as UTF-8.
    private static func string(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
