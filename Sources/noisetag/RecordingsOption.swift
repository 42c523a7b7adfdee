import ArgumentParser
import Foundation
import NoiseTagging

/// The `--recordings DIR` option every command that records or reads recordings takes.
///
/// ```swift
/// @OptionGroup var recordings: RecordingsOption
/// let store = recordings.store
/// ```
struct RecordingsOption: ParsableArguments {
    @Option(name: .customLong("recordings"),
            help: ArgumentHelp("Recordings root folder (default: $NOISETAG_HOME/recordings, NOISETAG_HOME defaulting to ~/.noisetag).",
                               valueName: "DIR"))
    var root: String?

    /// The store at `--recordings`, or the default root.
    var store: RecordingStore {
        root.map { RecordingStore(root: URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, isDirectory: true)) }
            ?? .standard
    }
}
