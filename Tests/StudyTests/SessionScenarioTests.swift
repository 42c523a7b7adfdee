import Demo
import Foundation
import NoiseTagging
import Study
import Testing
import TestSupport

/// A short session run for real (the embedded decoder with its simulated
/// amplifier, the engine on the monotonic clock): each step's result is on
/// disk as it ends, in order, with the simulated participant's answers;
/// a step's settings hold while it runs and are restored after; a session
/// stopped mid-step leaves that step without a result; a signal check that
/// cannot pass stops at its first attempt.
@Suite(.serialized, .tags(.sockets, .realTime), .outsideWorld) struct SessionScenarioTests {
    static func run(_ json: String, stopAfter results: Int? = nil, seed: UInt64 = 4) throws -> (SessionScenario, SessionFolder, URL, [Double]) {
        let plan = try SessionProtocol.parse(Data(json.utf8))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("session-run-\(UUID().uuidString)")
        let manifest = SessionManifest(participant: "T1", protocolFile: "t.json", protocol: plan.json, startedWallTime: 0,
                                       seed: seed, simulated: true, snr: 0.05)
        let folder = try SessionFolder.create(in: root, manifest: manifest)
        var options = DemoOptions()
        options.seed = seed
        options.recordings = RecordingStore(root: folder.url)
        let demo = try DemoSession(options: options)
        defer { demo.close() }
        let scenario = SessionScenario(session: demo, plan: plan, folder: folder,
                                       participant: SimulatedParticipant(focus: demo.focus, seed: seed))
        var gaps: [Double] = []
        scenario.onResult = { _ in gaps.append(demo.controller.settings.doubleFor(.timeInBetweenTrials)) }
        let loop = FrameLoop(controller: demo.controller, waiter: RealTimeFrameWaiter())
        scenario.start()
        let start = demo.controller.clock.now
        while scenario.ending == nil, demo.controller.clock.now - start < 60 {
            loop.step()
            scenario.step()
            if let stop = results, scenario.results.count >= stop { break }
        }
        return (scenario, folder, root, gaps)
    }

    @Test func stepsRunInOrderAndEachResultIsOnDiskAsItEnds() throws {
        let (scenario, folder, root, gaps) = try Self.run("""
        {"steps": [{"kind": "instructions", "text": "Read me", "continueOn": "seconds", "seconds": 0.3},
                   {"kind": "questionnaire", "items": [{"id": "tired", "question": "Tired?", "scale": 7},
                                                       {"id": "again", "question": "Again?", "type": "choice", "choices": ["yes", "no"]}]},
                   {"kind": "break", "name": "pause", "seconds": 0.5, "settings": {"timeInBetweenTrials": 2.5}},
                   {"kind": "noControl", "seconds": 2.5, "settings": {"maxTestTrialDuration": 0.8}}]}
        """)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(scenario.ending == .completed)
        let results = try folder.results()
        #expect(results == scenario.results)
        #expect(results.map(\.kind) == ["instructions", "questionnaire", "break", "noControl"])
        #expect(results.map(\.outcome) == ["done", "done", "done", "done"])
        #expect(zip(results, results.dropFirst()).allSatisfy { $0.endTime <= $1.startTime + 1e-6 })
        #expect(abs(results[0].duration - 0.3) < 0.1 && abs(results[2].duration - 0.5) < 0.1)
        // Questionnaire: one answer per item, keys within each item's scale, after the participant's answering time.
        let answers = results[1].answers
        #expect(answers.map(\.item) == ["tired", "again"])
        #expect((1...7).contains(answers[0].key) && answers[0].answer == String(answers[0].key))
        #expect(["yes", "no"].contains(answers[1].answer) && answers[1].seconds >= SimulatedParticipant.answerSeconds)
        // The break's setting held during the break only.
        #expect(gaps[2] == NoiseTagSettings().doubleFor(.timeInBetweenTrials))
        // No control without a model: trials ran, nothing pressed.
        let measures = results[3].measures
        #expect(measures["falsePresses"] == .number(0))
        #expect((measures["trials"]?.number ?? 0) >= 1)
        #expect(!results[3].recordings.isEmpty)
    }

    @Test func instructionsOnAKeyLastAtMostTheirSeconds() throws {
        // The simulated reader would take 8 s over this text; the step's seconds end it first.
        let text = String(repeating: "Read this slowly. ", count: 20)
        let json = #"{"steps": [{"kind": "instructions", "text": "\#(text)", "continueOn": "key", "seconds": 0.4}]}"#
        let (scenario, folder, root, _) = try Self.run(json)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(scenario.ending == .completed)
        let result = try #require(try folder.results().first)
        #expect(result.outcome == "done" && result.duration < 1, "\(result.duration)")
    }

    @Test func aSessionStoppedMidStepLeavesThatStepWithoutAResultAndResumesThere() throws {
        let (scenario, folder, root, _) = try Self.run("""
        {"steps": [{"kind": "break", "name": "first", "seconds": 0.2}, {"kind": "break", "name": "second", "seconds": 30}]}
        """, stopAfter: 1)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(scenario.ending == nil && scenario.index == 1)
        #expect(try folder.results().map(\.name) == ["first"])
        #expect(try folder.resumePoint(in: scenario.plan).step == 1)
    }

    @Test func aSignalCheckAskingForMoreChannelsThanTheAmplifierHasStopsAtOnceSayingSo() throws {
        let (scenario, folder, root, _) = try Self.run("""
        {"steps": [{"kind": "signalCheck", "seconds": 0.6, "maxNoise": 1, "minGoodChannels": 99, "attempts": 5}]}
        """)
        defer { try? FileManager.default.removeItem(at: root) }
        let results = try folder.results()
        #expect(results.map(\.outcome) == ["failed"])
        // One attempt, not five: repeating cannot help.
        #expect(results.first?.measures["attempts"] == .number(1))
        guard case .stopped(let why)? = scenario.ending else { Issue.record("ended \(String(describing: scenario.ending))"); return }
        #expect(why.contains("minGoodChannels is 99 but the amplifier has"), "\(why)")
        #expect(why.contains("so no check can pass"))
    }

    @Test func aSignalCheckFirstInASessionJudgesTheEEGNotTheDecodersNoDataAndNamesALimitForNoChannel() throws {
        // The decoder says "no data" (1 on every channel) until its first second of EEG: those readings are
        // not noise. A limit for channel 9 of 8 judged nothing, and the result says so.
        let (_, folder, root, _) = try Self.run("""
        {"steps": [{"kind": "signalCheck", "seconds": 2.5, "maxNoise": 0.95, "channelMaxNoise": {"9": 0.5}, "onFailure": "continue"}]}
        """)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try #require(try folder.results().first)
        #expect(result.outcome == "passed", "\(result.measures)")
        #expect(result.measures["unusedChannelLimits"] == .array([.number(9)]))
        #expect(SignalQualityTrace.dataReadings([[1, 1], [1, 1], [0.4, 1], [1, 1]]) == [[0.4, 1], [1, 1]])
        #expect(SignalQualityTrace.dataReadings([[1, 1], [1, 1]]) == [[1, 1], [1, 1]])
    }

    @Test func aCodebookTooSmallForTheKeyboardStopsTheSessionSayingWhich() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("five-codes-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try CodebookFile(codebook: try Codebook(codes: (0..<5).map { k in (0..<8).map { UInt8(($0 + k) % 2) } })).write(toFile: file.path)
        let (scenario, _, root, _) = try Self.run("""
        {"settings": {"filenameNoiseTags": "\(file.path)"}, "steps": [{"kind": "calibration", "trials": 5}]}
        """)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(scenario.ending == .stopped("no trial can start: 28 flickering controls, but the codebook has only 5 codes (\(file.path))"))
    }

    @Test func theSimulatedParticipantAnswersFromItsSeed() {
        let item = QuestionnaireItem(id: "a", question: "Q", style: .likert, scale: 5, labels: [])
        let choice = QuestionnaireItem(id: "b", question: "Q", style: .choice, scale: 3, labels: ["x", "y", "z"])
        func answers(_ seed: UInt64) -> [Int] {
            let participant = SimulatedParticipant(focus: .init(), seed: seed)
            return (0..<20).map { $0 % 2 == 0 ? participant.answer(item) : participant.answer(choice) }
        }
        #expect(answers(7) == answers(7))
        #expect(answers(7) != answers(8))
        #expect(answers(7).enumerated().allSatisfy { $0.offset % 2 == 0 ? (1...5).contains($0.element) : (1...3).contains($0.element) })
    }
}
