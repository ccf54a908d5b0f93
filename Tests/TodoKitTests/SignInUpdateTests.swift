import Testing
import TodoKit
import TodoKitTestSupport

/// The sign-in dialog as pure updates: a refused sync opens it, keys fill it, the answer closes it.
@Suite struct SignInUpdateTests {
    func signedOut() -> ListFixture {
        var app = ListFixture(["x"], server: "http://127.0.0.1:9")
        app.press(.character("r"))
        app.send(.sync(.synced(.failed(message: "Signed out — sign in (L) to sync; 1 change will sync later", reason: .signedOut))))
        return app
    }

    @Test func aSyncTheServerRefusesShowsSignedOutAndOpensTheDialog() {
        let app = signedOut()
        #expect(app.state.status.connectivity == .signedOut)
        #expect(app.state.signIn == SignInDialogViewModel())
    }

    @Test func typingFillsTheFocusedFieldAndEnterAsksToSignIn() {
        var app = signedOut()
        app.type("ann")
        app.press(.tab)
        app.type("pw 1")
        #expect(app.state.signIn?.user.text == "ann")
        #expect(app.state.signIn?.password.text == "pw 1")
        #expect(app.send(.key(.enter)) == [.signIn(.submit(user: "ann", password: "pw 1"))])
        #expect(app.state.signIn?.isSigningIn == true)
    }

    @Test func aBlankFieldIsNamedInsteadOfSent() {
        var app = signedOut()
        #expect(app.send(.key(.enter)) == [])
        #expect(app.state.signIn?.error == "Type your user name")
        app.type("ann")
        #expect(app.send(.key(.enter)) == [])
        #expect(app.state.signIn?.error == "Type your password")
        #expect(app.state.signIn?.focus == .password)
    }

    @Test func aRefusedSignInSaysWhyAndClearsThePassword() {
        var app = signedOut()
        app.type("ann")
        app.press(.tab)
        app.type("wrong")
        app.press(.enter)
        app.send(.signIn(.dialog(.failed("The user name or password is wrong"))))
        #expect(app.state.signIn?.error == "The user name or password is wrong")
        #expect(app.state.signIn?.password.text == "")
        #expect(app.state.signIn?.isSigningIn == false)
    }

    @Test func aRefusalThatArrivesAfterTheDialogClosedIsSaidOnTheStatusBar() {
        var app = signedOut()
        app.press(.escape)
        #expect(app.state.signIn == nil)
        app.send(.signIn(.dialog(.failed("The server could not be reached"))))
        #expect(app.state.status.message == "Not signed in: The server could not be reached")
    }

    @Test func signingInClosesTheDialogAndSyncs() {
        var app = signedOut()
        #expect(app.send(.signIn(.signedIn(user: "ann"))) == [.sync(.pushThenPull), .after(seconds: 0.1, .tick)])
        #expect(app.state.signIn == nil)
        #expect(app.state.status.user == "ann")
        #expect(app.state.status.message == "Signed in as ann")
    }

    @Test func escapeClosesTheDialogAndKeepsTheChangesPending() {
        var app = signedOut()
        #expect(app.send(.key(.escape)) == [])
        #expect(app.state.signIn == nil)
        #expect(app.state.status.connectivity == .signedOut)
    }

    @Test func capitalLOpensTheDialogWithTheLastUserName() {
        var app = ListFixture(["x"], server: "http://127.0.0.1:9")
        app.send(.signIn(.signedIn(user: "ann")))
        app.send(.sync(.synced(.succeeded(at: .init(timeIntervalSince1970: 0)))))
        app.press(.character("L"))
        #expect(app.state.signIn?.user.text == "ann")
        #expect(app.state.signIn?.focus == .password)
    }

    @Test func signInWithoutAServerSaysLocalOnly() {
        var app = ListFixture(["x"])
        app.press(.character("L"))
        #expect(app.state.signIn == nil)
        #expect(app.state.status.message == AppState.localOnlyNotice)
    }
}
