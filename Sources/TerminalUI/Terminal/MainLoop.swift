import Dispatch
import Foundation
import TodoKit

/// The terminal's side of the app: `dispatchMain()` with sources for stdin and for SIGWINCH and
/// the stop signals (through `SignalPipe`), so it wakes at once for keys and resizes and sleeps otherwise (no polling; the
/// main queue also runs the `@MainActor` runtime). Keys and resizes go to the runtime as
/// messages; every change of state schedules one redraw.
@MainActor
public final class MainLoop {
    private let app: AppRuntime
    private let terminal: NCursesTerminal
    private let editor: ExternalEditor?
    private var sources: [any DispatchSourceProtocol] = []
    private var redrawScheduled = false
    /// Called after each frame is drawn (for measurements).
    public var onFrame: (() -> Void)?

    /// Blocks the signals the loop handles; call first thing in `main`, before any thread starts,
    /// so every thread inherits the mask: they wait until the main thread parks in
    /// `dispatchMain()`, whose `sigsuspend` unblocks them for the loop's handlers (`SignalPipe`).
    public nonisolated static func blockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGWINCH, SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Creates the loop over an app and a terminal.
    /// Creates the loop over an app and a terminal; `editor`, when given, is the one the app's
    /// environment runs for `E` (the loop stops reading keys while it has the terminal).
    public init(app: AppRuntime, terminal: NCursesTerminal, editor: ExternalEditor? = nil) {
        self.app = app
        self.terminal = terminal
        self.editor = editor
    }

    /// Runs until the app quits or a stop signal arrives; never returns.
    public func run() -> Never {
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readInput() } }
        sources.append(input)
        editor?.onHandOver = { [weak self] handedOver in
            if handedOver { input.suspend() } else {
                input.resume()
                self?.resized()  // the terminal may have changed size meanwhile; redraws whole
            }
        }
        // After the terminal is open: curses' own SIGWINCH handler is replaced (`SignalPipe`).
        let signals: Int32
        do {
            signals = try SignalPipe.install([SIGWINCH, SIGTERM, SIGINT, SIGHUP])
        } catch {
            terminal.close()
            FileHandle.standardError.write(Data("todo: \(error)\n".utf8))
            exit(1)
        }
        let received = DispatchSource.makeReadSource(fileDescriptor: signals, queue: .main)
        received.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                for signal in SignalPipe.received(on: signals) { self?.handle(signal) }
            }
        }
        sources.append(received)
        sources.forEach { $0.resume() }
        app.onChange = { [weak self] in
            guard let self else { return }
            if self.app.state.shouldQuit { self.quit(status: 0) }
            self.scheduleRedraw()
        }
        app.start()
        resized()
        dispatchMain()
    }

    private func handle(_ signal: Int32) {
        switch signal {
        case SIGWINCH: resized()
        // While the person's editor runs, Ctrl-C is the editor's.
        case SIGINT where editor?.isRunning == true: break
        default: quit(status: 0)
        }
    }

    private func readInput() {
        let keys = terminal.readKeys()
        // Readable but no keys: the terminal may be gone (its window closed, tmux killed). Quit
        // rather than spin on a source that stays readable forever.
        if keys.isEmpty, Self.inputHungUp() { quit(status: 0) }
        for key in keys { app.send(.key(key)) }
    }

    /// The terminal's size changed (or the app started): the list learns its page height.
    private func resized() {
        // The person's editor has the terminal; its hand-back redraws at the new size.
        guard editor?.isRunning != true else { return }
        terminal.updateSize()
        app.send(.list(.resized(pageHeight: ListScreen.pageHeight(forTerminalHeight: terminal.size.height))))
        scheduleRedraw()
    }

    private static func inputHungUp() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    private func scheduleRedraw() {
        guard !redrawScheduled else { return }
        redrawScheduled = true
        DispatchQueue.main.async { MainActor.assumeIsolated { self.redraw() } }
    }

    private func redraw() {
        redrawScheduled = false
        // Drawing now would take the terminal back from the person's editor.
        guard editor?.isRunning != true else { return }
        let size = terminal.size
        terminal.draw(AppScreen.render(app.state, width: size.width, height: size.height))
        onFrame?()
    }

    private func quit(status: Int32) -> Never {
        terminal.close()
        exit(status)
    }
}
