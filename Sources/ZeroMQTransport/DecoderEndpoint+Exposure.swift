extension DecoderEndpoint {
    /// True for a `tcp://` endpoint other machines can reach: any host but
    /// the loopback ones (`127.x.x.x`, `::1`, `localhost`, the `lo`
    /// interface). `ipc://` and `inproc://` stay on this machine.
    public static func isReachableFromOtherMachines(_ endpoint: String) -> Bool {
        guard endpoint.hasPrefix("tcp://") else { return false }
        let rest = endpoint.dropFirst("tcp://".count)
        let hostPort = rest.split(separator: ";").last.map(String.init) ?? String(rest)   // "source;destination" form
        guard let colon = hostPort.lastIndex(of: ":") else { return true }
        var host = hostPort[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        let name = host.lowercased()
        if ["localhost", "lo", "::1", "0:0:0:0:0:0:0:1"].contains(name) { return false }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        if octets.count == 4, octets[0] == "127", octets.allSatisfy({ UInt8($0) != nil }) { return false }
        return true
    }

    /// The warning a decoder prints when it binds `endpoint` without
    /// CurveZMQ and other machines can reach it; nil otherwise.
    ///
    /// ```swift
    /// if !curve, let warning = DecoderEndpoint.plainNetworkWarning(for: endpoint) {
    ///     FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
    /// }
    /// ```
    public static func plainNetworkWarning(for endpoint: String) -> String? {
        guard isReachableFromOtherMachines(endpoint) else { return nil }
        return "\(endpoint) accepts connections from other machines without CurveZMQ: anyone who can reach "
            + "the port can read the EEG and predictions and send the engine presses, unencrypted; "
            + "use --curve (Protocols/decoder-bridge-curve.md) or bind 127.0.0.1"
    }
}
