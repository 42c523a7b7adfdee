import Foundation

extension Recorder {
    /// An engine event: `events.jsonl`, and `presses.csv` for a press; at a
    /// trial's end, every waiting line goes to the operating system. Never
    /// emits an event itself.
    func record(_ event: NoiseTagEvent) {
        guard active, writing else { return }
        let wall = wallClock.now.timeIntervalSince1970
        if let line = try? lineEncoder.encode(EventLine(event: event, wallTime: wall)) {
            writer.append(Array(line) + [RecordingLine.newline], to: RecordingFile.events.rawValue)
        }
        switch event.kind {
        case .press(let press):
            writer.append(RecordingLine.press(press, time: event.time, wallTime: wall), to: RecordingFile.presses.rawValue)
        case .trialEnded:
            writer.flushSoon()      // the trial's line went in just before; both reach the OS now
        case .settingChanged(let title, _, _) where title == NoiseTagSettingTitles.recordingsSizeLimitMB.rawValue:
            writer.setSizeLimit(bytes: Int64(controller.settings.intFor(.recordingsSizeLimitMB)) * 1_000_000)
        default:
            break
        }
    }

    /// A trial that ended, as the controller built it from the trial: its
    /// `trials.jsonl` line (wall-clock times added here), then every waiting
    /// line goes to the operating system.
    func record(_ trial: RecordedTrial) {
        guard active, writing else { return }
        var trial = trial
        let wall = wallClock.now.timeIntervalSince1970, now = controller.engineNow
        trial.startWallTime = wall - (now - trial.startTime)
        trial.endWallTime = wall - (now - trial.endTime)
        if let data = try? lineEncoder.encode(trial) {
            writer.append(Array(data) + [RecordingLine.newline], to: RecordingFile.trials.rawValue)
        }
        writer.flushSoon()
        flushAfterNextFrame = true
    }

    /// A frame: `frames.csv`, and the once-a-second checks.
    func record(_ frame: FrameRecord) {
        guard active else { return }
        if writing {
            writer.append(.frame(frame, wallTime: wallClock.now.timeIntervalSince1970),
                          to: RecordingFile.frames.rawValue, isFrame: true)
            if flushAfterNextFrame {
                flushAfterNextFrame = false
                writer.flushSoon()
            }
        }
        pollWriter()
        if frame.time - lastCheck >= 1 {
            lastCheck = frame.time
            reportDrops()
            checkMidnight(now: frame.time)
        }
    }

    /// A message to or from the decoder: `decoder.csv`.
    func record(_ traffic: DecoderTraffic) {
        guard active, writing else { return }
        writer.append(.decoder(traffic, wallTime: wallClock.now.timeIntervalSince1970),
                      to: RecordingFile.decoder.rawValue)
    }

    // MARK: Client files

    /// Appends `text` as it is (one write, however many lines) to `file` of
    /// the current recording. False when not recording, the name is not
    /// allowed (a path, hidden, or one of the engine's files), or the buffer is full.
    /// Any thread may call it: it holds the engine's lock.
    @discardableResult
    public func append(text: String, toFileNamed file: String) -> Bool {
        let entered = controller.access.enter()
        defer { controller.access.leave(entered) }
        guard isRecording else { return false }
        guard Self.isClientFileName(file) else {
            controller.emit(.refused(call: "append(toFileNamed:)", reason: "'\(file)' is not a file name a client may write (no '/', not hidden, not one of \(RecordingFile.allCases.filter { $0 != .feedback }.map(\.rawValue).joined(separator: ", ")))"))
            return false
        }
        return writer.append(Array(text.utf8), to: file)
    }

    /// Appends `line` and a line break (line breaks inside become spaces).
    @discardableResult
    public func append(line: String, toFileNamed file: String) -> Bool {
        let flat = line.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
        return append(text: flat + "\n", toFileNamed: file)
    }

    /// Appends one CSV row to `name` (".csv" is added when missing).
    @discardableResult
    public func append(toCSVNamed name: String, cells: [String]) -> Bool {
        append(text: CSVRow.line(cells) + "\n", toFileNamed: name.hasSuffix(".csv") ? name : name + ".csv")
    }

    static func isClientFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0")
            && name.utf8.count <= 200 && !RecordingFile.isReserved(name)
    }
}
