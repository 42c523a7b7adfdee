// libFuzzer entry for `scripts/fuzz-wire`: compiled with the UtopiaProtocol
// sources into one module, so it calls them as the decoder server and the
// bridge do. Any input must decode to messages or to an error, never trap;
// a decoded message must encode to bytes that decode and encode to the same
// bytes again; the stream framer must cut any byte stream without trapping.

@_cdecl("LLVMFuzzerTestOneInput")
public func utopiaWireFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .success(let messages) = UtopiaCodec.decodeResult(frame: bytes) {
        for message in messages {
            let encoded = UtopiaCodec.encode(message)
            guard case .success(let again) = UtopiaCodec.decodeResult(frame: encoded), again.count == 1 else {
                fatalError("\(message) encodes to bytes that do not decode to one message")
            }
            precondition(UtopiaCodec.encode(again[0]) == encoded, "\(message) does not encode the same after a round trip")
        }
    }
    var framer = UtopiaStreamFramer()
    let cut = size > 0 ? Int(bytes[0]) % (size + 1) : 0
    framer.append(bytes[..<cut])
    framer.append(bytes[cut...])
    while let item = framer.next() {
        if case .lost = item { break }   // lost: it answers .lost for ever, by design
    }
    return 0
}
