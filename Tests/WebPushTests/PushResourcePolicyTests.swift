import Foundation
import Testing
import WebPush

@Suite struct PushResourcePolicyTests {
    let strict = PushResourcePolicy(allowLocal: false)
    let local = PushResourcePolicy(allowLocal: true)

    @Test(arguments: ["http://push.example.net/x", "ftp://push.example.net/x", "/relative", "not a url", "https:///nohost"])
    func onlyAnAbsoluteHTTPSURLIsAPushResource(_ text: String) {
        #expect(throws: WebPushError.self) { try strict.check(text) }
    }

    @Test(arguments: [
        "https://127.0.0.1/x", "https://localhost/x", "https://[::1]/x", "https://[::ffff:127.0.0.1]/x", "https://10.1.2.3/x",
        "https://172.16.0.1/x", "https://192.168.1.1/x", "https://169.254.169.254/latest/meta-data", "https://100.64.0.1/x",
        "https://0.0.0.0/x", "https://[fd00::1]/x", "https://[fe80::1]/x", "https://224.0.0.1/x", "https://[::]/x",
    ])
    func anAddressOfTheServersOwnNetworksIsRefused(_ text: String) {
        #expect(throws: WebPushError.self) { try strict.check(text) }
    }

    @Test(arguments: ["https://8.8.8.8/x", "https://[2606:4700::1111]/x", "https://1.1.1.1:8443/wpush"])
    func aPublicAddressIsTaken(_ text: String) throws {
        let target = try strict.check(text)
        #expect(target.url.absoluteString == text)
    }

    @Test func theOperatorMayAllowLocalResourcesOverHTTP() throws {
        #expect(try local.check("http://127.0.0.1:9999/push/a").address == "127.0.0.1")
        #expect(try local.check("https://[::1]/x").address == "::1")
    }

    @Test func aResourceWithCredentialsIsRefused() {
        #expect(throws: WebPushError.self) { try local.check("https://user:pw@127.0.0.1/x") }
    }

    @Test func aHostThatDoesNotResolveIsRefused() {
        #expect(throws: WebPushError.unresolvedResource("the push resource's host 'no-such-host.invalid' does not resolve")) {
            try local.check("https://no-such-host.invalid/x")
        }
    }
}
