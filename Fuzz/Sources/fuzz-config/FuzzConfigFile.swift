import FuzzChecks

/// libFuzzer's entry: `ConfigFuzzCheck` (Sources/FuzzChecks), which `FuzzReplayTests` also runs on every
/// kept input in the ordinary test build. A failed property traps, so libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzFailure.trap(ConfigFuzzCheck.check(UnsafeRawBufferPointer(start: data, count: size)))
}
