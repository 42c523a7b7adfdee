import Foundation

/// The streams of an XDF file (https://github.com/sccn/xdf/wiki/Specifications):
/// the magic `XDF:`, then chunks of a variable-length length, a 2-byte tag
/// (1 FileHeader, 2 StreamHeader, 3 Samples, 4 ClockOffset, 5 Boundary,
/// 6 StreamFooter) and the content; tags 2, 3, 4 and 6 start with the
/// stream id. Every read is bounds-checked: a corrupt file is an
/// ``LabFormatError`` naming the chunk; one that ends inside a chunk, after
/// a stream header, keeps the whole chunks before it, with a warning.
struct XDFFile: Sendable {
    /// The streams, in the order their headers appear.
    var streams: [XDFStream]
    /// What reading survived: a file that ends inside a chunk.
    var warnings: [String]

    /// Parses `bytes`; `name` (the file name) is used in errors.
    init(bytes: [UInt8], name: String) throws {
        guard bytes.count >= 4, bytes.prefix(4).elementsEqual("XDF:".utf8) else {
            throw LabFormatError(name, "not an XDF file (it does not start with \"XDF:\")")
        }
        var reader = ByteReader(bytes, offset: 4, subject: name)
        var streams: [XDFStream] = []
        var index: [UInt32: Int] = [:]
        var chunk = 0
        var warnings: [String] = []
        while reader.remaining > 0 {
            chunk += 1
            // A recorder that crashed or a copy cut short ends inside a chunk: keep the chunks before it, as pyxdf does.
            if !streams.isEmpty, Self.endsInsideChunk(reader) {
                warnings.append("the file ends inside chunk \(chunk) (at byte \(reader.offset) of \(bytes.count)): a recording cut short? "
                                + "The \(chunk - 1) whole chunks before it are read")
                break
            }
            let length = try reader.varLength("chunk \(chunk)")
            try reader.need(length, "chunk \(chunk)")
            guard length >= 2 else { throw LabFormatError(name, "chunk \(chunk) has length \(length), too short for its tag") }
            var body = ByteReader(Array(try reader.take(length, "chunk \(chunk)")), subject: name)
            let tag = Int(try body.unsigned(2, "chunk \(chunk)"))
            guard [2, 3, 4, 6].contains(tag) else { continue }  // FileHeader, Boundary, unknown: nothing needed
            let id = UInt32(try body.unsigned(4, "chunk \(chunk) (stream id)"))
            switch tag {
            case 2:
                let xml = String(decoding: body.bytes[body.offset...], as: UTF8.self)
                let header = try XDFStreamHeader(xml: xml, subject: "\(name): chunk \(chunk)")
                if index[id] == nil {
                    index[id] = streams.count
                    streams.append(XDFStream(id: id, header: header))
                }
            case 3:
                guard let s = index[id] else { throw LabFormatError(name, "chunk \(chunk) holds samples of stream \(id) before its header") }
                try streams[s].appendSamples(&body, chunk: chunk)
            case 4:
                guard let s = index[id] else { continue }
                let time = try body.f64("chunk \(chunk) (clock offset)")
                let offset = try body.f64("chunk \(chunk) (clock offset)")
                if time.isFinite, offset.isFinite {
                    streams[s].clockTimes.append(time)
                    streams[s].clockValues.append(offset)
                }
            default: break
            }
        }
        self.streams = streams
        self.warnings = warnings
    }

    /// True when the file ends inside the chunk at `reader`'s position: in
    /// its length field or before the bytes that field announces. A length
    /// field of a width XDF does not have is corruption, not an end: false,
    /// and the read reports it.
    static func endsInsideChunk(_ reader: ByteReader) -> Bool {
        var probe = reader
        guard let width = try? probe.u8("length"), [1, 4, 8].contains(width) else { return false }
        guard probe.remaining >= Int(width), let length = try? probe.unsigned(Int(width), "length") else { return true }
        return length > UInt64(probe.remaining)
    }
}
