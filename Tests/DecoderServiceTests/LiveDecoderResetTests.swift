import DecoderService
import Testing
import UtopiaProtocol

/// A RESET starts a new session: its engine's STIMULUSEVENT stamps may lie
/// before the last session's (a recording played faster than real time, a
/// restarted engine on another clock), and the decoder takes them.
@Suite struct LiveDecoderResetTests {
    func logs(resetting: Bool) -> [String] {
        var decoder = LiveDecoder(settings: DecoderServerSettings(), now: 20_000)
        var out: [UtopiaMessage] = []
        out += decoder.receive(.stimulusEvent(StimulusEvent(timestamp: 19_000, objIDs: [1], objStates: [1])), now: 20_000)
        if resetting { out += decoder.receive(.reset(Reset(timestamp: 20_001)), now: 20_001) }
        out += decoder.receive(.stimulusEvent(StimulusEvent(timestamp: 12_000, objIDs: [1], objStates: [0])), now: 20_002)
        out += decoder.advance(now: 21_500)
        return out.compactMap { if case .log(let log) = $0 { return log.message } else { return nil } }
    }

    @Test func afterAResetEarlierStampsAreTakenNotIgnored() {
        #expect(logs(resetting: false).contains { $0.contains("STIMULUSEVENT timestamp went back: ignored") })
        #expect(!logs(resetting: true).contains { $0.contains("timestamp went back") })
    }
}
