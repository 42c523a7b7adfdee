import Foundation

/// Reads EDF, EDF+ (16-bit) and BDF, BDF+ (BioSemi, 24-bit) files into a
/// ``ContinuousRecording``.
///
/// Written in Swift to the EDF/EDF+ and BDF specifications rather than by
/// wrapping EDFlib: Debian's `libedf-dev` ships neither a pkg-config file
/// (so it cannot be a `.systemLibrary(pkgConfig:)` target like CFFTW) nor a
/// shared-library-only build, and EDFlib refuses files real programs write
/// (it rejects MNE's own BioSemi test file for its record count), while the
/// importer has to read leniently and say what it worked around.
///
/// - Samples: digital values scaled by `phys_min + (dig − dig_min) ·
///   (phys_max − phys_min) / (dig_max − dig_min)` (inverted physical ranges
///   invert the signal), converted to µV for V/mV/µV/uV/nV channels; other
///   units are kept as they are, with a warning.
/// - Rates: the kept rate is the one most voltage channels share (the higher
///   on a tie); every signal at another rate is dropped with a warning.
/// - Markers: "EDF Annotations"/"BDF Annotations" signals (any number of
///   them) give one marker per annotation text, at its onset less the first
///   record's onset (the start offset of the first sample); a BDF/EDF
///   "Status" channel gives trigger markers (``BDFStatusTriggers``). Neither
///   is kept as a channel. A marker's sample is the first at or after its time.
/// - EDF+D: every record is placed at its own onset (its time-keeping TAL);
///   gaps between records are filled with zeros and reported in a warning.
/// - Damage: a partial last record, or a header announcing more records than
///   the file holds, reads the complete records with a warning; a file with
///   annotations only, or no complete record, is an ``LabFormatError``.
public enum EDFImporter {
    /// The recording in the EDF/EDF+/BDF file at `url`, or an ``LabFormatError``.
    public static func read(_ url: URL) throws -> ContinuousRecording {
        let name = url.lastPathComponent
        let bytes = try HeaderText.contents(url)
        let header = try EDFHeader(bytes, name: name)
        var warnings = header.warnings
        var otherRate: [String: String] = [:]
        let signals = header.signals
        let bps = header.bytesPerSample
        let recordBytes = header.recordBytes
        guard recordBytes > 0 else { throw LabFormatError(name, "every signal has 0 samples per data record") }

        let available = bytes.count - header.headerBytes
        let complete = available / recordBytes
        let leftover = available - complete * recordBytes
        var records = header.records ?? complete
        if records > complete {
            warnings.append("\(name): header says \(records) data records, the file holds \(complete) complete ones"
                            + (leftover > 0 ? " and \(leftover) bytes of a partial one" : "") + "; read \(complete)")
            records = complete
        } else if available > records * recordBytes {
            warnings.append("\(name): \(available - records * recordBytes) bytes after the last of the \(records) data records ignored")
        }
        guard records > 0 else {
            throw LabFormatError(name, "holds no complete data record (records of \(recordBytes) bytes after a \(header.headerBytes)-byte header, file of \(bytes.count) bytes)")
        }
        func start(ofRecord r: Int, signal s: Int) -> Int { header.headerBytes + r * recordBytes + signals[s].offsetInRecord }

        // Annotations and record onsets.
        let annotationSignals = signals.indices.filter { signals[$0].isAnnotations }
        var recordOnsets = [Double?](repeating: nil, count: records)
        var entries: [EDFAnnotations.Entry] = []
        var problems: [String] = []
        for r in 0..<records {
            for (k, s) in annotationSignals.enumerated() {
                let from = start(ofRecord: r, signal: s)
                let tals = EDFAnnotations(bytes[from..<(from + signals[s].samplesPerRecord * bps)], timeKeeping: k == 0)
                if k == 0 { recordOnsets[r] = tals.recordOnset }
                entries += tals.entries
                problems += tals.problems.map { "record \(r + 1): \($0)" }
            }
        }
        if let problem = problems.first {
            warnings.append("\(name): \(problem)" + (problems.count > 1 ? " (and \(problems.count - 1) more unreadable TALs)" : ""))
        }

        let status = signals.indices.first { signals[$0].isStatus && !signals[$0].isAnnotations && signals[$0].samplesPerRecord > 0 }
        let data = signals.indices.filter { !signals[$0].isAnnotations && $0 != status && signals[$0].samplesPerRecord > 0 }
        guard !data.isEmpty else {
            throw LabFormatError(name, "holds annotations only (\(entries.count) annotations, \(status == nil ? "no" : "a Status") trigger channel), no signal to import")
        }
        guard header.recordDuration > 0 else { throw LabFormatError(name, "data record duration is 0, but the file holds signals") }

        // The kept rate: the samples per record most voltage channels share.
        let voltage = data.filter { HeaderText.microvoltsPer(signals[$0].dimension) != nil }
        var counts: [Int: Int] = [:]
        for s in voltage.isEmpty ? data : voltage { counts[signals[s].samplesPerRecord, default: 0] += 1 }
        let spr = counts.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key ?? signals[data[0]].samplesPerRecord
        let kept = data.filter { signals[$0].samplesPerRecord == spr }
        let dropped = data.filter { signals[$0].samplesPerRecord != spr }
        let fs = Double(spr) / header.recordDuration
        guard fs <= 1e6 else { throw LabFormatError(name, "sample rate \(format(fs)) Hz (\(spr) samples per \(format(header.recordDuration)) s record) is not believable") }
        for s in dropped {
            otherRate[signals[s].label] = "it is sampled at \(format(Double(signals[s].samplesPerRecord) / header.recordDuration)) Hz, "
                + "and an import keeps one rate, \(format(fs)) Hz, that of most channels"
        }
        if !dropped.isEmpty {
            warnings.append("\(name): \(dropped.count) signal(s) not at \(format(fs)) Hz dropped: "
                            + dropped.prefix(8).map { "\(signals[$0].label) (\(format(Double(signals[$0].samplesPerRecord) / header.recordDuration)) Hz)" }.joined(separator: ", ")
                            + (dropped.count > 8 ? ", …" : ""))
        }
        for s in kept where signals[s].digitalMaximum == signals[s].digitalMinimum || signals[s].physicalMaximum == signals[s].physicalMinimum {
            throw LabFormatError(name, "signal \(s + 1) (\(signals[s].label)): empty \(signals[s].digitalMaximum == signals[s].digitalMinimum ? "digital" : "physical") range, cannot scale")
        }

        // Where each record goes: end to end, or (EDF+D) at its own onset.
        let onset0 = recordOnsets[0] ?? 0
        var starts = (0..<records).map { $0 * spr }
        var recordSeconds = (0..<records).map { Double($0) * header.recordDuration }
        if header.plus == "D" {
            var missing = 0
            for r in 0..<records {
                if let onset = recordOnsets[r], abs((onset - onset0) * fs) < 1e12 {
                    recordSeconds[r] = onset - onset0
                    starts[r] = Int(((onset - onset0) * fs).rounded())
                } else {
                    missing += 1
                    recordSeconds[r] = r == 0 ? 0 : recordSeconds[r - 1] + header.recordDuration
                    starts[r] = r == 0 ? 0 : starts[r - 1] + spr
                }
            }
            if missing > 0 { warnings.append("\(name): \(missing) EDF+D record(s) without a time-keeping TAL placed right after the record before") }
        }
        let length = starts.map { $0 + spr }.max() ?? 0
        guard starts.allSatisfy({ $0 >= 0 }), length <= 4 * records * spr + Int(86400 * fs), length * kept.count <= 1 << 31 else {
            throw LabFormatError(name, "EDF+D record onsets run from \(format(recordSeconds.min() ?? 0)) s to \(format(recordSeconds.max() ?? 0)) s, far from the \(format(Double(records) * header.recordDuration)) s recorded")
        }
        if header.plus == "D" {
            let gap = Double(length - records * spr) / fs
            warnings.append("\(name): EDF+D (discontinuous): records placed at their onsets"
                            + (gap > 0 ? ", \(format(gap)) s of gaps filled with zeros" : ", no gaps"))
            let overlaps = (1..<records).filter { starts[$0] < starts[$0 - 1] + spr }.count
            if overlaps > 0 { warnings.append("\(name): \(overlaps) EDF+D record(s) overlap the one before; the later one is kept") }
        }

        // Samples, in µV where the unit is a voltage.
        var samples: [[Float]] = []
        var otherUnits: [String: String] = [:]
        samples.reserveCapacity(kept.count)
        for s in kept {
            let signal = signals[s]
            let toMicrovolts = HeaderText.microvoltsPer(signal.dimension) ?? 1
            if HeaderText.microvoltsPer(signal.dimension) == nil { otherUnits[signal.label] = signal.dimension.isEmpty ? "no unit" : signal.dimension }
            let gain = signal.gain * toMicrovolts
            let offset = signal.physicalMinimum * toMicrovolts - signal.digitalMinimum * gain
            for end in [signal.digitalMinimum, signal.digitalMaximum] where !Float(offset + gain * end).isFinite {
                throw LabFormatError(name, "signal \(s + 1) (\(signal.label)): physical range \(signal.physicalMinimum) to \(signal.physicalMaximum)"
                                     + (signal.dimension.isEmpty ? "" : " \(signal.dimension)") + " is beyond a 32-bit float (±3.4e38), cannot scale")
            }
            var channel = [Float](repeating: 0, count: length)
            for r in 0..<records {
                let from = start(ofRecord: r, signal: s)
                for i in 0..<spr {
                    channel[starts[r] + i] = Float(offset + gain * Double(digital(bytes, from + i * bps, bdf: header.isBDF)))
                }
            }
            samples.append(channel)
        }

        // Markers: annotations, then Status triggers, in time order.
        var markers = entries.map { entry in
            let seconds = entry.onset - onset0
            return RecordingMarker(sample: sampleAtOrAfter(seconds, fs), seconds: seconds, duration: entry.duration, text: entry.text)
        }
        if let status {
            let statusRate = Double(signals[status].samplesPerRecord) / header.recordDuration
            var triggers = BDFStatusTriggers()
            for r in 0..<records {
                let from = start(ofRecord: r, signal: status)
                for i in 0..<signals[status].samplesPerRecord {
                    let seconds = recordSeconds[r] + Double(i) / statusRate
                    let sample = starts[r] + sampleAtOrAfter(Double(i) / statusRate, fs)
                    triggers.add(digital(bytes, from + i * bps, bdf: header.isBDF), seconds: seconds, sample: sample)
                }
            }
            markers += triggers.markers
            if let code = triggers.raisedAtStart {
                warnings.append("\(name): Status was already \(code) at the first sample: a marker \"\(code)\" at 0.000 s "
                                + "(a trigger raised before the recording began, or a port resting at that value)")
            }
        }
        markers = markers.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }.map(\.element)

        let prefilters = Array(Set(kept.map { signals[$0].prefilter }.filter(statesFiltering))).sorted()
        var recording = ContinuousRecording(sampleRate: fs, channelNames: kept.map { signals[$0].label }, samples: samples,
                                            markers: markers, source: source(header, name: name),
                                            filtered: prefilters.isEmpty ? nil : prefilters.joined(separator: "; "), warnings: warnings)
        recording.otherUnits = otherUnits
        recording.otherRateChannels = otherRate
        return recording
    }

    /// The digital value at `offset`: 16-bit (EDF) or 24-bit (BDF)
    /// little-endian two's complement. The caller keeps `offset` in bounds.
    static func digital(_ bytes: [UInt8], _ offset: Int, bdf: Bool) -> Int32 {
        if bdf {
            let raw = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            return Int32(bitPattern: raw << 8) >> 8
        }
        return Int32(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8))
    }

    /// The first sample index at or after `seconds` (within a millionth of a sample).
    static func sampleAtOrAfter(_ seconds: Double, _ fs: Double) -> Int {
        let exact = seconds * fs
        guard exact.isFinite, abs(exact) < 1e15 else { return exact < 0 ? Int.min / 2 : Int.max / 2 }
        return Int((exact - 1e-6).rounded(.up))
    }

    /// Whether a prefilter field says a filter was applied: non-empty, not
    /// "No filtering", and some number in it is not zero ("HP:0Hz LP:0Hz N:0Hz" is none).
    private static func statesFiltering(_ prefilter: String) -> Bool {
        let text = prefilter.lowercased()
        guard !text.isEmpty, !text.hasPrefix("no filter"), text != "none" else { return false }
        if text.contains("dc") { return true }
        return text.contains { $0.isNumber && $0 != "0" }
    }

    /// "BDF, file.bdf" or "EDF+C from BCI2000, file.edf" (EDF+ names the equipment).
    private static func source(_ header: EDFHeader, name: String) -> String {
        let fields = header.recording.split(separator: " ")
        if header.plus != nil, fields.first == "Startdate", fields.count >= 5, fields[4] != "X" {
            return "\(header.formatName) from \(fields[4]), \(name)"
        }
        return "\(header.formatName), \(name)"
    }

    private static func format(_ x: Double) -> String { String(format: "%g", x) }
}
