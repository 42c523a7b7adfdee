import ArgumentParser

/// The `noisetag` command line tool: one subcommand per job.
@main
struct NoisetagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noisetag",
        abstract: "Brain-pressable buttons: noise-tagging engine tools.",
        subcommands: [CodesCommand.self, DemoCommand.self, SessionCommand.self, RecordingsCommand.self, BenchCommand.self, DecoderCommand.self,
                      TerminalCheckCommand.self, ReplayCommand.self, DatasetCommand.self]
    )

    /// Runs the tool on this process's arguments, with each value of
    /// ``keyOptions`` joined to its option (`--decoder-key=KEY`): a
    /// CurveZMQ key in Z85 may begin with "-" and hold "=" ("-=4lOB…"),
    /// which ArgumentParser reads as an option of its own before any option
    /// can take it as a value; joined, it is never split.
    static func main() {
        main(joiningKeyValues(Array(CommandLine.arguments.dropFirst())))
    }

    /// The options whose value is a key that may begin with "-".
    static let keyOptions: Set<String> = ["--decoder-key"]

    /// `arguments` with each of ``keyOptions`` and the value after it made one argument.
    static func joiningKeyValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { result += arguments[index...]; break }
            if keyOptions.contains(argument), index + 1 < arguments.endIndex {
                result.append(argument + "=" + arguments[index + 1])
                index += 2
            } else {
                result.append(argument)
                index += 1
            }
        }
        return result
    }
}
