#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole frames to a non-blocking file descriptor, one `write(2)`
/// per frame, and never queues frames: when a frame's bytes could not all
/// be written, the rest stays pending (at most one frame) and the next
/// frames are skipped until it has gone out.
///
/// ```swift
/// let output = FrameOutput(fileDescriptor: fd)     // fd opened with O_NONBLOCK
/// if output.flushPending() {
///     output.submit(frameBytes)                    // one write; any rest stays pending
/// } else {
///     missed += 1                                  // the terminal is still busy with the last frame
/// }
/// ```
public final class FrameOutput {
    /// Where frames go.
    public let fileDescriptor: Int32
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// Frames handed to ``submit(_:)``.
    public private(set) var framesSubmitted = 0
    /// Bytes accepted by the file descriptor.
    public private(set) var bytesWritten = 0
    /// The errno of the latest failed write (other than "would block"), nil when none.
    public private(set) var lastError: Int32?

    /// Wraps `fileDescriptor` (not closed by this object). It should be in
    /// non-blocking mode, or a slow reader blocks the frame loop.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Bytes of an earlier frame not yet written.
    public var pendingBytes: Int { pending.count - pendingStart }

    /// Tries once to write what is left of the previous frame; true when
    /// nothing is left (so a new frame may be submitted).
    public func flushPending() -> Bool {
        guard pendingBytes > 0 else { return true }
        // C boundary: write(2) reads the pending bytes in place.
        let written = pending.withUnsafeBytes { raw in
            writeOnce(raw, from: pendingStart)
        }
        pendingStart += written
        if pendingStart >= pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            return true
        }
        return false
    }

    /// Writes `bytes` with one `write(2)`; whatever the descriptor does not
    /// take stays pending. Call only when ``flushPending()`` returned true.
    public func submit(_ bytes: [UInt8]) {
        precondition(pendingBytes == 0, "a frame is submitted only when the previous one has gone out")
        framesSubmitted += 1
        guard !bytes.isEmpty else { return }
        // C boundary: write(2) reads the frame's bytes in place.
        let written = bytes.withUnsafeBytes { raw in writeOnce(raw, from: 0) }
        if written < bytes.count {
            pending.removeAll(keepingCapacity: true)
            pending.append(contentsOf: bytes[written...])
            pendingStart = 0
        }
    }

    /// Writes everything pending, waiting up to `timeout` seconds for the
    /// descriptor to take it (used on exit, so an escape sequence is never
    /// cut in half before the terminal is restored). True when all went out.
    @discardableResult
    public func drain(timeout: Double) -> Bool {
        let deadline = monotonicNow() + timeout
        while !flushPending() {
            if lastError != nil { return false }
            let left = deadline - monotonicNow()
            guard left > 0 else { return false }
            var poller = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
            // C boundary: poll(2) reads and fills the pollfd struct.
            _ = poll(&poller, 1, Int32(min(left, 0.05) * 1000) + 1)
        }
        return true
    }

    /// Drops what is left of the previous frame (the terminal may then be
    /// in the middle of an escape sequence: send CAN, byte 0x18, next).
    public func discardPending() {
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
    }

    /// Writes `bytes` and waits (up to `timeout` seconds) until all went out,
    /// after anything pending: for the set-up and restore sequences.
    @discardableResult
    public func writeAll(_ bytes: [UInt8], timeout: Double) -> Bool {
        guard drain(timeout: timeout) else { return false }
        pending = bytes
        pendingStart = 0
        return drain(timeout: timeout)
    }

    /// One `write(2)` of `raw[start...]`; returns the bytes taken (0 when it would block or failed).
    private func writeOnce(_ raw: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard start < raw.count, let base = raw.baseAddress else { return 0 }
        // C boundary: write(2) takes the bytes' address and count.
        let result = write(fileDescriptor, base + start, raw.count - start)
        if result >= 0 {
            bytesWritten += result
            return result
        }
        let error = errno
        if error != EAGAIN && error != EWOULDBLOCK && error != EINTR {
            lastError = error
            // The descriptor is gone (e.g. the terminal hung up): count the bytes as
            // done rather than retry for ever.
            return raw.count - start
        }
        return 0
    }

    private func monotonicNow() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
