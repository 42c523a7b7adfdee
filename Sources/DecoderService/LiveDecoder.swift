import Decoding
import Foundation
import UtopiaProtocol

/// The reference decoder's live logic, without sockets: Utopia messages in,
/// Utopia messages out (to be sent to every subscribed peer). It follows
/// the engine's modes and trials, takes EEG from DATAHEADER/DATAPACKET or
/// from its built-in simulated amplifier, collects calibration trials, fits
/// a ``CalibratedDecoder`` when calibration ends (sending LOG lines with the
/// cross-validated accuracy and decoding curve, the same facts typed as
/// CALIBRATIONRESULT, and the recommended certainty as CERTAINTYTHRESHOLD), predicts during prediction trials
/// (PREDICTEDTARGETPROB and …DIST every `predictionInterval`; without a
/// model it learns while the user types, and says SELECTIONREVISED when it
/// revises an earlier trial), and reports SIGNALQUALITY. Bad input is counted and logged, never fatal, and no
/// output is ever NaN. ``DecoderServer`` drives it from its socket thread;
/// tests and ``Redecoder`` drive it directly. Started with
/// `recordingInput: true` it keeps every input it consumes as a
/// ``DecoderInputRecord`` for ``takeInputRecords()``.
///
/// One part per job: ``EEGAcquisition`` (EEG intake, simulated amplifier,
/// input records), ``ContinuousPreprocessing`` (filter, history, signal
/// quality), ``TrialCutter`` (trials and calibration trials),
/// ``LiveCalibration`` (fits), ``LivePrediction`` and ``LiveZeroTraining``
/// (prediction without a model, learning without labels, learning from
/// presses).
///
/// ```swift
/// var decoder = LiveDecoder(settings: DecoderServerSettings(), now: MonotonicClock.milliseconds())
/// var out = decoder.receive(.modeChange(ModeChange(timestamp: 5, newMode: "Calibration.supervised")), now: MonotonicClock.milliseconds())
/// out += decoder.advance(now: MonotonicClock.milliseconds())      // every few milliseconds
/// ```
public struct LiveDecoder: Sendable {
    /// The settings it runs with.
    public let settings: DecoderServerSettings
    /// The mode the engine last asked for.
    public private(set) var mode: DecoderMode = .idle
    /// The model fitted on the last calibration, if any.
    public var model: CalibratedDecoder? { calibration.model }
    /// What a client that has just subscribed is told of the decoder's
    /// state: the CERTAINTYTHRESHOLD its model recommends, when it has a
    /// model. An engine started against a decoder calibrated earlier would
    /// otherwise press at its default threshold, below the one the model
    /// needs.
    public func greeting(now: Double) -> [UtopiaMessage] {
        guard let model else { return [] }
        return [.certaintyThreshold(CertaintyThreshold(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: now),
                                                       threshold: Float(model.recommendedCertainty)))]
    }

    /// Predictions (PREDICTEDTARGETPROB) sent so far.
    public var predictionsSent: Int { prediction.sent }
    /// Calibrations fitted so far.
    public var calibrationsFitted: Int { calibration.fitted }
    /// Calibration trials collected since the last RESET.
    public var calibrationTrialCount: Int { trials.calibration.count }
    /// How often each acquisition problem occurred.
    public var packetProblems: [PacketProblem: Int] { acquisition.problems }

    private var acquisition: EEGAcquisition
    private var signal: ContinuousPreprocessing
    private var trials = TrialCutter()
    private var calibration: LiveCalibration
    private var prediction: LivePrediction
    private var zeroTraining: LiveZeroTraining
    /// True when the open prediction trial opened with zero training's
    /// learner scoring it: an interim fit that arrives after the learner's
    /// first prediction of the trial scores the next trial, as any fit does
    /// (see ``LivePrediction``).
    private var learnerScoresTrial = false
    private var outbox: DecoderOutbox

    /// A decoder in idle mode; with `settings.simulation` its amplifier
    /// starts at wire time `now` (ms). With `recordingInput` it keeps a
    /// ``DecoderInputRecord`` of every input it consumes (see
    /// ``takeInputRecords()``); without, that costs nothing.
    public init(settings: DecoderServerSettings, now: Double, recordingInput: Bool = false) {
        self.settings = settings
        acquisition = EEGAcquisition(simulation: settings.simulation, now: now, recordingInput: recordingInput)
        signal = ContinuousPreprocessing(lineFrequency: settings.lineFrequency, findsLineFrequency: settings.findsLineFrequency,
                                         reference: settings.reference,
                                         qualityInterval: settings.qualityInterval)
        calibration = LiveCalibration(settings: settings)
        prediction = LivePrediction(interval: settings.predictionInterval)
        // Each unsupervised prediction fits a model per object: at most four a second.
        zeroTraining = LiveZeroTraining(zeroTrainTrials: settings.zeroTrainTrials, adaptEvery: settings.adaptEvery,
                                        interval: max(settings.predictionInterval, 0.25))
        trials.keepsPredictions = true
        outbox = DecoderOutbox(now: now)
        if let header = acquisition.startSimulation(now: now) { start(with: header) }
    }

    /// True when it keeps records of its inputs (`recordingInput` at init).
    public var isRecordingInput: Bool { acquisition.isRecording }

    /// The inputs consumed since the last call, in the order consumed, each
    /// at the wire time it was consumed: the DATAHEADER its EEG started
    /// with, every DATAHEADER and DATAPACKET it took from acquisition
    /// clients or from its simulated amplifier (the simulated user's EEG),
    /// and every STIMULUSEVENT, NEWTARGET, MODECHANGE, RESET and SELECTION. Messages
    /// that do not change it (HEARTBEAT, LOG, SUBSCRIBE, …) and client EEG
    /// ignored while the simulated amplifier runs are not kept. Empty when
    /// not recording input. A ``Redecoder`` runs a fresh decoder on them.
    ///
    /// ```swift
    /// var decoder = LiveDecoder(settings: settings, now: MonotonicClock.milliseconds(), recordingInput: true)
    /// _ = decoder.advance(now: MonotonicClock.milliseconds())
    /// let records = decoder.takeInputRecords()     // the simulated DATAHEADER, then packets
    /// ```
    public mutating func takeInputRecords() -> [DecoderInputRecord] { acquisition.takeRecords() }

    /// Takes one message from a peer at wire time `now` (ms); returns the messages to send.
    public mutating func receive(_ message: UtopiaMessage, now: Double) -> [UtopiaMessage] {
        outbox.now = now
        switch message {
        case .stimulusEvent(let event):
            acquisition.record(message, now: now)
            if trials.receive(event) { acquisition.show(event) }
        case .newTarget(let target):
            acquisition.record(message, now: now)
            newTarget(target.timestamp)
        case .modeChange(let change):
            acquisition.record(message, now: now)
            changeMode(change.newMode)
        case .reset:
            acquisition.record(message, now: now)
            forgetCalibration(reason: "RESET")
            trials.restartStimulusClock()
        case .dataHeader(let header):
            if let accepted = acquisition.receive(header, now: now) { start(with: accepted) }
        case .dataPacket(let packet):
            if let accepted = acquisition.receive(packet, now: now) { ingest(accepted) }
        case .selection(let selection):
            acquisition.record(message, now: now)
            if let open = trials.openTrial, open.mode == .prediction {
                zeroTraining.heardSelection(of: selection.objID, inTrial: open.newTargetStamp)
            }
        default: break
        }
        return outbox.take()
    }

    /// Moves time on to `now` (ms): the simulated amplifier records, finished
    /// calibration trials are cut out, a due fit runs, predictions and signal
    /// quality go out when due. Call it every few milliseconds.
    public mutating func advance(now: Double) -> [UtopiaMessage] {
        outbox.now = now
        for accepted in acquisition.simulatedPackets(upTo: now) { ingest(accepted) }
        signal.findMainsIfDue(trialUnderWay: trials.openTrial != nil || trials.isWaitingForEEG, into: &outbox)
        trials.cut(from: signal.history, sampleRate: signal.sampleRate, into: &outbox)
        let finished = trials.takeFinishedPredictions()
        if !finished.isEmpty, zeroTraining.learn(finished, hasModel: calibration.model != nil, calibrationAbsent: calibration.isAbsent,
                                                 sampleRate: signal.sampleRate, trials: &trials, into: &outbox) {
            calibration.request(at: outbox.now)
        }
        calibration.assembleIfDue(from: &trials, sampleRate: signal.sampleRate, into: &outbox)
        if mode == .prediction {
            // A trial the learner opened stays the learner's (see `learnerScoresTrial`).
            if learnerScoresTrial || learnerScores {
                zeroTraining.update(trial: trials.openTrial, history: signal.history, sampleRate: signal.sampleRate,
                                    timeline: trials.timeline, prediction: &prediction, into: &outbox)
            } else {
                prediction.update(trial: trials.openTrial, history: signal.history,
                                  sampleRate: signal.sampleRate, timeline: trials.timeline, into: &outbox)
            }
        }
        signal.reportQualityIfDue(into: &outbox)
        acquisition.logProblems(outOfOrderEvents: trials.timeline.outOfOrderEvents, into: &outbox)
        return outbox.take()
    }

    private mutating func newTarget(_ stamp: Int32) {
        trials.close(now: outbox.now)
        guard mode == .calibration || mode == .prediction else { return }
        trials.open(mode: mode, newTargetStamp: stamp)
        prediction.startTrial(model: calibration.model)
        learnerScoresTrial = mode == .prediction && learnerScores
        acquisition.newTrial(at: stamp, calibrating: mode == .calibration)
        if mode == .prediction, !zeroTraining.handedOver, calibration.isAbsent || zeroTraining.active {
            outbox.log("prediction trial in zero training: learning without labels (\(zeroTraining.learnedCount) of "
                       + "\(settings.zeroTrainTrials) trials learned; "
                       + (calibration.model == nil ? "no model yet" : "an interim model fitted on them scores it") + ")")
        }
    }

    /// True when zero training's learner scores prediction trials: no model, and zero training under
    /// way or no fit coming (while a cued calibration's fit is on its way, nothing is said).
    private var learnerScores: Bool { calibration.model == nil && (calibration.isAbsent || zeroTraining.active) }

    private mutating func changeMode(_ text: String) {
        guard let requested = DecoderMode(modeText: text) else {
            outbox.log("mode \"\(text)\" is not supported (calibration, prediction, electrode measurement, idle, reset): not confirmed")
            return
        }
        let old = mode
        mode = requested == .reset ? .idle : requested
        if requested == .reset { forgetCalibration(reason: "mode reset") }
        if old != mode || requested == .reset {
            trials.close(now: outbox.now)
            acquisition.lookAway(at: outbox.stamp)
        }
        if old == .calibration, mode != .calibration, trials.hasCalibration { calibration.request(at: outbox.now) }
        if mode != .idle, signal.history == nil { outbox.log("no EEG yet: waiting for an acquisition client's DATAHEADER and DATAPACKETs") }
        outbox.send(.modeChange(ModeChange(timestamp: outbox.stamp, newMode: text)))
    }

    private mutating func forgetCalibration(reason: String) {
        if !trials.calibration.isEmpty || calibration.model != nil { outbox.log("\(reason): calibration data and model forgotten") }
        trials.forgetCalibration()
        calibration.forget()
        zeroTraining.forget()
        prediction.startTrial(model: nil)
        learnerScoresTrial = false
    }

    private mutating func start(with header: DataHeader) {
        let channels = header.channelCount, rate = Double(header.sampleRate)
        if signal.changesFormat(header) { forgetCalibration(reason: "new DATAHEADER (\(channels) channels at \(RateText.format(rate)) Hz)") }
        signal.start(with: header)
        outbox.log("EEG: \(channels) channels at \(String(format: "%g", rate)) Hz" + (acquisition.isSimulated ? " (simulated amplifier)" : ""))
    }

    /// Takes accepted samples into the history, keeping those of trials still to be cut or scored.
    private mutating func ingest(_ accepted: EEGAcquisition.Accepted) {
        let keepFrom = trials.earliestStart ?? .infinity
        guard let horizon = signal.ingest(accepted.block, asSent: accepted.asSent, keepingFrom: keepFrom) else { return }
        trials.forgetStimuli(before: horizon - 2_000)
    }

    /// The last `seconds` of raw EEG (µV, as the acquisition client or the
    /// simulated amplifier sent it, before any filter: NaN and infinite
    /// samples included, though the decoder itself works on them repaired)
    /// and the latest signal quality, for a signal view. Channels are named
    /// by the DATAHEADER's labels, "1", "2", … where it gives none. Each
    /// channel's quality is the noise-to-signal ratio of the last
    /// SIGNALQUALITY assessment (its noise fraction converted by
    /// ``SignalSnapshot/noiseToSignal(noiseFraction:)``), with the
    /// assessment's problem ("flat", "clipped", …) as the reason; nil before
    /// the first assessment. ``SignalSnapshot/sampleCount`` counts the
    /// samples received since the DATAHEADER. ``SignalSnapshot/empty``
    /// before any EEG. Copies only the samples it returns.
    ///
    /// ```swift
    /// var decoder = LiveDecoder(settings: settings, now: MonotonicClock.milliseconds())
    /// _ = decoder.advance(now: MonotonicClock.milliseconds())
    /// let snapshot = decoder.signalSnapshot(seconds: 5)
    /// let view = SignalView()
    /// view.draw(snapshot, on: screen, in: CellRect(row: 1, column: 0, width: 100, height: 22))
    /// ```
    public func signalSnapshot(seconds: Double = 5) -> SignalSnapshot { signal.signalSnapshot(seconds: seconds) }

    /// The fit due since calibration ended, if any, handed over once. Run
    /// it (off the socket thread: it takes a while) and give its outcome to
    /// ``adopt(_:now:)``.
    public mutating func takeCalibrationJob() -> CalibrationJob? { calibration.takeJob() }

    /// Takes a finished fit: its LOG lines, and when it produced a model, the
    /// model and a CERTAINTYTHRESHOLD with its recommended certainty.
    public mutating func adopt(_ outcome: CalibrationOutcome, now: Double) -> [UtopiaMessage] {
        outbox.now = now
        calibration.adopt(outcome, into: &outbox)
        // Nothing of the open trial announced yet: the fit scores it (see ``LivePrediction``).
        if let model = outcome.decoder, prediction.modelArrived(model) { learnerScoresTrial = false }
        return outbox.take()
    }
}
