import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes everything a controller does into time-bracketed recording
/// folders of a ``RecordingStore``: events, decoder traffic, frames,
/// presses, trials and a settings snapshot (see `Protocols/recordings.md`).
///
/// Recording is opt-in: ``NoiseTagController/startRecording(in:wallClock:timeZone:)``
/// makes one (the `NoiseTagging` singleton and `noisetag demo` do so by
/// default). On the engine thread it only queues lines into a bounded
/// buffer (frames and decoder messages as they are, other lines formatted);
/// a ``RecordingWriter`` thread makes the frame and decoder lines' text and
/// does the I/O. When the disk
/// fails, the engine runs on without recording and says so in events.
public final class Recorder {
    /// Where the folders go.
    public let store: RecordingStore
    /// The calendar time for names and `wall_time` columns.
    public let wallClock: WallClock
    unowned let controller: NoiseTagController
    let writer: RecordingWriter
    var calendar: Calendar
    var eventToken: NoiseTagEventStream.Token?
    /// Its frame and decoder-traffic observers, removed when it stops.
    var observerTokens: [NoiseTagController.ObserverToken] = []
    var active = true

    /// The open recording's name (nil before the first one could start).
    public var current: RecordingName? { controller.access.read { openName } }
    /// The open recording's name, as the engine thread sets and reads it.
    var openName: RecordingName?
    /// False once the current recording failed: lines are no longer formatted.
    var writing = false
    /// Engine time the current recording started.
    var currentStart = 0.0
    /// Left parts used by this recorder (and found on disk at start), to keep names unique.
    var usedLeftParts: Set<String> = []
    var backgroundSince: Double?
    var lastCheck = -Double.infinity
    var lastDay: Date?
    var reportedDrops = (frames: 0, others: 0)
    /// True from a trial's end until the next frame line: that line is handed over at once too,
    /// so a crash keeps every frame of the trial (replay needs the tick it ended in).
    var flushAfterNextFrame = false
    /// Encodes `events.jsonl` and `trials.jsonl` lines: sorted keys, slashes as they are.
    let lineEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    init(controller: NoiseTagController, store: RecordingStore, wallClock: WallClock, timeZone: TimeZone,
         limits: RecordingWriter.Limits = .init()) {
        self.controller = controller
        self.store = store
        self.wallClock = wallClock
        calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        writer = RecordingWriter(store: store, limits: limits)
    }

    /// Checks the root, subscribes to the controller and starts the first recording.
    func start(trigger: RecordingTrigger) {
        for entry in store.recordings() { usedLeftParts.insert(entry.name.leftPart) }
        writer.setSizeLimit(bytes: Int64(controller.settings.intFor(.recordingsSizeLimitMB)) * 1_000_000)
        eventToken = controller.events.subscribe(includingAppCalls: true) { [unowned self] event in self.record(event) }
        observerTokens = [controller.observeFrames { [weak self] record in self?.record(record) },
                          controller.observeDecoderTraffic { [weak self] traffic in self?.record(traffic) }]
        if let reason = RecordingWriter.makeDirectories(store.root.path) {
            reportOff(path: store.root.path, reason: "cannot create the recordings folder: \(reason)")
        } else if access(store.root.path, W_OK | X_OK) != 0 {
            reportOff(path: store.root.path, reason: "the recordings folder is not writable: \(RecordingWriter.lastError())")
        } else {
            begin(trigger)
        }
        lastDay = calendar.startOfDay(for: wallClock.now)
        lastCheck = controller.engineNow
    }

    // MARK: Public

    /// The open recording's folder name; nil when not recording.
    public var folderNameCurrentRecording: String? { controller.access.read { isRecording ? openName?.folderName : nil } }

    /// True while lines are being recorded.
    public var isRecording: Bool { controller.access.read { openName != nil && writing && active } }

    /// Blocks until every line so far is written, `fsync`ed, and ended
    /// recordings are renamed; then reports any problem as events. For tests
    /// and tools; never call it from a frame loop.
    public func waitUntilWritten() {
        writer.writeNow()
        let entered = controller.access.enter()
        defer { controller.access.leave(entered) }
        pollWriter()
    }

    // MARK: Starting and ending

    /// Ends the current recording (if any) and starts a new one for `trigger`.
    func rotate(_ trigger: RecordingTrigger) {
        guard active else { return }
        let next = uniqueName(trigger.reason)
        if let current = openName {
            let closed = current.ended(by: next)
            controller.emit(.recordingEnded(folder: closed.folderName, reason: trigger.reason))
            writer.end(renamingTo: closed.folderName)
            openName = nil
            writing = false
        }
        begin(next)
    }

    /// The first recording: its folder is made here, at start-up, so that
    /// processes starting in the same second pick distinct names (`mkdir`
    /// decides; the loser takes the next " (n)").
    private func begin(_ trigger: RecordingTrigger) {
        for _ in 0..<100 {
            let name = uniqueName(trigger.reason)
            let path = store.root.appendingPathComponent(name.folderName).path
            if mkdir(path, 0o755) == 0 {
                let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if directory >= 0 { _ = flock(directory, LOCK_EX | LOCK_NB) }
                let root = open(store.root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if root >= 0 { _ = fsync(root); close(root) }
                begin(name, directory: directory)
                return
            }
            guard errno == EEXIST else {
                reportOff(path: path, reason: "cannot create the recording folder: \(RecordingWriter.lastError())")
                return
            }
            usedLeftParts.insert(name.leftPart)
        }
        reportOff(path: store.root.path, reason: "no free recording folder name for '\(trigger.reason)'")
    }

    private func begin(_ name: RecordingName, directory: Int32? = nil) {
        usedLeftParts.insert(name.leftPart)
        openName = name
        writing = true
        currentStart = controller.engineNow
        writer.begin(folder: name.folderName, directory: directory)
        for file in RecordingFile.allCases {
            if let header = file.header { writer.append(Array((header + "\n").utf8), to: file.rawValue) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let data = try? encoder.encode(controller.settings.snapshot()) {
            writer.append(Array(data) + [0x0A], to: RecordingFile.settings.rawValue)
        }
        controller.emit(.recordingStarted(folder: name.folderName, reason: name.startReason, format: RecordingFormat.current))
    }

    /// An open name for `reason` now, made unique with " (2)", " (3)"… when
    /// a recording with the same left part exists.
    private func uniqueName(_ reason: String) -> RecordingName {
        let now = wallClock.now
        var name = RecordingName(start: now, reason: reason)
        var n = 2
        while usedLeftParts.contains(name.leftPart) {
            let suffix = " (\(n))"
            let base = RecordingName.sanitized(reason: reason).prefix(RecordingName.maximumReasonLength - suffix.count)
            name = RecordingName(start: now, reason: base + suffix)
            n += 1
        }
        return name
    }

    /// Ends the current recording for `trigger` ("App ended"), writes
    /// everything and stops the writer thread. Blocks until done.
    func stop(_ trigger: RecordingTrigger) {
        guard active else { return }
        if let current = openName {
            let closed = current.ended(at: wallClock.now, reason: trigger.reason)
            controller.emit(.recordingEnded(folder: closed.folderName, reason: trigger.reason))
            writer.end(renamingTo: closed.folderName)
        }
        writer.stop()
        pollWriter()
        openName = nil
        writing = false
        active = false
        if let eventToken { controller.events.unsubscribe(eventToken) }
        for token in observerTokens { controller.removeObserver(token) }
        observerTokens = []
    }

    /// Says that recording is off (an event naming the path and reason, and a notice).
    func reportOff(path: String, reason: String) {
        writing = false
        controller.emit(.recordingProblem(path: path, reason: reason, loggingOff: true))
        controller.emit(.notice("recording is off: \(reason) (\(path)); the engine runs on without recording until the next recording starts"))
    }

    deinit { writer.stop() }
}
