import FuzzChecks

/// libFuzzer's entry: `JSONFuzzCheck` (Sources/FuzzChecks), which `FuzzReplayTests` also runs on every
/// kept input in the ordinary test build. A failed property traps, so libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzFailure.trap(JSONFuzzCheck.check(UnsafeRawBufferPointer(start: data, count: size)))
}
