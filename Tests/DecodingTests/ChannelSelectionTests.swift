import Foundation
import Testing
@testable import Decoding

@Suite struct ChannelSelectionTests {
    private let names = ["Fp1", "Oz", "O1", "O2", "EXG1", "EXG2"]

    @Test func keepTakesTheListedChannelsInTheirOrderAndIgnoresCaseOnlyWhenUnique() throws {
        #expect(try ChannelSelection.keep(["O2", "oz", "O1"]).indices(among: names) == [3, 1, 2])
        #expect(try ChannelSelection.drop(["EXG1", "exg2", "Fp1"]).indices(among: names) == [1, 2, 3])
        #expect(try ChannelSelection.keep(["cz"]).indices(among: ["Cz", "CZ", "cz"]) == [2])  // exact first
    }

    @Test func aWrongListIsOneLineNamingTheChannel() throws {
        func message(_ s: ChannelSelection, _ among: [String]) -> String {
            do { _ = try s.indices(among: among); return "no error" } catch { return "\(error)" }
        }
        #expect(message(.keep(["Pz"]), names) == "no channel named \"Pz\" (the channels: Fp1, Oz, O1, O2, EXG1, EXG2)")
        let many = (1...72).map { "E\($0)" }
        #expect(message(.keep(["X"]), many).hasSuffix("E11, E12, … (72 in all))"))
        #expect(message(.keep(["O1", "o1"]), names) == "channel \"O1\" is named twice")
        #expect(message(.drop(names), names) == "every channel would be dropped")
        #expect(message(.keep([]), names) == "no channel listed")
        #expect(message(.keep(["cz"]), ["Cz", "CZ"]).contains("matches several channels"))
        // A file that names two channels alike: dropping the name drops both, keeping it is refused.
        let twins = ["O1-REF", "Oz-REF", "O1-REF", "Photic"]
        #expect(try ChannelSelection.drop(["O1-REF"]).indices(among: twins) == [1, 3])
        #expect(message(.keep(["O1-REF", "Oz-REF"]), twins)
            == "\"O1-REF\" names 2 channels of the file (numbers 1, 3): which to keep is unclear; --drop-channels the others instead")
    }

    /// Three channels, each sample holding 1000 × channel + its index; trials at 10 and 50.
    private func dataset(names: [String]?) throws -> TrialsDataset {
        let n = 100
        let samples = (0..<3).flatMap { c in (0..<n).map { Float(1000 * c + $0) } }
        let header = DatasetHeader(fs: 100, nTrials: 2, nChannels: 3, nSamples: 20, nClasses: 2, channels: names)
        return try TrialsDataset(header: header, continuous: samples, length: n, onsets: [10, 50], labels: [1, 0],
                                 stimulus: [UInt8](repeating: 0, count: 20) + [UInt8](repeating: 1, count: 20))
    }

    @Test func selectingChannelsCutsTheTrialsAndTheContinuousRecordingAlike() throws {
        let d = try dataset(names: ["Oz", "EOG", "Pz"]).selectingChannels(.keep(["Pz", "Oz"]))
        #expect(d.header.nChannels == 2 && d.header.channels == ["Pz", "Oz"])
        #expect(d.trial(1)[0].first == 2050 && d.trial(1)[1].first == 50 && d.trial(0)[0].last == 2029)
        #expect(d.context?.samples.count == 200 && d.context?.samples[0] == 2000 && d.context?.samples[100] == 0)
        #expect(d.labels == [1, 0] && d.context?.onsets == [10, 50])
        let dropped = try dataset(names: nil).selectingChannels(.drop(["2"]))  // unnamed channels are "1", "2", "3"
        #expect(dropped.channelNames == ["1", "3"] && dropped.trial(0)[1].first == 2010)
        let same = try dataset(names: nil)
        #expect(try same.selectingChannels(.keep(["1", "2", "3"])) == same)
    }

    @Test func aChannelTheImportLeftOutAsDeadIsAlreadyDroppedAndCannotBeKept() throws {
        let d = try dataset(names: ["Oz", "EOG", "Pz"])
        let dead = ["F8": ChannelSelection.deadReason]
        #expect(try ChannelSelection.drop(["f8", "EOG"]).indices(among: d.channelNames, leftOut: dead) == [0, 2])
        #expect(throws: ChannelSelectionError("channel \"F8\" was left out on import: it holds no finite sample")) {
            try ChannelSelection.keep(["Oz", "F8"]).indices(among: d.channelNames, leftOut: dead)
        }
        // A name neither present nor dead is still the error that lists the channels.
        #expect(throws: ChannelSelectionError("no channel named \"F9\" (the channels: Oz, EOG, Pz)")) {
            try ChannelSelection.keep(["F9"]).indices(among: d.channelNames, leftOut: dead)
        }
    }

    @Test func aChannelLeftOutForItsRateSaysSoWhenKeptAndIsNoErrorWhenDropped() throws {
        let d = try dataset(names: ["Oz", "EOG", "Pz"])
        let why = ["Temp": "it is sampled at 1 Hz, and an import keeps one rate, 256 Hz, that of most channels"]
        #expect(throws: ChannelSelectionError("channel \"Temp\" was left out on import: it is sampled at 1 Hz, and an import keeps one rate, 256 Hz, that of most channels")) {
            try d.selectingChannels(.keep(["Oz", "temp"]), leftOut: why)
        }
        #expect(try d.selectingChannels(.drop(["Temp", "EOG"]), leftOut: why).channelNames == ["Oz", "Pz"])
    }
}
