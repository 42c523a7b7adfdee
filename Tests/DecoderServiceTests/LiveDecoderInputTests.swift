import DecoderService
import Foundation
import Simulation
import TestSupport
import Testing
import UtopiaProtocol

/// The live decoder's input tap: with `recordingInput` it keeps every input
/// it consumes, in order, with its time; without, nothing.
@Suite struct LiveDecoderInputTests {
    @Test(.tags(.heavy), .heavyComputation) func theTapRecordsTheSimulatedEEGAndTheEngineMessagesInOrder() throws {
        let records = RecordedSession.shared.records
        let ids = records.map { Character(UnicodeScalar($0.messageID)) }
        #expect(ids.first == "A")                                             // the DATAHEADER it started with
        #expect(records.first?.time == 1_000)
        #expect(Set(ids) == ["A", "D", "M", "N", "E"])
        #expect(ids.filter { $0 == "N" }.count == 11)                         // 8 calibration + 3 prediction trials
        #expect(ids.filter { $0 == "M" }.count == 2)
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.time <= $1.time })
        // Every simulated sample up to 60 ms before the end, in packets of 25 at 250 Hz.
        let packets = records.compactMap { if case .dataPacket(let p)? = $0.message { return p } else { return nil } }
        #expect(packets.allSatisfy { $0.samples.count == 25 && $0.samples.allSatisfy { $0.count == 8 } })
        let seconds = records.last!.time - records.first!.time
        #expect(abs(Double(packets.count * 25) - (seconds - 0.06) * 250) <= 25)
    }

    @Test func withoutTheTapNothingIsKeptAndClientEEGIgnoredBySimulationIsNotRecorded() {
        var plain = LiveDecoder(settings: DecoderServerSettings(), now: 5_000)
        _ = plain.receive(.dataHeader(DataHeader(timestamp: 0, channelCount: 2, sampleRate: 250, labels: [])), now: 5_000)
        _ = plain.receive(.newTarget(NewTarget(timestamp: 5_001)), now: 5_001)
        #expect(!plain.isRecordingInput)
        #expect(plain.takeInputRecords().isEmpty)

        var settings = DecoderServerSettings()
        settings.simulation = DecoderSimulation(snr: 0.05, seed: 1, gaze: .target)
        var simulated = LiveDecoder(settings: settings, now: 5_000, recordingInput: true)
        _ = simulated.receive(.dataPacket(DataPacket(timestamp: 5_001, samples: [[1, 2]])), now: 5_001)   // ignored: simulation runs
        _ = simulated.receive(.heartbeat(Heartbeat(timestamp: 5_001)), now: 5_001)
        _ = simulated.receive(.reset(Reset(timestamp: 5_002)), now: 5_002.5)
        let records = simulated.takeInputRecords()
        #expect(records.map { Character(UnicodeScalar($0.messageID)) } == ["A", "R"])
        #expect(records.map(\.time) == [5, 5.0025])
        #expect(simulated.takeInputRecords().isEmpty)                           // drained
    }
}
