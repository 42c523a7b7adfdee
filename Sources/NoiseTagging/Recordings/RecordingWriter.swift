import Dispatch
import Foundation
import IOThreads
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The recordings' writer thread. The engine thread only appends whole
/// lines to a bounded buffer; this thread hands them to the operating system
/// every ``Limits/flushInterval`` (one `write(2)` per file per batch of whole
/// lines, `O_APPEND`), `fsync`s every ``Limits/syncInterval`` and when a
/// recording closes, then renames its folder. When the buffer is full, frame
/// lines are refused first (and counted); other lines push waiting frame
/// lines out before they are refused themselves.
///
/// ```swift
/// let writer = RecordingWriter(store: store)
/// writer.begin(folder: name.folderName)
/// writer.append(Array("hello\n".utf8), to: "notes.txt")
/// writer.end(renamingTo: name.ended(at: Date(), reason: "App ended").folderName)
/// writer.stop()
/// ```
// @unchecked: `passesFinished` and `threadExited` are guarded by the `passDone` condition, which a Mutex cannot replace.
final class RecordingWriter: @unchecked Sendable {
    /// Buffer sizes and cadences.
    struct Limits: Sendable {
        /// Frame lines are refused once this many bytes wait.
        var frameBytes = 4 << 20
        /// Other lines are refused (after pushing out waiting frame lines) beyond this.
        var totalBytes = 16 << 20
        /// Seconds between hand-overs to the operating system (≤ 0.1 by the durability promise).
        var flushInterval = 0.05
        /// Seconds between `fsync`s of files written since the last one.
        var syncInterval = 1.0
        /// Seconds between size-limit checks (besides one after each new folder).
        var pruneInterval = 300.0
    }

    /// What the engine thread and the writer thread share, besides the
    /// open files (those belong to whoever holds `io`).
    struct State {
        var segments: [RecordingSegment] = []
        var pendingBytes = 0
        var droppedFrames = 0
        var droppedOthers = 0
        var reports: [RecordingWriterReport] = []
        var stopping = false
        var sizeLimit: Int64 = 0
        var pruneDue = false
        var running = false
        var syncDue = false
        /// A trial ended while the writer thread held `io`: it writes again
        /// before letting go, so the trial's lines follow its current batch
        /// without waiting for the thread to be scheduled.
        var handOverDue = false
    }

    let store: RecordingStore
    let limits: Limits
    let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    /// The writer thread; it holds the writer until ``stop()``, which the recorder always calls.
    private var thread: IOThread?
    private let passDone = NSCondition()
    private var passesFinished = 0
    private var threadExited = false
    /// Held while lines are handed to the operating system.
    let io = Mutex(())


    /// Creates the writer and starts its thread.
    init(store: RecordingStore, limits: Limits = Limits()) {
        self.store = store
        self.limits = limits
        state.withLock { $0.running = true }
        thread = IOThread(name: "nt-rec-writer") { [self] in self.run() }
    }

    // MARK: Engine side

    /// Starts a new folder; lines go to it from now on. With `directory`
    /// (an open, locked descriptor) the folder exists already; otherwise the
    /// writer thread makes it.
    func begin(folder: String, directory: Int32? = nil) {
        let segment = RecordingSegment(folder: folder)
        if let directory {
            segment.directory = directory >= 0 ? FileDescriptor(rawValue: directory) : nil
            segment.created = true
        }
        state.withLock { state in
            state.segments.append(segment)
            state.pruneDue = true
        }
        wakeUp.signal()
    }

    /// Ends the current folder: its lines are written, its files `fsync`ed and
    /// closed, then it is renamed to `closeName` (nil keeps its name).
    func end(renamingTo closeName: String?) {
        state.withLock { state in
            if let last = state.segments.last, !last.ended {
                last.ended = true
                last.closeName = closeName
            }
        }
        wakeUp.signal()
    }

    /// Queues one or more whole lines for `file` of the current folder.
    /// Returns false when the line was dropped (buffer full, folder failed, none open).
    @discardableResult
    func append(_ bytes: [UInt8], to file: String, isFrame: Bool = false) -> Bool {
        append(.bytes(bytes), to: file, isFrame: isFrame)
    }

    /// Queues one line for `file`, formatted when the batch is written
    /// (a frame or a decoder message is queued as it is).
    @discardableResult
    func append(_ line: RecordingLineSource, to file: String, isFrame: Bool = false) -> Bool {
        state.withLock { state in
            guard let segment = state.segments.last, !segment.ended, segment.accepting else { return false }
            let size = line.budgetedBytes
            if isFrame {
                guard state.pendingBytes + size <= limits.frameBytes else {
                    state.droppedFrames += 1
                    return false
                }
            } else if state.pendingBytes + size > limits.totalBytes {
                Self.evictFrameLines(&state)
                guard state.pendingBytes + size <= limits.totalBytes else {
                    state.droppedOthers += 1
                    return false
                }
            }
            segment.pending[file, default: RecordingSegment.Pending(isFrames: isFrame)].lines.append(line)
            segment.pending[file]!.budgetedBytes += size
            state.pendingBytes += size
            return true
        }
    }

    /// Hands waiting lines to the operating system now, on the calling
    /// thread, if the writer thread is not busy; otherwise has it write
    /// again before it lets go of the files. Never creates, `fsync`s or
    /// closes anything (the writer thread does that).
    func flushSoon() {
        if io.withLockIfAvailable({ _ in pass(onWriterThread: false) }) == nil {
            state.withLock { $0.handOverDue = true }
            wakeUp.signal()
        }
    }

    /// Blocks until the writer thread has written, `fsync`ed and (for ended
    /// folders) closed and renamed everything queued before the call (tests,
    /// the end of the app, and readers of ``RecordingStore``).
    func writeNow() {
        passDone.lock()
        let target = passesFinished + 2
        passDone.unlock()
        let alive = state.withLock { state in
            state.syncDue = true
            return state.running
        }
        guard alive else { return }
        wakeUp.signal()
        wakeUp.signal()
        passDone.lock()
        while passesFinished < target && !threadExited { passDone.wait() }
        passDone.unlock()
    }

    /// Lines dropped so far because the buffer was full.
    var dropped: (frames: Int, others: Int) {
        state.withLock { ($0.droppedFrames, $0.droppedOthers) }
    }

    /// Problems and deletions since the last call.
    func takeReports() -> [RecordingWriterReport] {
        state.withLock { state in
            defer { state.reports.removeAll() }
            return state.reports
        }
    }

    /// Total size the recordings may take (0: no limit); checked now and then.
    func setSizeLimit(bytes: Int64) {
        state.withLock { state in
            state.sizeLimit = max(0, bytes)
            state.pruneDue = true
        }
        wakeUp.signal()
    }

    /// Ends every folder (without renaming one not ended yet), writes and
    /// closes everything, and stops the thread. Blocks until done.
    func stop() {
        let wasRunning = state.withLock { state in
            for segment in state.segments where !segment.ended { segment.ended = true }
            state.stopping = true
            defer { state.running = false }
            return state.running
        }
        guard wasRunning else { return }
        wakeUp.signal()
        thread?.join()
    }

    // MARK: Writer thread

    private func run() {
        var lastSync = Self.monotonicNow()
        var lastPrune = lastSync
        while true {
            _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(limits.flushInterval * 1e9)))
            let (syncNow, toSync, now) = io.withLock { _ in
                pass(onWriterThread: true)
                while state.withLock({ state in defer { state.handOverDue = false }; return state.handOverDue }) {
                    pass(onWriterThread: true)
                }
                let now = Self.monotonicNow()
                let syncNow = state.withLock { state in
                    defer { state.syncDue = false }
                    return state.syncDue || now - lastSync >= limits.syncInterval
                }
                return (syncNow, syncNow ? takeDirtyFiles() : [], now)
            }
            if syncNow {
                sync(toSync)
                lastSync = now
            }
            let (stop, empty, limit, prune, protected) = state.withLock { state in
                let prune = state.sizeLimit > 0 && (state.pruneDue || now - lastPrune >= limits.pruneInterval)
                if prune { state.pruneDue = false }
                let protected = Set(state.segments.flatMap { [$0.folder] + ($0.closeName.map { [$0] } ?? []) })
                return (state.stopping, state.segments.isEmpty, state.sizeLimit, prune, protected)
            }
            if prune {
                lastPrune = now
                let deleted = store.prune(toAtMost: limit, protecting: protected)
                if !deleted.isEmpty { report(deleted.map { .deleted(folder: $0.folder, bytes: $0.bytes) }) }
            }
            passDone.lock()
            passesFinished += 1
            if stop && empty { threadExited = true }
            passDone.broadcast()
            passDone.unlock()
            if stop && empty { break }
        }
    }

    /// Takes every waiting line and writes it; on the writer thread also
    /// creates new folders and closes ended ones. Call with `io` held.
    private func pass(onWriterThread: Bool) {
        let work = state.withLock { state in
            var work: [(RecordingSegment, [String: RecordingSegment.Pending], Bool)] = []
            for segment in state.segments where onWriterThread || (segment.created && !segment.failed) {
                let taken = segment.pending
                // Allocated here, on the writer's side of the hand-off: the
                // next batch fits without the engine thread growing a buffer.
                segment.pending = taken.mapValues(RecordingSegment.Pending.reserving(like:))
                state.pendingBytes -= taken.values.reduce(0) { $0 + $1.budgetedBytes }
                work.append((segment, taken, onWriterThread && segment.ended))
            }
            return work
        }
        for (segment, taken, finish) in work {
            if onWriterThread, !segment.created, !segment.failed { create(segment) }
            if segment.created, !segment.failed {
                for (file, pending) in taken.sorted(by: { $0.key < $1.key }) where !pending.lines.isEmpty {
                    guard writeLines(pending.formatted(), to: file, of: segment) else { break }
                }
            }
            if onWriterThread, segment.failed, !segment.files.isEmpty { closeFiles(of: segment) }
            if finish { finalize(segment) }
        }
        state.withLock { $0.segments.removeAll { $0.finalized } }
    }

    func fail(_ segment: RecordingSegment, path: String, reason: String) {
        segment.failed = true
        state.withLock { state in
            segment.accepting = false
            state.pendingBytes -= segment.pending.values.reduce(0) { $0 + $1.budgetedBytes }
            segment.pending = [:]
            state.reports.append(.problem(folder: segment.folder, path: path, reason: reason, loggingOff: true))
        }
    }

    func report(_ new: [RecordingWriterReport]) {
        state.withLock { $0.reports.append(contentsOf: new) }
    }

    /// Throws away every waiting frame line (counted as dropped), inside `state`'s lock.
    private static func evictFrameLines(_ state: inout State) {
        for segment in state.segments {
            for (file, pending) in segment.pending where pending.isFrames {
                state.droppedFrames += pending.lines.count
                state.pendingBytes -= pending.budgetedBytes
                segment.pending[file] = nil
            }
        }
    }

    static func monotonicNow() -> Double { MonotonicClock.shared.now }
}
