import Decoding
import UtopiaProtocol

/// The live decoder's EEG after acquisition: filtered continuously by the
/// ``Preprocessor``'s filter in each band a calibration may choose
/// (``FitCandidate/standardBands``; primed once, so no transient at trial starts),
/// the last stretch kept raw and filtered in a ``SampleHistory``, and its
/// quality assessed for SIGNALQUALITY and the signal view. Started anew by
/// each DATAHEADER.
struct ContinuousPreprocessing: Sendable {
    /// Mains frequency (Hz) the filter notches and the quality measures:
    /// the one given, or the one found (``findMainsIfDue(trialUnderWay:into:)``).
    private(set) var lineFrequency: Double
    /// The frequency assumed until one is found, and kept when none is.
    private let givenLineFrequency: Double
    /// True when the mains is found from the EEG (none was given).
    private let findsLineFrequency: Bool
    /// True until the mains was looked for in the current EEG.
    private var finding = false
    /// True once the mains was found: its harmonics are notched too, as offline.
    private var harmonics = false
    /// The re-reference applied to each block before the filter.
    let reference: ChannelReference
    /// Seconds between SIGNALQUALITY reports.
    let qualityInterval: Double
    /// The samples kept; nil before the first DATAHEADER.
    private(set) var history: SampleHistory?
    /// One filter per band of ``FitCandidate/standardBands``.
    private var filters: [SOSFilter]?
    private var filterPrimed = false
    private var quality: SignalQualityEstimator?
    private var lastQualityProblems: [String?] = []
    private var assessment: [ChannelQuality]?
    private var labels: [String] = []
    private var samplesReceived = 0
    private var nonFinite = NonFiniteSamples()
    private var lastQualityAt = -Double.infinity

    /// Seconds of EEG the mains is found from, at most: it is looked for
    /// sooner when a trial gets under way (after ``shortestFinding``).
    static let findingSeconds = 10.0
    static let shortestFinding = 2.0

    init(lineFrequency: Double, findsLineFrequency: Bool = false, reference: ChannelReference = .asRecorded, qualityInterval: Double) {
        self.lineFrequency = lineFrequency
        givenLineFrequency = lineFrequency
        self.findsLineFrequency = findsLineFrequency
        self.reference = reference
        self.qualityInterval = qualityInterval
    }

    /// The sample rate of the current EEG; nil before the first DATAHEADER.
    var sampleRate: Double? { quality?.sampleRate }

    /// True when EEG is already running in another format than `header`'s
    /// (a calibration collected on it no longer fits).
    func changesFormat(_ header: DataHeader) -> Bool {
        guard let history else { return false }
        return history.channels != Int(header.channelCount) || quality?.sampleRate != Double(header.sampleRate)
    }

    /// Starts over for the EEG `header` announces: a fresh filter, history and quality estimate.
    mutating func start(with header: DataHeader) {
        let channels = Int(header.channelCount)
        let rate = Double(header.sampleRate)
        let bands = FitCandidate.standardBands
        lineFrequency = givenLineFrequency
        harmonics = false
        finding = findsLineFrequency
        filters = makeFilters(sampleRate: rate, channels: channels)
        filterPrimed = false
        history = SampleHistory(channels: channels, bands: bands)
        quality = SignalQualityEstimator(channels: channels, sampleRate: rate, lineFrequency: lineFrequency)
        lastQualityProblems = []
        assessment = nil
        labels = header.labels
        samplesReceived = 0
        nonFinite = NonFiniteSamples()
    }

    /// Takes a block of repaired samples (`asSent` holds them as they came
    /// when the stream repaired any), then forgets samples older than 30 s
    /// except from `keepFrom` (wire ms) on. Returns the time it kept from,
    /// or nil when the block was not taken (no EEG started, or another
    /// channel count).
    mutating func ingest(_ block: SampleBlock, asSent: [[Double]]?, keepingFrom keepFrom: Double) -> Double? {
        guard filters != nil, quality != nil, let channels = history?.channels, block.samples.count == channels else { return nil }
        // Each stored part is mutated in place (optional chaining), never through a
        // local copy: a copy would share the history's arrays, and the first append
        // would then copy every channel's 30 s, block after block.
        quality?.append(asSent ?? block.samples)
        if let asSent { nonFinite.record(asSent, first: samplesReceived) }
        let clean = filtered(reference.apply(to: block.samples))
        history?.append(times: block.times, raw: block.samples, filtered: clean)
        samplesReceived += block.times.count
        let horizon = min(keepFrom, (history?.latestTime ?? 0) - 30_000)
        history?.forget(before: horizon)
        if !nonFinite.isEmpty { nonFinite.forget(before: samplesReceived - (history?.count ?? 0)) }
        return horizon
    }

    /// `referenced` samples through every band's filter (primed with their
    /// first sample when the filters are new), bands × channels × samples.
    private mutating func filtered(_ referenced: [[Double]]) -> [[[Double]]] {
        if !filterPrimed {
            for b in filters!.indices { filters![b].prime(with: referenced.map { $0.first ?? 0 }) }
            filterPrimed = true
        }
        return filters!.indices.map { filters![$0].process(referenced) }
    }

    /// One filter per band of ``FitCandidate/standardBands``, at the current mains.
    private func makeFilters(sampleRate: Double, channels: Int) -> [SOSFilter] {
        FitCandidate.standardBands.map {
            Preprocessor(sampleRate: sampleRate, channels: channels, lineFrequency: lineFrequency, lowPass: $0, harmonics: harmonics).filter
        }
    }

    /// Looks for the mains in the EEG so far, once, as `decoder evaluate`
    /// does in a recording (``MainsDetector``): after ``findingSeconds``, or
    /// sooner (after ``shortestFinding``) when a trial is under way. Found,
    /// the filters notch it and its harmonics and filter the kept EEG again
    /// from its start, so every sample a trial or fit uses went through one
    /// filter; not found, the given frequency stays. Either way a LOG says so.
    mutating func findMainsIfDue(trialUnderWay: Bool, into outbox: inout DecoderOutbox) {
        guard finding, let rate = sampleRate, let raw = history?.raw else { return }
        let seconds = Double(samplesReceived) / rate
        guard seconds >= Self.findingSeconds || (trialUnderWay && seconds >= Self.shortestFinding) else { return }
        finding = false
        guard let found = MainsDetector.detect(raw, sampleRate: rate) else {
            outbox.log(String(format: "no mains found in the first %.1f s of EEG: the notch stays at %g Hz", seconds, lineFrequency))
            return
        }
        lineFrequency = found
        harmonics = true
        filters = makeFilters(sampleRate: rate, channels: raw.count)
        filterPrimed = false
        let refiltered = filtered(reference.apply(to: raw))
        history?.replaceFiltered(refiltered)
        quality = SignalQualityEstimator(channels: raw.count, sampleRate: rate, lineFrequency: found)
        quality?.append(raw)
        outbox.log(String(format: "mains found at %g Hz in the first %.1f s of EEG: notched with its harmonics", found, seconds))
    }

    /// Sends SIGNALQUALITY when `qualityInterval` has passed since the
    /// last, logging the channels' problems when they change.
    mutating func reportQualityIfDue(into outbox: inout DecoderOutbox) {
        guard outbox.now - lastQualityAt >= qualityInterval * 1000, let quality else { return }
        lastQualityAt = outbox.now
        let assessment = quality.assess()
        self.assessment = assessment
        outbox.send(.signalQuality(SignalQuality(timestamp: outbox.stamp,
                                                 quality: assessment.map { Float($0.quality.isFinite ? $0.quality : 1) })))
        let problems = assessment.map(\.problem)
        if problems != lastQualityProblems {
            if let line = Self.qualityLine(problems) { outbox.log("signal quality: " + line) }
            else if !lastQualityProblems.isEmpty { outbox.log("signal quality: every channel has data") }
            lastQualityProblems = problems
        }
    }

    /// The channels' problems grouped, each with its channels as ranges:
    /// "no data: every channel", "flat: channels 3, 5-7; clipped: channel 9";
    /// nil when no channel has one.
    static func qualityLine(_ problems: [String?]) -> String? {
        var order: [String] = [], channels: [String: [Int]] = [:]
        for (index, problem) in problems.enumerated() {
            guard let problem else { continue }
            if channels[problem] == nil { order.append(problem) }
            channels[problem, default: []].append(index + 1)
        }
        guard !order.isEmpty else { return nil }
        func ranges(_ list: [Int]) -> String {
            var parts: [String] = [], start = list[0], end = list[0]
            for c in list.dropFirst() + [Int.max] {
                if c == end + 1 { end = c; continue }
                parts.append(start == end ? "\(start)" : "\(start)-\(end)")
                (start, end) = (c, c)
            }
            return (list.count == 1 ? "channel " : "channels ") + parts.joined(separator: ", ")
        }
        return order.map { problem in
            let list = channels[problem]!
            return "\(problem): " + (list.count == problems.count && list.count > 1 ? "every channel" : ranges(list))
        }.joined(separator: "; ")
    }

    /// The last `seconds` of raw EEG as received (non-finite samples
    /// restored) with the latest quality assessment; see ``LiveDecoder/signalSnapshot(seconds:)``.
    func signalSnapshot(seconds: Double) -> SignalSnapshot {
        guard let history, history.count > 0, let rate = quality?.sampleRate else { return .empty }
        let wanted = seconds > 0 ? min(Double(history.count), (seconds * rate).rounded()) : 0
        let first = history.count - Int(wanted)
        let channels = (0..<history.channels).map { c in
            let label = c < labels.count ? labels[c] : ""
            let figure = assessment.flatMap { c < $0.count ? $0[c] : nil }
            var samples = Array(history.raw[c][first...])
            nonFinite.restore(into: &samples, channel: c, first: samplesReceived - samples.count)
            return SignalSnapshot.Channel(name: label.isEmpty ? String(c + 1) : label,
                                          samples: samples,
                                          quality: figure.map { SignalSnapshot.noiseToSignal(noiseFraction: $0.quality) },
                                          reason: figure?.problem)
        }
        return SignalSnapshot(sampleRate: rate, sampleCount: samplesReceived, channels: channels)
    }
}
