import Decoding
import UtopiaProtocol

/// The live decoder's trials: it opens one at each NEWTARGET in
/// calibration or prediction, starts it at its first STIMULUSEVENT, closes
/// it at the next NEWTARGET or mode change, and once the EEG has reached a
/// closed calibration trial's end cuts the trial out of the
/// ``SampleHistory`` as a ``CalibrationTrial``. It keeps the STIMULUSEVENTs'
/// ``StimulusTimeline`` (what each object showed when) and turns the
/// calibration into a ``TrialsDataset``.
struct TrialCutter: Sendable {
    /// What every object showed when, on the wire clock.
    private(set) var timeline = StimulusTimeline()
    /// The trial running now, if any.
    private(set) var openTrial: LiveTrial?
    /// Calibration trials collected since the last RESET.
    private(set) var calibration: [CalibrationTrial] = []
    /// Closed calibration trials whose EEG has not all arrived yet.
    private var closedTrials: [LiveTrial] = []
    /// Closed prediction trials waiting for their EEG, kept when ``keepsPredictions``.
    private var closedPredictions: [LiveTrial] = []
    /// Prediction trials cut out, to be taken by ``takeFinishedPredictions()``.
    private var finishedPredictions: [FinishedPrediction] = []
    /// True when prediction trials are cut out too (for the decoder to learn from).
    var keepsPredictions = false
    private var lastEventStamp: Int32?
    private var eventTime = 0.0

    /// True while closed calibration trials wait for their EEG.
    var isWaitingForEEG: Bool { !closedTrials.isEmpty }
    /// True when calibration trials were collected or wait for their EEG.
    var hasCalibration: Bool { !calibration.isEmpty || !closedTrials.isEmpty }
    /// The start of the oldest trial still to be cut or scored: samples from here on must be kept.
    var earliestStart: Double? {
        ([openTrial?.start] + closedTrials.map(\.start) + closedPredictions.map(\.start)).compactMap { $0 }.min()
    }

    // MARK: Trials

    /// Takes one frame: unwraps its timestamp onto the timeline and starts
    /// or extends the open trial. Returns false for an event whose
    /// timestamp went back (counted by the timeline, otherwise ignored).
    mutating func receive(_ event: StimulusEvent) -> Bool {
        if let last = lastEventStamp {
            let step = event.timestamp &- last
            guard step >= 0 else {
                timeline.receive(event)     // counted there
                return false
            }
            eventTime += Double(step)
        } else {
            eventTime = Double(event.timestamp)
        }
        lastEventStamp = event.timestamp
        timeline.receive(event)
        if var current = openTrial {
            if current.start == nil {
                current.start = eventTime
                current.objectIDs = event.objIDs
            }
            current.lastEvent = eventTime
            current.newestStamp = event.timestamp
            openTrial = current
        }
        return true
    }

    /// Opens a trial in `mode` at a NEWTARGET stamped `stamp`.
    mutating func open(mode: DecoderMode, newTargetStamp stamp: Int32) {
        openTrial = LiveTrial(mode: mode, newTargetStamp: stamp)
    }

    /// Closes the open trial at wire time `now`; a started calibration trial waits to be cut.
    mutating func close(now: Double) {
        guard var current = openTrial else { return }
        openTrial = nil
        if current.mode == .calibration, current.start != nil {
            current.closedAt = now
            closedTrials.append(current)
        } else if current.mode == .prediction, current.start != nil, keepsPredictions {
            current.closedAt = now
            closedPredictions.append(current)
        }
    }

    /// Starts the stimulus clock afresh at a RESET (a new session, whose
    /// engine's stamps may lie before the last ones seen): the open trial
    /// and the timeline are dropped and the next STIMULUSEVENT is taken
    /// whatever its stamp.
    mutating func restartStimulusClock() {
        openTrial = nil
        lastEventStamp = nil
        timeline.restart()
    }

    /// Forgets the calibration trials, collected and waiting.
    mutating func forgetCalibration() {
        calibration.removeAll()
        closedTrials.removeAll()
        closedPredictions.removeAll()
        finishedPredictions.removeAll()
    }

    /// Leaves out the calibration trials under half the median length (a
    /// trial stopped early: trials paused, a touch press), each logged: a
    /// calibration dataset keeps one length, so one such trial would cut
    /// every other to its length.
    mutating func dropShortCalibrationTrials(sampleRate: Double, into outbox: inout DecoderOutbox) {
        let counts = calibration.map(\.sampleCount).sorted()
        guard counts.count >= 2 else { return }
        let median = counts[counts.count / 2]
        for (index, trial) in calibration.enumerated() where trial.sampleCount * 2 < median {
            outbox.log(String(format: "calibration trial %d left out: %.2f s of flicker, under half the others' %.2f s (stopped early)",
                              index + 1, Double(trial.sampleCount) / sampleRate, Double(median) / sampleRate))
        }
        calibration.removeAll { $0.sampleCount * 2 < median }
    }

    /// Replaces the calibration with trials the decoder labelled itself (zero training).
    mutating func replaceCalibration(with trials: [CalibrationTrial]) {
        calibration = trials
    }

    /// Adds a calibration trial the decoder labelled itself (a learned prediction trial).
    mutating func addCalibration(_ trial: CalibrationTrial) {
        calibration.append(trial)
    }

    /// The prediction trials cut out since the last call, oldest first.
    mutating func takeFinishedPredictions() -> [FinishedPrediction] {
        defer { finishedPredictions.removeAll() }
        return finishedPredictions
    }

    /// Forgets stimulus states before `time` (wire ms).
    mutating func forgetStimuli(before time: Double) {
        timeline.forget(before: time)
    }

    // MARK: Cutting

    /// Cuts the closed calibration trials whose EEG has arrived out of
    /// `history`; a trial keeps waiting up to 3 s after it closed, and a
    /// trial that cannot be cut is dropped with a LOG line.
    mutating func cut(from history: SampleHistory?, sampleRate: Double?, into outbox: inout DecoderOutbox) {
        cutPredictions(from: history, now: outbox.now)
        guard !closedTrials.isEmpty else { return }
        let now = outbox.now
        var waiting: [LiveTrial] = []
        for closed in closedTrials {
            guard let start = closed.start else { continue }
            guard let history, let latest = history.latestTime else {
                if now - (closed.closedAt ?? now) < 3000 { waiting.append(closed) }
                continue
            }
            guard latest >= closed.end else {
                if now - (closed.closedAt ?? now) < 3000 { waiting.append(closed) } else { outbox.log("calibration trial dropped: its EEG never arrived") }
                continue
            }
            let first = history.firstIndex(atOrAfter: start)
            let last = history.firstIndex(atOrAfter: closed.end)
            guard first < last, let firstTime = history.times.first, firstTime <= start + 1000 / (sampleRate ?? 250) else {
                outbox.log("calibration trial dropped: no EEG covers it")
                continue
            }
            guard closed.objectIDs.contains(0) else {
                outbox.log("calibration trial dropped: its STIMULUSEVENTs carry no cued target (object 0)")
                continue
            }
            let times = Array(history.times[first..<last])
            let eeg = history.raw.map { Array($0[first..<last]) }
            calibration.append(CalibrationTrial(eeg: eeg, filtered: history.bandSamples(first..<last), objectIDs: closed.objectIDs,
                                                states: timeline.states(of: closed.objectIDs, at: times)))
        }
        closedTrials = waiting
    }

    /// Gives up on the closed trials still waiting for their EEG, with a LOG line for each.
    /// Cuts the closed prediction trials whose EEG has arrived; drops those
    /// still without it 3 s after they closed, or not covered by the history.
    private mutating func cutPredictions(from history: SampleHistory?, now: Double) {
        guard !closedPredictions.isEmpty else { return }
        var waiting: [LiveTrial] = []
        for closed in closedPredictions {
            guard let start = closed.start else { continue }
            guard let history, let latest = history.latestTime, latest >= closed.end else {
                if now - (closed.closedAt ?? now) < 3000 { waiting.append(closed) }
                continue
            }
            let first = history.firstIndex(atOrAfter: start)
            let last = history.firstIndex(atOrAfter: closed.end)
            guard first < last, let firstTime = history.times.first, firstTime <= start + 20 else { continue }
            let objects = closed.objectIDs.filter { $0 != 0 }
            guard !objects.isEmpty else { continue }
            let times = Array(history.times[first..<last])
            finishedPredictions.append(FinishedPrediction(
                newTargetStamp: closed.newTargetStamp, eeg: history.raw.map { Array($0[first..<last]) },
                filtered: history.bandSamples(first..<last), objectIDs: objects,
                states: timeline.states(of: objects, at: times)))
        }
        closedPredictions = waiting
    }

    mutating func dropWaiting(into outbox: inout DecoderOutbox) {
        for dropped in closedTrials where dropped.start != nil {
            outbox.log("calibration trial dropped: no EEG reached its end (\(Int(dropped.end - dropped.start!)) ms)")
        }
        closedTrials.removeAll()
    }

    // MARK: The calibration as a dataset

    /// The calibration as a trials dataset at `sampleRate`: the classes are
    /// the distinct codes shown (``SampledCode``: so that trials with translated codes still
    /// fit one `V`; a class's `V` row is its first trial's), the label is the
    /// cued target's; and for each trial the classes it showed.
    func calibrationDataset(sampleRate: Double) throws -> (TrialsDataset, [[Int]]) {
        let n = calibration.map(\.sampleCount).min() ?? 0
        let channels = calibration.first?.eeg.count ?? 0
        var rows: [[UInt8]] = []
        var labels: [Int32] = []
        var shown: [[Int]] = []
        for trial in calibration {
            var classes: [Int] = []
            for (id, states) in zip(trial.objectIDs, trial.states) where id != 0 {
                let row = Array(states.prefix(n))
                if let index = SampledCode.firstMatch(of: row, in: rows) { classes.append(index) } else {
                    rows.append(row)
                    classes.append(rows.count - 1)
                }
            }
            let target = Array(trial.states[trial.objectIDs.firstIndex(of: 0)!].prefix(n))
            if let index = SampledCode.firstMatch(of: target, in: rows) { labels.append(Int32(index)) } else {
                rows.append(target)
                labels.append(Int32(rows.count - 1))
            }
            if !classes.contains(Int(labels[labels.count - 1])) { classes.append(Int(labels[labels.count - 1])) }
            shown.append(Array(Set(classes)).sorted())
        }
        var data: [Float] = []
        data.reserveCapacity(calibration.count * channels * n)
        for trial in calibration { for channel in trial.eeg { data += channel.prefix(n).map { Float($0) } } }
        let header = DatasetHeader(fs: sampleRate, nTrials: calibration.count, nChannels: channels,
                                   nSamples: n, nClasses: rows.count)
        return (try TrialsDataset(header: header, data: data, labels: labels, stimulus: rows.flatMap { $0 }), shown)
    }

    /// The first `samples` of each calibration trial as the continuous
    /// filter of each band gave them, by the band's low-pass edge (the
    /// bands every trial has).
    func filteredTrials(samples n: Int) -> [Double?: [[[Double]]]] {
        var out: [Double?: [[[Double]]]] = [:]
        guard let first = calibration.first else { return out }
        for band in first.filtered.keys {
            let trials = calibration.compactMap { $0.filtered[band].map { trial in trial.map { Array($0.prefix(n)) } } }
            if trials.count == calibration.count { out[band] = trials }
        }
        return out
    }
}
