import FuzzChecks

/// libFuzzer's entry: `TodoFileFuzzCheck` (Sources/FuzzChecks), which `FuzzReplayTests` also runs on every
/// kept input in the ordinary test build. A failed property traps, so libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTodoFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzFailure.trap(TodoFileFuzzCheck.check(UnsafeRawBufferPointer(start: data, count: size)))
}
