import Foundation
import JSONSupport
import Study
import Testing

/// Protocols are checked when read: the examples load, and every kind of
/// mistake gets one line naming the file, the step and the field.
@Suite struct SessionProtocolTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/protocols")

    static func problem(_ json: String) -> String? {
        do {
            _ = try SessionProtocol.parse(Data(json.utf8), source: "p.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theExampleProtocolsLoadWithEveryStepKindAmongThem() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 3)
        var kinds = Set<String>()
        for file in files {
            let plan = try SessionProtocol.load(from: Self.examples.appendingPathComponent(file))
            #expect(!plan.steps.isEmpty, "\(file)")
            kinds.formUnion(plan.steps.map(\.kind.name))
        }
        #expect(kinds == Set(SessionProtocol.kinds))
        let full = try SessionProtocol.load(from: Self.examples.appendingPathComponent("full-study.json"))
        #expect(full.steps.map(\.kind.name) == ["instructions", "signalCheck", "calibration", "break", "instructions", "copySpell",
                                                "instructions", "noControl", "questionnaire"])
        guard case .copySpell(let text, let limit) = full.steps[5].kind else { Issue.record("step 6 is not copySpell"); return }
        #expect(text.filter { $0 != " " }.count >= 17 && limit == 240)
    }

    @Test func fieldsAreReadWithTheirDefaults() throws {
        let plan = try SessionProtocol.parse(Data("""
        {"steps": [{"kind": "signalCheck", "seconds": 5, "channelMaxNoise": {"3": 0.2}},
                   {"kind": "calibration", "trials": 8, "settings": {"timeInBetweenTrials": 0.5, "nZeroTrainTrials": 9}},
                   {"kind": "freeSpell", "untilWord": "done"},
                   {"kind": "break", "seconds": 2},
                   {"kind": "questionnaire", "items": [{"id": "a", "question": "Q?"}]}]}
        """.utf8))
        #expect(plan.name == "session")
        guard case .signalCheck(5, let criteria, .repeat, 3) = plan.steps[0].kind else { Issue.record("\(plan.steps[0])"); return }
        #expect(criteria.limit(channel: 3) == 0.2 && criteria.limit(channel: 1) == 0.5 && criteria.minimumGoodChannels == nil)
        #expect(plan.steps[1].kind == .calibration(trials: 8, trialSeconds: nil, layout: "keyboard"))
        #expect(plan.steps[1].settings["nZeroTrainTrials"] == .int(9))
        #expect(plan.steps[1].settings["timeInBetweenTrials"] == .double(0.5))
        #expect(plan.steps[2].kind == .freeSpell(seconds: nil, untilWord: "DONE", text: "DONE"))
        #expect(plan.steps[3].kind == .rest(seconds: 2, skippable: true) && plan.steps[3].name == "break 4")
        guard case .questionnaire(let items) = plan.steps[4].kind else { Issue.record("not a questionnaire"); return }
        #expect(items == [QuestionnaireItem(id: "a", question: "Q?", style: .likert, scale: 5, labels: [])])
    }

    @Test(arguments: [
        ("[1]", "p.json: must be a JSON object, not an array"),
        ("{\"steps\": []}", "p.json: field \"steps\": is empty: a protocol needs at least one step"),
        ("{\"name\": \"x\"}", "p.json: field \"steps\": is missing (a list of steps)"),
        ("{\"steps\": [{\"kind\": \"break\", \"seconds\": 2}], \"colour\": 1}",
         "p.json: field \"colour\": is not a field of a protocol (fields: name, description, settings, steps)"),
        ("{\"steps\": [{\"seconds\": 2}]}", "p.json: step 1: field \"kind\": is missing (one of instructions, signalCheck, calibration, copySpell, freeSpell, noControl, zeroTrain, break, questionnaire)"),
        ("{\"steps\": [{\"kind\": \"nap\\r\\n\"}]}", "p.json: step 1: field \"kind\": \"nap\\r\\n\" is not a step kind (one of instructions, signalCheck, calibration, copySpell, freeSpell, noControl, zeroTrain, break, questionnaire)"),
        ("{\"steps\": [{\"kind\": \"nap\"}]}", "p.json: step 1: field \"kind\": \"nap\" is not a step kind (one of instructions, signalCheck, calibration, copySpell, freeSpell, noControl, zeroTrain, break, questionnaire)"),
        ("{\"steps\": [{\"kind\": \"break\", \"seconds\": 2}, {\"kind\": \"copySpell\", \"text\": \"HI 2U\"}]}",
         "p.json: step 2 (copySpell): field \"text\": '2' is not on the keyboard (letters A-Z and spaces only)"),
        ("{\"steps\": [{\"kind\": \"calibration\", \"trials\": 1.5}]}", "p.json: step 1 (calibration): field \"trials\": 1.5 must be a whole number"),
        ("{\"steps\": [{\"kind\": \"calibration\", \"trials\": 1}]}", "p.json: step 1 (calibration): field \"trials\": 1 must be from 5 to 500"),
        ("{\"steps\": [{\"kind\": \"calibration\", \"trials\": 10, \"layout\": \"grid\"}]}",
         "p.json: step 1 (calibration): field \"layout\": \"grid\" is not a layout (\"keyboard\": the 28-key speller)"),
        ("{\"steps\": [{\"kind\": \"noControl\", \"seconds\": -5}]}", "p.json: step 1 (noControl): field \"seconds\": -5 s must be more than 0 and at most a day"),
        ("{\"steps\": [{\"kind\": \"noControl\", \"seconds\": \"60\"}]}", "p.json: step 1 (noControl): field \"seconds\": must be a number, not a string"),
        ("{\"steps\": [{\"kind\": \"break\", \"seconds\": 5, \"skippable\": 1}]}", "p.json: step 1 (break): field \"skippable\": must be true or false, not a number"),
        ("{\"steps\": [{\"kind\": \"freeSpell\"}]}", "p.json: step 1 (freeSpell): needs \"seconds\", \"untilWord\" or both"),
        ("{\"steps\": [{\"kind\": \"instructions\", \"text\": \"Hi\", \"continueOn\": \"seconds\"}]}",
         "p.json: step 1 (instructions): field \"seconds\": is missing (continueOn is \"seconds\")"),
        ("{\"steps\": [{\"kind\": \"signalCheck\", \"seconds\": 5, \"maxNoise\": 2}]}",
         "p.json: step 1 (signalCheck): field \"maxNoise\": 2.0 must be between 0 and 1 (the noise fraction of a channel)"),
        ("{\"steps\": [{\"kind\": \"signalCheck\", \"seconds\": 5, \"onFailure\": \"retry\"}]}",
         "p.json: step 1 (signalCheck): field \"onFailure\": \"retry\" must be \"repeat\", \"stop\" or \"continue\""),
        ("{\"steps\": [{\"kind\": \"noControl\", \"seconds\": 5, \"settings\": {\"certaintyRequiredForPress\": 2}}]}",
         "p.json: step 1 (noControl): field \"settings\": certaintyRequiredForPress: 2.0 is outside 0.0...1.0"),
        ("{\"steps\": [{\"kind\": \"noControl\", \"seconds\": 5, \"settings\": {\"flickerSpeed\": 2}}]}",
         "p.json: step 1 (noControl): field \"settings\": unknown setting title 'flickerSpeed'"),
        ("{\"steps\": [{\"kind\": \"questionnaire\", \"items\": [{\"id\": \"a\", \"question\": \"Q\", \"type\": \"choice\", \"choices\": [\"yes\"]}]}]}",
         "p.json: step 1 (questionnaire): field \"items[1].choices\": must list 2 to 9 choices (answered with keys 1…9)"),
        ("{\"steps\": [{\"kind\": \"questionnaire\", \"items\": [{\"id\": \"a\", \"question\": \"Q\"}, {\"id\": \"a\", \"question\": \"R\"}]}]}",
         "p.json: step 1 (questionnaire): field \"items[2].id\": \"a\" is already the id of an earlier item"),
        ("{\"steps\": [{\"kind\": \"calibration\", \"trials\": 5, \"settings\": {\"nGenericTrainTrials\": 50}}]}",
         "p.json: step 1 (calibration): field \"settings\": nGenericTrainTrials: the step's trials field sets the calibration trials; give it there only"),
        ("{\"settings\": {\"recordingsEnabled\": false}, \"steps\": [{\"kind\": \"break\", \"seconds\": 2}]}",
         "p.json: field \"settings\": recordingsEnabled: a session records every step (its results, report, replay and export read the recordings); leave it out"),
        ("{\"steps\": [{\"kind\": \"signalCheck\", \"seconds\": 5, \"channelMaxNoise\": {\"01\": 0.5}}]}",
         "p.json: step 1 (signalCheck): field \"channelMaxNoise\": \"01\" is not a channel number (1, 2, …)"),
        ("{\"steps\": [{\"kind\": \"break\", \"seconds\": 2, \"name\": \"rest\"}, {\"kind\": \"break\", \"seconds\": 2, \"name\": \"rest\"}]}",
         "p.json: step 2 (break): field \"name\": \"rest\" is already the name of an earlier step (give each step its own name)"),
        // The engine's range, not a run that silently keeps the default.
        ("{\"steps\": [{\"kind\": \"calibration\", \"trials\": 5, \"trialSeconds\": 0.05}]}",
         "p.json: step 1 (calibration): field \"trialSeconds\": trialDurationGenericTrain: 0.05 is outside 0.1...60.0"),
        ("{\"steps\": [{\"kind\": \"freeSpell\", \"untilWord\": \"DONE\", \"text\": \"HI\"}]}",
         "p.json: step 1 (freeSpell): field \"text\": the simulated participant types \"HI\", which never ends in the word \"DONE\", and no seconds are given: the step would never end (give seconds, or a text that types the word)"),
        ("{\"steps\": [{\"kind\": \"freeSpell\", \"untilWord\": \"HI\", \"text\": \"CHI\"}]}",
         "p.json: step 1 (freeSpell): field \"text\": the simulated participant types \"CHI\", which never ends in the word \"HI\", and no seconds are given: the step would never end (give seconds, or a text that types the word)"),
        ("{\"steps\": [{\"kind\": \"break\", \"seconds\": 2, \"name\": \"  \"}]}", "p.json: step 1 (break): field \"name\": is empty"),
        ("{\"name\": \"\", \"steps\": [{\"kind\": \"break\", \"seconds\": 2}]}", "p.json: field \"name\": is empty"),
        ("{\"steps\": [{\"kind\": \"break\", \"seconds\": 2, \"name\": \"look\\naway\"}]}",
         "p.json: step 1 (break): field \"name\": \"look\\naway\" holds a control character (a tab, a line break, an escape): a name is one line of text"),
        ("{\"steps\": [{\"kind\": \"questionnaire\", \"items\": [{\"id\": \"a\", \"question\": \"Q\", \"type\": \"choice\", \"choices\": [\" \", \"b\"]}]}]}",
         "p.json: step 1 (questionnaire): field \"items[1].choices\": must hold texts that are not blank"),
    ])
    func aBadProtocolIsOneLineNamingTheStepAndTheField(json: String, expected: String) {
        #expect(Self.problem(json) == expected)
    }

    /// What counts as a key set twice: only two equal keys of one object;
    /// text in values, keys of other objects and escapes do not fool it.
    @Test func aCodebookFileInTheSettingsIsCheckedWithTheProtocol() throws {
        let missing = "/no/such/codes.txt"
        let problem = try #require(Self.problem(#"{"settings": {"filenameNoiseTags": "\#(missing)"}, "steps": [{"kind": "break", "seconds": 1}]}"#))
        #expect(problem.hasPrefix("p.json: field \"settings\": filenameNoiseTags: ") && problem.contains(missing), "\(problem)")
    }

    @Test func aKeyTwiceIsFoundOnlyWithinOneObject() {
        #expect(JSONProblem.duplicateKey(in: Data(#"{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}"#.utf8)) == nil)
        #expect(JSONProblem.duplicateKey(in: Data(#"{"a": "\"a\": {", "b": "}", "c": ["a", "a"]}"#.utf8)) == nil)
        #expect(JSONProblem.duplicateKey(in: Data("{\"x\": [1,\n2],\n \"y\": {\"z\": 1, \"\\u007a\": 2}}".utf8))
            == #""z" is given twice in one object (line 3)"#)
        #expect(JSONProblem.duplicateKey(in: Data(#"[{"k": 1}, {"k": 1, "k": 2}]"#.utf8)) == #""k" is given twice in one object (line 1)"#)
    }

    /// What no JSON reader takes is named for what it is, not for the reader's confusion.
    @Test func numbersBeyondADoubleAndNestingTooDeepAreNamed() {
        #expect(Self.problem(#"{"steps": [{"kind": "break", "seconds": 1e400}]}"#)
            == "p.json: is not valid JSON (the number 1e400 is beyond a double's range (about ±1.8e308))")
        #expect(Self.problem("{\"steps\": " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}")
            == "p.json: is not valid JSON (arrays and objects nested 601 deep, deeper than a JSON reader takes (512))")
        #expect(Self.problem(#"{"steps": [{"kind": "calibration", "trials": 99999999999999999999999}]}"#)
            == "p.json: step 1 (calibration): field \"trials\": 1e+23 must be from 5 to 500")
    }

    /// A path that cannot be written says what stands in the way; a pipe reads as a file.
    @Test func unwritablePathsSayWhyAndAPipeIsRead() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let file = root.appendingPathComponent("afile")
        try Data("x".utf8).write(to: file)
        let below = file.appendingPathComponent("sub")
        do { try FileManager.default.createDirectory(at: below, withIntermediateDirectories: true); Issue.record("made a folder in a file") } catch {
            #expect(FileProblem.whyNotWritten(below, error) == "\(file.path) is a file, not a folder")
        }
        // The folder to make is itself a file.
        do { try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true); Issue.record("made a folder over a file") } catch {
            #expect(FileProblem.whyNotWritten(file, error, folder: true) == "\(file.path) is a file, not a folder")
        }
        let missing = root.appendingPathComponent("missing/r.html")
        do { try Data().write(to: missing); Issue.record("wrote into a missing folder") } catch {
            #expect(FileProblem.whyNotWritten(missing, error) == "no folder \(root.path)/missing")
        }
        let fifo = root.appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let writer = Thread { try? Data("{\"a\": 1}".utf8).write(to: fifo) }
        writer.start()
        #expect(try JSONFile.contents(of: fifo) == Data("{\"a\": 1}".utf8))
    }

    @Test func notJSONAndMissingFilesAreNamed() {
        #expect(Self.problem("{\"steps\": [") != nil)
        #expect(Self.problem("{\"steps\": [") == "p.json: is not valid JSON (not JSON: it ends inside an unclosed array (cut short?))")
        #expect(Self.problem("  \n") == "p.json: is not valid JSON (the file is empty)")
        #expect(Self.problem("{\"steps\": []]\n}") == "p.json: is not valid JSON (not JSON: an unexpected ']' at line 1, column 13)")
        // Foundation's reader takes a trailing comma; a protocol with one is refused, as any JSON reader would.
        #expect(Self.problem(#"{"steps":[{"kind":"break","seconds":1,}],}"#)
                == "p.json: is not valid JSON (not JSON: a comma before '}' at line 1, column 39 (JSON allows no trailing comma))")
        // The same key in two steps is no problem; twice in one step is.
        #expect(Self.problem(#"{"steps": [{"kind": "calibration", "kind": "free"}]}"#) == #"p.json: sets a key twice: "kind" is given twice in one object (line 1)"#)
        #expect(throws: SessionProtocolError.self) { try SessionProtocol.load(from: URL(fileURLWithPath: "/nonexistent/study.json")) }
        do { _ = try SessionProtocol.load(from: URL(fileURLWithPath: "/nonexistent/study.json")) } catch {
            #expect(error.description == "/nonexistent/study.json: no such file")
        }
        let folder = FileManager.default.temporaryDirectory
        let error = #expect(throws: SessionProtocolError.self) { try SessionProtocol.load(from: folder) }
        #expect(error?.description == "\(folder.path): a folder, not a file")
    }

    @Test func signalChecksAndReportsTakeOneMedian() {
        #expect(SignalQualityTrace.median([0.9, 0.1, 0.5]) == 0.5 && SignalQualityTrace.median([0.4, 0.2, 0.8, 0.6]) == 0.5)
        #expect(SignalQualityTrace.median([]) == nil)
    }

    @Test func untilWordEndsAStepAsAWordOnly() {
        #expect(SessionStep.endsWithWord("HI", "HI") && SessionStep.endsWithWord("SAY HI", "HI"))
        #expect(!SessionStep.endsWithWord("CHI", "HI") && !SessionStep.endsWithWord("HI ", "HI") && !SessionStep.endsWithWord("H", "HI"))
    }
}
