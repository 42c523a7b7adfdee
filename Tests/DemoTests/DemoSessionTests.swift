import DecoderService
import Demo
import Foundation
import NoiseTagging
import Testing
import TestSupport

/// The embedded decoder of a demo session runs on the settings the demo is
/// given (`noisetag demo --decoder-settings FILE`): the demo adds only its
/// simulation and, where the settings name none, its calibration folder.
@Suite(.serialized, .tags(.sockets), .outsideWorld) struct DemoSessionTests {
    static func session(_ decoderSettings: DecoderServerSettings) throws -> (settings: DecoderServerSettings?, root: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("demo-session-\(UUID().uuidString)")
        var options = DemoOptions()
        options.recordings = RecordingStore(root: root)
        options.decoderSettings = decoderSettings
        let session = try DemoSession(options: options)
        defer { session.close() }
        return (session.decoder?.settings, root)
    }

    @Test func theEmbeddedDecoderRunsOnTheGivenSettings() throws {
        var given = DecoderServerSettings()
        given.idlePressesPerMinute = 1
        given.targetErrorRate = 0.02
        given.lineFrequency = 60
        let (settings, root) = try Self.session(given)
        defer { try? FileManager.default.removeItem(at: root) }
        let used = try #require(settings)
        #expect(used.idlePressesPerMinute == 1 && used.targetErrorRate == 0.02 && used.lineFrequency == 60)
        #expect(used.simulation?.amplifier.lineFrequency == 60, "the simulated amplifier's mains is the decoder's")
        #expect(used.calibrationFolder?.path == root.appendingPathComponent("decoder-calibrations").path)

        var elsewhere = DecoderServerSettings()
        elsewhere.calibrationFolder = root.appendingPathComponent("mine", isDirectory: true)
        let (kept, second) = try Self.session(elsewhere)
        defer { try? FileManager.default.removeItem(at: second) }
        #expect(kept?.calibrationFolder == elsewhere.calibrationFolder)
    }
}
