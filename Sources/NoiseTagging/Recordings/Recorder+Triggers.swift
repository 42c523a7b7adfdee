import Foundation

extension Recorder {
    /// Seconds in the background from which coming back starts a new recording.
    static let backgroundThreshold = 3600.0
    /// Age a recording must exceed for passing 00:00 to start a new one.
    static let midnightThreshold = 23 * 3600.0

    /// The app went to the background at `time` (engine clock).
    func applicationDidEnterBackground(at time: Double) {
        backgroundSince = time
    }

    /// The app is back at `time`: after an hour or more away
    /// (``backgroundThreshold``) a new recording starts.
    func applicationWillEnterForeground(at time: Double) {
        guard let since = backgroundSince else { return }
        backgroundSince = nil
        let away = time - since
        if away >= Self.backgroundThreshold { rotate(.background(seconds: away)) }
    }

    /// The mode changed: entering a training mode from another mode starts
    /// a new recording.
    func modeWillChange(from old: NoiseTagMode, to new: NoiseTagMode) {
        if new.isTraining && !old.isTraining { rotate(.training) }
    }

    /// Starts a new recording when the wall clock has passed 00:00 (in the
    /// recorder's time zone) since the last check and the current recording
    /// is more than 23 hours old on the engine clock.
    func checkMidnight(now: Double) {
        let today = calendar.startOfDay(for: wallClock.now)
        defer { lastDay = today }
        guard let lastDay, today > lastDay else { return }
        if openName != nil, now - currentStart > Self.midnightThreshold { rotate(.midnight) }
    }

    /// Turns the writer's reports into events; a failed current recording stops recording.
    func pollWriter() {
        for report in writer.takeReports() {
            switch report {
            case .problem(let folder, let path, let reason, let loggingOff):
                if loggingOff, folder == openName?.folderName {
                    reportOff(path: path, reason: reason)
                } else {
                    controller.emit(.recordingProblem(path: path, reason: reason, loggingOff: false))
                }
            case .deleted(let folder, let bytes):
                controller.emit(.notice("deleted the old recording '\(folder)' (\(bytes) bytes) to keep recordings under recordingsSizeLimitMB"))
            }
        }
    }

    /// Emits the lines dropped since the last report, if any.
    func reportDrops() {
        let dropped = writer.dropped
        let frames = dropped.frames - reportedDrops.frames, others = dropped.others - reportedDrops.others
        guard frames > 0 || others > 0 else { return }
        reportedDrops = dropped
        controller.emit(.recordingLinesDropped(frameLines: frames, otherLines: others))
    }
}
