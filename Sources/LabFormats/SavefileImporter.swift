import Decoding
import Foundation
import UtopiaProtocol

/// Reads a MindAffect hub savefile (one message per line, see
/// ``SavefileLine``) into a trials dataset with its continuous context: the
/// calibration trials (each NEWTARGET in `Calibration.supervised` mode to
/// the next NEWTARGET or MODECHANGE), labelled with the class whose code
/// object 0 (the cue mirror) showed, and the stimulus states as shown.
///
/// Clock: every message is placed by its server stamp `sts` (the hub's
/// clock, which it derives from each client's `ts`), unwrapped from 32-bit
/// milliseconds. Packets arrive in bursts, so the sample clock is a robust
/// line of packet time against the index of the packet's last sample; its
/// slope gives the rate, and each trial starts at the sample at or after
/// its first STIMULUSEVENT. `V` is each class's state at each sample (the
/// last event at or before the sample's time), by majority over the trials
/// and objects showing that class.
public enum SavefileImporter {
    /// The calibration trials in `url`; throws an ``LabFormatError`` naming the file.
    public static func read(_ url: URL) throws -> TrialsDataset { try readWithWarnings(url).dataset }

    /// The dataset and what was noticed and survived on the way (cut or
    /// unreadable lines, a swapped DATAHEADER, repaired samples).
    public static func readWithWarnings(_ url: URL) throws -> (dataset: TrialsDataset, warnings: [String]) {
        let name = url.lastPathComponent
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw LabFormatError.unreadable(url, error)
        }
        if data.starts(with: [0x1F, 0x8B]) { throw LabFormatError(name, "gzip-compressed: gunzip it first") }
        let text = String(decoding: data, as: UTF8.self)
        var warnings: [String] = []
        var packets: [(time: Double, samples: [[Float]])] = []
        var channels: Int?
        var headerNumbers: (fs: Double, ch: Double)?
        var trials: [SavefileTrial] = []
        var inCalibration = false, inTrial = false
        var messages = 0, bad: [Int] = []
        var last: Int64?
        var unknown: [(line: Int, name: Substring)] = [], foreign: [Int] = []
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {  // LF or CRLF
            guard let parsed = SavefileLine(line) else {
                if !line.allSatisfy(\.isWhitespace) { foreign.append(number + 1) }
                continue
            }
            if !knownMessages.contains(parsed.message) { unknown.append((number + 1, parsed.message)) }
            messages += 1
            guard Int64(Int32.min)...Int64(UInt32.max) ~= parsed.stamp else { bad.append(number + 1); continue }
            var stamp = parsed.stamp
            if let last {  // the nearest of stamp + k · 2³² to the previous line's
                let wraps = (last - stamp + (1 << 31)) >> 32
                stamp += wraps << 32
            }
            last = stamp
            let time = Double(stamp) / 1000
            switch parsed.message {
            case "DATAPACKET":
                guard parsed.complete, let packet = parsed.packet(), channels == nil || channels == packet.channels else { bad.append(number + 1); continue }
                channels = packet.channels
                packets.append((time, packet.samples))
            case "DATAHEADER":
                let fs = parsed.fields.firstMatch(of: #/fs\s*(-?[0-9.]+)/#).flatMap { Double($0.1) }
                let ch = parsed.fields.firstMatch(of: #/ch\[\s*([0-9.]+)\s*\]/#).flatMap { Double($0.1) }
                if let fs, let ch { headerNumbers = (fs, ch) }
            case "MODECHANGE":
                let mode = parsed.fields.firstMatch(of: #/mode:(\S+)/#).map { String($0.1) } ?? ""
                inCalibration = mode.lowercased().hasPrefix("calibration")
                inTrial = false
            case "NEWTARGET":
                inTrial = inCalibration
                if inTrial { trials.append(SavefileTrial()) }
            case "STIMULUSEVENT":
                guard inTrial, !trials.isEmpty else { continue }
                guard parsed.complete, let states = parsed.stimulusStates() else { bad.append(number + 1); continue }
                trials[trials.count - 1].append(time: time, states: states)
            default: break
            }
        }
        guard messages > 0 else { throw LabFormatError(name, "not a MindAffect savefile (no line starts with \"rts:\" or \"sts:\" and holds \" t:\")") }
        if !bad.isEmpty {
            warnings.append("\(bad.count) cut or unreadable message line(s) ignored (line \(bad.prefix(5).map(String.init).joined(separator: ", "))\(bad.count > 5 ? ", …" : ""))")
        }
        if !unknown.isEmpty {
            let names = Set(unknown.map(\.name)).sorted()
            warnings.append("\(unknown.count) line(s) of no Utopia message type ignored: \(names.prefix(3).joined(separator: ", "))\(names.count > 3 ? ", …" : "") (line \(unknown.prefix(5).map { String($0.line) }.joined(separator: ", "))\(unknown.count > 5 ? ", …" : ""))")
        }
        if !foreign.isEmpty {
            warnings.append("\(foreign.count) line(s) that are no savefile message ignored (line \(foreign.prefix(5).map(String.init).joined(separator: ", "))\(foreign.count > 5 ? ", …" : ""))")
        }
        guard let channels, !packets.isEmpty else { throw LabFormatError(name, "no DATAPACKET: the file holds no EEG") }
        let lost: [Range<Int>]
        (packets, lost) = try fillingGaps(packets, channels: channels, name: name, warnings: &warnings)
        let clock = try fitClock(packets, name: name, warnings: &warnings)
        if let (fs, ch) = headerNumbers {
            if abs(ch - Double(channels)) > 0.5, abs(fs - Double(channels)) < 0.5, abs(ch / clock.rate - 1) < 0.05 {
                warnings.append("the DATAHEADER gives the rate and channel count swapped (fs\(fs) ch[\(Int(ch))]); read as \(channels) channels at \(Int(ch)) Hz")
            } else if abs(fs / clock.rate - 1) > 0.05 {
                warnings.append("the packet times give \(RateText.format(clock.rate)) Hz, the DATAHEADER says \(fs)")
            }
        }
        var continuous: [[Float]] = Array(repeating: [], count: channels)
        for packet in packets { for sample in packet.samples { for c in 0..<channels { continuous[c].append(sample[c]) } } }
        var channelNames: [String] = []   // the channels' numbers, filled in when a dead one is left out
        let repair = try SampleRepair.interpolateNonFinite(&continuous, names: &channelNames, rate: clock.rate, subject: name, lost: lost)
        warnings += repair.warnings
        let length = continuous[0].count
        let dataset = try cut(trials, continuous: continuous, channelNames: channelNames.isEmpty ? nil : channelNames,
                              deadChannels: repair.dead, gaps: repair.gaps, length: length, clock: clock, name: name, warnings: &warnings)
        return (dataset, warnings)
    }

    /// The message names a savefile may hold: the Utopia messages'.
    static let knownMessages: Set<Substring> = Set(UtopiaMessageType.allCases.map { Substring($0.name) })

    /// Packet times that jump ahead of their samples by more than this
    /// (seconds), and stay ahead, mark packets lost: in the example session
    /// bursts delay a packet by at most 0.052 s.
    static let gapThreshold = 0.1

    /// The longest loss (seconds) filled with missing samples; a longer one
    /// (an amplifier off for a while, two sessions in one file) is refused
    /// rather than held as hours of NaN in memory.
    static let longestFill = 600.0

    /// `packets` with NaN samples standing in for packets lost in transit
    /// or cut from the file, so that every later sample keeps its time; the
    /// dataset then treats them as any other missing samples (a run longer
    /// than 0.1 s is a gap that trials avoid). A loss is a step between two
    /// packets whose time runs ahead of their samples by more than
    /// ``gapThreshold`` and whose lower envelope of times (packets come
    /// late, never early) stays that far ahead over the next 2 s: a burst
    /// that catches up again is no loss.
    static func fillingGaps(_ packets: [(time: Double, samples: [[Float]])], channels: Int, name: String,
                            warnings: inout [String]) throws -> (packets: [(time: Double, samples: [[Float]])], lost: [Range<Int>]) {
        var x: [Double] = [], y: [Double] = [], owner: [Int] = []
        var total = 0
        for (i, packet) in packets.enumerated() where !packet.samples.isEmpty {
            total += packet.samples.count
            x.append(Double(total - 1))
            y.append(packet.time - packets[0].time)
            owner.append(i)
        }
        guard x.count >= 3, var period = LineFit.robust(x: x, y: y, floor: 1e-3)?.slope, period > 0, period.isFinite else { return (packets, []) }
        // A loss tilts a line fitted across it, and the tilt skews each
        // loss's size: fit again with the losses filled, until their sizes hold.
        var losses = try findLosses(x: x, y: y, period: period, name: name)
        for _ in 0..<5 where !losses.isEmpty {
            var shift = 0.0, remaining = losses[...]
            let filledX = x.indices.map { i -> Double in
                while let loss = remaining.first, loss.packet <= i { shift += Double(loss.missing); remaining = remaining.dropFirst() }
                return x[i] + shift
            }
            guard let refit = LineFit.robust(x: filledX, y: y, floor: 1e-3)?.slope, refit > 0, refit.isFinite else { break }
            period = refit
            let again = try findLosses(x: x, y: y, period: period, name: name)
            if again == losses { break }
            losses = again
        }
        var filled = packets
        var lost: [String] = [], ranges: [Range<Int>] = []
        for loss in losses {
            let i = loss.packet
            let fill = [[Float]](repeating: [Float](repeating: .nan, count: channels), count: loss.missing)
            filled[owner[i]].samples = fill + filled[owner[i]].samples
            let start = Int(x[i - 1]) + 1 + ranges.reduce(0) { $0 + $1.count }
            ranges.append(start..<(start + loss.missing))
            lost.append("\(String(format: "%.3f", Double(loss.missing) * period)) s at \(String(format: "%.3f", Double(start) * period)) s")
        }
        if !lost.isEmpty {
            warnings.append("DATAPACKETs missing (\(lost.prefix(3).joined(separator: ", "))\(lost.count > 3 ? ", …" : "") into the EEG): filled as missing samples, so that later samples keep their times")
        }
        return (filled, ranges)
    }

    /// A loss of packets: the first packet after it (an index into the
    /// packets holding samples) and the samples missing before it.
    struct Loss: Equatable {
        var packet: Int
        var missing: Int
    }

    /// The losses in packets whose last samples are `x` and times `y`, with
    /// the sample period `period`.
    private static func findLosses(x: [Double], y: [Double], period: Double, name: String) throws -> [Loss] {
        let reach = 2 / period
        let level = zip(x, y).map { $1 - period * $0 }
        func envelope(_ range: Range<Int>) -> Double {
            let sorted = level[range].sorted()
            return sorted[sorted.count / 10]
        }
        var losses: [Loss] = []
        for i in 1..<x.count where (y[i] - y[i - 1]) - (x[i] - x[i - 1]) * period > gapThreshold {
            let before = (x.firstIndex { $0 >= x[i - 1] - reach } ?? 0)..<i
            let after = i..<(x.firstIndex { $0 > x[i] + reach } ?? x.count)
            let missing = Int(((envelope(after) - envelope(before)) / period).rounded())
            guard Double(missing) * period > gapThreshold / 2 else { continue }
            let pause = y[i] - y[i - 1]
            guard max(pause, Double(missing) * period) <= longestFill else {
                let at = String(format: "%.3f", y[i - 1]), length = String(format: "%.1f", pause)
                throw LabFormatError(name, "no DATAPACKET for \(length) s after \(at) s: more than \(Int(longestFill)) s of EEG missing; split the file there and import each part")
            }
            losses.append(Loss(packet: i, missing: missing))
        }
        return losses
    }

    /// The fitted sample clock: sample `k` is at `origin + k · period` seconds.
    struct Clock {
        var origin: Double
        var period: Double
        var rate: Double { 1 / period }
        func time(ofSample k: Int) -> Double { origin + Double(k) * period }
        func sample(atOrAfter t: Double) -> Int { LineFit.ceilingIndex((t - origin) / period - 1e-6) }
    }

    private static func fitClock(_ packets: [(time: Double, samples: [[Float]])], name: String, warnings: inout [String]) throws -> Clock {
        var x: [Double] = [], y: [Double] = []
        var total = 0
        let t0 = packets[0].time
        for packet in packets where !packet.samples.isEmpty {
            total += packet.samples.count
            x.append(Double(total - 1))
            y.append(packet.time - t0)
        }
        guard let fit = LineFit.robust(x: x, y: y, floor: 1e-3), fit.slope > 0, fit.slope.isFinite else {
            throw LabFormatError(name, "cannot fit a sample clock: the DATAPACKET times do not advance with the samples")
        }
        let worst = zip(x, y).map { abs($1 - fit($0)) }.max() ?? 0
        if worst > 0.5 {
            warnings.append("packet times stray up to \(String(format: "%.3f", worst)) s from the fitted sample clock (dropped packets or a clock jump?)")
        }
        return Clock(origin: t0 + fit.intercept, period: fit.slope)
    }

    private static func cut(_ all: [SavefileTrial], continuous: [[Float]], channelNames: [String]?, deadChannels: [String],
                            gaps: [Range<Int>], length: Int, clock: Clock, name: String, warnings: inout [String]) throws -> TrialsDataset {
        var trials = all.filter { $0.times.count >= 2 && $0.frames[0] != nil }
        if trials.count < all.count {
            warnings.append("\(all.count - trials.count) calibration trial(s) without stimulus events or without object 0 (the cue) left out")
        }
        guard !trials.isEmpty else { throw LabFormatError(name, "no calibration trial (no NEWTARGET with STIMULUSEVENTs showing object 0 in Calibration.supervised mode)") }
        var onsets = trials.map { clock.sample(atOrAfter: $0.times[0]) }
        let durations = zip(trials, onsets).map { clock.sample(atOrAfter: $0.times[$0.times.count - 1]) - $1 }
        guard let n = durations.min(), n > 0 else { throw LabFormatError(name, "the calibration trials last less than one sample") }
        let fits = onsets.indices.filter { onsets[$0] >= 0 && onsets[$0] + n <= length }
        if fits.count < trials.count { warnings.append("\(trials.count - fits.count) calibration trial(s) outside the recorded EEG left out") }
        guard !fits.isEmpty else { throw LabFormatError(name, "no calibration trial lies within the recorded EEG") }
        // Trials over a long run of NaN (filled with straight lines) are left out, as the marker cutters leave them.
        let (clean, gapWarning) = try MarkerTrialCutter.avoidingGaps(fits, onsets: onsets, samples: n, gaps: gaps, sampleRate: clock.rate,
                                                                     subject: name, cause: "NaN in the file or DATAPACKETs lost")
        warnings += gapWarning.map { [$0] } ?? []
        trials = clean.map { trials[$0] }
        onsets = clean.map { onsets[$0] }
        var classes = StimulusClasses(frames: trials.map(\.times.count).min() ?? 0)
        var instances: [(trial: Int, object: Int, k: Int)] = []
        var labels: [Int32] = []
        for (t, trial) in trials.enumerated() {
            for object in trial.objects { instances.append((t, object, classes.classify(trial.frames[object] ?? []))) }
            let target = classes.classify(trial.frames[0] ?? [])
            labels.append(Int32(target))
            if !instances.contains(where: { $0.trial == t && $0.k == target }) { instances.append((t, 0, target)) }
        }
        // More classes than any trial shows: trials whose codes match none of the first trial's
        // (a trial that lost its first STIMULUSEVENT lines runs a frame behind, like a shifted code).
        let shown = trials.map { $0.objects.count }.max() ?? 0
        if classes.codes.count > shown {
            let first = Set(instances.filter { $0.trial == 0 }.map(\.k))
            let apart = trials.indices.filter { t in instances.contains { $0.trial == t && !first.contains($0.k) } }.map { "\($0 + 1)" }
            warnings.append("\(classes.codes.count) classes, though no trial shows more than \(shown) codes: trial(s) \(apart.prefix(8).joined(separator: ", "))\(apart.count > 8 ? ", …" : "") show codes the first trial does not (a new codebook, or a trial whose first STIMULUSEVENT lines were lost?)")
        }
        // Per trial and sample, the index of the last event at or before the sample's time.
        let shownEvent: [[Int]] = trials.indices.map { t in
            var e = 0
            return (0..<n).map { s in
                let time = clock.time(ofSample: onsets[t] + s)
                while e + 1 < trials[t].times.count, trials[t].times[e + 1] <= time { e += 1 }
                return e
            }
        }
        var ones = [Int](repeating: 0, count: classes.codes.count * n), votes = [Int](repeating: 0, count: classes.codes.count)
        for instance in instances {
            guard let frames = trials[instance.trial].frames[instance.object] else { continue }
            votes[instance.k] += 1
            for s in 0..<n where frames[shownEvent[instance.trial][s]] == 1 { ones[instance.k * n + s] += 1 }
        }
        let stimulus = ones.indices.map { UInt8(ones[$0] * 2 > votes[$0 / n] ? 1 : 0) }
        let source = "MindAffect savefile \(name): \(continuous.count) ch, \(String(format: "%.3f", clock.rate)) Hz fitted from the packet times"
        var header = DatasetHeader(fs: clock.rate, nTrials: trials.count, nChannels: continuous.count, nSamples: n,
                                   nClasses: classes.codes.count, channels: channelNames, source: source)
        if !deadChannels.isEmpty { header.deadChannels = deadChannels }
        do {
            return try TrialsDataset(header: header, continuous: continuous.flatMap { $0 }, length: length, onsets: onsets,
                                     labels: labels, stimulus: stimulus)
        } catch let error as DatasetError {
            throw LabFormatError(name, error.description)
        }
    }
}
