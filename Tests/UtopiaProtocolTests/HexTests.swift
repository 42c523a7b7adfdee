import Testing
import UtopiaProtocol

@Suite struct HexTests {
    @Test func writesTwoLowerCaseDigitsAByteAndReadsThemBack() {
        let bytes: [UInt8] = [0x00, 0x0F, 0x48, 0xA5, 0xFF]
        #expect(Hex.string(bytes) == "000f48a5ff")
        #expect(Hex.bytes(Array("000f48a5ff".utf8)) == bytes)
        var out: [UInt8] = Array("x=".utf8)
        Hex.append(byte: 0xC3, to: &out)
        Hex.append([0x01, 0xB2], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "x=c301b2")
    }

    @Test func readsEitherCase() {
        #expect(Hex.bytes("A5fF".utf8) == [0xA5, 0xFF])
        #expect(Hex.bytes("".utf8) == [])
    }

    @Test func refusesAnOddLengthOrAForeignCharacter() {
        #expect(Hex.bytes("abc".utf8) == nil)
        #expect(Hex.bytes("0g".utf8) == nil)
        #expect(Hex.bytes(" 0".utf8) == nil)
        #expect(Hex.value(UInt8(ascii: "G")) == nil)
    }
}
