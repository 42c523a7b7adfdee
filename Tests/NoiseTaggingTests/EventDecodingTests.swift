import Foundation
import Testing
@testable import NoiseTagging

/// An app reads its own event log back: every event's JSON line decodes to the same event.
@Suite("Event decoding")
struct EventDecodingTests {
    static func decode(_ line: String) throws -> NoiseTagEvent {
        try JSONDecoder().decode(NoiseTagEvent.self, from: Data(line.utf8))
    }

    @Test("a calibration, presses, blocks and setting changes: each event's line decodes to it")
    func aSessionsEventsRoundTrip() throws {
        let h = try EngineHarness.genericTraining(trials: 2, seconds: 1)
        h.controller.set(mode: .trainGeneric, waitTillDecoderConfirms: false, withExplanation: "calibrate")
        h.start()
        h.run(until: 12)
        h.predict(objectID: 2, perr: 0.001)
        h.run(for: 3)
        h.controller.blockTrials(forDuration: 0.5)
        h.run(for: 1)
        try h.settings.set(value: .double(0.9), for: .certaintyRequiredForPress)
        h.controller.trialsAreRunning = false
        h.run(for: 0.5)
        let events = h.events
        #expect(events.count > 30)
        for event in events { #expect(try Self.decode(event.jsonLine) == event, "\(event.jsonLine)") }
        let types = Set(events.map { String($0.jsonLine.split(separator: "\"type\":\"")[1].prefix { $0 != "\"" }) })
        for type in ["trialStarted", "trialPhase", "trialEnded", "press", "modeChanged", "blocked", "unblocked", "settingChanged",
                     "unitPushed", "trialsRunning"] {
            #expect(types.contains(type), "\(type) among \(types.sorted())")
        }
    }

    @Test("kinds a short session does not make decode too, and a recording's wall_time is ignored")
    func otherKindsRoundTrip() throws {
        let kinds: [NoiseTagEvent.Kind] = [
            .noPress(trial: 3), .feedbackEnded, .actionRan(control: "b1", timing: 1), .clickSound(control: "b2"),
            .unitPopped(depth: 0, context: nil), .unitUpdated(depth: 1, context: "menu"),
            .modeConfirmed(mode: .test, confirmed: true), .missedFrame(index: 120, lateness: 0.004, skipped: 1),
            .sound(name: "click"), .codebookLoaded(source: "built-in", codes: 65, length: 63),
            .refused(call: "tick()", reason: "inside a tick"), .notice("hello, \"world\""),
            .decoderConnection(state: .connected, alarm: false), .decoderProblem("bad frame"), .lifecycle(.didEnterBackground),
            .recordingStarted(folder: "2026-11-25 10.00.00", reason: "App started", format: 3),
            .recordingEnded(folder: "2026-11-25 10.00.00", reason: "App ended"),
            .recordingProblem(path: "/tmp/x", reason: "disk full", loggingOff: true),
            .recordingLinesDropped(frameLines: 4, otherLines: 0),
            .feedbackStarted(mode: .redBorder, source: .touch, duration: 0.5),
            .call(AppCall(name: "set(mode:)", value: "Test", inTick: false)),
            .decoderCalibration(.init(fitted: true, trials: 10, accuracy: 0.9, seconds: 4, summary: "refe, latency 0 ms")),
            .decoderCalibration(.init(fitted: false, trials: 1, accuracy: nil, seconds: nil, summary: "one class")),
        ]
        for (index, kind) in kinds.enumerated() {
            let event = NoiseTagEvent(time: Double(index) + 0.125, kind: kind)
            #expect(try Self.decode(event.jsonLine) == event, "\(event.jsonLine)")
        }
        let line = #"{"time":2.5,"wall_time":1764064800.25,"type":"noPress","trial":7}"#
        #expect(try Self.decode(line) == NoiseTagEvent(time: 2.5, kind: .noPress(trial: 7)))
    }

    @Test("a format-1 recording's recordingStarted, which has no format field, reads as format 1")
    func formatOneRecordingStarted() throws {
        let line = #"{"time":1,"type":"recordingStarted","folder":"x","reason":"App started","wall_time":1}"#
        #expect(try Self.decode(line) == NoiseTagEvent(time: 1, kind: .recordingStarted(folder: "x", reason: "App started", format: 1)))
    }

    @Test("an unknown type or a missing field is an error naming it")
    func badLinesAreErrors() {
        #expect { try Self.decode(#"{"time":1,"type":"teleported"}"#) } throws: { "\($0)".contains("unknown event type 'teleported'") }
        #expect { try Self.decode(#"{"time":1,"type":"noPress"}"#) } throws: { "\($0)".contains("trial") }
        #expect { try Self.decode(#"{"type":"feedbackEnded"}"#) } throws: { "\($0)".contains("time") }
    }
}
