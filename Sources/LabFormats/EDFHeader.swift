/// The header of an EDF, EDF+, BDF or BDF+ file: 256 ASCII bytes for the
/// file, then 256 per signal laid out field by field (all labels, then all
/// transducers, …). Numbers are read leniently (padding with spaces or NULs,
/// a leading "+", a decimal comma); a field that is not a number where one is
/// needed is an ``LabFormatError`` naming the field and the signal.
struct EDFHeader {
    /// One signal's header fields.
    struct Signal {
        var label: String
        var dimension: String
        var physicalMinimum: Double
        var physicalMaximum: Double
        var digitalMinimum: Double
        var digitalMaximum: Double
        var prefilter: String
        var samplesPerRecord: Int
        /// Byte offset of this signal's samples within a data record.
        var offsetInRecord = 0

        /// An "EDF Annotations" (or "BDF Annotations", in any case) signal holding TALs.
        var isAnnotations: Bool { ["edf annotations", "bdf annotations"].contains(label.lowercased()) }
        /// BioSemi's trigger channel.
        var isStatus: Bool { label.lowercased() == "status" }
        /// Physical value per digital step; negative for an inverted physical range.
        var gain: Double { (physicalMaximum - physicalMinimum) / (digitalMaximum - digitalMinimum) }
    }

    /// BDF (24-bit samples) rather than EDF (16-bit).
    var isBDF: Bool
    /// "C" or "D" for EDF+/BDF+ continuous or discontinuous, nil for plain EDF/BDF.
    var plus: Character?
    /// The recording identification field (EDF+: "Startdate … equipment").
    var recording: String
    /// Where the data records start (256 × (signals + 1)).
    var headerBytes: Int
    /// Data records the header announces, nil when it says -1 (unknown).
    var records: Int?
    /// Seconds per data record.
    var recordDuration: Double
    /// The signals, in file order.
    var signals: [Signal]
    /// Oddities in the header that were worked around.
    var warnings: [String] = []

    /// Bytes per sample: 3 for BDF, 2 for EDF.
    var bytesPerSample: Int { isBDF ? 3 : 2 }
    /// Bytes per data record.
    var recordBytes: Int { signals.reduce(0) { $0 + $1.samplesPerRecord } * bytesPerSample }
    /// "BDF", "EDF+C", … for messages and the recording's source.
    var formatName: String { (isBDF ? "BDF" : "EDF") + (plus.map { "+\($0)" } ?? "") }

    /// Signals above this many are taken for a corrupt header.
    static let maxSignals = 4096
    /// Samples per record above this are taken for a corrupt header.
    static let maxSamplesPerRecord = 1 << 26

    /// The header at the start of `bytes`; errors name `name`.
    init(_ bytes: [UInt8], name: String) throws {
        guard bytes.count >= 256 else {
            throw LabFormatError(name, "too short for an EDF/BDF header (\(bytes.count) bytes, needs at least 256)")
        }
        func field(_ offset: Int, _ length: Int) -> String {
            HeaderText.trimmed(HeaderText.decode(bytes[offset..<(offset + length)]))
        }
        if bytes[0] == 0xFF {
            isBDF = true
        } else if field(0, 8) == "0" {
            isBDF = false
        } else {
            throw LabFormatError(name, "not an EDF or BDF file (version field \"\(field(0, 8))\", expected \"0\" or 0xFF \"BIOSEMI\")")
        }
        recording = field(88, 80)
        let reserved = field(192, 44)
        plus = nil
        for prefix in ["EDF+", "BDF+"] where reserved.hasPrefix(prefix) {
            let kind = reserved.dropFirst(4).first
            plus = kind == "D" ? "D" : "C"
        }
        guard let count = HeaderText.integer(field(252, 4)) else {
            throw LabFormatError(name, "number of signals is not a whole number: \"\(field(252, 4))\"")
        }
        guard count >= 1, count <= Self.maxSignals else {
            throw LabFormatError(name, "number of signals is \(count), expected 1 to \(Self.maxSignals)")
        }
        headerBytes = 256 * (count + 1)
        if let stated = HeaderText.integer(field(184, 8)), stated != headerBytes {
            warnings.append("\(name): header says it is \(stated) bytes, but \(count) signals make it \(headerBytes); read as \(headerBytes)")
        }
        guard let stated = HeaderText.integer(field(236, 8)) else {
            throw LabFormatError(name, "number of data records is not a whole number: \"\(field(236, 8))\"")
        }
        guard stated >= -1 else { throw LabFormatError(name, "number of data records is \(stated)") }
        records = stated == -1 ? nil : stated
        guard let duration = HeaderText.number(field(244, 8)), duration >= 0 else {
            throw LabFormatError(name, "data record duration is not a non-negative number: \"\(field(244, 8))\"")
        }
        recordDuration = duration
        guard bytes.count >= headerBytes else {
            throw LabFormatError(name, "header is truncated (\(count) signals need \(headerBytes) bytes, the file has \(bytes.count))")
        }
        signals = try Self.signals(bytes, count: count, name: name)
        var offset = 0
        for i in signals.indices {
            signals[i].offsetInRecord = offset
            offset += signals[i].samplesPerRecord * (isBDF ? 3 : 2)
        }
    }

    /// The signal headers: field `k` of signal `i` is at 256 + Σ(widths before k) × count + i × width(k).
    private static func signals(_ bytes: [UInt8], count: Int, name: String) throws -> [Signal] {
        let widths = [16, 80, 8, 8, 8, 8, 8, 80, 8, 32]
        var starts: [Int] = []
        var start = 256
        for w in widths { starts.append(start); start += w * count }
        func field(_ k: Int, _ i: Int) -> String {
            let offset = starts[k] + i * widths[k]
            return HeaderText.trimmed(HeaderText.decode(bytes[offset..<(offset + widths[k])]))
        }
        return try (0..<count).map { i in
            let label = field(0, i)
            let which = "signal \(i + 1) (\(label.isEmpty ? "no label" : label))"
            func number(_ k: Int, _ what: String) throws -> Double {
                guard let v = HeaderText.number(field(k, i)) else {
                    throw LabFormatError(name, "\(which): \(what) is not a number: \"\(field(k, i))\"")
                }
                return v
            }
            guard let spr = HeaderText.integer(field(8, i)), spr >= 0, spr <= maxSamplesPerRecord else {
                throw LabFormatError(name, "\(which): samples per data record is not a whole number from 0 to \(maxSamplesPerRecord): \"\(field(8, i))\"")
            }
            // An unlabelled signal is named by its number, as --channels counts them.
            return Signal(label: label.isEmpty ? "\(i + 1)" : label, dimension: field(2, i), physicalMinimum: try number(3, "physical minimum"),
                          physicalMaximum: try number(4, "physical maximum"), digitalMinimum: try number(5, "digital minimum"),
                          digitalMaximum: try number(6, "digital maximum"), prefilter: field(7, i), samplesPerRecord: spr)
        }
    }
}
