#if canImport(Glibc)
import Glibc
#endif
import TerminalUI

/// Where `noisetag bench terminal` writes frames: `/dev/null`, or a
/// pseudo-terminal in raw mode whose other end is read empty after each
/// frame (outside the timing), as a terminal emulator would.
final class TerminalBenchmarkSink {
    /// The kinds of output.
    enum Kind: String, CaseIterable {
        case null, pty
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let kind: Kind
    /// Linux's TIOCSPTLCK and TIOCGPTN (`_IOW('T', 0x31, int)`, `_IOR('T', 0x30, unsigned int)`),
    /// which Swift does not import because they are function-like macros.
    private static let unlockPTY: UInt = 0x4004_5431
    private static let ptyNumber: UInt = 0x8004_5430
    private let writeEnd: Int32
    private let readEnd: Int32?
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)

    init(kind: Kind) throws {
        self.kind = kind
        switch kind {
        case .null:
            writeEnd = open("/dev/null", O_WRONLY | O_CLOEXEC)
            readEnd = nil
            guard writeEnd >= 0 else { throw Failure(description: "cannot open /dev/null (errno \(errno))") }
        case .pty:
            let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
            var unlock: Int32 = 0, number: UInt32 = 0
            // C boundary: ioctl(2) TIOCSPTLCK reads the lock flag, TIOCGPTN fills the pty number.
            guard master >= 0, ioctl(master, Self.unlockPTY, &unlock) == 0, ioctl(master, Self.ptyNumber, &number) == 0 else {
                throw Failure(description: "cannot open a pseudo-terminal (errno \(errno))")
            }
            let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
            guard slave >= 0 else { throw Failure(description: "cannot open /dev/pts/\(number) (errno \(errno))") }
            var modes = termios()
            // C boundary: tcgetattr/tcsetattr read and fill the termios struct.
            tcgetattr(slave, &modes)
            cfmakeraw(&modes)
            tcsetattr(slave, TCSANOW, &modes)
            // A window big enough for 255 buttons.
            var window = winsize(ws_row: 80, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
            // C boundary: ioctl(2) TIOCSWINSZ reads the winsize struct.
            _ = ioctl(slave, UInt(TIOCSWINSZ), &window)
            _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
            _ = fcntl(slave, F_SETFL, fcntl(slave, F_GETFL) | O_NONBLOCK)
            writeEnd = slave
            readEnd = master
        }
    }

    /// One write(2) of the frame, as ``FrameOutput`` does; with a pty the
    /// rest (if the pty's buffer is full) is written after reading its other end.
    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            // C boundary: write(2) takes the bytes' address and count.
            let n = bytes.withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n } else { drainReader() }
        }
    }

    /// Reads the pty's other end empty (nothing for /dev/null).
    func drainReader() {
        guard let readEnd else { return }
        // C boundary: read(2) fills the scratch buffer.
        while scratch.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }

    deinit {
        close(writeEnd)
        if let readEnd { close(readEnd) }
    }
}
