import Decoding
import UtopiaProtocol

/// The live decoder's model: a fit is requested when calibration ends, due
/// once the closed trials are cut (or after 3 s), handed over as a
/// ``CalibrationJob`` to run off the socket thread, and its
/// ``CalibrationOutcome`` adopted with a CERTAINTYTHRESHOLD.
struct LiveCalibration: Sendable {
    /// The settings a fit runs with.
    let settings: DecoderServerSettings
    /// The model fitted on the last calibration, if any.
    private(set) var model: CalibratedDecoder?
    /// Calibrations fitted so far.
    private(set) var fitted = 0
    private var requestedAt: Double?
    private var job: CalibrationJob?
    /// Jobs handed over whose outcome has not come back yet.
    private var running = 0

    init(settings: DecoderServerSettings) {
        self.settings = settings
    }

    /// True when no model is fitted, requested, waiting to be handed over or running.
    var isAbsent: Bool { model == nil && requestedAt == nil && job == nil && running == 0 }

    /// Asks for a fit at wire time `now` (calibration ended).
    mutating func request(at now: Double) {
        requestedAt = now
    }

    /// Forgets the model and any fit not yet assembled.
    mutating func forget() {
        requestedAt = nil
        model = nil
    }

    /// Assembles the requested fit once `trials` has cut every closed trial
    /// or 3 s have passed since the request (dropping the trials still
    /// waiting); a calibration of fewer than 2 trials is logged, not fitted.
    mutating func assembleIfDue(from trials: inout TrialCutter, sampleRate: Double?, into outbox: inout DecoderOutbox) {
        guard let requested = requestedAt, !trials.isWaitingForEEG || outbox.now - requested > 3000 else { return }
        trials.dropWaiting(into: &outbox)
        trials.dropShortCalibrationTrials(sampleRate: sampleRate ?? 250, into: &outbox)
        requestedAt = nil
        guard trials.calibration.count >= 2 else {
            noModel("calibration: \(trials.calibration.count) trial(s) collected, at least 2 are needed: no model fitted",
                    trials: trials.calibration.count, into: &outbox)
            return
        }
        do {
            let (dataset, shown) = try trials.calibrationDataset(sampleRate: sampleRate ?? 250)
            let filtered = trials.filteredTrials(samples: dataset.header.nSamples)
            job = CalibrationJob(dataset: dataset, settings: settings, trialClasses: shown, filteredTrials: filtered)
        } catch {
            noModel("calibration could not be assembled: \(error)", trials: trials.calibration.count, into: &outbox)
        }
    }

    /// Says why no fit will come: a LOG line and a CALIBRATIONRESULT that is not fitted.
    private func noModel(_ reason: String, trials: Int, into outbox: inout DecoderOutbox) {
        outbox.log(reason)
        outbox.send(.calibrationResult(CalibrationResult(timestamp: outbox.stamp, fitted: false, trials: Int32(trials), summary: reason)))
    }

    /// The assembled fit, handed over once.
    mutating func takeJob() -> CalibrationJob? {
        defer { job = nil }
        if job != nil { running += 1 }
        return job
    }

    /// Takes a finished fit: its LOG lines and CALIBRATIONRESULT, and when it
    /// produced a model, the model and a CERTAINTYTHRESHOLD with its
    /// recommended certainty.
    mutating func adopt(_ outcome: CalibrationOutcome, into outbox: inout DecoderOutbox) {
        running = max(0, running - 1)
        for line in outcome.log { outbox.log(line) }
        outbox.send(.calibrationResult(outcome.result(at: outbox.stamp)))
        guard let decoder = outcome.decoder else { return }
        model = decoder
        fitted += 1
        outbox.send(.certaintyThreshold(CertaintyThreshold(timestamp: outbox.stamp,
                                                           threshold: Float(decoder.recommendedCertainty))))
    }
}
