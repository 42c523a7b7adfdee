import Foundation
import NoiseTagging

/// One run of a session: from an engine's start ("App started") to its
/// last recording's last event. A session stopped and resumed has two or
/// more; the report says so, since its duration then holds the time between.
public struct SessionRun: Sendable, Equatable {
    /// When the run's engine started: its first recording's first event
    /// (to the millisecond), else the second its folder name gives.
    public var start: Date
    /// When its last recording last wrote an event: its close, or the last
    /// line before the process was killed; the folder name's end when no
    /// event can be read; nil when neither says (a run still going, or
    /// killed before any line).
    public var end: Date?

    /// The runs whose recordings are in the session folder at `url`, in
    /// time order (none when it holds no recording).
    static func runs(in url: URL) -> [SessionRun] {
        var runs: [SessionRun] = []
        for entry in RecordingStore(root: url).recordings() {   // oldest first, chains kept in order
            let (first, last) = eventTimes(entry.url)
            if runs.isEmpty || entry.name.startReason == "App started" {
                runs.append(SessionRun(start: first ?? entry.name.start, end: last ?? entry.name.end))
            } else {
                runs[runs.count - 1].end = last ?? entry.name.end ?? runs[runs.count - 1].end
            }
        }
        return runs
    }

    /// The wall times of the first and last complete lines of a recording's `events.jsonl`.
    private static func eventTimes(_ folder: URL) -> (first: Date?, last: Date?) {
        let reader = RecordingFileReader(folder.appendingPathComponent(RecordingFile.events.rawValue))
        var first: Substring?, last: Substring?
        reader.forEachLine { line in
            if first == nil { first = line }
            last = line
        }
        func wall(_ line: Substring?) -> Date? {
            guard let line, let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let seconds = object["wall_time"] as? Double, seconds.isFinite else { return nil }
            return Date(timeIntervalSince1970: seconds)
        }
        return (wall(first), wall(last))
    }

    /// Seconds between the end of each run and the start of the next, over
    /// the runs whose end is known.
    public static func secondsBetween(_ runs: [SessionRun]) -> Double {
        zip(runs, runs.dropFirst()).reduce(0) { total, pair in
            pair.0.end.map { total + max(0, pair.1.start.timeIntervalSince($0)) } ?? total
        }
    }
}
