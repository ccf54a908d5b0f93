import Testing
import TodoConfig

/// config.toml as `todo` reads it: the TOML a person writes, and errors that name the line.
@Suite struct ConfigFileTests {
    private func read(_ text: String) throws(ConfigError) -> ConfigFile { try ConfigFile.parse(text, path: "config.toml") }

    private func error(_ text: String) -> ConfigError? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func everySettingIsRead() throws {
        let file = try read("""
            server = "https://desk.lan:8080"
            device = 'laptop'
            ca-file = "/etc/todo/ca.pem" # the office's authority

            [ui]
            show-completed = false
            colors = true
            live = true
            """)
        #expect(file.server == "https://desk.lan:8080")
        #expect(file.device == "laptop")
        #expect(file.caFile == "/etc/todo/ca.pem")
        #expect(file.showCompleted == false && file.colors == true && file.live == true)
    }

    @Test func aTableADottedKeyAnInlineTableAndAQuotedKeyAreTheSameSetting() throws {
        let spellings = ["[ui]\nlive = false", "ui.live = false", "ui = { live = false }", "\"ui\" . 'live' = false", "[ \"ui\" ]\n\"live\" = false"]
        for text in spellings { #expect(try read(text).live == false, "\(text)") }
    }

    @Test func stringsReadTheirEscapesAndMultiLineForms() throws {
        #expect(try read(#"device = "caf\u00e9 \"x\" \\ \U0001F600""#).device == "café \"x\" \\ 😀")
        #expect(try read("device = \"\"\"\nline one\\\n   two\"\"\"").device == "line onetwo")
        #expect(try read("device = '''\nC:\\path''''").device == "C:\\path'")
    }

    @Test func aByteOrderMarkAndWindowsLineEndsAreRead() throws {
        #expect(try read("\u{FEFF}device = \"a\"\r\n[ui]\r\nlive = true\r\n").live == true)
    }

    @Test func aTableHeaderWithoutANameIsAnErrorOnItsLine() {
        // toml++ (TOMLKit) aborted here: found by fuzz-config.
        #expect(error("device = \"a\"\n[!a]")?.line == 2)
        #expect(error("[.ui]")?.line == 1)
    }

    @Test func anArrayOpenedWithABraceIsAnErrorNotACrash() {
        // toml++ (TOMLKit) aborted here: found by fuzz-config.
        #expect(error("ui =[}")?.line == 1)
    }

    @Test func aValueOfAnotherTypeNamesTheSettingAndItsLine() {
        #expect(error("\nui.live = 3")?.description == "config.toml:2: 'ui.live' must be true or false")
        #expect(error("server = [1, 2]")?.description == "config.toml:1: 'server' must be a string in quotes")
        #expect(error("ui = 1")?.description == "config.toml:1: 'ui' must be a table ([ui])")
    }

    @Test func anUnknownSettingNamesItsLineHoweverItIsSpelled() {
        #expect(error("[ui]\nfoo = true")?.description.hasPrefix("config.toml:2: unknown setting 'ui.foo'") == true)
        #expect(error("\n\nui = { colors = true, foo = 1 }")?.line == 3)
    }

    @Test func aSettingSetTwiceIsAnError() {
        #expect(error("device = \"a\"\ndevice = \"b\"")?.description == "config.toml:2: 'device' is set twice")
    }

    @Test func anUnclosedStringIsAnErrorOnItsLine() {
        #expect(error("server = \"x\ndevice = \"y\"")?.line == 1)
        #expect(error("\ndevice = \"\"\"\nnever closed")?.line == 2)
        #expect(error(#"device = "\q""#)?.message == #"'\q' is not an escape TOML knows"#)
    }
}
