import Foundation
import Synchronization
import Testing
import NoiseTagging
import UtopiaProtocol

/// An app whose network or input thread calls the controller while the
/// frame loop ticks it on another: every call must land whole, none lost,
/// none half-applied, and nothing may crash.
@Suite("Calls from other threads")
struct ThreadSafetyTests {
    /// Rounds of calls the second thread makes while the first ticks.
    static let rounds = 3000

    @Test("calls from a second thread while the engine ticks are each applied whole, between ticks")
    func callsFromAnotherThreadLandWhole() throws {
        let controller = NoiseTagController(clock: MonotonicClock.shared, settings: NoiseTagSettings(),
                                            decoderLink: InMemoryDecoderLink(), seed: 7)
        let menu = NoiseTagView()
        for name in ["yes", "no", "maybe"] { menu.add(NoiseTagButton(identifier: name)) }
        let delegate = QuietDelegate()
        controller.push(view: menu, forNoiseTaggingWithDelegate: delegate)
        controller.trialsAreRunning = true
        let calls = Mutex<[String: Int]>([:]), refusals = Mutex<[String]>([]), clientBlocks = Mutex(0)
        controller.events.subscribe(includingAppCalls: true) { event in
            switch event.kind {
            case .call(let call): calls.withLock { $0[call.name, default: 0] += 1 }
            case .refused(let call, let reason): refusals.withLock { $0.append("\(call): \(reason)") }
            case .blocked(.client, _): clientBlocks.withLock { $0 += 1 }
            case .unblocked(.client): clientBlocks.withLock { $0 -= 1 }
            default: break
            }
        }

        let done = Atomic<Bool>(false)
        let caller = Thread {
            let other = NoiseTagView()
            other.add(NoiseTagButton(identifier: "other"))
            let otherDelegate = QuietDelegate()
            for round in 0..<Self.rounds {
                controller.blockTrials()
                controller.trialsAreRunning = round % 2 == 0
                controller.push(view: other, forNoiseTaggingWithDelegate: otherDelegate)
                let token = controller.observeFrames { _ in }
                let subscription = controller.events.subscribe { _ in }
                try? controller.settings.set(value: 0.9 + Double(round % 9) / 100, for: .certaintyRequiredForPress)
                controller.pop()
                controller.events.unsubscribe(subscription)
                controller.removeObserver(token)
                controller.unblockTrials()
                _ = controller.trialInProgress
            }
            done.store(true, ordering: .releasing)
        }
        caller.start()
        var ticks = 0
        while !done.load(ordering: .acquiring) {
            controller.tick()
            ticks += 1
        }
        controller.tick()

        #expect(ticks > 0)
        #expect(refusals.withLock { $0 } == [])
        let counted = calls.withLock { $0 }
        for name in ["blockTrials", "unblockTrials", "push", "pop"] {
            #expect(counted[name] == Self.rounds, "\(name) calls logged")
        }
        #expect(clientBlocks.withLock { $0 } == 0, "every block of the app's was lifted")
        #expect(controller.unitCount == 1)
        #expect(controller.currentView === menu)
        #expect(controller.trialsAreRunning == ((Self.rounds - 1) % 2 == 0))
        #expect(controller.settings.doubleFor(.certaintyRequiredForPress) == 0.9 + Double((Self.rounds - 1) % 9) / 100)
    }

    @Test("a second thread starts recordings, writes to them and reads their names while the engine ticks and records")
    func recordingCallsFromAnotherThreadLandInTheirOwnFolders() throws {
        let folder = try TemporaryFolder()
        let controller = NoiseTagController(clock: MonotonicClock.shared, settings: NoiseTagSettings(),
                                            decoderLink: InMemoryDecoderLink(), seed: 7)
        let menu = NoiseTagView()
        for name in ["yes", "no"] { menu.add(NoiseTagButton(identifier: name)) }
        controller.push(view: menu, forNoiseTaggingWithDelegate: QuietDelegate())
        controller.trialsAreRunning = true
        let store = RecordingStore(root: folder.url.appendingPathComponent("recordings"))
        let recorder = controller.startRecording(in: store, timeZone: TimeZone(identifier: "UTC")!)
        let rotations = 30
        let seen = Mutex<[String]>([])
        let done = Atomic<Bool>(false)
        let caller = Thread {
            for round in 0..<rotations {
                controller.startNewRecording(withComments: "round \(round)")
                _ = controller.append(line: "round \(round)", toFileNamed: "notes.txt")
                let name = controller.activeRecorder?.current?.folderName ?? "none"
                let listed = controller.folderNameCurrentRecording ?? "none"
                seen.withLock { $0.append(name == listed && !controller.closedRecordings.contains(name) ? name : "mismatch") }
            }
            done.store(true, ordering: .releasing)
        }
        caller.start()
        while !done.load(ordering: .acquiring) { controller.tick() }
        controller.tick()
        controller.stopRecording()
        recorder.waitUntilWritten()

        let names = seen.withLock { $0 }
        #expect(!names.contains("mismatch"), "the open recording read alike through the recorder and the controller")
        #expect(Set(names).count == rotations, "each round wrote into a recording of its own")
        let folders = store.recordings().map(\.name.folderName)
        #expect(folders.count == rotations + 1)
        for (round, name) in names.enumerated() {
            let closed = try #require(folders.first { $0.hasPrefix(name) }, "round \(round)'s recording is on disk")
            let notes = try String(contentsOf: store.root.appendingPathComponent(closed).appendingPathComponent("notes.txt"), encoding: .utf8)
            #expect(notes == "round \(round)\n", "round \(round)'s note went into its own recording")
        }
    }

    @Test("a setting changed from another thread has been acted on when the call returns")
    func settingFromAnotherThreadIsActedOnAtOnce() async throws {
        let controller = NoiseTagController(clock: VirtualClock(), settings: NoiseTagSettings(), seed: 7)
        let heard = Mutex<[String]>([])
        controller.events.subscribe { event in
            if case .settingChanged(let title, let value, _) = event.kind { heard.withLock { $0.append("\(title)=\(value)") } }
        }
        try await Task.detached {
            try controller.settings.set(value: "TrainGeneric", for: .mode)
        }.value
        #expect(controller.mode == .trainGeneric)
        #expect(heard.withLock { $0 } == ["mode=TrainGeneric"])
    }

    /// The pattern the docs give an app whose code lives on the main actor
    /// (top-level code, UI types): tick on the main thread, and from any
    /// other thread post the work instead of calling. The main-actor
    /// subscriber then only runs on the main thread (a direct call from the
    /// other thread would run it there, and Swift stops the program), and
    /// a label changed that way needs no update, so the trial runs on.
    @Test("a main-actor app posts a label change from another thread: it lands at the next tick and the trial runs on")
    @MainActor
    func mainActorAppPostsControlChanges() {
        let h = EngineHarness()
        h.runIntoFirstTrial()
        var endings: [String] = []
        h.controller.events.subscribe { event in
            MainActor.assertIsolated()
            if case .trialEnded(let e) = event.kind { endings.append("\(e.ending)") }
        }
        let controller = h.controller, posted = DispatchSemaphore(value: 0)
        Thread {
            for second in 1...3 {
                controller.inbox.post { engine in
                    let clock = engine.currentView?.allControls.first { $0.noiseTagging.identifier == "b1" } as? NoiseTagButton
                    clock?.label = "\(second) s"
                }
            }
            posted.signal()
        }.start()
        posted.wait()
        #expect(h.buttons[0].label != "3 s", "nothing changes before the engine's next tick")
        h.run(for: 0.1)
        #expect(h.buttons[0].label == "3 s")
        #expect(h.controller.trialInProgress && endings.isEmpty, "\(endings)")
    }
}

/// A delegate that answers nothing: the unit's controls flicker, nothing is cued.
private final class QuietDelegate: NoiseTagDelegate {
    func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {}
}
