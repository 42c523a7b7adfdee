/// One stream of an XDF file as read from its chunks: the header, every
/// sample's time stamp (omitted ones filled as pyxdf does: previous + 1 /
/// nominal rate), the values, and the clock offsets LabRecorder measured.
struct XDFStream: Sendable {
    /// The stream's id in the file.
    let id: UInt32
    /// Its StreamHeader.
    let header: XDFStreamHeader
    /// One time stamp per sample, in the stream's own clock (seconds).
    var stamps: [Double] = []
    /// How many samples came without a time stamp.
    var omittedStamps = 0
    /// Numeric streams: channels × samples.
    var values: [[Float]]
    /// String streams: each sample's first channel (further channels joined with ";").
    var strings: [String] = []
    /// ClockOffset chunks: collection times (seconds, stream clock).
    var clockTimes: [Double] = []
    /// ClockOffset chunks: offset to add to reach the recording clock.
    var clockValues: [Double] = []

    /// An empty stream for `header`.
    init(id: UInt32, header: XDFStreamHeader) {
        self.id = id
        self.header = header
        values = header.format == .string ? [] : Array(repeating: [], count: header.channelCount)
    }

    /// Appends the samples of one Samples chunk (after the stream id).
    mutating func appendSamples(_ reader: inout ByteReader, chunk: Int) throws {
        let what = "chunk \(chunk) (samples of stream \"\(header.name)\")"
        let count = try reader.varLength(what)
        let channels = header.channelCount
        let period = header.nominalRate > 0 ? 1 / header.nominalRate : 0
        try reader.need(count, what)  // at least one stamp byte per sample
        if let size = header.format.size { try reader.need(count * (1 + channels * size), what) }
        for c in 0..<values.count { values[c].reserveCapacity(values[c].count + count) }
        for _ in 0..<count {
            let stampBytes = try reader.u8(what)
            switch stampBytes {
            case 8: stamps.append(try reader.f64(what))
            case 0:
                stamps.append((stamps.last ?? 0) + period)
                omittedStamps += 1
            default:
                throw LabFormatError(reader.subject, "\(what): a time stamp of \(stampBytes) bytes at byte \(reader.offset - 1) (XDF allows 0 or 8)")
            }
            if header.format == .string {
                var texts: [String] = []
                for _ in 0..<channels {
                    let length = try reader.varLength(what)
                    texts.append(String(decoding: try reader.take(length, what), as: UTF8.self))
                }
                strings.append(texts.joined(separator: ";"))
            } else {
                for c in 0..<channels { values[c].append(try value(&reader, what)) }
            }
        }
    }

    private func value(_ reader: inout ByteReader, _ what: @autoclosure () -> String) throws -> Float {
        switch header.format {
        case .float32: Float(bitPattern: UInt32(try reader.unsigned(4, what())))
        case .double64: Float(Double(bitPattern: try reader.unsigned(8, what())))
        case .int8: Float(Int8(bitPattern: UInt8(try reader.unsigned(1, what()))))
        case .int16: Float(Int16(bitPattern: UInt16(try reader.unsigned(2, what()))))
        case .int32: Float(Int32(bitPattern: UInt32(try reader.unsigned(4, what()))))
        case .int64: Float(Int64(bitPattern: try reader.unsigned(8, what())))
        case .string: .nan
        }
    }

    /// Samples read.
    var sampleCount: Int { stamps.count }
}
