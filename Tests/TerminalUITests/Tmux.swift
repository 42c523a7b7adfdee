import Foundation

/// A tmux server of its own (a private socket, no config file) for
/// driving a program in a detached pane; ``stop()`` ends the server.
final class Tmux {
    /// The server's socket, in a folder of its own that ``stop()`` removes.
    let socket = FileManager.default.temporaryDirectory
        .appendingPathComponent("noisetag-tmux-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path + "/socket"
    let session = "t"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `tmux -S socket -f /dev/null args…` for at most 10 s; returns
    /// its standard output.
    ///
    /// Spawned with an empty signal mask and default handlers: the test
    /// runs on a thread that blocks signals, and a tmux server that
    /// inherited that mask would never see its own signals (nor SIGTERM).
    /// Output goes through files, not pipes: the server that `new-session`
    /// forks keeps its parent's descriptors open.
    @discardableResult
    func run(_ args: [String]) throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("noisetag-tmux-\(UUID().uuidString)").path
        let outPath = base + ".out", errPath = base + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = (["tmux", "-S", socket, "-f", "/dev/null"] + args).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, argv + [nil], environ)
        guard spawned == 0 else { throw Failure(description: "cannot start tmux (error \(spawned))") }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(10)
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                throw Failure(description: "tmux \(args.joined(separator: " ")) did not finish within 10 s")
            }
            usleep(2_000)
        }
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0, code = (status >> 8) & 0xFF
        guard exited, code == 0 else {
            let errors = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            throw Failure(description: "tmux \(args.joined(separator: " ")) failed (status \(status)): \(errors)")
        }
        return output
    }

    /// True when tmux can be run at all.
    static var isInstalled: Bool { (try? Tmux().run(["-V"])) != nil }

    /// Starts a detached session of `columns`×`rows` running `command`.
    func start(columns: Int, rows: Int, command: String) throws {
        try FileManager.default.createDirectory(atPath: (socket as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try run(["new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)", command])
    }

    /// The pane's text; with `colors`, with its SGR escape sequences (`capture-pane -e`).
    func capture(colors: Bool = false) throws -> String {
        try run(["capture-pane", "-t", session, "-p"] + (colors ? ["-e"] : []))
    }

    /// True while the program in the pane uses the alternate screen.
    func alternateScreenOn() throws -> Bool {
        try run(["display-message", "-t", session, "-p", "#{alternate_on}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Types `text` literally, then Enter when `enter`.
    func type(_ text: String, enter: Bool = false) throws {
        try run(["send-keys", "-t", session, "-l", text])
        if enter { try run(["send-keys", "-t", session, "Enter"]) }
    }

    /// Resizes the window.
    func resize(columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", session, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Ends the server and everything in it.
    func stop() {
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(atPath: (socket as NSString).deletingLastPathComponent)
    }

    /// Polls `condition` every 50 ms for up to `timeout` seconds; true as soon as it holds.
    func wait(timeout: Double, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }
}
