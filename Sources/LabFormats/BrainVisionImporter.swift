import Foundation

/// Reads a BrainVision recording (Brain Products' Recorder and many others):
/// the header (.vhdr) names the data file (.eeg) and the marker file (.vmrk).
///
/// - Data: `DataFormat=BINARY` (`INT_16`, `UINT_16`, `INT_32`,
///   `IEEE_FLOAT_32`, `IEEE_FLOAT_64`, little-endian unless
///   `UseBigEndianOrder=YES`) or `ASCII` (`[ASCII Infos]` `DecimalSymbol`,
///   `SkipLines`, `SkipColumns`), `MULTIPLEXED` or `VECTORIZED`.
/// - Non-finite samples (float or ASCII data): isolated ones interpolated, a
///   channel with no finite sample left out, each with a warning.
/// - Scaling: each value × its channel's resolution, in µV for the units
///   µV/uV (and an empty unit), nV, mV and V; channels in other units keep
///   value × resolution in their own unit, with a warning.
/// - Markers: `Mk<n>=Type,Description,Position,Points,Channel[,Date]`; the
///   text is `Type/Description` ("Stimulus/S253", "Response/R255",
///   "Event/254"), as MNE and mne-bids name BrainVision markers, or the type
///   alone when the description is empty ("New Segment"). A trial-start
///   regex matches the description naturally at the end: `S253$`, or
///   `^Stimulus/S253$` to be strict. Position is 1-based: sample = Position − 1;
///   duration = Points / rate.
/// - A missing marker file is a warning (no markers); a missing data file,
///   an unknown format or an unreadable header field is an ``LabFormatError``.
public enum BrainVisionImporter {
    /// The recording whose header is the .vhdr at `url`, or an ``LabFormatError``.
    public static func read(_ url: URL) throws -> ContinuousRecording {
        let name = url.lastPathComponent
        let header = BrainVisionHeader(try HeaderText.read(url))
        var warnings: [String] = []
        guard header.firstLine.replacingOccurrences(of: " ", with: "").lowercased().hasPrefix("brainvisiondataexchangeheader")
              || header.sections["common infos"] != nil else {
            throw LabFormatError(name, "not a BrainVision header (first line \"\(header.firstLine.prefix(60))\")")
        }
        func required(_ section: String, _ key: String) throws -> String {
            guard let v = header.value(section, key), !v.isEmpty else { throw LabFormatError(name, "[\(section)] has no \(key)") }
            return v
        }
        let folder = url.deletingLastPathComponent()
        let base = url.deletingPathExtension().lastPathComponent
        // A file as named (absolute, or relative to the header); when that is not there, its
        // name alone beside the header (a folder copied from another machine), with a warning.
        func sibling(_ file: String) -> URL {
            let named = file.replacingOccurrences(of: "$b", with: base)
            let written = named.hasPrefix("/") ? URL(fileURLWithPath: named) : folder.appendingPathComponent(named)
            let alone = named.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? named
            let beside = folder.appendingPathComponent(alone)
            guard !FileManager.default.fileExists(atPath: written.path), alone != named,
                  FileManager.default.fileExists(atPath: beside.path) else { return written }
            warnings.append("\(name): \(named) is not there; read \(alone) beside the header")
            return beside
        }

        let dataFile = try required("Common Infos", "DataFile")
        let countText = try required("Common Infos", "NumberOfChannels")
        guard let count = HeaderText.integer(countText), count >= 1, count <= 100_000 else {
            throw LabFormatError(name, "NumberOfChannels is not a whole number from 1 to 100000: \"\(countText)\"")
        }
        let intervalText = try required("Common Infos", "SamplingInterval")
        guard let interval = HeaderText.number(intervalText), interval > 0 else {
            throw LabFormatError(name, "SamplingInterval (µs) is not a positive number: \"\(intervalText)\"")
        }
        let fs = 1e6 / interval
        if let type = header.value("Common Infos", "DataType"), type.uppercased() != "TIMEDOMAIN" {
            throw LabFormatError(name, "DataType=\(type) is not supported (only TIMEDOMAIN)")
        }
        let orientation = (header.value("Common Infos", "DataOrientation") ?? "MULTIPLEXED").uppercased()
        guard orientation == "MULTIPLEXED" || orientation == "VECTORIZED" else {
            throw LabFormatError(name, "DataOrientation=\(orientation) is not supported (MULTIPLEXED or VECTORIZED)")
        }
        let channels = try header.channels(count: count, name: name)

        let dataURL = sibling(dataFile)
        guard FileManager.default.fileExists(atPath: dataURL.path) else {
            throw LabFormatError(name, "its data file \(dataFile.replacingOccurrences(of: "$b", with: base)) is missing (looked for \(dataURL.path))")
        }
        var scales: [Double] = []
        var otherUnits: [String: String] = [:]
        for channel in channels {
            let perUnit = HeaderText.microvoltsPer(channel.unit)
            if perUnit == nil { otherUnits[channel.name] = channel.unit.isEmpty ? "no unit" : channel.unit }
            scales.append(channel.resolution * (perUnit ?? 1))
        }
        let format = (header.value("Common Infos", "DataFormat") ?? "BINARY").uppercased()
        let vectorized = orientation == "VECTORIZED"
        var dataPoints: Int?
        if let text = header.value("Common Infos", "DataPoints"), !text.isEmpty {
            guard let points = HeaderText.integer(text), points >= 1 else {
                throw LabFormatError(name, "DataPoints is not a whole number above 0: \"\(text)\"")
            }
            dataPoints = points
        }
        var samples: [[Float]]
        switch format {
        case "BINARY":
            samples = try BrainVisionData.binary(try HeaderText.contents(dataURL), header: header, scales: scales,
                                                 vectorized: vectorized, dataPoints: dataPoints, name: dataURL.lastPathComponent, warnings: &warnings)
        case "ASCII":
            samples = try BrainVisionData.ascii(try HeaderText.read(dataURL), header: header, scales: scales,
                                                vectorized: vectorized, name: dataURL.lastPathComponent)
        default:
            throw LabFormatError(name, "DataFormat=\(format) is not supported (BINARY or ASCII)")
        }

        // IEEE_FLOAT data (and ASCII's "nan") can hold non-finite samples: repaired, or the channel left out.
        var names = channels.map(\.name)
        let repair = try SampleRepair.interpolateNonFinite(&samples, names: &names, rate: fs, subject: dataURL.lastPathComponent)
        warnings += repair.warnings
        var markers: [RecordingMarker] = []
        if let markerFile = header.value("Common Infos", "MarkerFile"), !markerFile.isEmpty {
            let markerURL = sibling(markerFile)
            if FileManager.default.fileExists(atPath: markerURL.path) {
                markers = try self.markers(BrainVisionHeader(try HeaderText.read(markerURL)), fs: fs,
                                           name: markerURL.lastPathComponent, warnings: &warnings)
            } else {
                warnings.append("\(name): its marker file \(markerFile.replacingOccurrences(of: "$b", with: base)) is missing (looked for \(markerURL.path)); no markers")
            }
        } else {
            warnings.append("\(name): names no MarkerFile; no markers")
        }
        let program = header.program.map { " from \($0)" } ?? ""
        var recording = ContinuousRecording(sampleRate: fs, channelNames: names, samples: samples, markers: markers,
                                            source: "BrainVision\(program), \(name)", warnings: warnings, deadChannels: repair.dead,
                                            gaps: repair.gaps)
        recording.otherUnits = otherUnits
        return recording
    }

    /// The markers of a .vmrk's `[Marker Infos]`, in position order.
    static func markers(_ file: BrainVisionHeader, fs: Double, name: String, warnings: inout [String]) throws -> [RecordingMarker] {
        // Every Mk line, in number order (a number written twice keeps both, in file order).
        let entries = (file.entries["marker infos"] ?? []).compactMap { key, value -> (Int, String)? in
            guard key.hasPrefix("mk"), let n = Int(key.dropFirst(2)) else { return nil }
            return (n, value)
        }.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
        let twice = Set(zip(entries.dropFirst(), entries).filter { $0.0 == $1.0 }.map { $0.0.0 }).sorted()
        if !twice.isEmpty {
            warnings.append("\(name): marker number(s) written twice, both markers kept: " + twice.prefix(8).map { "Mk\($0)" }.joined(separator: ", "))
        }
        var markers: [RecordingMarker] = []
        var unreadable: [String] = []
        for (n, entry) in entries {
            let fields = BrainVisionHeader.fields(entry)
            guard fields.count >= 3, let position = HeaderText.integer(fields[2]), position >= 1 else {
                unreadable.append("Mk\(n)")
                continue
            }
            let type = fields[0], description = fields[1]
            let points = fields.count > 3 ? HeaderText.integer(fields[3]) : nil
            let text = description.isEmpty ? type : type.isEmpty ? description : "\(type)/\(description)"
            markers.append(RecordingMarker(sample: position - 1, seconds: Double(position - 1) / fs,
                                           duration: points.map { Double(max($0, 0)) / fs }, text: text))
        }
        if !unreadable.isEmpty {
            warnings.append("\(name): \(unreadable.count) marker(s) without a readable position left out: "
                            + unreadable.prefix(8).joined(separator: ", "))
        }
        return markers.enumerated().sorted { ($0.element.sample, $0.offset) < ($1.element.sample, $1.offset) }.map(\.element)
    }
}
