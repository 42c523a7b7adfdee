import NoiseTagging
import UtopiaProtocol

/// Runs one logged trial again on a fresh engine: settings as they stood
/// when it started (plus any what-if overrides), the unit rebuilt from the
/// logged snapshot, the engine state restored, then the recording's ticks
/// with the decoder's messages and the app's calls fed at their logged
/// times through an in-memory link, on a virtual clock.
public struct TrialReplay {
    /// The recording.
    public let script: RecordingScript
    /// The trial's logged start.
    public let start: RecordingScript.Logged<NoiseTagEvent.TrialStart>
    /// Settings that override the logged ones (what if).
    public var overrides: [NoiseTagSettingTitles: NoiseTagSettingValue] = [:]
    /// The decoder's messages to feed (the logged ones, or a re-decode's).
    public var incoming: [RecordingScript.Message]
    /// True when ``incoming`` is a re-decode's: the threshold the trial
    /// starts with is then the re-decode's latest advice (CERTAINTYTHRESHOLD)
    /// before it, not the logged decoder's.
    public var incomingAdvises = false
    /// Settings the engine refused while rebuilding, each as a sentence.
    public private(set) var notes: [String] = []

    /// The ids compared: NEWTARGET, STIMULUSEVENT, SELECTION, MODECHANGE.
    static let comparedIDs: Set<UInt8> = [0x4E, 0x45, 0x53, 0x4D]

    /// Prepares the replay of the trial that `start` logged.
    public init(script: RecordingScript, start: RecordingScript.Logged<NoiseTagEvent.TrialStart>) {
        self.script = script
        self.start = start
        incoming = script.incoming
    }

    /// The logged end of this trial, if it ended in the recording.
    public var loggedEnd: RecordingScript.Logged<NoiseTagEvent.TrialEnd>? {
        script.ends.first { $0.value.trial == start.value.trial && $0.order > start.order }
    }

    /// The trial as the recording says it went.
    public func loggedOutcome() -> TrialOutcome? {
        guard let end = loggedEnd else { return nil }
        let record = script.recordedTrials[start.value.trial]
        let press = script.presses.first { $0.value.trial == start.value.trial && $0.order < end.order && $0.order > start.order }
        var outcome = TrialOutcome(ending: end.value.ending.description, pressed: end.value.pressed,
                                   pressedObjectID: press?.value.objectID ?? record?.pressedObjectID,
                                   certainty: press?.value.certainty ?? record?.certainty, endTime: end.time,
                                   duration: end.value.duration, start: Self.summary(start.value))
        var begun = false
        for message in Self.slice(script.outgoing, from: start.time, through: messagesEnd(end)) where Self.comparedIDs.contains(message.bytes[0]) {
            if !begun { begun = message.bytes[0] == 0x4E; if !begun { continue } }
            outcome.messages.append(.init(time: message.time, bytes: message.bytes))
        }
        return outcome
    }

    /// The time of the trial's last message: its end, or, when a call between
    /// ticks ended it (trials turned off), the last message that call sent,
    /// which on a real clock goes out a little after the end (a replay,
    /// whose clock stands still within a call, sends it at the end).
    func messagesEnd(_ end: RecordingScript.Logged<NoiseTagEvent.TrialEnd>) -> Double {
        let ticks = script.ticks
        let t = Self.firstIndex(ticks.count) { ticks[$0].time >= end.time }
        guard t == ticks.count || ticks[t].time != end.time else { return end.time }  // ended in a tick
        let nextTick = t < ticks.count ? ticks[t].time : .infinity
        let nextCall = script.calls.first { $0.order > end.order }?.time ?? .infinity
        let until = min(nextTick, nextCall)
        return until.isFinite ? max(end.time, until.nextDown) : .infinity
    }

    /// How a trial started, in one line (what replay compares of its start).
    static func summary(_ start: NoiseTagEvent.TrialStart) -> String {
        "target \(start.target ?? "none"), object IDs \(start.objectIDs), codes \(start.codes)"
            + (start.codeShift.map { ", shift \($0)" } ?? "")
    }

    /// Messages with `from` ≤ time ≤ `through` (the lists are in time order).
    static func slice(_ list: [RecordingScript.Message], from: Double, through: Double) -> ArraySlice<RecordingScript.Message> {
        let lower = firstIndex(list.count) { list[$0].time >= from }
        let upper = firstIndex(list.count) { list[$0].time > through }
        return list[lower..<max(lower, upper)]
    }

    /// The first index in 0..<count where `isPast` holds (it holds for every later one), or count.
    static func firstIndex(_ count: Int, where isPast: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if isPast(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Runs the trial. With no overrides and the logged decoder messages it
    /// stops at the trial's logged end (the same tick, with the app's calls
    /// from inside that tick) to compare like with like; for a what-if it
    /// runs until the replayed trial ends or the recording's next trial
    /// starts (then the ending is `unfinished`); the last trial runs on past
    /// the recording's last frame, on ticks at the frame period with a
    /// heartbeat from the decoder every `heartbeatInterval`, for at most
    /// 120 s (then `unfinished` too).
    public mutating func run(whatIf: Bool) throws(RecordingReadError) -> TrialOutcome {
        guard let state = start.value.state else {
            throw RecordingReadError(file: "events.jsonl", line: start.line,
                                     reason: "trial \(start.value.trial) has no logged engine state (written by an engine before replay support)")
        }
        let settings = rebuildSettings(explicit: Set(state.explicitlySet))
        let clock = VirtualClock(start: start.time)
        let link = state.watchesDecoder == nil ? nil : InMemoryDecoderLink()
        link?.monitorsLiveness = state.watchesDecoder ?? false
        let controller = NoiseTagController(clock: clock, settings: settings, decoderLink: link, seed: 0)
        let controls = state.controls.map(ReplayControl.init)
        let view = NoiseTagView()
        for control in controls { view.add(control) }
        let end = loggedEnd
        let customTarget = start.value.mode == .trainCustom
            ? controls.first { $0.noiseTagging.identifier != nil && $0.noiseTagging.identifier == start.value.target } : nil
        let goesOn = !(end.map { end in
            script.modeChanges.contains { $0.order > end.order && $0.time == end.time && ($0.value.explanation ?? "").hasPrefix("TrainCustom finished") }
        } ?? false)
        let delegate = ReplayDelegate(controls: controls, verifyTargets: state.verifyTargets, customTarget: customTarget,
                                      customTrainingGoesOn: goesOn)
        controller.push(view: view, forNoiseTaggingWithDelegate: delegate)
        do {
            try controller.restore(start.value)
        } catch {
            throw RecordingReadError(file: "events.jsonl", line: start.line, reason: "trial \(start.value.trial): \(error.description)")
        }

        var outcome = TrialOutcome(ending: "unfinished")
        var started = false, ended = false, capturing = false, inCall = false
        let number = start.value.trial
        controller.events.subscribe { event in
            switch event.kind {
            case .trialStarted(let s) where s.trial == number:
                started = true
                outcome.start = Self.summary(s)
            case .press(let press) where press.trial == number:
                outcome.pressedObjectID = press.objectID
                outcome.certainty = press.certainty
            case .trialEnded(let e) where e.trial == number:
                ended = true
                outcome.ending = e.ending.description
                outcome.pressed = e.pressed
                outcome.endTime = event.time
                outcome.duration = e.duration
            default: break
            }
        }
        controller.observeDecoderTraffic { traffic in
            guard traffic.direction == .out, let first = traffic.bytes.first, Self.comparedIDs.contains(first) else { return }
            if !capturing { capturing = first == 0x4E && !ended }
            if capturing { outcome.messages.append(.init(time: traffic.time, bytes: traffic.bytes, byCall: inCall)) }
        }

        // The window: ticks from the trial's start; for what-if up to the next trial's start.
        let nextStart = script.starts.first { $0.order > start.order }?.time ?? .infinity
        let lastTime = whatIf ? nextStart : (end?.time ?? nextStart)
        let ticks = script.ticks
        var t = Self.firstIndex(ticks.count) { ticks[$0].time >= start.time }
        guard t < ticks.count, ticks[t].time == start.time else {
            throw RecordingReadError(file: "frames.csv", line: 0,
                                     reason: "no frame row at trial \(number)'s start (\(start.time)): frame lines were dropped or cut off")
        }
        var m = Self.firstIndex(incoming.count) { incoming[$0].time >= start.time }
        // Reconnections after the start (one in the start's own tick came before the trial began).
        let connections = script.connections
        var c = Self.firstIndex(connections.count) { connections[$0] > start.time }
        // App inputs after the start: calls, and the app's own setting changes.
        let endOrder = end?.order ?? Int.max
        var inputs = script.calls.filter { $0.order > start.order && ($0.order < endOrder || (!whatIf && $0.value.inTick && $0.time == end?.time)) }
            .map { Input.call($0) }
        inputs += script.settingChanges.filter { $0.order > start.order && $0.order < endOrder && ($0.value.source ?? .app) == .app }
            .map { Input.setting($0) }
        inputs.sort { $0.order < $1.order }
        var i = 0
        let period = 1 / Double(settings.intFor(.preferredNFramesPerSecond))

        func feed(_ input: Input) {
            if input.time > clock.now { clock.advance(to: input.time) }
            inCall = !input.inTick
            defer { inCall = false }
            switch input {
            case .call(let call): apply(call.value, controller: controller, controls: controls)
            case .setting(let change): apply(change.value, settings: settings)
            }
        }
        // Logged ticks up to the window's end; for a what-if whose trial is still
        // running then, ticks go on at the frame period (the decoder, which saw
        // the logged trial end, says nothing more) until the trial ends.
        var synthesized: RecordingScript.Tick?
        var lastBeat = -Double.infinity
        let heartbeat = settings.doubleFor(.heartbeatInterval)
        while true {
            let tick: RecordingScript.Tick
            if t < ticks.count, ticks[t].time < lastTime || (ticks[t].time == lastTime && !whatIf) {
                tick = ticks[t]
                t += 1
            } else if t == ticks.count, synthesized == nil, !ended, let endTime = end?.time, let last = ticks.last,
                      endTime > last.time, endTime - last.time <= 1.5 * period,
                      !inputs[i...].contains(where: { input in
                          if case .call(let c) = input { return c.time <= endTime && !c.value.inTick } else { return false }
                      }) {
                // (A call between ticks that ends the trial is fed below, after the last tick: no line was lost.)
                // A crash lost only the frame line of the tick the trial ended in: that tick ran at the trial's end time.
                tick = RecordingScript.Tick(index: last.index + 1, deadline: endTime, time: endTime)
                synthesized = tick
                notes.append("trial \(number): its last frame line was lost; that tick was rebuilt from the trial's end time")
            } else if whatIf, !ended, started, nextStart == .infinity {
                // Past the recording's last frame, and only there: with a next trial in the recording the
                // screen had moved on, so a trial still running at its start is unfinished, not timed out later.
                let previous = synthesized ?? ticks[max(0, t - 1)]
                guard previous.time - start.time < Self.whatIfLimit else { break }
                let deadline = previous.deadline + period
                tick = RecordingScript.Tick(index: previous.index + 1, deadline: deadline, time: (deadline * 1e6).rounded() / 1e6)
                synthesized = tick
            } else {
                break
            }
            while i < inputs.count, inputs[i].time < tick.time || (inputs[i].time == tick.time && !inputs[i].inTick) {
                feed(inputs[i]); i += 1
                if ended { break }
            }
            if ended { break }
            while c < connections.count, connections[c] <= tick.time {
                link?.pendingConnections += 1
                c += 1
            }
            while m < incoming.count, incoming[m].time <= tick.time {
                // Past the window a what-if hears the decoder's heartbeats and the like, not its predictions.
                let prediction = incoming[m].id == "P" || incoming[m].id == "F"
                if let link, !(whatIf && prediction && incoming[m].time >= lastTime),
                   let messages = try? UtopiaCodec.decode(frame: incoming[m].bytes) {
                    for message in messages { link.deliver(message) }
                }
                m += 1
            }
            if synthesized != nil, let link, tick.time - lastBeat >= heartbeat {
                lastBeat = tick.time
                link.deliver(.heartbeat(Heartbeat(timestamp: MonotonicClock.utopiaTimestamp(for: tick.time))))
            }
            if tick.time > clock.now { clock.advance(to: tick.time) }
            controller.tick(frame: FrameTiming(index: tick.index, deadline: tick.deadline, time: tick.time, period: period))
            while i < inputs.count, inputs[i].time == tick.time, inputs[i].inTick {
                feed(inputs[i]); i += 1
            }
            if ended, whatIf || tick.time >= (end?.time ?? tick.time) { break }
        }
        // App calls after the last tick of the window (a block between ticks that ended the trial).
        while !ended, i < inputs.count, inputs[i].time <= lastTime {
            feed(inputs[i]); i += 1
        }
        if !started {
            outcome.ending = "not started"
            outcome.endTime = start.time
        }
        return outcome
    }

    /// An app input: a call or a setting change.
    enum Input {
        case call(RecordingScript.Logged<AppCall>)
        case setting(RecordingScript.Logged<RecordingScript.SettingChange>)

        var order: Int {
            switch self { case .call(let c): return c.order; case .setting(let s): return s.order }
        }
        var time: Double {
            switch self { case .call(let c): return c.time; case .setting(let s): return s.time }
        }
        /// Made from inside a tick (setting changes are taken as between ticks).
        var inTick: Bool {
            if case .call(let c) = self { return c.value.inTick }
            return false
        }
    }

    private mutating func apply(_ change: RecordingScript.SettingChange, settings: NoiseTagSettings) {
        guard let title = NoiseTagSettingTitles(name: change.title), overrides[title] == nil,
              !Self.forced.keys.contains(title) else { return }
        do {
            try settings.set(value: NoiseTagSettingValue(typed: change.value, for: title.definition.kind), for: title)
        } catch {
            notes.append("trial \(start.value.trial): setting change \(change.title)=\(change.value) refused: \(error)")
        }
    }

    private mutating func apply(_ call: AppCall, controller: NoiseTagController, controls: [ReplayControl]) {
        switch call.name {
        case "trialsAreRunning": controller.trialsAreRunning = call.value == "true"
        case "setMode":
            let parts = (call.value ?? "").split(separator: " ")
            guard let name = parts.first, let mode = NoiseTagMode(rawValue: String(name)) else {
                notes.append("trial \(start.value.trial): setMode '\(call.value ?? "")' names no mode; not replayed")
                return
            }
            controller.set(mode: mode, waitTillDecoderConfirms: parts.dropFirst().first == "wait")
        case "blockTrials": controller.blockTrials(forDuration: call.value.flatMap(Double.init))
        case "unblockTrials": controller.unblockTrials()
        case "touchPress":
            guard let index = call.index, controls.indices.contains(index) else {
                notes.append("trial \(start.value.trial): touch on '\(call.control ?? "?")' outside the unit; not replayed")
                return
            }
            controller.touchPress(controls[index])
        case "push", "pop", "update", "updateControls": controller.updateControls()
        case "resetDecoderCalibration": controller.resetDecoderCalibration()
        default:
            notes.append("trial \(start.value.trial): call '\(call.name)' is unknown to this engine; not replayed")
        }
    }

    /// How long a what-if trial may run past its start before it is called `unfinished`, seconds.
    static let whatIfLimit = 120.0

    /// Settings replay always overrides: it never records, never prints.
    static let forced: [NoiseTagSettingTitles: NoiseTagSettingValue] = [
        .recordingsEnabled: .bool(false), .noiseTaggingPrintsToTheConsole: .bool(false),
    ]

    /// The settings at the trial's start: the snapshot, every change logged
    /// before the start, then the overrides; titles the user had set stay
    /// marked as set (decoder advice leaves them alone), overrides too.
    private mutating func rebuildSettings(explicit: Set<String>) -> NoiseTagSettings {
        let values = script.settingValues(before: start.order, ignoring: incomingAdvises ? .decoder : nil)
        let settings = NoiseTagSettings()
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let title = NoiseTagSettingTitles(name: name), overrides[title] == nil, Self.forced[title] == nil else { continue }
            do {
                if explicit.contains(title.rawValue) { try settings.set(value: value, for: title) } else { try settings.adopt(value: value, for: title) }
            } catch {
                notes.append("setting \(name)=\(value) refused: \(error)")
            }
        }
        for (title, value) in Self.forced { try? settings.adopt(value: value, for: title) }
        if incomingAdvises, !explicit.contains(NoiseTagSettingTitles.certaintyRequiredForPress.rawValue),
           let advice = incoming.last(where: { $0.id == "T" && $0.time < start.time }),
           case .certaintyThreshold(let threshold)? = try? UtopiaCodec.decode(frame: advice.bytes).first {
            try? settings.adopt(value: .double(Double(threshold.threshold)), for: .certaintyRequiredForPress)
        }
        for (title, value) in overrides.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            do { try settings.set(value: value, for: title) } catch { notes.append("override \(title.rawValue)=\(value) refused: \(error)") }
        }
        return settings
    }
}
