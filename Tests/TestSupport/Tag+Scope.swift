import Foundation
import Testing

extension Tag {
    /// Opens ZeroMQ or TCP sockets (in-process `inproc://` ones included).
    @Tag public static var sockets: Self
    /// Starts processes: the `noisetag` binary, shells, tmux.
    @Tag public static var processes: Self
    /// Runs on the real clock: threads, a decoder or a frame loop in real time.
    @Tag public static var realTime: Self
}

/// Which tests a run includes. A plain `swift test` runs the pure suite:
/// everything on virtual clocks and in memory. `make test` (or
/// `NOISETAG_TESTS=all swift test`) also runs the tests tagged
/// ``Testing/Tag/sockets``, ``Testing/Tag/processes`` and
/// ``Testing/Tag/realTime``.
public enum TestScope {
    /// Whether the tests that reach outside the process's memory and virtual time run.
    public static var includesOutsideWorld: Bool { ProcessInfo.processInfo.environment["NOISETAG_TESTS"] == "all" }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite or test only when ``TestScope/includesOutsideWorld``.
    public static var outsideWorld: Self {
        .enabled(if: TestScope.includesOutsideWorld,
                 "sockets, processes or the real clock: NOISETAG_TESTS=all swift test (make test) runs it")
    }
}
