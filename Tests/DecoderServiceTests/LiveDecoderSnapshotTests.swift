import Codes
import Decoding
import DecoderService
import Foundation
import Simulation
import Testing
import UtopiaProtocol

/// What a signal view gets from the live decoder: the tail of the raw EEG,
/// named by the DATAHEADER, with the latest signal quality as a
/// noise-to-signal ratio.
@Suite struct LiveDecoderSnapshotTests {
    /// `seconds` of a 10 Hz rhythm (a different size per channel) plus a
    /// little broadband noise, as DATAPACKETs of 25 samples at 250 Hz whose
    /// last sample is at `end` ms; channel × sample values as sent.
    static func packets(channels: Int, seconds: Double, end: Double) -> (packets: [DataPacket], sent: [[Float]]) {
        var generator = SeededGenerator(seed: 7)
        let n = Int(seconds * 250)
        var sent = [[Float]](repeating: [], count: channels)
        var packets: [DataPacket] = []
        for start in stride(from: 0, to: n, by: 25) {
            var rows: [[Float]] = []
            for i in start..<(start + 25) {
                let t = Double(i) / 250
                let row = (0..<channels).map { c in
                    Float(Double(10 * (c + 1)) * sin(2 * .pi * 10 * t) + Double.random(in: -1...1, using: &generator))
                }
                for c in 0..<channels { sent[c].append(row[c]) }
                rows.append(row)
            }
            let last = end - Double(n - start - 25) * 4
            packets.append(DataPacket(timestamp: Int32(last), samples: rows))
        }
        return (packets, sent)
    }

    @Test func theSimulatedAmplifierGivesFiveSecondsOfEightRawChannelsWithTheirQuality() throws {
        var settings = DecoderServerSettings()
        settings.simulation = DecoderSimulation(snr: 0.05, seed: 4, gaze: .target)
        var session = VirtualSession(settings: settings)
        #expect(session.decoder.signalSnapshot() == .empty)
        session.wait(8_000)
        let snapshot = session.decoder.signalSnapshot()
        #expect(snapshot.sampleRate == 250)
        #expect(snapshot.channels.count == 8)
        #expect(snapshot.channels.allSatisfy { $0.samples.count == 1_250 })
        #expect(snapshot.channels.allSatisfy { $0.samples.allSatisfy(\.isFinite) })
        // Every sample up to 60 ms (the simulation's lag) before now, give or take a packet.
        #expect(abs(snapshot.sampleCount - Int(7_940 * 0.25)) <= 25)
        for channel in snapshot.channels {
            let ratio = try #require(channel.quality)
            #expect(ratio.isFinite && ratio >= 0 && ratio <= SignalSnapshot.noiseToSignalLimit)
            #expect(channel.reason == nil)
        }
        // A shorter window is the tail of the longer one.
        let short = session.decoder.signalSnapshot(seconds: 2)
        #expect(short.sampleCount == snapshot.sampleCount)
        for (a, b) in zip(short.channels, snapshot.channels) {
            #expect(a.samples == Array(b.samples.suffix(500)))
        }
        // Time moves on, and so does the window.
        session.wait(1_000)
        let later = session.decoder.signalSnapshot()
        #expect(later.sampleCount == snapshot.sampleCount + 250)
        #expect(later.channels[0].samples.prefix(1_000) == snapshot.channels[0].samples.suffix(1_000))
    }

    @Test func channelsAreNamedByTheDataHeaderAndCarryTheSamplesAsSent() throws {
        var session = VirtualSession(settings: DecoderServerSettings())
        session.send(.dataHeader(DataHeader(timestamp: 0, channelCount: 3, sampleRate: 250, labels: ["Cz", "Pz"])))
        #expect(session.decoder.signalSnapshot() == .empty)
        let (packets, sent) = Self.packets(channels: 3, seconds: 8, end: session.now)
        for packet in packets { session.send(.dataPacket(packet)) }
        // No assessment yet: the samples are there, the quality is unknown.
        let before = session.decoder.signalSnapshot()
        #expect(before.channels.map(\.name) == ["Cz", "Pz", "3"])
        #expect(before.channels.allSatisfy { $0.quality == nil && $0.reason == nil })
        #expect(before.sampleCount == 2_000)
        for (channel, values) in zip(before.channels, sent) {
            #expect(channel.samples == values.suffix(1_250).map(Double.init))
        }
        session.wait(10)
        let after = session.decoder.signalSnapshot()
        // The SIGNALQUALITY just sent carries noise fractions; the snapshot has them as noise-to-signal ratios.
        let figures = try #require(session.sent.compactMap { if case .signalQuality(let q) = $0 { return q.quality } else { return nil } }.last)
        #expect(figures.count == 3)
        for (channel, figure) in zip(after.channels, figures) {
            let ratio = try #require(channel.quality)
            #expect(figure > 0)
            #expect(abs(ratio - Double(figure) / (1 - Double(figure))) <= 1e-5 * ratio)
            #expect(ratio < 0.5)      // a clean 10 Hz rhythm: good
        }

        var unnamed = VirtualSession(settings: DecoderServerSettings())
        unnamed.send(.dataHeader(DataHeader(timestamp: 0, channelCount: 2, sampleRate: 250, labels: [])))
        unnamed.send(.dataPacket(DataPacket(timestamp: 1, samples: [[1, 2], [3, 4]])))
        let snapshot = unnamed.decoder.signalSnapshot()
        #expect(snapshot.channels.map(\.name) == ["1", "2"])
        #expect(snapshot.channels.map(\.samples) == [[1, 3], [2, 4]])
        #expect(snapshot.sampleCount == 2)
    }

    @Test func aPacketWithNaNInOneChannelShowsThereAsAGapAndMakesThatChannelBad() throws {
        var session = VirtualSession(settings: DecoderServerSettings())
        session.send(.dataHeader(DataHeader(timestamp: 0, channelCount: 3, sampleRate: 250, labels: ["Cz", "Pz", "Oz"])))
        var (packets, _) = Self.packets(channels: 3, seconds: 6, end: session.now)
        for row in 10..<15 { packets[packets.count - 4].samples[row][1] = .nan }
        for packet in packets { session.send(.dataPacket(packet)) }
        session.wait(10)
        let snapshot = session.decoder.signalSnapshot()
        // The five samples sit 3 packets + 10 samples before the end of the 1,250.
        let gap = (1_250 - 4 * 25 + 10)..<(1_250 - 4 * 25 + 15)
        #expect(snapshot.channels[1].samples[gap].allSatisfy { $0.isNaN })
        #expect(snapshot.channels[1].samples.filter(\.isNaN).count == 5)
        #expect(snapshot.channels[0].samples.allSatisfy(\.isFinite) && snapshot.channels[2].samples.allSatisfy(\.isFinite))
        let reason = try #require(snapshot.channels[1].reason)
        #expect(reason.contains("not finite"))
        #expect(snapshot.channels[1].quality == SignalSnapshot.noiseToSignalLimit)
        #expect(snapshot.channels[0].reason == nil && snapshot.channels[2].reason == nil)
        #expect(snapshot.channels[0].quality! < 0.5 && snapshot.channels[2].quality! < 0.5)
        #expect(session.decoder.packetProblems[.nonFiniteSample] == 5)     // the decoder itself still gets them repaired

        // Once the bad samples leave the 2 s quality window the channel is good again; the gap scrolls on.
        let (more, _) = Self.packets(channels: 3, seconds: 2.5, end: session.now + 2_500)
        for packet in more {
            session.now = Double(packet.timestamp)
            session.send(.dataPacket(packet))
            session.step()
        }
        let later = session.decoder.signalSnapshot()
        #expect(later.channels[1].reason == nil)
        #expect(later.channels[1].quality! < 0.5)
        #expect(later.channels[1].samples.filter(\.isNaN).count == 5)
        #expect(later.channels[1].samples[(gap.lowerBound - 625)..<(gap.upperBound - 625)].allSatisfy { $0.isNaN })
    }
}
