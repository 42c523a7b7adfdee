import Codes
import Decoding
import Foundation
import UtopiaProtocol

/// A simulated EEG amplifier with a simulated person in front of a screen.
///
/// It learns what the screen showed only from the STIMULUSEVENTs it is given,
/// as a real amplifier sees light: each object's state changes become light
/// edges at the message's timestamp plus the display latency (and a per-frame
/// jitter). While the ``SimulatedUser`` looks at an object, every rising and
/// falling edge of that object adds the subject's kernel, spread over the
/// channels by the subject's spatial pattern, on top of the
/// ``BackgroundActivity``. Sample k lies at `k / sampleRate` seconds on the
/// wire clock (milliseconds, as STIMULUSEVENT timestamps). See
/// `Protocols/simulator.md`.
///
/// ```swift
/// var amplifier = SimulatedAmplifier(settings: SimulationSettings(), subject: SimulatedSubject(seed: 4), seed: 1)
/// amplifier.user.look(at: 2, from: 0)
/// amplifier.receive(StimulusEvent(timestamp: 0, objIDs: [1, 2], objStates: [0, 1]))
/// let packet = amplifier.read(samples: 25)   // 100 ms, channels × 25, in µV
/// ```
public struct SimulatedAmplifier: Sendable {
    /// The recording settings.
    public let settings: SimulationSettings
    /// The person recorded.
    public let subject: SimulatedSubject
    /// Where the person looks; change it at any time before the samples concerned are read.
    public var user = SimulatedUser()
    /// Scale of the visual response that gives the configured SNR.
    public let responseGain: Double
    private var background: BackgroundActivity
    private var jitterSource: SeededGenerator
    private var lastState: [UInt8: Bool] = [:]
    private var edges: [UInt8: [(time: Double, rising: Bool)]] = [:]
    private var sampleIndex = 0

    /// An amplifier recording `subject` with `settings`; `seed` draws the noise.
    public init(settings: SimulationSettings, subject: SimulatedSubject, seed: UInt64) {
        self.settings = settings
        self.subject = subject
        background = BackgroundActivity(settings: settings, subject: subject, seed: seed)
        jitterSource = SeededGenerator(seed: seed).derived(stream: 3)
        let responseVariance = Self.nominalResponseVariance(subject: subject, sampleRate: settings.sampleRate)
        let backgroundVariance = background.backgroundVariance.reduce(0, +) / Double(settings.channels)
        responseGain = (settings.snr * backgroundVariance * Double(settings.channels) / responseVariance).squareRoot()
    }

    /// The wire time (ms) of the next sample to be read.
    public var nextSampleTime: Double { Double(sampleIndex) * 1000 / settings.sampleRate }

    /// Takes in one frame's stimulus states. Give events in time order and
    /// before reading the samples they affect.
    public mutating func receive(_ event: StimulusEvent) {
        let jitter = settings.displayJitter > 0 ? settings.displayJitter * jitterSource.nextGaussian() : 0
        let lightTime = Double(event.timestamp) + 1000 * (settings.displayLatency + jitter)
        for (id, state) in zip(event.objIDs, event.objStates) {
            let on = state > 0
            let was = lastState[id] ?? false
            if on != was {
                // Jitter can put an edge before the previous one: keep the list in time order.
                var list = edges[id, default: []]
                let position = list.lastIndex { $0.time <= lightTime }.map { $0 + 1 } ?? 0
                list.insert((lightTime, on), at: position)
                edges[id] = list
            }
            lastState[id] = on
        }
    }

    /// Reads the next `samples` samples: channels × samples, in microvolts.
    public mutating func read(samples count: Int) -> [[Double]] {
        var out = [[Double]](repeating: [Double](repeating: 0, count: count), count: settings.channels)
        let kernelMs = subject.kernelDuration * 1000
        for i in 0..<count {
            let t = nextSampleTime
            var column = background.nextSample()
            if let target = user.target(at: t), let list = edges[target] {
                var response = 0.0
                var j = list.count - 1
                while j >= 0, list[j].time > t - kernelMs {
                    let dt = (t - list[j].time) / 1000
                    if dt >= 0 { response += list[j].rising ? subject.riseKernel(at: dt) : subject.fallKernel(at: dt) }
                    j -= 1
                }
                for c in 0..<settings.channels { column[c] += responseGain * subject.responsePattern[c] * response }
            }
            for c in 0..<settings.channels { out[c][i] = column[c] * settings.microvoltsPerUnit }
            sampleIndex += 1
        }
        forgetOldEdges(before: nextSampleTime - kernelMs - 1000)
        return out
    }

    /// Reads the next `samples` samples as a DATAPACKET stamped with the last sample's time.
    public mutating func readPacket(samples count: Int) -> DataPacket {
        let block = read(samples: count)
        let stamp = Int32(truncatingIfNeeded: Int((nextSampleTime - 1000 / settings.sampleRate).rounded()))
        return DataPacket(timestamp: stamp, samples: (0..<count).map { i in block.map { Float($0[i]) } })
    }

    private mutating func forgetOldEdges(before time: Double) {
        for id in edges.keys {
            if let keep = edges[id]!.firstIndex(where: { $0.time >= time }), keep > 0 {
                edges[id]!.removeFirst(keep)
            }
        }
        user.forget(before: time)
    }

    /// The variance of the (unscaled) response to a random code of 30 Hz bits
    /// that is on half of the time, over 20 s.
    private static func nominalResponseVariance(subject: SimulatedSubject, sampleRate: Double) -> Double {
        var rng = SeededGenerator(seed: 0x5EED)
        let bit = 1.0 / 30
        let bits = (0..<600).map { _ in rng.nextUniform() < 0.5 }
        var edgeTimes: [(Double, Bool)] = []
        var previous = false
        for (k, on) in bits.enumerated() where on != previous {
            edgeTimes.append((Double(k) * bit, on))
            previous = on
        }
        let n = Int(20 * sampleRate)
        var values = [Double](repeating: 0, count: n)
        for (time, rising) in edgeTimes {
            let first = Int((time * sampleRate).rounded(.up))
            let last = min(n - 1, Int(((time + subject.kernelDuration) * sampleRate).rounded(.down)))
            if first > last { continue }
            for s in first...last {
                let dt = Double(s) / sampleRate - time
                values[s] += rising ? subject.riseKernel(at: dt) : subject.fallKernel(at: dt)
            }
        }
        let mean = values.reduce(0, +) / Double(n)
        return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n)
    }
}
