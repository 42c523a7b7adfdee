import Codes
import Decoding
import Foundation
import UtopiaProtocol

/// Records a trials dataset from the simulator as a session would: a
/// presentation flickers K Gold codes at 60 frames per second (2 frames per
/// bit), sends one STIMULUSEVENT per frame to a ``SimulatedAmplifier``, and
/// the ``SimulatedUser`` looks at the trial's target from a cue half a second
/// (at most the gap) before the trial until its end, then at nothing during the gap.
///
/// ```swift
/// var simulation = DatasetSimulation(classes: 9, trials: 45, seed: 3)
/// simulation.settings.snr = 0.1
/// let dataset = try simulation.record()
/// try dataset.write(to: URL(fileURLWithPath: "sim9"))
/// ```
public struct DatasetSimulation: Sendable {
    /// Number of classes (codes, objects 1…K on the wire).
    public var classes: Int
    /// Number of trials, targets in balanced random order.
    public var trials: Int
    /// Seed of the subject, the noise and the target order.
    public var seed: UInt64
    /// The amplifier's settings (SNR, latency, noise…).
    public var settings = SimulationSettings()
    /// Seconds of stimulation per trial.
    public var trialDuration = 4.2
    /// Seconds between trials.
    public var gapDuration = 1.0
    /// Screen frames per second.
    public var frameRate = 60.0
    /// Frames per code bit.
    public var framesPerBit = 2
    /// Seed of the amplifier's noise and jitter, when it should differ from
    /// `seed` (another session of the same subject).
    public var noiseSeed: UInt64? = nil
    /// Whether the user looks at the cued target; `false` records a user who
    /// looks at nothing while the codes flicker (labels still name the cue).
    public var looksAtTarget = true

    /// A simulation with the default settings.
    public init(classes: Int, trials: Int, seed: UInt64) {
        self.classes = classes
        self.trials = trials
        self.seed = seed
    }

    /// The simulated subject this seed draws.
    public var subject: SimulatedSubject { SimulatedSubject(seed: seed, channels: settings.channels) }

    /// Runs the session and returns the dataset.
    public func record() throws -> TrialsDataset {
        let fs = settings.sampleRate
        let codes = GoldCodeSet.codes(count: classes)
        let nSamples = Int((trialDuration * fs).rounded())
        let nFrames = Int((trialDuration * frameRate).rounded())
        var amplifier = SimulatedAmplifier(settings: settings, subject: subject, seed: noiseSeed ?? seed)
        var order = SeededGenerator(seed: seed).derived(stream: 4)
        var labels: [Int32] = []
        while labels.count < trials {
            labels += (0..<classes).map(Int32.init).shuffled(using: &order)
        }
        labels = Array(labels.prefix(trials))
        var data = [Float]()
        data.reserveCapacity(trials * settings.channels * nSamples)
        var stimulus = [UInt8]()
        _ = amplifier.read(samples: Int(fs))   // a second of rest before the first cue
        for trial in 0..<trials {
            let start = amplifier.nextSampleTime
            let target = UInt8(labels[trial] + 1)
            amplifier.user.look(at: looksAtTarget ? target : nil, from: start - min(500, gapDuration * 1000))
            var events: [StimulusEvent] = []
            for frame in 0...nFrames {
                let bit = (frame / framesPerBit) % GoldCodeSet.period
                let time = Int32((start + Double(frame) * 1000 / frameRate).rounded())
                let states = frame == nFrames ? [UInt8](repeating: 0, count: classes) : codes.map { $0[bit] }
                events.append(StimulusEvent(timestamp: time, objIDs: (1...classes).map { UInt8($0) }, objStates: states))
            }
            for event in events { amplifier.receive(event) }
            amplifier.user.look(at: nil, from: start + trialDuration * 1000)
            let block = amplifier.read(samples: nSamples)
            for row in block { data += row.map { Float($0) } }
            if trial == 0 { stimulus = Self.statePerSample(events, start: start, samples: nSamples, sampleRate: fs, classes: classes) }
            _ = amplifier.read(samples: Int(gapDuration * fs))
        }
        return try TrialsDataset(
            header: DatasetHeader(fs: fs, nTrials: trials, nChannels: settings.channels, nSamples: nSamples, nClasses: classes),
            data: data, labels: labels, stimulus: stimulus)
    }

    /// Each class's state at each sample time: the state of the last event
    /// whose wire timestamp is not after the sample (no latency: what the
    /// decoder knows).
    private static func statePerSample(_ events: [StimulusEvent], start: Double, samples: Int, sampleRate: Double, classes: Int) -> [UInt8] {
        var v = [UInt8](repeating: 0, count: classes * samples)
        var e = -1
        for s in 0..<samples {
            let t = start + Double(s) * 1000 / sampleRate
            while e + 1 < events.count, Double(events[e + 1].timestamp) <= t { e += 1 }
            guard e >= 0 else { continue }
            for k in 0..<classes { v[k * samples + s] = events[e].objStates[k] }
        }
        return v
    }
}
