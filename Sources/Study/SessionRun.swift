import Foundation
import NoiseTagging

/// One run of a session: from an engine's start ("App started") to its
/// last recording's end. A session stopped and resumed has two or more;
/// the report says so, since its duration then holds the time between.
public struct SessionRun: Sendable, Equatable {
    /// When the run's engine started.
    public var start: Date
    /// When its last recording closed; nil when it did not close (the
    /// process was killed, or it is still running).
    public var end: Date?

    /// The runs whose recordings are in the session folder at `url`, in
    /// time order (none when it holds no recording).
    static func runs(in url: URL) -> [SessionRun] {
        var runs: [SessionRun] = []
        for entry in RecordingStore(root: url).recordings() {   // oldest first, chains kept in order
            if runs.isEmpty || entry.name.startReason == "App started" {
                runs.append(SessionRun(start: entry.name.start, end: entry.name.end))
            } else {
                runs[runs.count - 1].end = entry.name.end
            }
        }
        return runs
    }

    /// Seconds between the end of each run and the start of the next, over
    /// the runs whose end is known.
    public static func secondsBetween(_ runs: [SessionRun]) -> Double {
        zip(runs, runs.dropFirst()).reduce(0) { total, pair in
            pair.0.end.map { total + max(0, pair.1.start.timeIntervalSince($0)) } ?? total
        }
    }
}
