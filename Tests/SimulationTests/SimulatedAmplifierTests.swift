import Codes
import Decoding
import Foundation
import Simulation
import TestSupport
import Testing
import UtopiaProtocol

/// The simulator as a decoder sees it: what it records follows what the user looks at.
@Suite struct SimulatedAmplifierTests {
    static let fs = 250.0

    /// 4 s of two objects flickering two Gold codes at 60 Hz, 2 frames per bit.
    static func record(settings: SimulationSettings, seed: UInt64, lookAt target: UInt8?) -> (eeg: [[Double]], amplifier: SimulatedAmplifier) {
        var amplifier = SimulatedAmplifier(settings: settings, subject: SimulatedSubject(seed: 3), seed: seed)
        amplifier.user.look(at: target, from: 0)
        let codes = GoldCodeSet.codes(count: 2)
        for frame in 0..<240 {
            let bit = (frame / 2) % 63
            amplifier.receive(StimulusEvent(timestamp: Int32((Double(frame) * 1000 / 60).rounded()),
                                            objIDs: [1, 2], objStates: [codes[0][bit], codes[1][bit]]))
        }
        return (amplifier.read(samples: 1000), amplifier)
    }

    /// The subject's true response to object `index`'s code, projected as the recording is.
    static func expectedResponse(_ subject: SimulatedSubject, code index: Int, latency: Double) -> [Double] {
        let code = GoldCodeSet.codes(count: 2)[index]
        var out = [Double](repeating: 0, count: 1000)
        var previous: UInt8 = 0
        for frame in 0...240 {
            let state: UInt8 = frame == 240 ? previous : code[(frame / 2) % 63]
            if state != previous {
                let light = (Double(frame) * 1000 / 60).rounded() / 1000 + latency
                for s in 0..<1000 {
                    let dt = Double(s) / fs - light
                    out[s] += state > 0 ? subject.riseKernel(at: dt) : subject.fallKernel(at: dt)
                }
            }
            previous = state
        }
        return out
    }

    static func projected(_ eeg: [[Double]], on pattern: [Double]) -> [Double] {
        (0..<eeg[0].count).map { i in zip(eeg, pattern).reduce(0) { $0 + $1.0[i] * $1.1 } }
    }

    @Test func sameSeedsRecordTheSameSignal() {
        let settings = SimulationSettings()
        #expect(Self.record(settings: settings, seed: 1, lookAt: 1).eeg == Self.record(settings: settings, seed: 1, lookAt: 1).eeg)
        #expect(Self.record(settings: settings, seed: 1, lookAt: 1).eeg != Self.record(settings: settings, seed: 2, lookAt: 1).eeg)
        #expect(SimulatedSubject(seed: 3) == SimulatedSubject(seed: 3))
        #expect(SimulatedSubject(seed: 3) != SimulatedSubject(seed: 4))
    }

    @Test func theResponseFollowsTheObjectLookedAt() {
        var settings = SimulationSettings()
        settings.snr = 0.5
        let subject = SimulatedSubject(seed: 3)
        let pre = Preprocessor(sampleRate: Self.fs, channels: 8)
        for (target, other) in [(0, 1), (1, 0)] {
            let eeg = pre.apply(toTrial: Self.record(settings: settings, seed: 7, lookAt: UInt8(target + 1)).eeg)
            let x = Self.projected(eeg, on: subject.responsePattern)
            let attended = correlation(x, Self.expectedResponse(subject, code: target, latency: 0.04))
            let ignored = correlation(x, Self.expectedResponse(subject, code: other, latency: 0.04))
            #expect(attended > 0.3, "looked-at code correlates \(attended)")
            #expect(attended > ignored + 0.2)
        }
    }

    @Test func anIdleUserShowsNoResponse() {
        var settings = SimulationSettings()
        settings.snr = 0.5
        let subject = SimulatedSubject(seed: 3)
        let eeg = Preprocessor(sampleRate: Self.fs, channels: 8).apply(toTrial: Self.record(settings: settings, seed: 7, lookAt: nil).eeg)
        let x = Self.projected(eeg, on: subject.responsePattern)
        for code in 0..<2 {
            #expect(abs(correlation(x, Self.expectedResponse(subject, code: code, latency: 0.04))) < 0.15)
        }
    }

    @Test func theResponseComesAfterTheDisplayLatency() {
        var settings = SimulationSettings()
        settings.snr = 0.5
        settings.displayLatency = 0.1
        let subject = SimulatedSubject(seed: 3)
        let eeg = Preprocessor(sampleRate: Self.fs, channels: 8).apply(toTrial: Self.record(settings: settings, seed: 7, lookAt: 1).eeg)
        let x = Self.projected(eeg, on: subject.responsePattern)
        let at100 = correlation(x, Self.expectedResponse(subject, code: 0, latency: 0.1))
        let at40 = correlation(x, Self.expectedResponse(subject, code: 0, latency: 0.04))
        #expect(at100 > at40 + 0.2)
    }

    @Test func longAndShortFlashesAnswerDifferently() {
        var settings = SimulationSettings()
        settings.snr = 1e6   // the response alone, for shape
        let subject = SimulatedSubject(seed: 3)
        func response(toFlashOf frames: Int) -> [Double] {
            var amplifier = SimulatedAmplifier(settings: settings, subject: subject, seed: 1)
            amplifier.user.look(at: 1, from: 0)
            amplifier.receive(StimulusEvent(timestamp: 0, objIDs: [1], objStates: [1]))
            amplifier.receive(StimulusEvent(timestamp: Int32(frames * 1000 / 60), objIDs: [1], objStates: [0]))
            return Self.projected(amplifier.read(samples: 100), on: subject.responsePattern)
        }
        let short = response(toFlashOf: 2), long = response(toFlashOf: 6)
        let scale = short.map(abs).max()!
        // Identical until the short flash ends (33 ms + 40 ms latency = sample 19), different after.
        #expect(zip(short.prefix(18), long.prefix(18)).allSatisfy { abs($0 - $1) < 0.01 * scale })
        #expect(zip(short[20..<60], long[20..<60]).contains { abs($0 - $1) > 0.2 * scale })
    }

    @Test func noiseHasMainsAlphaAndOneOverF() {
        var settings = SimulationSettings()
        settings.lineFrequency = 60
        settings.snr = 0
        var amplifier = SimulatedAmplifier(settings: settings, subject: SimulatedSubject(seed: 3), seed: 2)
        let channel = amplifier.read(samples: 30 * 250)[7]
        let psd = Spectrum.welch(channel, sampleRate: Self.fs, segmentLength: 500)
        #expect(psd.power(at: 60) > 20 * psd.power(at: 55), "mains at the configured 60 Hz")
        #expect(psd.power(at: 50) < 2 * psd.power(at: 45), "no 50 Hz when mains is 60 Hz")
        let alpha = SimulatedSubject(seed: 3).alphaFrequency
        #expect(psd.bandPower((alpha - 1)...(alpha + 1)) > 2 * psd.bandPower(14...16), "an alpha peak")
        #expect(psd.bandPower(2...4) > 4 * psd.bandPower(20...22), "1/f: more power at low frequencies")
    }

    @Test func blinksShowOnTheFrontChannels() {
        var settings = SimulationSettings()
        settings.driftAmplitude = 0
        settings.blinkRate = 0
        var quiet = SimulatedAmplifier(settings: settings, subject: SimulatedSubject(seed: 3), seed: 2)
        settings.blinkRate = 1
        var blinking = SimulatedAmplifier(settings: settings, subject: SimulatedSubject(seed: 3), seed: 2)
        let q = quiet.read(samples: 2500), b = blinking.read(samples: 2500)
        #expect(b[0].map(abs).max()! > 2 * q[0].map(abs).max()!)
        #expect(b[7].map(abs).max()! < 1.5 * q[7].map(abs).max()! + 10)
    }

    @Test func packetsCarryOneRowPerSampleStampedWithTheLastSample() {
        var amplifier = SimulatedAmplifier(settings: SimulationSettings(), subject: SimulatedSubject(seed: 1), seed: 1)
        let first = amplifier.readPacket(samples: 25)
        let second = amplifier.readPacket(samples: 25)
        #expect(first.samples.count == 25 && first.samples[0].count == 8)
        #expect(first.timestamp == 96 && second.timestamp == 196)
    }
}
