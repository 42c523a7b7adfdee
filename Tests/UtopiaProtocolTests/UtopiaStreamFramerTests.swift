import Testing
import UtopiaProtocol

@Suite struct UtopiaStreamFramerTests {
    let heartbeat = UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: 1234, stateMessage: "hub")))
    let prediction = UtopiaCodec.encode(.predictedTargetProb(PredictedTargetProb(timestamp: 99, objID: 3, errorProbability: 0.01)))

    func drain(_ framer: inout UtopiaStreamFramer) -> [UtopiaStreamFramer.Item] {
        var items: [UtopiaStreamFramer.Item] = []
        while let item = framer.next() {
            items.append(item)
            if case .lost = item { break }
        }
        return items
    }

    @Test func messagesSplitAcrossReadsComeOutWhole() {
        var framer = UtopiaStreamFramer()
        var out: [UtopiaStreamFramer.Item] = []
        for byte in heartbeat + prediction {         // one byte a read: the worst a stream can do
            framer.append([byte])
            out += drain(&framer)
        }
        #expect(out.count == 2)
        guard case .message(.heartbeat(let beat), let bytes)? = out.first else { Issue.record("\(out)"); return }
        #expect(beat.timestamp == 1234 && bytes == heartbeat)
        guard case .message(.predictedTargetProb(let p), _)? = out.last else { Issue.record("\(out)"); return }
        #expect(p.objID == 3)
        #expect(framer.pendingByteCount == 0)
    }

    @Test func manyMessagesInOneReadAndAHalfOneWaits() {
        var framer = UtopiaStreamFramer()
        framer.append(heartbeat + prediction + heartbeat.prefix(3))
        #expect(drain(&framer).count == 2)
        #expect(framer.pendingByteCount == 3)
        framer.append(heartbeat.dropFirst(3))
        #expect(drain(&framer) == [.message(.heartbeat(Heartbeat(timestamp: 1234, stateMessage: "hub")), heartbeat)])
    }

    @Test func aBadPayloadIsRejectedAndTheStreamGoesOn() {
        var framer = UtopiaStreamFramer()
        let badPrediction: [UInt8] = [0x50, 0, 2, 0, 1, 2]     // PREDICTEDTARGETPROB with a 2-byte payload
        framer.append(badPrediction + heartbeat)
        let items = drain(&framer)
        #expect(items.count == 2)
        guard case .rejected(let bytes, _)? = items.first else { Issue.record("\(items)"); return }
        #expect(bytes == badPrediction)
        guard case .message(.heartbeat, _)? = items.last else { Issue.record("\(items)"); return }
    }

    @Test func anUnknownIdOrAnOverlongLengthLosesTheStream() {
        var framer = UtopiaStreamFramer()
        framer.append(heartbeat + [0x7A, 0, 1, 0, 0] + heartbeat)
        let items = drain(&framer)
        #expect(items.count == 2)
        guard case .lost(let reason)? = items.last else { Issue.record("\(items)"); return }
        #expect(reason.contains("0x7A"))
        framer.append(heartbeat)
        #expect(framer.next() == .lost(reason))            // nothing is framed after a loss

        var strict = UtopiaStreamFramer(maximumPayloadLength: 100)
        strict.append([0x44, 0, 0xFF, 0xFF])                 // a DATAPACKET of 65,535 bytes announced
        guard case .lost(let why)? = strict.next() else { Issue.record("not lost"); return }
        #expect(why.contains("65535") && why.contains("100"))
    }
}
