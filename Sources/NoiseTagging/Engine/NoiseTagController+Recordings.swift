import Foundation

extension NoiseTagController {
    /// Starts recording into `store` ("App started"): from now on every
    /// event, decoder message, frame, press and trial is written to the
    /// current recording folder (see `Protocols/recordings.md`). Never
    /// throws: an unwritable root gives a ``NoiseTagEvent/Kind/recordingProblem(path:reason:loggingOff:)``
    /// event and a notice, and the engine runs on without recording. A second
    /// call while recording is refused and returns the running recorder.
    @discardableResult
    public func startRecording(in store: RecordingStore = .standard, wallClock: WallClock = SystemWallClock(),
                               timeZone: TimeZone = .current) -> Recorder {
        let entered = access.enter()
        defer { access.leave(entered) }
        return startRecording(in: store, wallClock: wallClock, timeZone: timeZone, limits: .init())
    }

    @discardableResult
    func startRecording(in store: RecordingStore, wallClock: WallClock, timeZone: TimeZone,
                        limits: RecordingWriter.Limits, trigger: RecordingTrigger = .appStarted) -> Recorder {
        if let recorder, recorder.active {
            emit(.refused(call: "startRecording(in:)", reason: "already recording into \(recorder.store.root.path); call stopRecording() first"))
            return recorder
        }
        let recorder = Recorder(controller: self, store: store, wallClock: wallClock, timeZone: timeZone, limits: limits)
        self.recorder = recorder
        recorder.start(trigger: trigger)
        return recorder
    }

    /// The `recordingsEnabled` setting changed: off ends the current
    /// recording ("recordings off"); on starts one ("recordings on") in the
    /// store, wall clock and limits of the last recorder, or in
    /// ``RecordingStore/standard`` when there was none.
    func recordingsEnabledDidChange(to enabled: Bool) {
        if !enabled {
            recorder?.stop(.switchedOff)
        } else if activeRecorder == nil {
            if let last = recorder {
                startRecording(in: last.store, wallClock: last.wallClock, timeZone: last.calendar.timeZone,
                               limits: last.writer.limits, trigger: .switchedOn)
            } else {
                startRecording(in: .standard, wallClock: SystemWallClock(), timeZone: .current, limits: .init(),
                               trigger: .switchedOn)
            }
        }
    }

    /// Ends the current recording ("App ended"): everything is written and
    /// `fsync`ed and the folder gets its right part. Blocks until done; call
    /// it when the app ends.
    public func stopRecording() {
        let entered = access.enter()
        defer { access.leave(entered) }
        recorder?.stop(.appEnded)
    }

    /// The running recorder, if recording was started.
    public var activeRecorder: Recorder? { access.read { recorder?.active == true ? recorder : nil } }

    /// The app went to the background. Coming back after an hour or more
    /// (on the engine clock) starts a new recording.
    public func applicationDidEnterBackground() {
        let entered = access.enter()
        defer { access.leave(entered) }
        recorder?.applicationDidEnterBackground(at: engineNow)
        emit(.lifecycle(.didEnterBackground))
    }

    /// The app is coming back from the background.
    public func applicationWillEnterForeground() {
        let entered = access.enter()
        defer { access.leave(entered) }
        recorder?.applicationWillEnterForeground(at: engineNow)
        emit(.lifecycle(.willEnterForeground))
    }

    /// The developer panel opened: a new recording starts ("developer panel").
    public func developerPanelOpened() {
        let entered = access.enter()
        defer { access.leave(entered) }
        recorder?.rotate(.developerPanel)
        emit(.lifecycle(.developerPanelOpened))
    }

    /// Ends the current recording and starts a new one whose name gives the
    /// reason "client; <comments>" (made safe for file names and cut to 60
    /// characters; the full text goes into the new recording's events).
    public func startNewRecording(withComments comments: String) {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard let recorder = activeRecorder else {
            emit(.refused(call: "startNewRecording(withComments:)", reason: "not recording; call startRecording(in:) first"))
            return
        }
        recorder.rotate(.client(comment: comments))
        emit(.notice("startNewRecording(withComments:): \(comments)"))
    }

    /// Appends `text` unchanged to `file` in the current recording; false when not recording.
    @discardableResult
    public func append(text: String, toFileNamed file: String) -> Bool {
        let entered = access.enter()
        defer { access.leave(entered) }
        return recorder?.append(text: text, toFileNamed: file) ?? false
    }

    /// Appends one line to `file` in the current recording; false when not recording.
    @discardableResult
    public func append(line: String, toFileNamed file: String) -> Bool {
        let entered = access.enter()
        defer { access.leave(entered) }
        return recorder?.append(line: line, toFileNamed: file) ?? false
    }

    /// Appends one CSV row to `name` (".csv" added when missing) in the current recording.
    @discardableResult
    public func append(toCSVNamed name: String, cells: [String]) -> Bool {
        let entered = access.enter()
        defer { access.leave(entered) }
        return recorder?.append(toCSVNamed: name, cells: cells) ?? false
    }

    /// The current recording's folder name; nil when not recording.
    public var folderNameCurrentRecording: String? { access.read { recorder?.folderNameCurrentRecording } }

    /// Folder names of the recordings in the store that no process writes
    /// any more (closed, and crashed ones with only a left part), oldest first.
    public var closedRecordings: [String] {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard let recorder else { return [] }
        let current = recorder.openName?.folderName
        return recorder.store.finishedRecordings().map(\.name.folderName).filter { $0 != current }
    }
}
