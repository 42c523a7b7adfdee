import ArgumentParser
import Foundation
import IOThreads

/// `noisetag bench bridge`: the decoder bridge's latency and throughput over ipc.
struct BenchBridgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridge",
        abstract: "Measure decoder-bridge latency and throughput over an ipc:// socket.",
        discussion: """
        One-way latency engine → decoder, the prediction round trip (STIMULUSEVENT \
        out through the engine's ZeroMQ link, PREDICTEDTARGETPROB back, drained by \
        the link), STIMULUSEVENT throughput (a burst sent as fast as the engine \
        thread can while fewer than half the link's queue or high-water mark is in \
        flight, so that nothing is dropped by design), and in the same run a bare \
        libzmq DEALER/ROUTER ping-pong with the same frames as the floor. Build with \
        -c release.
        """)

    @Option(parsing: .unconditional, help: "Timed messages per latency measurement.")
    var samples = 20_000

    @Option(parsing: .unconditional, help: "STIMULUSEVENTs in the throughput burst.")
    var burst = 200_000

    @Option(parsing: .unconditional, help: "Objects per STIMULUSEVENT.")
    var objects = 36

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard samples >= 100 else { throw ValidationError("--samples must be at least 100") }
        guard burst >= 1_000 else { throw ValidationError("--burst must be at least 1000") }
        guard (1...255).contains(objects) else { throw ValidationError("--objects must be 1...255") }
    }

    func run() throws {
        let result: BridgeBenchmarkResult
        do {
            result = try BridgeBenchmark(samples: samples, burst: burst, objects: objects).run()
        } catch {
            FileHandle.standardError.writeIfOpen(Data("noisetag bench bridge: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var object = try JSONSerialization.jsonObject(with: encoder.encode(result)) as? [String: Any] ?? [:]
            object["roundTripRatio"] = result.roundTripRatio
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        func row(_ name: String, _ s: LatencySummary) -> String {
            String(format: "%-34@ %10.1f %10.1f %10.1f", name as NSString,
                   Double(s.medianNs) / 1000, Double(s.p99Ns) / 1000, Double(s.p999Ns) / 1000)
        }
        print("decoder bridge over ipc, \(objects)-object STIMULUSEVENTs, \(samples) samples (µs)")
        print(String(format: "%-34@ %10@ %10@ %10@", "" as NSString, "p50" as NSString, "p99" as NSString, "p99.9" as NSString))
        print(row("one-way engine -> decoder", result.oneWay))
        print(row("round trip through the link", result.roundTrip))
        print(row("round trip, bare libzmq (floor)", result.bareRoundTrip))
        print(String(format: "round-trip p50 ratio link/bare: %.2f (goal <= 1.5)", result.roundTripRatio))
        print(String(format: "throughput: %.0f STIMULUSEVENTs/s (%d of %d delivered, %d unsent; goal >= 200000)",
                     result.messagesPerSecond, result.delivered, result.burst, result.unsent))
    }
}
