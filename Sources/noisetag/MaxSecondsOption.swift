import ArgumentParser

/// The `--max-seconds` time limit of the commands that run trials (`demo`,
/// `session run`, full-screen or headless): past it they give up with exit
/// status 2.
struct MaxSecondsOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "Give up after this many seconds (exit 2); 0 (the default): no limit, except for `demo --headless`'s walk-through, which gives up after 900 s.")
    var maxSeconds: Double = 0

    /// Rejects a negative or infinite limit (a usage error). Called from the
    /// command's own `validate()`, so its checks keep their order.
    func check() throws {
        guard maxSeconds >= 0, maxSeconds.isFinite else { throw ValidationError("--max-seconds must be >= 0") }
    }
}
