import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `noisetag terminal-check` in a real terminal (a detached tmux pane): the
/// grid, labels and header appear and flicker, a window below the minimum
/// size shows the waiting message until it is enlarged, and `q` puts the
/// shell's screen back with exit status 0.
@Suite("Terminal check under tmux", .serialized, .tags(.processes, .realTime), .outsideWorld)
struct TerminalCheckProcessTests {
    /// The `noisetag` binary built next to this test bundle (or `NOISETAG_BIN`).
    private var binary: String {
        if let path = ProcessInfo.processInfo.environment["NOISETAG_BIN"] { return path }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("noisetag").path
    }

    /// The rows of the plain capture that hold a row of the 3×3 grid's labels.
    private func gridRows(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            .filter { $0.count == 3 && $0.allSatisfy { $0.count == 1 && $0.first!.isNumber } }
    }

    /// The lines of a colour capture between the header and the footer.
    private func buttonArea(_ colored: String) -> String {
        let lines = colored.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.dropFirst(1).dropLast(2).joined(separator: "\n")
    }

    /// A tmux pane with a plain shell whose prompt is `PROMPT$ `.
    private func shell() throws -> Tmux {
        try #require(Tmux.isInstalled, "tmux is not installed (apt-get install -y tmux)")
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no noisetag binary at \(binary): run swift build --build-tests")
        let tmux = Tmux()
        try tmux.start(columns: 100, rows: 30, command: "env PS1='PROMPT$ ' bash --norc --noprofile")
        #expect(try tmux.wait(timeout: 10) { try tmux.capture().contains("PROMPT$") })
        return tmux
    }

    /// The command line that runs the check, then prints its exit status
    /// and whether the terminal's modes (`stty -g`) are as before.
    private func checkCommand(environment: String = "TERM=xterm-256color COLORTERM=truecolor", redirect: String = "",
                              options: String = "") -> String {
        "S=$(stty -g); env \(environment) '\(binary)' terminal-check\(options)\(redirect); echo EXIT=$?; "
            + "[ \"$(stty -g)\" = \"$S\" ] && echo TTY=same || echo TTY=changed"
    }

    /// Types `command` into the pane and requires the 3×3 grid to be drawn;
    /// returns the plain capture that shows it.
    @discardableResult
    private func startCheck(_ tmux: Tmux, _ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try tmux.type(command, enter: true)
        let drawn = try tmux.wait(timeout: 15) {
            try tmux.alternateScreenOn() && gridRows(try tmux.capture()) == [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]]
        }
        let screen = try tmux.capture()
        try #require(drawn, "the grid did not appear:\n\(screen)", sourceLocation: sourceLocation)
        return screen
    }

    /// The exit status the shell printed after the check (`EXIT=n` on a line of its own), nil before.
    private func exitStatus(_ text: String) -> Int? {
        text.split(separator: "\n").lazy.compactMap { line in
            line.hasPrefix("EXIT=") ? Int(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) : nil
        }.first
    }

    /// Waits for the shell to report the check's exit status, and checks the main screen is back.
    private func expectRestored(_ tmux: Tmux, status: Int) throws {
        let restored = try tmux.wait(timeout: 10) { try !tmux.alternateScreenOn() && exitStatus(tmux.capture()) != nil }
        let after = try tmux.capture()
        #expect(restored, "the terminal was not restored:\n\(after)")
        #expect(exitStatus(after) == status, "wrong exit status:\n\(after)")
        let sameModes = try tmux.wait(timeout: 5) { try tmux.capture().contains("\nTTY=same") }
        let final = try tmux.capture()
        #expect(sameModes, "terminal modes (stty -g) not restored:\n\(final)")
        #expect(after.contains("PROMPT$ S=$(stty -g); env TERM=xterm-256color"), "the shell's screen is not back:\n\(after)")
        // The shell prints its prompt after the lines above: wait for it (one capture taken between them missed it).
        let prompted = try tmux.wait(timeout: 5) { try tmux.capture().components(separatedBy: "\n").last(where: { !$0.isEmpty }) == "PROMPT$" }
        let shown = try tmux.capture()
        #expect(prompted, "no prompt after the check:\n\(shown)")
    }

    /// The process ID of the program running in the pane's shell.
    private func programPID(_ tmux: Tmux) throws -> pid_t {
        let shellPID = try tmux.run(["display-message", "-t", tmux.session, "-p", "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shellPID)/task/\(shellPID)/children", encoding: .utf8)
        return try #require(children.split(separator: " ").first.flatMap { pid_t($0) }, "no program under the shell")
    }

    @Test("Ctrl-C, SIGTERM and SIGHUP restore the terminal and exit with 128 + the signal",
          arguments: [("C-c", 130), ("TERM", 143), ("HUP", 129)])
    func endings(ending: String, status: Int) throws {
        let tmux = try shell()
        defer { tmux.stop() }
        try startCheck(tmux, checkCommand())
        if ending == "C-c" {
            try tmux.run(["send-keys", "-t", tmux.session, "C-c"])
        } else {
            let pid = try programPID(tmux)
            #expect(Glibc.kill(pid, ending == "TERM" ? SIGTERM : SIGHUP) == 0)
        }
        try expectRestored(tmux, status: status)
    }

    @Test("Without COLORTERM a 256color TERM gets the xterm palette instead of 24-bit colour")
    func paletteFallback() throws {
        let tmux = try shell()
        defer { tmux.stop() }
        try startCheck(tmux, checkCommand(environment: "-u COLORTERM TERM=xterm-256color"))
        let colored = try tmux.capture(colors: true)
        #expect(colored.contains("48;5;"))
        #expect(!colored.contains("48;2;"))
        try tmux.type("q")
        #expect(try tmux.wait(timeout: 10) { exitStatus(try tmux.capture()) == 0 })
    }

    @Test("A Swift error thrown while the grid flickers restores the terminal; the error is one line, exit 1")
    func thrownError() throws {
        let tmux = try shell()
        defer { tmux.stop() }
        try startCheck(tmux, checkCommand(options: " --throw-after 1"))
        try expectRestored(tmux, status: 1)
        #expect(try tmux.capture().contains("noisetag terminal-check: deliberate failure (--throw-after)"))
    }

    @Test("TERM=dumb or output that is not a terminal: one line naming the reason, exit 1, the screen untouched",
          arguments: [("TERM=dumb", "", "TERM=dumb: this terminal cannot move the cursor or show colours"),
                      ("TERM=xterm-256color", " > /dev/null", "standard output is not a terminal")])
    func refusals(environment: String, redirect: String, reason: String) throws {
        let tmux = try shell()
        defer { tmux.stop() }
        try tmux.type(checkCommand(environment: environment, redirect: redirect), enter: true)
        #expect(try tmux.wait(timeout: 10) { exitStatus(try tmux.capture()) != nil })
        let text = try tmux.capture()
        #expect(text.contains("noisetag terminal-check: " + reason), "no reason given:\n\(text)")
        #expect(exitStatus(text) == 1)
        #expect(try !tmux.alternateScreenOn())
    }

    @Test("Grid, labels and header are drawn and flicker; a label key presses by touch; too small a window waits; q restores the terminal and exits 0")
    func terminalCheck() throws {
        let tmux = try shell()
        defer { tmux.stop() }
        // Drawn: header, a 3×3 grid of labelled blocks, footer.
        let screen = try startCheck(tmux, checkCommand())
        #expect(screen.contains("Test │ trial 1 flicker │ decoder connected"))
        #expect(screen.contains("q quit"))

        // Flickering: the blocks' 24-bit colours change between captures.
        let first = buttonArea(try tmux.capture(colors: true))
        #expect(first.contains("48;2;"), "no 24-bit backgrounds in the capture")
        var second = first
        let changed = try tmux.wait(timeout: 5) {
            second = buttonArea(try tmux.capture(colors: true))
            return second != first
        }
        #expect(changed, "the controls' colours did not change")
        #expect(gridRows(try tmux.capture()).count == 3, "labels must stay readable while flickering")

        // A label key presses its button by touch: trial 1 (which has no time limit here) ends, trial 2 starts.
        try tmux.type("5")
        #expect(try tmux.wait(timeout: 10) { try tmux.capture().contains("│ trial 2 flicker │") },
                "the touch press did not end the trial")

        // Too small, then big enough again.
        try tmux.resize(columns: 20, rows: 8)
        #expect(try tmux.wait(timeout: 5) { try tmux.capture().contains("Terminal too small") })
        #expect(try tmux.capture().contains("needs 28×15"))
        try tmux.resize(columns: 100, rows: 30)
        #expect(try tmux.wait(timeout: 5) {
            let text = try tmux.capture()
            return !text.contains("Terminal too small") && gridRows(text).count == 3
        })

        // q: main screen back, prompt visible, exit status 0.
        try tmux.type("q")
        try expectRestored(tmux, status: 0)
    }
}
