import Foundation

extension FileHandle {
    /// Writes `data`, or drops it when the file can no longer be written (a
    /// terminal that was closed: EIO), where Foundation's `write(_:)` traps:
    /// a program whose terminal went away still ends by its own path, its
    /// recordings closed.
    public func writeIfOpen(_ data: Data) { try? write(contentsOf: data) }
}
