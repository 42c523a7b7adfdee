import Decoding
import Foundation
import UtopiaProtocol

/// The reference decoder's live logic, without sockets: Utopia messages in,
/// Utopia messages out (to be sent to every subscribed peer). It follows
/// the engine's modes and trials, takes EEG from DATAHEADER/DATAPACKET or
/// from its built-in simulated amplifier, collects calibration trials, fits
/// a ``CalibratedDecoder`` when calibration ends (sending LOG lines with the
/// cross-validated accuracy and decoding curve, and the recommended
/// certainty as CERTAINTYTHRESHOLD), predicts during prediction trials
/// (PREDICTEDTARGETPROB and …DIST every `predictionInterval`), and reports
/// SIGNALQUALITY. Bad input is counted and logged, never fatal, and no
/// output is ever NaN. ``DecoderServer`` drives it from its socket thread;
/// tests and ``Redecoder`` drive it directly. Started with
/// `recordingInput: true` it keeps every input it consumes as a
/// ``DecoderInputRecord`` for ``takeInputRecords()``.
///
/// ```swift
/// var decoder = LiveDecoder(settings: DecoderServerSettings(), now: WireClock.milliseconds())
/// var out = decoder.receive(.modeChange(ModeChange(timestamp: 5, newMode: "Calibration.supervised")), now: WireClock.milliseconds())
/// out += decoder.advance(now: WireClock.milliseconds())      // every few milliseconds
/// ```
public struct LiveDecoder: Sendable {
    /// The settings it runs with.
    public let settings: DecoderServerSettings
    /// The mode the engine last asked for.
    public private(set) var mode: DecoderMode = .idle
    /// The model fitted on the last calibration, if any.
    public private(set) var model: CalibratedDecoder?
    /// Predictions (PREDICTEDTARGETPROB) sent so far.
    public private(set) var predictionsSent = 0
    /// Calibrations fitted so far.
    public private(set) var calibrationsFitted = 0

    /// Calibration trials collected since the last RESET.
    public var calibrationTrialCount: Int { calibration.count }
    /// How often each acquisition problem occurred.
    public var packetProblems: [PacketProblem: Int] { stream.problems }

    private var stream = AcquisitionStream()
    private var simulation: AmplifierSimulation?
    private var timeline = StimulusTimeline()
    private var lastEventStamp: Int32?
    private var eventTime = 0.0
    private var filter: SOSFilter?
    private var filterPrimed = false
    private var history: SampleHistory?
    private var quality: SignalQualityEstimator?
    private var lastQualityProblems: [String?] = []
    private var assessment: [ChannelQuality]?
    private var labels: [String] = []
    private var samplesReceived = 0
    private var nonFinite = NonFiniteSamples()
    private var trial: LiveTrial?
    private var closedTrials: [LiveTrial] = []
    private var calibration: [CalibrationTrial] = []
    private var fitRequestedAt: Double?
    private var calibrationJob: CalibrationJob?
    private var fitting = 0
    private var lastPredictionAt = -Double.infinity
    private var lastQualityAt = -Double.infinity
    private var lastProblemLogAt = -Double.infinity
    private var loggedProblems: [PacketProblem: Int] = [:]
    private var loggedOutOfOrder = 0
    private var ignoredExternal = 0
    private var loggedIgnoredExternal = 0
    private var outbox: [UtopiaMessage] = []
    private var now = 0.0
    /// The inputs consumed since the last ``takeInputRecords()``; nil when not recording them.
    private var inputRecords: [DecoderInputRecord]?

    /// Lag of the simulated amplifier behind the wire clock, ms: STIMULUSEVENTs reach it before the samples they light.
    static let simulationLag = 60.0

    /// A decoder in idle mode; with `settings.simulation` its amplifier
    /// starts at wire time `now` (ms). With `recordingInput` it keeps a
    /// ``DecoderInputRecord`` of every input it consumes (see
    /// ``takeInputRecords()``); without, that costs nothing.
    ///
    /// ```swift
    /// var decoder = LiveDecoder(settings: settings, now: WireClock.milliseconds())
    /// var recorded = LiveDecoder(settings: settings, now: WireClock.milliseconds(), recordingInput: true)
    /// ```
    public init(settings: DecoderServerSettings, now: Double, recordingInput: Bool = false) {
        self.settings = settings
        self.now = now
        if recordingInput { inputRecords = [] }
        if let simulated = settings.simulation {
            let simulation = AmplifierSimulation(simulated, origin: now)
            self.simulation = simulation
            record(.dataHeader(simulation.header))
            if stream.receive(simulation.header) { start(with: simulation.header) }
        }
    }

    /// True when it keeps records of its inputs (`recordingInput` at init).
    ///
    /// ```swift
    /// if decoder.isRecordingInput { sink(decoder.takeInputRecords()) }
    /// ```
    public var isRecordingInput: Bool { inputRecords != nil }

    /// The inputs consumed since the last call, in the order consumed, each
    /// at the wire time it was consumed: the DATAHEADER its EEG started
    /// with, every DATAHEADER and DATAPACKET it took from acquisition
    /// clients or from its simulated amplifier (the simulated user's EEG),
    /// and every STIMULUSEVENT, NEWTARGET, MODECHANGE and RESET. Messages
    /// that do not change it (HEARTBEAT, LOG, SUBSCRIBE, …) and client EEG
    /// ignored while the simulated amplifier runs are not kept. Empty when
    /// not recording input. A ``Redecoder`` runs a fresh decoder on them.
    ///
    /// ```swift
    /// var decoder = LiveDecoder(settings: settings, now: WireClock.milliseconds(), recordingInput: true)
    /// _ = decoder.advance(now: WireClock.milliseconds())
    /// let records = decoder.takeInputRecords()     // the simulated DATAHEADER, then packets
    /// ```
    public mutating func takeInputRecords() -> [DecoderInputRecord] {
        guard let records = inputRecords, !records.isEmpty else { return [] }
        inputRecords = []
        return records
    }

    /// Keeps `message` as consumed now, when recording input.
    private mutating func record(_ message: UtopiaMessage) {
        guard inputRecords != nil, let record = DecoderInputRecord(message, wireMilliseconds: now) else { return }
        inputRecords?.append(record)
    }

    // MARK: Input

    /// Takes one message from a peer at wire time `now` (ms); returns the messages to send.
    ///
    /// ```swift
    /// let replies = decoder.receive(.newTarget(NewTarget(timestamp: stamp)), now: WireClock.milliseconds())
    /// ```
    public mutating func receive(_ message: UtopiaMessage, now: Double) -> [UtopiaMessage] {
        self.now = now
        switch message {
        case .stimulusEvent(let event):
            record(message)
            receive(event)
        case .newTarget(let target):
            record(message)
            newTarget(target.timestamp)
        case .modeChange(let change):
            record(message)
            changeMode(change.newMode)
        case .reset:
            record(message)
            forgetCalibration(reason: "RESET")
        case .dataHeader(let header):
            if simulation != nil { ignoredExternal += 1 } else {
                record(message)
                if stream.receive(header) { start(with: header) }
            }
        case .dataPacket(let packet):
            if simulation != nil { ignoredExternal += 1 } else {
                record(message)
                accept(packet)
            }
        default: break
        }
        return takeOutbox()
    }

    /// Moves time on to `now` (ms): the simulated amplifier records, finished
    /// calibration trials are cut out, a due fit runs, predictions and signal
    /// quality go out when due. Call it every few milliseconds.
    ///
    /// ```swift
    /// for message in decoder.advance(now: WireClock.milliseconds()) { broadcast(message) }
    /// ```
    public mutating func advance(now: Double) -> [UtopiaMessage] {
        self.now = now
        if var simulation {
            for packet in simulation.packets(upTo: now - Self.simulationLag) {
                record(.dataPacket(packet))
                accept(packet)
            }
            self.simulation = simulation
        }
        cutClosedTrials()
        if let requested = fitRequestedAt, closedTrials.isEmpty || now - requested > 3000 {
            for dropped in closedTrials where dropped.start != nil {
                log("calibration trial dropped: no EEG reached its end (\(Int(dropped.end - dropped.start!)) ms)")
            }
            closedTrials.removeAll()
            fitRequestedAt = nil
            fit()
        }
        updatePrediction()
        if now - lastQualityAt >= settings.qualityInterval * 1000, let quality {
            lastQualityAt = now
            reportQuality(quality)
        }
        if now - lastProblemLogAt >= 1000 { logProblems() }
        return takeOutbox()
    }

    private mutating func takeOutbox() -> [UtopiaMessage] {
        defer { outbox.removeAll(keepingCapacity: true) }
        return outbox
    }

    private mutating func log(_ text: String) {
        outbox.append(.log(Log(timestamp: WireClock.stamp(now), message: "decoder: " + text)))
    }

    private mutating func receive(_ event: StimulusEvent) {
        if let last = lastEventStamp {
            let step = event.timestamp &- last
            guard step >= 0 else { timeline.receive(event); return }     // counted there
            eventTime += Double(step)
        } else {
            eventTime = Double(event.timestamp)
        }
        lastEventStamp = event.timestamp
        timeline.receive(event)
        simulation?.receive(event)
        guard var current = trial else { return }
        if current.start == nil {
            current.start = eventTime
            current.objectIDs = event.objIDs
        }
        current.lastEvent = eventTime
        current.newestStamp = event.timestamp
        trial = current
    }

    private mutating func newTarget(_ stamp: Int32) {
        closeTrial()
        guard mode == .calibration || mode == .prediction else { return }
        trial = LiveTrial(mode: mode, newTargetStamp: stamp)
        simulation?.newTrial(at: stamp, calibrating: mode == .calibration)
        if mode == .prediction, model == nil, fitRequestedAt == nil, calibrationJob == nil, fitting == 0 {
            log("prediction trial without a calibrated model: calibrate first")
        }
    }

    private mutating func closeTrial() {
        guard var current = trial else { return }
        trial = nil
        if current.mode == .calibration, current.start != nil {
            current.closedAt = now
            closedTrials.append(current)
        }
    }

    private mutating func changeMode(_ text: String) {
        guard let requested = DecoderMode(modeText: text) else {
            log("mode \"\(text)\" is not supported (calibration, prediction, electrode measurement, idle, reset): not confirmed")
            return
        }
        let old = mode
        mode = requested == .reset ? .idle : requested
        if requested == .reset { forgetCalibration(reason: "mode reset") }
        if old != mode || requested == .reset {
            closeTrial()
            simulation?.lookAway(at: WireClock.stamp(now))
        }
        if old == .calibration, mode != .calibration, !calibration.isEmpty || !closedTrials.isEmpty {
            fitRequestedAt = now
        }
        if mode != .idle, history == nil {
            log("no EEG yet: waiting for an acquisition client's DATAHEADER and DATAPACKETs")
        }
        outbox.append(.modeChange(ModeChange(timestamp: WireClock.stamp(now), newMode: text)))
    }

    private mutating func forgetCalibration(reason: String) {
        if !calibration.isEmpty || model != nil { log("\(reason): calibration data and model forgotten") }
        calibration.removeAll()
        closedTrials.removeAll()
        fitRequestedAt = nil
        model = nil
    }

    // MARK: EEG

    private mutating func start(with header: DataHeader) {
        let channels = Int(header.channelCount)
        let rate = Double(header.sampleRate)
        if let history, history.channels != channels || quality?.sampleRate != rate {
            forgetCalibration(reason: "new DATAHEADER (\(channels) channels at \(rate) Hz)")
        }
        filter = Preprocessor(sampleRate: rate, channels: channels, lineFrequency: settings.lineFrequency).filter
        filterPrimed = false
        history = SampleHistory(channels: channels)
        quality = SignalQualityEstimator(channels: channels, sampleRate: rate, lineFrequency: settings.lineFrequency)
        lastQualityProblems = []
        assessment = nil
        labels = header.labels
        samplesReceived = 0
        nonFinite = NonFiniteSamples()
        log("EEG: \(channels) channels at \(String(format: "%g", rate)) Hz" + (simulation != nil ? " (simulated amplifier)" : ""))
    }

    /// A packet through the stream; the samples it had to repair still
    /// count against the channel's quality and show in the signal view as sent.
    private mutating func accept(_ packet: DataPacket) {
        let repairedBefore = stream.problems[.nonFiniteSample, default: 0]
        guard let block = stream.receive(packet) else { return }
        let repaired = stream.problems[.nonFiniteSample, default: 0] > repairedBefore
        ingest(block, asSent: repaired ? block.samples.indices.map { c in packet.samples.map { Double($0[c]) } } : nil)
    }

    /// Takes a block of repaired samples; `asSent` holds them as they came when the stream repaired any.
    private mutating func ingest(_ block: SampleBlock, asSent: [[Double]]?) {
        guard var filter, var history, var quality, block.samples.count == history.channels else { return }
        quality.append(asSent ?? block.samples)
        if let asSent { nonFinite.record(asSent, first: samplesReceived) }
        if !filterPrimed {
            filter.prime(with: block.samples.map { $0.first ?? 0 })
            filterPrimed = true
        }
        let clean = filter.process(block.samples)
        history.append(times: block.times, raw: block.samples, filtered: clean)
        samplesReceived += block.times.count
        let keepFrom = ([trial?.start] + closedTrials.map(\.start)).compactMap { $0 }.min() ?? .infinity
        history.forget(before: min(keepFrom, (history.latestTime ?? 0) - 30_000))
        timeline.forget(before: min(keepFrom, (history.latestTime ?? 0) - 30_000) - 2_000)
        if !nonFinite.isEmpty { nonFinite.forget(before: samplesReceived - history.count) }
        self.filter = filter
        self.history = history
        self.quality = quality
    }

    private mutating func reportQuality(_ quality: SignalQualityEstimator) {
        let assessment = quality.assess()
        self.assessment = assessment
        outbox.append(.signalQuality(SignalQuality(timestamp: WireClock.stamp(now),
                                                   quality: assessment.map { Float($0.quality.isFinite ? $0.quality : 1) })))
        let problems = assessment.map(\.problem)
        if problems != lastQualityProblems {
            let bad = problems.enumerated().compactMap { index, problem in problem.map { "channel \(index + 1): \($0)" } }
            if !bad.isEmpty { log("signal quality: " + bad.joined(separator: "; ")) }
            else if !lastQualityProblems.isEmpty { log("signal quality: every channel has data") }
            lastQualityProblems = problems
        }
    }

    // MARK: Signal view

    /// The last `seconds` of raw EEG (µV, as the acquisition client or the
    /// simulated amplifier sent it, before any filter: NaN and infinite
    /// samples included, though the decoder itself works on them repaired)
    /// and the latest
    /// signal quality, for a signal view. Channels are named by the
    /// DATAHEADER's labels, "1", "2", … where it gives none. Each channel's
    /// quality is the noise-to-signal ratio of the last SIGNALQUALITY
    /// assessment (its noise fraction converted by
    /// ``SignalSnapshot/noiseToSignal(noiseFraction:)``), with the
    /// assessment's problem ("flat", "clipped", …) as the reason; nil before
    /// the first assessment. ``SignalSnapshot/sampleCount`` counts the
    /// samples received since the DATAHEADER. ``SignalSnapshot/empty``
    /// before any EEG. Copies only the samples it returns.
    ///
    /// ```swift
    /// var decoder = LiveDecoder(settings: settings, now: WireClock.milliseconds())
    /// _ = decoder.advance(now: WireClock.milliseconds())
    /// let snapshot = decoder.signalSnapshot(seconds: 5)
    /// let view = SignalView()
    /// view.draw(snapshot, on: screen, in: CellRect(row: 1, column: 0, width: 100, height: 22))
    /// ```
    public func signalSnapshot(seconds: Double = 5) -> SignalSnapshot {
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

    private mutating func logProblems() {
        lastProblemLogAt = now
        var lines: [String] = []
        for (problem, count) in stream.problems.sorted(by: { "\($0.key)" < "\($1.key)" }) where count > loggedProblems[problem, default: 0] {
            lines.append("\(count - loggedProblems[problem, default: 0])× \(problem) (\(count) in all)")
            loggedProblems[problem] = count
        }
        if timeline.outOfOrderEvents > loggedOutOfOrder {
            lines.append("\(timeline.outOfOrderEvents - loggedOutOfOrder)× STIMULUSEVENT timestamp went back: ignored")
            loggedOutOfOrder = timeline.outOfOrderEvents
        }
        if ignoredExternal > loggedIgnoredExternal {
            lines.append("\(ignoredExternal - loggedIgnoredExternal)× DATAHEADER/DATAPACKET from a client ignored: the simulated amplifier is in use")
            loggedIgnoredExternal = ignoredExternal
        }
        if !lines.isEmpty { log("bad input: " + lines.joined(separator: "; ")) }
    }

    // MARK: Calibration

    private mutating func cutClosedTrials() {
        guard !closedTrials.isEmpty else { return }
        var waiting: [LiveTrial] = []
        for closed in closedTrials {
            guard let start = closed.start else { continue }
            guard let history, let latest = history.latestTime else {
                if now - (closed.closedAt ?? now) < 3000 { waiting.append(closed) }
                continue
            }
            guard latest >= closed.end else {
                if now - (closed.closedAt ?? now) < 3000 { waiting.append(closed) } else { log("calibration trial dropped: its EEG never arrived") }
                continue
            }
            let first = history.firstIndex(atOrAfter: start)
            let last = history.firstIndex(atOrAfter: closed.end)
            guard first < last, let firstTime = history.times.first, firstTime <= start + 1000 / (quality?.sampleRate ?? 250) else {
                log("calibration trial dropped: no EEG covers it")
                continue
            }
            guard closed.objectIDs.contains(0) else {
                log("calibration trial dropped: its STIMULUSEVENTs carry no cued target (object 0)")
                continue
            }
            let times = Array(history.times[first..<last])
            let eeg = history.raw.map { Array($0[first..<last]) }
            let filtered = history.filtered.map { Array($0[first..<last]) }
            calibration.append(CalibrationTrial(eeg: eeg, filtered: filtered, objectIDs: closed.objectIDs,
                                                states: timeline.states(of: closed.objectIDs, at: times)))
        }
        closedTrials = waiting
    }

    /// The row of `rows` showing the same code as `row`: trials start at
    /// different phases of the 60 Hz frames against the samples, so the same
    /// code sampled in two trials differs by a sample at some edges; two
    /// different codes differ in about half of their samples.
    static func matchingRow(_ row: [UInt8], in rows: [[UInt8]]) -> Int? {
        rows.firstIndex { other in
            var differences = 0
            for (a, b) in zip(row, other) where a != b { differences += 1 }
            return differences * 10 <= row.count
        }
    }

    /// The calibration as a trials dataset: the classes are the distinct
    /// codes shown (so that trials with translated codes still fit one `V`;
    /// a class's `V` row is its first trial's), the label is the cued
    /// target's; and for each trial the classes it showed.
    private func calibrationDataset() throws -> (TrialsDataset, [[Int]]) {
        let n = calibration.map(\.sampleCount).min() ?? 0
        let channels = calibration.first?.eeg.count ?? 0
        var rows: [[UInt8]] = []
        var labels: [Int32] = []
        var shown: [[Int]] = []
        for trial in calibration {
            var classes: [Int] = []
            for (id, states) in zip(trial.objectIDs, trial.states) where id != 0 {
                let row = Array(states.prefix(n))
                if let index = Self.matchingRow(row, in: rows) { classes.append(index) } else {
                    rows.append(row)
                    classes.append(rows.count - 1)
                }
            }
            let target = Array(trial.states[trial.objectIDs.firstIndex(of: 0)!].prefix(n))
            if let index = Self.matchingRow(target, in: rows) { labels.append(Int32(index)) } else {
                rows.append(target)
                labels.append(Int32(rows.count - 1))
            }
            if !classes.contains(Int(labels[labels.count - 1])) { classes.append(Int(labels[labels.count - 1])) }
            shown.append(Array(Set(classes)).sorted())
        }
        var data: [Float] = []
        data.reserveCapacity(calibration.count * channels * n)
        for trial in calibration { for channel in trial.eeg { data += channel.prefix(n).map { Float($0) } } }
        let header = DatasetHeader(fs: quality?.sampleRate ?? 250, nTrials: calibration.count, nChannels: channels,
                                   nSamples: n, nClasses: rows.count)
        return (try TrialsDataset(header: header, data: data, labels: labels, stimulus: rows.flatMap { $0 }), shown)
    }

    private mutating func fit() {
        guard calibration.count >= 2 else {
            log("calibration: \(calibration.count) trial(s) collected, at least 2 are needed: no model fitted")
            return
        }
        do {
            let (dataset, shown) = try calibrationDataset()
            let n = dataset.header.nSamples
            let filtered = calibration.map { trial in trial.filtered.map { Array($0.prefix(n)) } }
            calibrationJob = CalibrationJob(dataset: dataset, settings: settings, trialClasses: shown, filteredTrials: filtered)
        } catch {
            log("calibration could not be assembled: \(error)")
        }
    }

    /// The fit due since calibration ended, if any, handed over once. Run
    /// it (off the socket thread: it takes a while) and give its outcome to
    /// ``adopt(_:now:)``.
    ///
    /// ```swift
    /// if let job = decoder.takeCalibrationJob() { replies += decoder.adopt(job.run(), now: WireClock.milliseconds()) }
    /// ```
    public mutating func takeCalibrationJob() -> CalibrationJob? {
        defer { calibrationJob = nil }
        if calibrationJob != nil { fitting += 1 }
        return calibrationJob
    }

    /// Takes a finished fit: its LOG lines, and when it produced a model, the
    /// model and a CERTAINTYTHRESHOLD with its recommended certainty.
    ///
    /// ```swift
    /// for message in decoder.adopt(outcome, now: WireClock.milliseconds()) { broadcast(message) }
    /// ```
    public mutating func adopt(_ outcome: CalibrationOutcome, now: Double) -> [UtopiaMessage] {
        self.now = now
        fitting = max(0, fitting - 1)
        for line in outcome.log { log(line) }
        if let fitted = outcome.decoder {
            model = fitted
            calibrationsFitted += 1
            outbox.append(.certaintyThreshold(CertaintyThreshold(timestamp: WireClock.stamp(now),
                                                                 threshold: Float(fitted.recommendedCertainty))))
        }
        return takeOutbox()
    }

    // MARK: Prediction

    private mutating func updatePrediction() {
        guard mode == .prediction, var current = trial, current.mode == .prediction, let start = current.start,
              let decoder = model, let history, let rate = quality?.sampleRate else { return }
        let objects = current.objectIDs.filter { $0 != 0 }
        guard !objects.isEmpty else { return }
        let first = history.firstIndex(after: max(start - 0.001, current.lastScoredTime))
        let last = history.firstIndex(after: current.end)
        if first < last {
            let whitening = decoder.model.whitening
            let window = decoder.model.latencySamples + (decoder.model.kernels.first?.count ?? 0) + 2 + whitening.order
            let from = max(0, first - window)
            let times = Array(history.times[from..<last])
            // Before the trial's first frame every object was dark, as in calibration.
            let states = timeline.states(of: objects, at: times).map { row in
                zip(row, times).map { $1 < start ? 0 : $0 }
            }
            let templates = decoder.model.templates(for: states).map { Array(whitening.apply($0)[(first - from)...]) }
            var scorer = current.scorer ?? TrialScorer(spatialFilter: decoder.model.spatialFilter, objects: objects.count,
                                                       whitening: whitening)
            scorer.append(history.filtered.map { Array($0[first..<last]) }, templates: templates)
            current.scorer = scorer
            current.lastScoredTime = history.times[last - 1]
            current.scoredSincePrediction = true
        }
        if current.scoredSincePrediction, let scorer = current.scorer, scorer.sampleCount > 0,
           now - lastPredictionAt >= settings.predictionInterval * 1000 {
            lastPredictionAt = now
            current.scoredSincePrediction = false
            predict(scores: scorer.scores(), seconds: Double(scorer.sampleCount) / rate, objects: objects,
                    stamp: current.newestStamp, decoder: decoder)
        }
        trial = current
    }

    private mutating func predict(scores: [Double], seconds: Double, objects: [UInt8], stamp: Int32, decoder: CalibratedDecoder) {
        guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }) else { return }
        var perr = decoder.certainty.errorProbability(scores: scores, seconds: seconds)
        if !perr.isFinite { perr = 1 }
        perr = min(max(perr, 0), 1)
        if objects[best] <= 127 {
            outbox.append(.predictedTargetProb(PredictedTargetProb(timestamp: stamp, objID: Int8(objects[best]),
                                                                   errorProbability: Float(perr))))
            predictionsSent += 1
        }
        // The rest of the probability is shared by the other objects by their scores.
        let weights = scores.enumerated().map { $0.offset == best ? 0 : exp(20 * ($0.element - scores[best])) }
        let total = weights.reduce(0, +)
        let probabilities = scores.indices.map { k -> Float in
            if k == best { return Float(1 - perr) }
            let p = total > 0 ? perr * weights[k] / total : perr / Double(max(1, scores.count - 1))
            return Float(p.isFinite ? p : 0)
        }
        outbox.append(.predictedTargetDist(PredictedTargetDist(timestamp: stamp, objIDs: objects, probabilities: probabilities)))
    }
}
