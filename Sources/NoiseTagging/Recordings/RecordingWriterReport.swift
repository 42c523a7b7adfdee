/// What the writer thread tells the engine thread; the ``Recorder`` turns
/// each one into an engine event.
enum RecordingWriterReport: Equatable, Sendable {
    /// Writing to recording `folder` failed at `path`; with `loggingOff` the folder takes no more lines.
    case problem(folder: String, path: String, reason: String, loggingOff: Bool)
    /// An old recording was deleted to respect the size limit.
    case deleted(folder: String, bytes: Int64)
}
