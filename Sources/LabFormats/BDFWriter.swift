import Foundation
import JSONSupport

/// Writes continuous EEG as BioSemi BDF (24-bit) or EDF+ (16-bit), to the
/// EDF/EDF+ and BDF specifications, so that MNE, EEGLAB and EDFbrowser read
/// it; ``EDFImporter`` reads it back.
///
/// - Each channel's physical range is its own data's minimum and maximum
///   (widened outward to what fits the header's 8 characters; ±1 µV around a
///   flat channel), so the quantisation step is range / (2²⁴ − 1) for BDF
///   (about 1e-5 µV for a ±100 µV signal) and range / 65535 for EDF.
/// - Records of 1 s (or the shortest whole number of seconds holding a whole
///   number of samples, for a rate that is not a whole number); the last
///   record is padded by repeating the last sample: the true duration belongs
///   in a sidecar.
/// - A NaN or ±∞ sample is written as the digital minimum (it reads back as
///   the channel's physical minimum) and counted in ``ChannelScale/nonFinite``.
/// - BDF: version byte 0xFF "BIOSEMI", reserved field "24BIT", no Status
///   channel. EDF: "EDF+C" with the time-keeping "EDF Annotations" signal
///   the EDF+ specification requires (no other annotations: events go to the
///   BIDS events file).
///
/// ```swift
/// let writer = BDFWriter(sampleRate: 250, channelNames: ["Oz", "O1"], start: Date())
/// let scales = try writer.write([oz, o1], to: URL(fileURLWithPath: "sub-01_task-cvep_eeg.bdf"))
/// print(scales.map(\.step).max()!)    // µV per digital step
/// ```
public struct BDFWriter: Sendable {
    /// The file format.
    public enum Format: String, Sendable, CaseIterable {
        /// BioSemi BDF, 24-bit samples.
        case bdf
        /// EDF+ (continuous), 16-bit samples.
        case edf
    }

    /// How one channel was scaled: its physical range as written in the
    /// header and the physical value of one digital step.
    public struct ChannelScale: Sendable, Equatable {
        /// The channel's label.
        public var name: String
        /// The header's physical minimum and maximum (µV).
        public var physicalMinimum: Double
        /// See ``physicalMinimum``.
        public var physicalMaximum: Double
        /// µV per digital step: the largest error of a sample is half of it.
        public var step: Double
        /// Samples that were NaN or infinite (written as the digital minimum).
        public var nonFinite: Int
    }

    /// BDF or EDF+.
    public var format: Format = .bdf
    /// Samples per second.
    public var sampleRate: Double
    /// One label per channel (at most 16 ASCII characters are kept).
    public var channelNames: [String]
    /// The physical unit written in the header.
    public var dimension = "uV"
    /// The recording's start (header start date and time, UTC).
    public var start: Date
    /// Patient identification (EDF+: "code sex birthdate name", "X" for unknown).
    public var patient = "X X X X"
    /// Equipment, written in the recording identification field.
    public var equipment = "noisetag"

    /// A writer for `channelNames` at `sampleRate`, starting at `start`.
    public init(format: Format = .bdf, sampleRate: Double, channelNames: [String], start: Date) {
        self.format = format
        self.sampleRate = sampleRate
        self.channelNames = channelNames
        self.start = start
    }

    /// Seconds per data record and samples per record per channel: 1 s when
    /// the rate is a whole number, else the shortest whole number of seconds
    /// (up to 60) that holds a whole number of samples.
    public func recordLayout() throws -> (seconds: Int, samples: Int) {
        guard sampleRate.isFinite, sampleRate > 0 else { throw LabFormatError("sample rate", "\(sampleRate) Hz is not positive") }
        for seconds in 1...60 {
            let samples = sampleRate * Double(seconds)
            if abs(samples - samples.rounded()) < 1e-6 * max(1, samples) { return (seconds, Int(samples.rounded())) }
        }
        throw LabFormatError("sample rate", "\(sampleRate) Hz gives no whole number of samples in a data record of up to 60 s")
    }

    /// Writes `samples` (channels × samples, µV) to `url` and returns each
    /// channel's scale; errors name the file.
    @discardableResult
    public func write(_ samples: [[Float]], to url: URL) throws -> [ChannelScale] {
        let data = try encode(samples)
        do { try data.bytes.write(to: url) } catch {
            throw LabFormatError(url.path, "cannot write: \(FileProblem.whyNotWritten(url, error))")
        }
        return data.scales
    }

    /// The whole file and the channel scales.
    public func encode(_ samples: [[Float]]) throws -> (bytes: Data, scales: [ChannelScale]) {
        guard samples.count == channelNames.count, !samples.isEmpty else {
            throw LabFormatError("EEG", "\(samples.count) channels of samples for \(channelNames.count) channel names")
        }
        let count = samples[0].count
        guard count > 0, samples.allSatisfy({ $0.count == count }) else { throw LabFormatError("EEG", "no samples, or channels of different lengths") }
        let (seconds, perRecord) = try recordLayout()
        let records = (count + perRecord - 1) / perRecord
        let width = format == .bdf ? 3 : 2
        let digitalMinimum = format == .bdf ? -8_388_608 : -32768
        let digitalMaximum = format == .bdf ? 8_388_607 : 32767
        let scales = try zip(channelNames, samples).map { try Self.scale($0, $1, digitalRange: Double(digitalMaximum - digitalMinimum)) }

        let annotationSamples = 32   // 64 bytes: "+<onset>\u{14}\u{14}\0", padded with NULs
        let signals = channelNames.count + (format == .edf ? 1 : 0)
        var header = [UInt8]()
        header.reserveCapacity(256 * (signals + 1))
        let utc = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: start)
        let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        let startdate = String(format: "%02d-%@-%04d", c.day ?? 1, months[(c.month ?? 1) - 1], c.year ?? 1985)
        if format == .bdf { header += [0xFF] + Self.field("BIOSEMI", 7) } else { header += Self.field("0", 8) }
        header += Self.field(patient, 80)
        header += Self.field("Startdate \(startdate) X X \(equipment)", 80)
        header += Self.field(String(format: "%02d.%02d.%02d", c.day ?? 1, c.month ?? 1, (c.year ?? 1985) % 100), 8)
        header += Self.field(String(format: "%02d.%02d.%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0), 8)
        header += Self.field(String(256 * (signals + 1)), 8)
        header += Self.field(format == .bdf ? "24BIT" : "EDF+C", 44)
        header += Self.field(String(records), 8) + Self.field(String(seconds), 8) + Self.field(String(signals), 4)
        let annotation = format == .edf
        func perSignal(_ width: Int, _ channel: (Int) -> String, annotations: String) {
            for i in channelNames.indices { header += Self.field(channel(i), width) }
            if annotation { header += Self.field(annotations, width) }
        }
        perSignal(16, { Self.ascii(channelNames[$0]) }, annotations: "EDF Annotations")
        perSignal(80, { _ in "" }, annotations: "")
        perSignal(8, { _ in dimension }, annotations: "")
        perSignal(8, { Self.number(scales[$0].physicalMinimum) }, annotations: "-1")
        perSignal(8, { Self.number(scales[$0].physicalMaximum) }, annotations: "1")
        perSignal(8, { _ in String(digitalMinimum) }, annotations: "-32768")
        perSignal(8, { _ in String(digitalMaximum) }, annotations: "32767")
        perSignal(80, { _ in "" }, annotations: "")
        perSignal(8, { _ in String(perRecord) }, annotations: String(annotationSamples))
        perSignal(32, { _ in "" }, annotations: "")

        let recordBytes = (channelNames.count * perRecord + (annotation ? annotationSamples : 0)) * width
        var body = [UInt8](repeating: 0, count: records * recordBytes)
        for (channel, values) in samples.enumerated() {
            let scale = scales[channel]
            let gain = scale.step
            var last = Float.nan
            for r in 0..<records {
                var offset = r * recordBytes + channel * perRecord * width
                for i in 0..<perRecord {
                    let s = r * perRecord + i
                    var digital: Int
                    let value = s < count ? values[s] : last
                    if s < count { last = value }
                    if value.isFinite {
                        digital = Int(((Double(value) - scale.physicalMinimum) / gain).rounded()) + digitalMinimum
                        digital = min(max(digital, digitalMinimum), digitalMaximum)
                    } else {
                        digital = digitalMinimum
                    }
                    let bits = UInt32(bitPattern: Int32(digital))
                    body[offset] = UInt8(truncatingIfNeeded: bits)
                    body[offset + 1] = UInt8(truncatingIfNeeded: bits >> 8)
                    if width == 3 { body[offset + 2] = UInt8(truncatingIfNeeded: bits >> 16) }
                    offset += width
                }
            }
        }
        if annotation {
            for r in 0..<records {
                let tal = Array("+\(r * seconds)\u{14}\u{14}\u{0}".utf8)
                let offset = r * recordBytes + channelNames.count * perRecord * width
                for (k, byte) in tal.enumerated() { body[offset + k] = byte }
            }
        }
        var data = Data(header)
        data.append(contentsOf: body)
        return (data, scales)
    }

    /// The scale of one channel: its finite range, widened outward to 8-character numbers.
    static func scale(_ name: String, _ values: [Float], digitalRange: Double) throws -> ChannelScale {
        var low = Double.infinity, high = -Double.infinity, nonFinite = 0
        for v in values {
            if v.isFinite {
                low = min(low, Double(v))
                high = max(high, Double(v))
            } else {
                nonFinite += 1
            }
        }
        if low > high { low = -1; high = 1 }          // no finite sample
        if high - low < 1e-3 { low -= 1; high += 1 }   // a flat channel
        guard let minimum = outward(low, up: false), let maximum = outward(high, up: true) else {
            throw LabFormatError("channel \(name)", "its values (\(low) to \(high) µV) do not fit the header's 8-character numbers")
        }
        return ChannelScale(name: name, physicalMinimum: minimum, physicalMaximum: maximum,
                            step: (maximum - minimum) / digitalRange, nonFinite: nonFinite)
    }

    /// `value` rounded outward (down for a minimum, up for a maximum) to the
    /// most decimals that fit 8 characters; nil when even none fit.
    static func outward(_ value: Double, up: Bool) -> Double? {
        for decimals in stride(from: 6, through: 0, by: -1) {
            let scale = pow(10, Double(decimals))
            let rounded = (up ? (value * scale).rounded(.up) : (value * scale).rounded(.down)) / scale
            let text = String(format: "%.\(decimals)f", rounded)
            if text.utf8.count <= 8, let parsed = Double(text) { return parsed }
        }
        return nil
    }

    /// A header number: the shortest text of `value` (which ``outward(_:up:)`` made fit).
    static func number(_ value: Double) -> String {
        for decimals in 0...6 {
            let text = String(format: "%.\(decimals)f", value)
            if Double(text) == value, text.utf8.count <= 8 { return text }
        }
        return String(String(format: "%.6f", value).prefix(8))
    }

    /// Printable ASCII: other characters become "_".
    static func ascii(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value >= 32 && $0.value < 127 ? Character($0) : "_" })
    }

    /// A space-padded ASCII field of `width` bytes.
    static func field(_ text: String, _ width: Int) -> [UInt8] {
        let bytes = Array(ascii(text).utf8.prefix(width))
        return bytes + [UInt8](repeating: 0x20, count: width - bytes.count)
    }
}
