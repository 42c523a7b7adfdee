/// A replay option that cannot be used (`--set`, `--sweep`, `--with-settings`), in one sentence.
///
/// ```swift
/// do { _ = try ParameterSweep(parsing: "colour=1:2:1") } catch { print(error) }
/// ```
public struct ReplayOptionError: Error, CustomStringConvertible, Sendable {
    public let description: String

    /// Creates the error.
    ///
    /// ```swift
    /// throw ReplayOptionError("--set 'x': expected TITLE=VALUE")
    /// ```
    public init(_ description: String) { self.description = description }
}
