import Foundation
import Testing
@testable import NoiseTagging

@Suite("Settings")
struct SettingsTests {
    @Test("every title from the guide exists with a default that passes its own check")
    func allTitles() throws {
        let guide = ["mode", "certaintyRequiredForPress", "disableNoClicks", "clickFeedbackMode",
                     "noiseTaggingPrintsToTheConsole", "showNoiseTagIDsOnControls", "soundOnMissedFrame",
                     "framesPerBit", "preferredNFramesPerSecond", "filenameNoiseTags",
                     "assignNoiseTagsInReversedOrder", "randomlyTranslateNoiseTagsInTraining",
                     "timeInBetweenTrials", "nSimpleTrainTrials", "trialDurationSimpleTrain",
                     "nGenericTrainTrials", "trialDurationGenericTrain", "minTrialDuration",
                     "maxTestTrialDuration", "disableMaxTestTrialDuration",
                     "certaintyRequiredForFirstZeroTrainClick", "maxDurationFirstZeroTrainClick",
                     "nZeroTrainTrials", "timeoutConnecting", "timeInBetweenAttemptsToConnect",
                     "durationAutoConnectBeforeWarningUser", "contrastMode", "defaultColorButtonEnabled",
                     "defaultColorButtonDisabled", "colorButtonNotPressedFeedback", "colorBitOffIfMaxContrast",
                     "colorBitOnIfMaxContrast", "clickSoundOnPress", "enableOtherSounds",
                     "soundAlarmWhenDisconnecting", "twoFingerDoubleTapOpensDeveloperScreen",
                     "hideNonTargetControls", "labeledButtonsOnlyPartlyFlicker", "decoderEndpoint"]
        for name in guide { #expect(NoiseTagSettingTitles(name: name) != nil, "missing \(name)") }
        let settings = NoiseTagSettings()
        for title in NoiseTagSettingTitles.allCases {
            try settings.set(value: title.definition.defaultValue, for: title)
        }
        #expect(settings.nonDefaultCount == 0)
    }

    @Test("certaintyRequiredForClick is another name for certaintyRequiredForPress")
    func alias() throws {
        let settings = NoiseTagSettings()
        try settings.set(value: .double(0.8), forTitleNamed: "certaintyRequiredForClick")
        #expect(settings.doubleFor(.certaintyRequiredForPress) == 0.8)
        #expect(settings.doubleFor(.certaintyRequiredForClick) == 0.8)
    }

    @Test("an unknown title is an error naming it")
    func unknownTitle() {
        #expect(throws: NoiseTagSettingsError.unknownTitle("flickerSpeed")) {
            try NoiseTagSettings().set(value: .int(1), forTitleNamed: "flickerSpeed")
        }
    }

    @Test("a wrong type is an error naming the title and both types")
    func wrongType() {
        let settings = NoiseTagSettings()
        #expect(throws: NoiseTagSettingsError.wrongType(title: "framesPerBit", expected: "integer", got: "text")) {
            try settings.set(value: .text("two"), for: .framesPerBit)
        }
        #expect(throws: NoiseTagSettingsError.wrongType(title: "disableNoClicks", expected: "bool", got: "integer")) {
            try settings.set(value: .int(1), for: .disableNoClicks)
        }
        #expect(settings.intFor(.framesPerBit) == 1)
    }

    @Test("an out-of-range value is an error and the old value stays")
    func outOfRange() throws {
        let settings = NoiseTagSettings()
        try settings.set(value: .int(3), for: .framesPerBit)
        #expect(throws: NoiseTagSettingsError.outOfRange(title: "framesPerBit", value: "0", allowed: "1...60")) {
            try settings.set(value: .int(0), for: .framesPerBit)
        }
        #expect(throws: NoiseTagSettingsError.outOfRange(title: "certaintyRequiredForPress", value: "1.5", allowed: "0.0...1.0")) {
            try settings.set(value: .double(1.5), for: .certaintyRequiredForPress)
        }
        do { try settings.set(value: .double(.nan), for: .minTrialDuration); Issue.record("took NaN") } catch {
            #expect("\(error)" == "minTrialDuration: nan is not a number (allowed: 0.0...60.0)")
        }
        #expect(throws: NoiseTagSettingsError.badFormat(title: "clickFeedbackMode", value: "Sparkles",
                                                         expected: "one of None, NonselectedGray, SelectedAnimates, RedBorder")) {
            try settings.set(value: .text("Sparkles"), for: .clickFeedbackMode)
        }
        #expect(throws: NoiseTagSettingsError.badFormat(title: "colorBitOnIfMaxContrast", value: "white", expected: "a #RRGGBB colour")) {
            try settings.set(value: .text("white"), for: .colorBitOnIfMaxContrast)
        }
        #expect(settings.intFor(.framesPerBit) == 3)
    }

    @Test("an integer is accepted for a number setting")
    func intForDouble() throws {
        let settings = NoiseTagSettings()
        try settings.set(value: .int(2), for: .timeInBetweenTrials)
        #expect(settings.value(for: .timeInBetweenTrials) == .double(2))
    }

    @Test("observers, reset to default and the count of non-default settings")
    func observersAndReset() throws {
        let settings = NoiseTagSettings()
        var seen: [String] = []
        let token = settings.observe(.framesPerBit) { title, value in seen.append("\(title.rawValue)=\(value)") }
        settings.observe { title, _ in seen.append("any:\(title.rawValue)") }
        try settings.set(value: .int(2), for: .framesPerBit)
        try settings.set(value: .bool(true), for: .disableNoClicks)
        try settings.set(value: .bool(true), for: .disableNoClicks)   // no change, no call
        #expect(seen == ["framesPerBit=2", "any:framesPerBit", "any:disableNoClicks"])
        #expect(settings.nonDefaultCount == 2)
        settings.removeObserver(token)
        settings.resetToDefault(.framesPerBit)
        #expect(settings.intFor(.framesPerBit) == 1)
        #expect(settings.nonDefaultCount == 1)
        #expect(!settings.explicitlySet.contains(.framesPerBit))
        settings.resetAll()
        #expect(settings.nonDefaultCount == 0)
    }

    @Test("the controller reports every setting change on its event stream")
    func settingEvents() throws {
        let h = EngineHarness()
        try h.settings.set(value: .double(0.5), for: .feedbackDuration)
        #expect(h.kinds.contains(.settingChanged(title: "feedbackDuration", value: "0.5", source: .app)))
    }

    @Test("save then load gives the same settings")
    func roundTrip() throws {
        let dir = try TemporaryFolder()
        let file = dir.url.appendingPathComponent("settings.json")
        let a = NoiseTagSettings()
        try a.set(value: .int(3), for: .framesPerBit)
        try a.set(value: .text("RedBorder"), for: .clickFeedbackMode)
        try a.set(value: .text("#102030"), for: .colorBitOnIfMaxContrast)
        try a.set(value: .double(0.91), for: .certaintyRequiredForPress)
        try a.save(to: file)
        let b = NoiseTagSettings()
        try b.load(from: file)
        #expect(b.snapshot() == a.snapshot())
        #expect(b.nonDefaultCount == 4)
    }

    @Test("a missing file, bad JSON, an unknown key or a bad value: error naming file, key and reason; nothing changes")
    func badFiles() throws {
        let dir = try TemporaryFolder()
        let settings = NoiseTagSettings()
        try settings.set(value: .int(2), for: .framesPerBit)
        let before = settings.snapshot()
        let missing = dir.url.appendingPathComponent("nope.json")
        #expect(throws: NoiseTagSettingsError.self) { try settings.load(from: missing) }
        do { try settings.load(from: missing) } catch {
            #expect(error.description.contains("nope.json"))
            #expect(error.description.hasSuffix("nope.json: cannot read: no such file"))
        }
        #expect(throws: NoiseTagSettingsError.fileUnreadable(path: dir.url.path, reason: "a folder, not a file")) {
            try settings.load(from: dir.url)
        }
        let cases: [(String, String, String)] = [
            ("broken.json", "{\"framesPerBit\": 3,", "not a JSON object"),
            ("array.json", "[1, 2]", "not a JSON object"),
            ("comma.json", "{\"framesPerBit\": 3,}", "not JSON: a comma before '}' at line 1, column 20 (JSON allows no trailing comma)"),
            ("comment.json", "{\"framesPerBit\": 3 // slower\n}", "not JSON: '/' at line 1, column 20 (JSON has no comments)"),
            ("unknown.json", "{\"framesPerBit\": 3, \"flickerSpeed\": 2}", "key 'flickerSpeed': unknown setting title"),
            ("escape.json", "{\"flicker\\nSpeed\\u001b\": 2}", "key 'flicker\\nSpeed\\u{1B}': unknown setting title"),
            ("range.json", "{\"framesPerBit\": 3, \"nGenericTrainTrials\": 0}", "key 'nGenericTrainTrials': nGenericTrainTrials: 0 is outside 1...1000"),
            ("type.json", "{\"disableNoClicks\": \"maybe\", \"framesPerBit\": 4}", "key 'disableNoClicks': disableNoClicks: expected a bool, got a text"),
            ("twice.json", "{\"framesPerBit\": 3,\n \"framesPerBit\": 4}", "\"framesPerBit\" is given twice in one object (line 2)"),
            // A codebook file that would not load: the engine made from these settings would keep the built-in codes.
            ("codes.json", "{\"filenameNoiseTags\": \"\(dir.url.path)/ragged.txt\"}", "key 'filenameNoiseTags': \(dir.url.path)/ragged.txt:1:5: "),
        ]
        try "0 1 0 1\n1 0 1\n".write(to: dir.url.appendingPathComponent("ragged.txt"), atomically: true, encoding: .utf8)
        for (name, text, reason) in cases {
            let file = dir.url.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            do {
                try settings.load(from: file)
                Issue.record("\(name) loaded")
            } catch {
                #expect(error.description.contains(name), "\(error)")
                #expect(error.description.contains(reason), "\(error)")
            }
            #expect(settings.snapshot() == before, "\(name) changed settings")
        }
    }
}
