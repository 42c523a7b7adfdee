import ArgumentParser
import ZeroMQTransport

/// An endpoint option of a command that talks to another process
/// (`--endpoint`, `--decoder`), checked before anything starts: its form is
/// a wrong argument (exit 64); a missing `ipc://` folder is found when the
/// command runs (exit 1), as for every other file it is given.
enum EndpointOption {
    /// Refuses an empty text (leave the option out for the default), an
    /// `inproc://` endpoint (no other process reaches it), and any form
    /// ``DecoderEndpoint/resolve(_:acceptingHub:environment:)`` refuses.
    static func check(_ text: String, option: String, acceptingHub: Bool = true) throws(ValidationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ValidationError("\(option): empty (leave it out for the default)") }
        if trimmed.hasPrefix("inproc://") {
            throw ValidationError("\(option) \(trimmed): inproc:// reaches only within one process; another process needs ipc:// or tcp://")
        }
        guard !trimmed.hasPrefix("ipc://") else { return }
        do { _ = try DecoderEndpoint.resolve(trimmed, acceptingHub: acceptingHub) } catch { throw ValidationError("\(option): \(error)") }
    }
}
