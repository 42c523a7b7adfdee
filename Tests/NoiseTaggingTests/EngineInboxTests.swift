import Foundation
import Testing
@testable import NoiseTagging

@Suite("Work posted from other threads")
struct EngineInboxTests {
    @Test("work posted from another thread runs on the engine thread at the next tick, in order")
    func postedWorkRunsAtTheNextTick() async {
        let h = EngineHarness()
        h.start()
        #expect(h.controller.trialsAreRunning)
        let inbox = h.controller.inbox
        await Task.detached {
            inbox.post { $0.blockTrials(forDuration: 5) }
            inbox.post { $0.trialsAreRunning = false }
        }.value
        #expect(h.controller.trialsAreRunning)   // nothing runs before the tick
        h.controller.tick()
        #expect(!h.controller.trialsAreRunning)
    }

    @Test("a full inbox refuses and counts posts, and takes work again once drained")
    func fullInboxRefuses() {
        let inbox = EngineInbox(capacity: 2)
        #expect(inbox.post { _ in })
        #expect(inbox.post { _ in })
        #expect(!inbox.post { _ in })
        #expect(inbox.refused == 1)
        #expect(inbox.drain().count == 2)
        #expect(!inbox.hasWork)
        #expect(inbox.post { _ in })
        #expect(inbox.hasWork)
    }
}
