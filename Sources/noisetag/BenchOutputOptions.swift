import ArgumentParser

/// The `--json` flag of the `noisetag bench` commands that print a
/// ``BenchReport``, and the one place that prints the report as a table or,
/// with the flag, as one line of JSON.
struct BenchOutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    /// Prints `report` to standard output: its JSON line with `--json`,
    /// its table otherwise.
    func print(_ report: some BenchReport) throws {
        Swift.print(json ? try report.jsonText() : report.table())
    }
}
