import Dispatch
import Foundation
import TodoKit

/// The UI main loop: `dispatchMain()` with sources for stdin, SIGWINCH and the stop signals, so
/// it wakes at once for keys, resizes and posted results and sleeps otherwise (no polling).
@MainActor
public final class MainLoop {
    private let app: AppStore
    private let terminal: NCursesTerminal
    private var sources: [any DispatchSourceProtocol] = []
    private var redrawScheduled = false
    /// Called after each frame is drawn (for measurements).
    public var onFrame: (() -> Void)?

    /// Blocks the signals the loop handles; call first thing in `main`, before any thread starts,
    /// so every thread inherits the mask and the dispatch sources receive them.
    public nonisolated static func blockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGWINCH, SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Creates the loop over an app and a terminal.
    public init(app: AppStore, terminal: NCursesTerminal) {
        self.app = app
        self.terminal = terminal
    }

    /// Runs until the app quits or a stop signal arrives; never returns.
    public func run() -> Never {
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readInput() } }
        sources.append(input)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                self?.terminal.updateSize()
                self?.redraw()
            }
        }
        sources.append(resize)
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.quit(status: 0)
                }
            }
            sources.append(source)
        }
        sources.forEach { $0.resume() }
        app.onChange = { [weak self] in self?.scheduleRedraw() }
        app.start()
        redraw()
        dispatchMain()
    }

    private func readInput() {
        let keys = terminal.readKeys()
        // Readable but no keys: the terminal may be gone (its window closed, tmux killed). Quit
        // rather than spin on a source that stays readable forever.
        if keys.isEmpty, Self.inputHungUp() { quit(status: 0) }
        for key in keys {
            app.send(.key(key))
            if app.state.shouldQuit { quit(status: 0) }
        }
        redraw()
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
        let size = terminal.size
        let pageHeight = ListScreen.pageHeight(forTerminalHeight: size.height)
        if pageHeight != app.state.list.pageHeight { app.send(.list(.resized(pageHeight: pageHeight))) }
        redrawScheduled = false
        terminal.draw(AppScreen.render(app.state, width: size.width, height: size.height))
        onFrame?()
    }

    private func quit(status: Int32) -> Never {
        terminal.close()
        exit(status)
    }
}
