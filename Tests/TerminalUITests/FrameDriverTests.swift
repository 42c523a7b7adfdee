#if canImport(Glibc)
import Glibc
#endif
import NoiseTagging
import Testing
@testable import TerminalUI

/// A terminal that does not keep up: frames are skipped and counted, never queued.
@Suite("Frame driver")
struct FrameDriverTests {
    /// A pipe whose write end is non-blocking with the smallest buffer the kernel allows.
    private final class SlowTerminal {
        let readEnd: Int32, writeEnd: Int32
        init() {
            var ends: [Int32] = [-1, -1]
            _ = pipe(&ends)
            readEnd = ends[0]
            writeEnd = ends[1]
            _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(writeEnd, 1031 /* F_SETPIPE_SZ */, 4096)
        }
        /// Everything written so far.
        func readAll() -> [UInt8] {
            var all: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                guard n > 0 else { return all }
                all += buffer[0..<n]
            }
        }
        deinit { close(readEnd); close(writeEnd) }
    }

    @Test("While the terminal has not taken a frame, later frames are skipped and counted; nothing piles up")
    func slowTerminalSkipsFrames() {
        let terminal = SlowTerminal()
        let clock = VirtualClock()
        let controller = NoiseTagController(clock: clock)
        let screen = TerminalScreen(size: TerminalSize(columns: 200, rows: 60), colorMode: .trueColor)
        let driver = TerminalFrameDriver(loop: FrameLoop(controller: controller, waiter: VirtualFrameWaiter(clock: clock)),
                                         screen: screen, output: FrameOutput(fileDescriptor: terminal.writeEnd))
        var flip = false
        let draw: (TerminalScreen) -> Void = { screen in
            flip.toggle()
            screen.clear(to: TerminalCell(character: "x", foreground: .white, background: flip ? .black : .white))
        }
        #expect(driver.step(draw: draw))                 // 12,000 cells: more than the pipe holds
        let firstFrame = driver.lastFrameBytes
        #expect(driver.output.pendingBytes > 0)
        for _ in 0..<10 { #expect(!driver.step(draw: draw)) }
        #expect(driver.framesNotWritten == 10)
        #expect(driver.missedFrames == 10)
        #expect(driver.output.pendingBytes < firstFrame)  // at most the rest of one frame
        // The terminal catches up: the rest of the first frame goes out, then frames flow again.
        var received = terminal.readAll()
        while !driver.step(draw: draw) { received += terminal.readAll() }
        received += terminal.readAll()
        while driver.output.pendingBytes > 0 { _ = driver.output.flushPending(); received += terminal.readAll() }
        #expect(driver.framesWritten == 2)
        // Whole frames only: the first frame complete, then the second one.
        #expect(received.count == firstFrame + driver.lastFrameBytes)
    }
}
