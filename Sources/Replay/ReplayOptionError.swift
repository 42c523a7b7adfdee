/// A replay option that cannot be used (`--set`, `--sweep`, `--with-settings`), in one sentence.
public struct ReplayOptionError: Error, CustomStringConvertible, Sendable {
    public let description: String

    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
