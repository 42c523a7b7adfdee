import ArgumentParser
import Decoding
import Foundation
import JSONSupport
import Study

/// `noisetag session report SESSION [--out FILE]`: one self-contained HTML
/// page on a finished (or stopped) session.
struct SessionReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an HTML report on a session folder: steps, accuracy and ITR, calibration, signal quality, answers.",
        discussion: """
        The page is one file (inline CSS and SVG, no script, nothing fetched), readable \
        offline and printed: participant and protocol, a table of the finished steps with \
        their key measures, accuracy and Wolpaw ITR per spelling step with a histogram of \
        selection times, the calibration's decoding curve and response kernels (the reference \
        decoder fitted again on the saved calibration dataset, as during the session), the \
        decoder's signal quality per channel over the session with the steps shaded, false \
        presses per minute while the participant looked away, and the questionnaire's \
        answers. A part the session lacks is a sentence saying so. Exits 1 with one line \
        when SESSION is no session folder, steps.jsonl has a bad line, or the page cannot be written.
        """)

    @Argument(help: ArgumentHelp("The session folder (made by noisetag session run).", valueName: "SESSION"))
    var session: String

    @Option(help: ArgumentHelp("The HTML file to write (default: report.html in the session folder).", valueName: "FILE"))
    var out: String?

    @Flag(help: "Write times of day in UTC instead of this computer's time zone.")
    var utc = false

    @Flag(help: "Do not fit the calibration again (faster; the page then has no decoding curve or kernels).")
    var skipCalibration = false

    func run() throws {
        let folder: SessionFolder
        let report: SessionReport
        do {
            folder = try SessionFolder.open(URL(fileURLWithPath: session))
            report = try SessionReport(folder: folder, fittingCalibrations: !skipCalibration)
        } catch {
            throw CommandFailure(error.description)
        }
        let page = SessionReportPage(report: report, timeZone: utc ? TimeZone(identifier: "UTC")! : .current)
        let target = out.map { URL(fileURLWithPath: $0) } ?? folder.url.appendingPathComponent("report.html")
        do {
            try Data(page.html.utf8).write(to: target, options: .atomic)
        } catch {
            throw CommandFailure("\(target.path): cannot be written (\(FileProblem.whyNotWritten(target, error)))")
        }
        print("report: \(target.path) (\(CountText.format(report.steps.count, "step")))")
    }
}
