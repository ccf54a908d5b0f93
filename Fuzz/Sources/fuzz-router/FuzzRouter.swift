import FuzzRouterCheck

/// libFuzzer's entry: `RouterFuzzCheck` (Sources/FuzzRouterCheck), a whole request through the
/// server's routes in process, which `FuzzReplayTests` also runs on every kept input in the
/// ordinary test build. A failed property traps, so libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    RouterFuzzCheck.runBlocking(data, size)
}

/// The server opens (and Swift's, NIO's and the server's lazily made objects come to be)
/// before the first input, so that the leak check of each input sees only what that input made.
@_cdecl("LLVMFuzzerInitialize")
public func initializeRouter(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    RouterFuzzCheck.warmUp()
    return 0
}
