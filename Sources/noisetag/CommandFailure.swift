/// A failure at run time (no decoder, an unreadable file, a missing folder):
/// argument-parser prints `Error: ` and this one line to standard error and
/// exits 1, without the usage text that a ``ValidationError`` (a wrong
/// argument, exit 64) brings.
///
/// ```swift
/// guard FileManager.default.fileExists(atPath: path) else {
///     throw CommandFailure("recordings folder \(path): no such folder")
/// }
/// ```
struct CommandFailure: Error, CustomStringConvertible {
    /// The line printed: names the thing that failed and why.
    let description: String

    /// A failure described by `description` (one line).
    init(_ description: String) { self.description = description }
}
