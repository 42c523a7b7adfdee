import Foundation
import Testing

extension Tag {
    /// Opens ZeroMQ or TCP sockets (in-process `inproc://` ones included).
    @Tag public static var sockets: Self
    /// Starts processes: the `noisetag` binary, shells, tmux.
    @Tag public static var processes: Self
    /// Runs on the real clock: threads, a decoder or a frame loop in real time.
    @Tag public static var realTime: Self
    /// Numerically heavy: fits and cross-validations on whole simulated or
    /// real datasets, seconds when optimised and minutes in a debug build.
    @Tag public static var heavy: Self
}

/// Which tests a run includes. A plain `swift test` runs the pure suite:
/// everything on virtual clocks, in memory and in temporary folders, and
/// light enough for a debug build. `make test` (or
/// `NOISETAG_TESTS=all swift test`) also runs the tests tagged
/// ``Testing/Tag/sockets``, ``Testing/Tag/processes``,
/// ``Testing/Tag/realTime`` and ``Testing/Tag/heavy``.
public enum TestScope {
    /// Whether every test runs (`NOISETAG_TESTS=all`).
    public static var includesAll: Bool { ProcessInfo.processInfo.environment["NOISETAG_TESTS"] == "all" }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite or test only when ``TestScope/includesAll``: it
    /// reaches sockets, processes or the real clock.
    public static var outsideWorld: Self {
        .enabled(if: TestScope.includesAll, "sockets, processes or the real clock: NOISETAG_TESTS=all swift test (make test) runs it")
    }

    /// Runs the suite or test only when ``TestScope/includesAll``: it is
    /// numerically heavy (make test runs it optimised).
    public static var heavyComputation: Self {
        .enabled(if: TestScope.includesAll, "numerically heavy: NOISETAG_TESTS=all swift test -c release (make test) runs it")
    }
}
