import DecoderService
import NoiseTagging
import Synchronization
import UtopiaProtocol

/// Writes what the embedded decoder consumed into the engine's current
/// recording, as `decoder-input.csv` (`Protocols/recordings.md` §3), so
/// that a ``Redecoder`` can run the decoder again on it. The decoder's
/// thread hands records to ``receive(_:)``, which formats the rows there
/// and posts them through the engine's ``EngineInbox``; on the engine
/// thread they go to the recording current at that tick with
/// ``NoiseTagController/append(toCSVNamed:cells:)``. The first row a
/// recording folder gets is preceded by the `time,id,hex` header and, when
/// the decoder's EEG started in an earlier recording, by that DATAHEADER
/// stamped with the time of the row after it, so every folder re-decodes on
/// its own. Rows arriving while nothing records are dropped; so are batches
/// the inbox refuses when full (counted by ``EngineInbox/refused``).
///
/// ```swift
/// let writer = DecoderInputWriter()
/// let server = try DecoderServer(endpoint: "inproc://decoder", settings: settings, context: context,
///                                inputSink: { writer.receive($0) })
/// let controller = NoiseTagController(clock: MonotonicClock.shared, decoderLink: link)
/// writer.attach(to: controller.inbox)          // rows received before this wait for it
/// controller.startRecording(in: store)
/// ```
public final class DecoderInputWriter: Sendable {
    /// One formatted row.
    private struct Row: Sendable {
        let isDataHeader: Bool
        let cells: [String]
    }
    private struct State {
        /// Where rows go; nil until ``attach(to:)``.
        var inbox: EngineInbox?
        /// Rows received before ``attach(to:)``.
        var waiting: [Row] = []
        /// Engine thread: the recording folder whose file has its header row.
        var folderWithHeader: String?
        /// Engine thread: the last DATAHEADER row, for the next folder.
        var dataHeader: Row?
    }
    private let state = Mutex(State())

    /// A writer that holds rows until it is attached to an engine.
    public init() {}

    /// From now on rows go to the engine of `inbox`; rows received before go first.
    public func attach(to inbox: EngineInbox) {
        let waiting = state.withLock { state in
            state.inbox = inbox
            defer { state.waiting = [] }
            return state.waiting
        }
        if !waiting.isEmpty { inbox.post { [self] engine in self.write(waiting, to: engine) } }
    }

    /// Takes a batch of records (any thread; the decoder server's input sink).
    public func receive(_ records: [DecoderInputRecord]) {
        let rows = records.map {
            Row(isDataHeader: $0.messageID == UtopiaMessageType.dataHeader.rawValue, cells: DecoderInputFile.cells(of: $0))
        }
        let inbox = state.withLock { state in
            if state.inbox == nil { state.waiting += rows }
            return state.inbox
        }
        inbox?.post { [self] engine in self.write(rows, to: engine) }
    }

    /// Engine thread: appends `rows` to the current recording's file.
    private func write(_ rows: [Row], to engine: NoiseTagController) {
        let folder = engine.folderNameCurrentRecording
        let lines = state.withLock { state in
            var lines: [[String]] = []
            for row in rows {
                if let folder, state.folderWithHeader != folder {
                    lines.append(DecoderInputFile.header)
                    if !row.isDataHeader, let header = state.dataHeader {
                        lines.append([row.cells[0]] + header.cells.dropFirst())
                    }
                    state.folderWithHeader = folder
                }
                if row.isDataHeader { state.dataHeader = row }
                if folder != nil { lines.append(row.cells) }
            }
            return lines
        }
        for cells in lines { engine.append(toCSVNamed: DecoderInputFile.name, cells: cells) }
    }
}
