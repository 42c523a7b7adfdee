/// One line waiting in the recording writer, kept as what it records until
/// the writer takes its batch: the engine thread queues a frame or a decoder
/// message as it is, and the line's text is made when the batch is written,
/// off the frame path. Other lines arrive already formatted.
enum RecordingLineSource {
    /// Bytes already formatted (one or more whole lines).
    case bytes([UInt8])
    /// A `frames.csv` line (``RecordingLine/frame(_:wallTime:)``).
    case frame(FrameRecord, wallTime: Double)
    /// A `decoder.csv` line (``RecordingLine/decoder(_:wallTime:)``).
    case decoder(DecoderTraffic, wallTime: Double)

    /// Bytes this line takes in the writer's buffer budget: exact for
    /// formatted bytes, an upper bound of the formatted line otherwise.
    var budgetedBytes: Int {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .frame(let record, _): return 96 + 2 * record.states.count
        case .decoder(let traffic, _): return 64 + 2 * traffic.bytes.count
        }
    }

    /// Appends the line's text to `out`.
    func format(into out: inout [UInt8]) {
        switch self {
        case .bytes(let bytes): out.append(contentsOf: bytes)
        case .frame(let record, let wall): out.append(contentsOf: RecordingLine.frame(record, wallTime: wall))
        case .decoder(let traffic, let wall): out.append(contentsOf: RecordingLine.decoder(traffic, wallTime: wall))
        }
    }
}
