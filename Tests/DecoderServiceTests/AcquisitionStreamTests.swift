import Codes
import Foundation
import Simulation
import TestSupport
import Testing
import UtopiaProtocol
@testable import DecoderService
import Decoding

/// The decoder's intake: every bad-input case counted, never a crash, never a NaN sample.
@Suite struct AcquisitionStreamTests {
    static let header = DataHeader(timestamp: 0, channelCount: 2, sampleRate: 250, labels: ["O1", "O2"])

    @Test func packetsBecomeChannelsBySamplesWithSampleTimes() throws {
        var stream = AcquisitionStream()
        let headerAccepted = stream.receive(Self.header)
        #expect(headerAccepted)
        let received = stream.receive(DataPacket(timestamp: 1012, samples: [[1, 10], [2, 20], [3, 30], [4, 40]]))
        let block = try #require(received)
        #expect(block.samples == [[1, 2, 3, 4], [10, 20, 30, 40]])
        #expect(block.times == [1000, 1004, 1008, 1012])
        #expect(stream.problems.isEmpty)
    }

    @Test func dataBeforeAnyHeaderIsRejected() {
        var stream = AcquisitionStream()
        let early = stream.receive(DataPacket(timestamp: 1, samples: [[1, 2]]))
        #expect(early == nil)
        #expect(stream.problems == [.dataBeforeHeader: 1])
    }

    @Test func anUnusableHeaderIsRejected() {
        var stream = AcquisitionStream()
        let noChannels = stream.receive(DataHeader(timestamp: 0, channelCount: 0, sampleRate: 250, labels: []))
        #expect(!noChannels)
        let noRate = stream.receive(DataHeader(timestamp: 0, channelCount: 8, sampleRate: .nan, labels: []))
        #expect(!noRate)
        #expect(stream.header == nil)
        #expect(stream.problems == [.invalidHeader: 2])
    }

    @Test func aPacketWithTheWrongChannelCountIsRejected() {
        var stream = AcquisitionStream()
        stream.receive(Self.header)
        let mismatched = stream.receive(DataPacket(timestamp: 4, samples: [[1, 2], [1, 2, 3]]))
        #expect(mismatched == nil)
        #expect(stream.problems == [.channelCountMismatch: 1])
    }

    @Test func aTimestampGoingBackIsRejectedAndTheStreamGoesOn() {
        var stream = AcquisitionStream()
        stream.receive(Self.header)
        let first = stream.receive(DataPacket(timestamp: 100, samples: [[1, 1]]))
        #expect(first != nil)
        let backwards = stream.receive(DataPacket(timestamp: 50, samples: [[2, 2]]))
        #expect(backwards == nil)
        let next = stream.receive(DataPacket(timestamp: 104, samples: [[3, 3]]))
        #expect(next?.times == [104])
        #expect(stream.problems == [.timestampWentBack: 1])
    }

    @Test func nonFiniteSamplesAreRepairedAndCounted() throws {
        var stream = AcquisitionStream()
        stream.receive(Self.header)
        let received = stream.receive(DataPacket(timestamp: 8, samples: [[1, .nan], [.infinity, 5], [3, 6]]))
        let block = try #require(received)
        #expect(block.samples == [[1, 1, 3], [0, 5, 6]])
        #expect(stream.problems == [.nonFiniteSample: 2])
        let empty = stream.receive(DataPacket(timestamp: 9, samples: []))
        #expect(empty == nil)
        #expect(stream.problems[.emptyPacket] == 1)
    }

    @Test func wrappingTimestampsKeepCounting() throws {
        var stream = AcquisitionStream()
        stream.receive(Self.header)
        _ = stream.receive(DataPacket(timestamp: Int32.max - 1, samples: [[0, 0]]))
        let received = stream.receive(DataPacket(timestamp: Int32.min + 2, samples: [[0, 0]]))
        let after = try #require(received)
        #expect(after.times == [Double(Int32.max) + 3])
    }

    @Test func theTimelineGivesTheDatasetsStimulus() throws {
        // The same frames DatasetSimulation sends for its first trial (1 s of rest, then 4.2 s at 60 Hz).
        let dataset = try DatasetSimulation(classes: 3, trials: 1, seed: 1).record()
        let codes = GoldCodeSet.codes(count: 3)
        var timeline = StimulusTimeline()
        for frame in 0...252 {
            let bit = (frame / 2) % 63
            timeline.receive(StimulusEvent(
                timestamp: Int32((1000 + Double(frame) * 1000 / 60).rounded()), objIDs: [1, 2, 3],
                objStates: frame == 252 ? [0, 0, 0] : codes.map { $0[bit] }))
        }
        let v = timeline.states(of: [1, 2, 3], at: (0..<1050).map { 1000 + Double($0) * 4 })
        #expect(v == (0..<3).map { dataset.stimulus(ofClass: $0) })
    }

    @Test func timelineIgnoresEventsThatGoBackAndUnknownObjectsAreOff() {
        var timeline = StimulusTimeline()
        timeline.receive(StimulusEvent(timestamp: 100, objIDs: [1], objStates: [1]))
        timeline.receive(StimulusEvent(timestamp: 90, objIDs: [1], objStates: [0]))
        timeline.receive(StimulusEvent(timestamp: 200, objIDs: [1], objStates: [0]))
        #expect(timeline.outOfOrderEvents == 1)
        #expect(timeline.states(of: [1, 9], at: [50, 100, 150, 200]) == [[0, 1, 1, 0], [0, 0, 0, 0]])
    }

    @Test(.tags(.heavy), .heavyComputation) func theLivePathDecodesWhatTheAmplifierStreams() throws {
        // Calibrate on a simulated dataset, then decode a new trial streamed as messages.
        var simulation = DatasetSimulation(classes: 9, trials: 45, seed: 41)
        let dataset = try simulation.record()
        let pre = Preprocessor(sampleRate: 250, channels: 8)
        let decoder = try CalibratedDecoder.fit(
            trials: (0..<45).map { pre.apply(toTrial: dataset.trial($0)) }, labels: dataset.labels.map(Int.init),
            codes: (0..<9).map { dataset.stimulus(ofClass: $0) }, sampleRate: 250)

        simulation.noiseSeed = 99
        var amplifier = SimulatedAmplifier(settings: simulation.settings, subject: simulation.subject, seed: 99)
        var stream = AcquisitionStream()
        var timeline = StimulusTimeline()
        stream.receive(DataHeader(timestamp: 0, channelCount: 8, sampleRate: 250, labels: []))
        _ = amplifier.read(samples: 250)
        let codes = GoldCodeSet.codes(count: 9)
        let start = amplifier.nextSampleTime
        amplifier.user.look(at: 7, from: start)   // object 7 is class 6
        for frame in 0..<180 {                    // 3 s of flicker
            let event = StimulusEvent(timestamp: Int32((start + Double(frame) * 1000 / 60).rounded()),
                                      objIDs: (1...9).map { UInt8($0) }, objStates: codes.map { $0[(frame / 2) % 63] })
            amplifier.receive(event)
            timeline.receive(event)
        }
        var samples = [[Double]](repeating: [], count: 8)
        var times: [Double] = []
        for _ in 0..<30 {                          // 3 s in 100 ms packets
            let packet = amplifier.readPacket(samples: 25)
            let accepted = stream.receive(packet)
            let block = try #require(accepted)
            for c in 0..<8 { samples[c] += block.samples[c] }
            times += block.times
        }
        let v = timeline.states(of: (1...9).map { UInt8($0) }, at: times)
        var scorer = decoder.scorer(for: v)
        scorer.append(pre.apply(toTrial: samples))
        let scores = scorer.scores()
        #expect(scores.indices.max { scores[$0] < scores[$1] } == 6)
        #expect(stream.problems.isEmpty && timeline.outOfOrderEvents == 0)
    }
}
