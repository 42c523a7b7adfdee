import Decoding
import Foundation

/// Reads a LabRecorder XDF file into a ``ContinuousRecording``: the one EEG
/// stream (its samples, channel labels and fitted sample clock) and the
/// string markers of the one marker stream, placed on that clock.
///
/// Clocks: each stream's ClockOffset chunks are fitted with a robust line
/// (offset against collection time) and every time stamp `t` becomes
/// `t + offset(t)`, as pyxdf does by default. The EEG stamps are then fitted
/// with a line per segment (see ``XDFSampleClock``): the fitted rate is the
/// recording's rate, resets and gaps are reported in
/// ``ContinuousRecording/warnings``, and each marker's sample is the one at
/// or after its time. Isolated NaN samples are interpolated (and reported);
/// a channel with no finite sample is left out (and reported).
public enum XDFImporter {
    /// The recording in `url`. `stream` names the EEG stream when the file
    /// holds several numeric ones; `markers` names the marker stream when it
    /// holds several string ones. Throws an ``LabFormatError`` (one line naming
    /// the file) for anything it cannot use.
    public static func read(_ url: URL, stream: String? = nil, markers: String? = nil) throws -> ContinuousRecording {
        let name = url.lastPathComponent
        let file = try file(url)
        do {
            let eeg = try chooseEEG(file.streams, named: stream, file: name)
            return try read(eeg: eeg, markers: try chooseMarkers(file.streams, named: markers, file: name), name: name,
                            fileWarnings: file.warnings)
        } catch let error as LabFormatError {
            throw cutShort(error, file)
        }
    }

    /// `error` with the file's cut said beside it, when the file ends inside
    /// a chunk: a stream missing from a file cut short is no fault of its content.
    static func cutShort(_ error: LabFormatError, _ file: XDFFile) -> LabFormatError {
        guard let cut = file.warnings.first(where: { $0.hasPrefix("the file ends inside chunk") }) else { return error }
        return LabFormatError(error.subject, error.reason + "; \(cut.prefix { $0 != ":" }): cut short, and what followed is lost")
    }

    /// The streams of the XDF file at `url`, parsed.
    static func file(_ url: URL) throws -> XDFFile {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw LabFormatError.unreadable(url, error)
        }
        return try XDFFile(bytes: [UInt8](data), name: url.lastPathComponent)
    }

    /// The recording made of the EEG stream `eeg` and the marker stream
    /// `marks` of a file named `name` (in errors), chosen by ``chooseEEG(_:named:file:)``
    /// and ``chooseMarkers(_:named:file:)``.
    static func read(eeg: XDFStream, markers marks: XDFStream, name: String, fileWarnings: [String] = []) throws -> ContinuousRecording {
        let subject = "\(name): stream \"\(eeg.header.name)\""
        let clock = try XDFSampleClock(stamps: corrected(eeg), nominalRate: eeg.header.nominalRate, subject: subject)
        var warnings = fileWarnings + clock.warnings
        if eeg.omittedStamps > 0, eeg.header.nominalRate <= 0 {
            warnings.append("\(eeg.omittedStamps) EEG sample(s) came without a time stamp and the stream has no nominal rate")
        }
        // A channel without a label is named by its number, as --channels counts them.
        var labels = (1...eeg.header.channelCount).map { c in eeg.header.labels.count >= c && !eeg.header.labels[c - 1].isEmpty ? eeg.header.labels[c - 1] : "\(c)" }
        var samples = eeg.values
        // Channels in a voltage unit are scaled to µV, as every importer gives them; a channel in
        // another unit is kept apart (left out of the EEG, with a warning); none given: as recorded.
        var otherUnits: [String: String] = [:]
        for (c, unit) in eeg.header.units.enumerated() where !unit.isEmpty {
            if let scale = HeaderText.microvoltsPer(unit) {
                if scale != 1 { samples[c] = samples[c].map { Float(Double($0) * scale) } }
            } else {
                otherUnits[labels[c]] = unit
            }
        }
        let repair = try SampleRepair.interpolateNonFinite(&samples, names: &labels, rate: clock.rate, subject: subject)
        warnings += repair.warnings
        let times = corrected(marks)
        let placed = clock.locate(times)
        let recordingMarkers = zip(placed, marks.strings).map { RecordingMarker(sample: $0.sample, seconds: $0.seconds, text: $1, inSkip: $0.inSkip) }
        let outside = recordingMarkers.filter { $0.sample < 0 || $0.sample >= eeg.sampleCount }.count
        if outside > 0 {
            warnings.append("\(outside) of \(recordingMarkers.count) marker(s) of \"\(marks.header.name)\" fall outside the EEG recording")
        }
        if eeg.header.nominalRate > 0, abs(clock.rate / eeg.header.nominalRate - 1) > 0.01 {
            warnings.append("the time stamps give \(RateText.format(clock.rate)) Hz, more than 1 % off the nominal \(String(format: "%g", eeg.header.nominalRate)) Hz")
        }
        let source = "XDF \(name): EEG stream \"\(eeg.header.name)\" (\(eeg.header.channelCount) ch, \(RateText.format(clock.rate)) Hz fitted), markers \"\(marks.header.name)\""
        var recording = ContinuousRecording(sampleRate: clock.rate, channelNames: labels, samples: samples, markers: recordingMarkers,
                                            source: source, warnings: warnings, deadChannels: repair.dead, gaps: repair.gaps)
        recording.skips = clock.skips
        recording.otherUnits = otherUnits
        return recording
    }

    /// The stream's time stamps moved onto the recording clock by the robust
    /// line through its clock offsets (none: unchanged; one: a constant).
    static func corrected(_ stream: XDFStream) -> [Double] {
        let times = stream.clockTimes, values = stream.clockValues
        guard !times.isEmpty else { return stream.stamps }
        let fit = LineFit.robust(x: times, y: values) ?? LineFit(intercept: values.sorted()[values.count / 2], slope: 0)
        return stream.stamps.map { $0 + fit($0) }
    }

    static func chooseEEG(_ streams: [XDFStream], named: String?, file: String) throws -> XDFStream {
        let numeric = streams.filter { $0.header.format != .string }
        if let named {
            guard let chosen = numeric.first(where: { $0.header.name == named }) else {
                throw LabFormatError(file, "no numeric stream named \"\(named)\" (numeric streams: \(list(numeric)))")
            }
            return chosen
        }
        let typed = numeric.filter { $0.header.type.lowercased() == "eeg" }
        let candidates = typed.isEmpty ? numeric.filter { $0.header.nominalRate > 0 } : typed
        guard let first = candidates.first else {
            throw LabFormatError(file, "no EEG stream (no stream of type EEG and no numeric regular-rate stream; streams: \(list(streams)))")
        }
        guard candidates.count == 1 else {
            throw LabFormatError(file, "several EEG streams (\(list(candidates))): choose one with --stream NAME")
        }
        return first
    }

    static func chooseMarkers(_ streams: [XDFStream], named: String?, file: String) throws -> XDFStream {
        let strings = streams.filter { $0.header.format == .string }
        if let named {
            guard let chosen = strings.first(where: { $0.header.name == named }) else {
                throw LabFormatError(file, "no string marker stream named \"\(named)\" (string streams: \(list(strings)))")
            }
            return chosen
        }
        guard let first = strings.first else {
            throw LabFormatError(file, "no marker stream (no stream of string markers; streams: \(list(streams)))")
        }
        guard strings.count == 1 else {
            throw LabFormatError(file, "several marker streams (\(list(strings))): choose one with --markers NAME")
        }
        return first
    }

    private static func list(_ streams: [XDFStream]) -> String {
        streams.isEmpty ? "none" : streams.map { "\"\($0.header.name)\" (\($0.header.type), \($0.header.format.rawValue))" }.joined(separator: ", ")
    }
}
