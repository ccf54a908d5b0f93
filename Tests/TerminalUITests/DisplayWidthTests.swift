import Testing
@testable import TerminalUI

/// How many columns text takes on a terminal.
@Suite struct DisplayWidthTests {
    @Test func printableASCIITakesAColumnACharacter() {
        #expect(DisplayWidth.of(" call item 42 (~urgent)~") == 24)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test func controlCharactersTakeNoColumnBesideASCII() {
        #expect(DisplayWidth.of("a\tb") == 2)
        #expect(DisplayWidth.of("a\u{7F}b\u{1B}") == 2)
    }

    @Test func wideCharactersTakeTwoColumnsAndCombiningMarksNone() {
        #expect(DisplayWidth.of("日本 ok") == 7)
        #expect(DisplayWidth.of("cafe\u{301}") == 4)
        #expect(DisplayWidth.of("🍰 cake") == 7)
        #expect(DisplayWidth.of("buy milk, 2 × 1") == 15)
    }
}
