import DecoderService
import Foundation
import Testing

/// Decoder settings from a JSON file (`--decoder-settings FILE`): keys
/// override the defaults; an unknown key, a wrong type or a value out of
/// range is an error naming the file and the key.
@Suite struct DecoderServerSettingsFileTests {
    /// Writes `json` to a temporary file, loads it, removes it.
    static func load(_ json: String) throws(DecoderServerSettingsError) -> DecoderServerSettings {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decoder-\(UUID().uuidString).json")
        try? Data(json.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try DecoderServerSettings(contentsOf: url)
    }

    static func error(_ json: String) -> DecoderServerSettingsError? {
        do { _ = try load(json); return nil } catch { return error }
    }

    @Test func keysInTheFileOverrideTheDefaultsAndTheRestStay() throws {
        let settings = try Self.load(#"{"predictionInterval": 0.25, "lineFrequency": 60, "calibrationFolder": "/data/cal"}"#)
        var expected = DecoderServerSettings()
        expected.predictionInterval = 0.25
        expected.lineFrequency = 60
        expected.calibrationFolder = URL(fileURLWithPath: "/data/cal", isDirectory: true)
        #expect(settings == expected)
        #expect(try Self.load("{}") == DecoderServerSettings())
        #expect(try Self.load(#"{"calibrationFolder": null}"#).calibrationFolder == nil)
        // What it writes it reads back.
        let data = try JSONEncoder().encode(expected)
        #expect(try JSONDecoder().decode(DecoderServerSettings.self, from: data) == expected)
        #expect(DecoderServerSettings.fileKeys.count == 11)
        #expect(try Self.load(#"{"idlePressesPerMinute": 1}"#).idlePressesPerMinute == 1)
        #expect(Self.error(#"{"idlePressesPerMinute": 0}"#)?.description
            .contains("key 'idlePressesPerMinute': 0.0 per minute is outside 0.001...60.0 per minute") == true)
        let learning = try Self.load(#"{"zeroTrainTrials": 6, "adaptEvery": 0}"#)
        #expect(learning.zeroTrainTrials == 6 && learning.adaptEvery == 0)
        #expect(Self.error(#"{"zeroTrainTrials": 0}"#)?.description.contains("key 'zeroTrainTrials': 0 is outside 1...1000") == true)
        #expect(Self.error(#"{"adaptEvery": 2.5}"#)?.description.contains("key 'adaptEvery': expected a whole number, got 2.5") == true)
        #expect(try Self.load(#"{"reference": "average"}"#).reference == .commonAverage)
        #expect(Self.error(#"{"reference": "linked-ears"}"#)?.description.hasSuffix(#"key 'reference': "linked-ears" is neither "none" nor "average""#) == true)
        #expect(Self.error(#"{"reference": 3}"#)?.description.hasSuffix(#"key 'reference': expected "none" or "average""#) == true)
    }

    @Test func anUnknownKeyABadTypeOrAValueOutOfRangeNamesFileAndKey() throws {
        guard case .badValue(let path, let key, let reason) = try #require(Self.error(#"{"lineFrequency": 50, "snr": 0.05}"#)) else {
            Issue.record("not a bad value")
            return
        }
        #expect(path.hasSuffix(".json") && key == "snr" && reason.hasPrefix("unknown key (known: predictionInterval"))
        let range = try #require(Self.error(#"{"predictionInterval": 0}"#))
        #expect(range.description.contains(", key 'predictionInterval': 0.0 s is outside 0.01...5.0 s"))
        #expect(range.description.hasPrefix("decoder settings file /"))
        let type = try #require(Self.error(#"{"peerTimeout": "long"}"#))
        #expect(type.description.hasSuffix("key 'peerTimeout': expected a number"))
        let folder = try #require(Self.error(#"{"calibrationFolder": 3}"#))
        #expect(folder.description.hasSuffix("key 'calibrationFolder': expected a text (a path) or null"))
        let json = try #require(Self.error("[1, 2]"))
        guard case .badJSON = json else { Issue.record("\(json)"); return }
        let broken = try #require(Self.error(#"{"lineFrequency": "#))
        guard case .badJSON = broken else { Issue.record("\(broken)"); return }
        // A trailing comma, which Foundation's reader takes, is refused with its place.
        #expect(Self.error("{\n  \"lineFrequency\": 60,\n}")?.description
            .hasSuffix("not a JSON object of settings: not JSON: a comma before '}' at line 3, column 1 (JSON allows no trailing comma)") == true)
        // A key set twice: one of its values would be ignored, whichever the decoder keeps.
        #expect(Self.error(#"{"predictionInterval": 0.1, "predictionInterval": 0.2}"#)?.description
            .hasSuffix(#": "predictionInterval" is given twice in one object (line 1)"#) == true)
        #expect(throws: DecoderServerSettingsError.fileUnreadable(path: "/nonexistent/d.json", reason: "no such file")) {
            try DecoderServerSettings(contentsOf: URL(fileURLWithPath: "/nonexistent/d.json"))
        }
        let temporary = FileManager.default.temporaryDirectory
        #expect(throws: DecoderServerSettingsError.fileUnreadable(path: temporary.path, reason: "a folder, not a file")) {
            try DecoderServerSettings(contentsOf: temporary)
        }
    }
}
