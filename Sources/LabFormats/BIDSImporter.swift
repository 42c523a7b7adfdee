import Foundation

/// Reads one BIDS-EEG recording: the `*_eeg.bdf`, `*_eeg.edf` or
/// `*_eeg.vhdr` file (read by ``EDFImporter`` or ``BrainVisionImporter``)
/// with its sidecars in the same folder.
///
/// - Markers come from the sibling `*_events.tsv` and replace the data
///   file's own (BIDS makes the events file the record of what happened):
///   one marker per row, its text the `trial_type` cell, or the `value` cell
///   when the table has no `trial_type` column or the cell is "n/a"; rows
///   with neither are left out with a warning. `onset` is in seconds from the
///   first sample, so the marker's sample is round(onset × rate); `duration`
///   ("n/a" allowed) becomes the marker's duration. Without an events file
///   the data file's own markers are kept, with a warning.
/// - Channel names come from the sibling `*_channels.tsv` (`name` column)
///   when it lists as many channels as the recording keeps; channels whose
///   `status` is "bad" are named in a warning.
///
/// - A sibling `*_stim.tsv.gz` (the per-sample object states
///   `noisetag recordings export` writes) is read by ``stimulus(_:)``, so
///   the trials can be cut without codes (``StimulusTrialCutter``).
public enum BIDSImporter {
    /// The recording at `url`: a `*_eeg.{bdf,edf,vhdr}` file, or a folder
    /// holding exactly one (directly or in its `eeg` subfolder).
    public static func read(_ url: URL) throws -> ContinuousRecording {
        let dataURL = try dataFile(url)
        let ext = dataURL.pathExtension.lowercased()
        var recording = ext == "vhdr" ? try BrainVisionImporter.read(dataURL) : try EDFImporter.read(dataURL)
        let name = dataURL.lastPathComponent
        let stem = Self.stem(name)
        let folder = dataURL.deletingLastPathComponent()
        recording.source = "BIDS-EEG " + recording.source

        let channelsURL = folder.appendingPathComponent(stem + "_channels.tsv")
        if FileManager.default.fileExists(atPath: channelsURL.path) {
            let table = try BIDSTable(channelsURL)
            guard let nameColumn = table.column("name") else { throw LabFormatError(channelsURL.lastPathComponent, "has no \"name\" column") }
            let names = table.rows.map { table.cell($0.cells, nameColumn) ?? "" }
            if names.count == recording.channelNames.count, !names.contains("") {
                recording.channelNames = names
            } else {
                recording.warnings.append("\(channelsURL.lastPathComponent): lists \(names.count) channels, the recording keeps \(recording.channelNames.count); names kept from \(name)")
            }
            let statusColumn = table.column("status")
            let bad = table.rows.filter { table.cell($0.cells, statusColumn)?.lowercased() == "bad" }.map { table.cell($0.cells, nameColumn) ?? "?" }
            if !bad.isEmpty { recording.warnings.append("\(channelsURL.lastPathComponent): marks \(bad.count) channel(s) bad: \(bad.joined(separator: ", "))") }
        }

        let eventsURL = folder.appendingPathComponent(stem + "_events.tsv")
        guard FileManager.default.fileExists(atPath: eventsURL.path) else {
            recording.warnings.append("\(name): no \(eventsURL.lastPathComponent) beside it; the data file's own \(recording.markers.count) markers kept")
            return recording
        }
        recording.markers = try events(BIDSTable(eventsURL), fs: recording.sampleRate, name: eventsURL.lastPathComponent,
                                       warnings: &recording.warnings)
        return recording
    }

    /// The stimulus file beside the recording at `url` (`*_stim.tsv.gz` with
    /// its `*_stim.json`), nil when it has none.
    public static func stimulus(_ url: URL) throws -> BIDSStimulus? {
        guard let file = try stimulusFile(url) else { return nil }
        return try BIDSStimulus.read(file)
    }

    /// The `*_stim.tsv.gz` beside the recording at `url`, nil when there is none.
    public static func stimulusFile(_ url: URL) throws -> URL? {
        let dataURL = try dataFile(url)
        let file = dataURL.deletingLastPathComponent().appendingPathComponent(stem(dataURL.lastPathComponent) + "_stim.tsv.gz")
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }

    /// The markers of an events table, in onset order.
    static func events(_ table: BIDSTable, fs: Double, name: String, warnings: inout [String]) throws -> [RecordingMarker] {
        guard let onsetColumn = table.column("onset") else { throw LabFormatError(name, "has no \"onset\" column") }
        let typeColumn = table.column("trial_type"), valueColumn = table.column("value")
        guard typeColumn != nil || valueColumn != nil else { throw LabFormatError(name, "has neither a \"trial_type\" nor a \"value\" column") }
        let durationColumn = table.column("duration")
        var markers: [RecordingMarker] = []
        var unnamed: [Int] = []
        for (line, cells) in table.rows {
            guard let onsetText = table.cell(cells, onsetColumn), let onset = HeaderText.number(onsetText) else {
                throw LabFormatError(name, "line \(line): onset \"\(onsetColumn < cells.count ? cells[onsetColumn] : "")\" is not a number of seconds")
            }
            guard let text = table.cell(cells, typeColumn) ?? table.cell(cells, valueColumn) else {
                unnamed.append(line)
                continue
            }
            var duration: Double?
            if let d = table.cell(cells, durationColumn) {
                guard let v = HeaderText.number(d), v >= 0 else { throw LabFormatError(name, "line \(line): duration \"\(d)\" is not a number of seconds") }
                duration = v
            }
            let exact = onset * fs
            guard abs(exact) < 1e15 else { throw LabFormatError(name, "line \(line): onset \(onsetText) s is out of range") }
            markers.append(RecordingMarker(sample: Int(exact.rounded()), seconds: onset, duration: duration, text: text))
        }
        if !unnamed.isEmpty {
            warnings.append("\(name): \(unnamed.count) event(s) with neither trial_type nor value left out (line \(unnamed.prefix(5).map(String.init).joined(separator: ", "))\(unnamed.count > 5 ? ", …" : ""))")
        }
        return markers.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }.map(\.element)
    }

    /// The data file `url` names: itself, or the one `*_eeg.{bdf,edf,vhdr}` in
    /// the folder or its `eeg` subfolder, else the one anywhere below it (a
    /// whole dataset, or a subject with sessions, holding one recording).
    static func dataFile(_ url: URL) throws -> URL {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw LabFormatError(url.lastPathComponent, "no such file or folder (\(url.path))")
        }
        guard isFolder.boolValue else {
            guard ["bdf", "edf", "vhdr"].contains(url.pathExtension.lowercased()) else {
                throw LabFormatError(url.lastPathComponent, "is not a BIDS-EEG data file (*_eeg.bdf, *_eeg.edf or *_eeg.vhdr)")
            }
            return url
        }
        for folder in [url, url.appendingPathComponent("eeg")] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let found = names.filter { name in
                let lower = name.lowercased()
                return ["_eeg.bdf", "_eeg.edf", "_eeg.vhdr"].contains { lower.hasSuffix($0) }
            }.sorted()
            if found.count > 1 {
                throw LabFormatError(url.lastPathComponent, "holds \(found.count) recordings (\(found.prefix(4).joined(separator: ", "))); name one of them")
            }
            if let one = found.first { return folder.appendingPathComponent(one) }
        }
        let below = (FileManager.default.subpaths(atPath: url.path) ?? []).filter { path in
            let lower = path.lowercased()
            return path.split(separator: "/").count <= 5 && ["_eeg.bdf", "_eeg.edf", "_eeg.vhdr"].contains { lower.hasSuffix($0) }
        }.sorted()
        if below.count > 1 {
            throw LabFormatError(url.lastPathComponent, "holds \(below.count) recordings (\(below.prefix(4).joined(separator: ", "))); name one of them")
        }
        if let one = below.first { return url.appendingPathComponent(one) }
        throw LabFormatError(url.lastPathComponent, "holds no *_eeg.bdf, *_eeg.edf or *_eeg.vhdr file")
    }

    /// "sub-01_task-cvep_eeg.vhdr" → "sub-01_task-cvep" (the name less its extension and "_eeg").
    static func stem(_ name: String) -> String {
        var stem = (name as NSString).deletingPathExtension
        if stem.lowercased().hasSuffix("_eeg") { stem.removeLast(4) }
        return stem
    }
}
