import FuzzChecks

/// libFuzzer's entry: `ItemFileFuzzCheck` (Sources/FuzzChecks), which `FuzzReplayTests` also runs on every
/// kept input in the ordinary test build. A failed property traps, so libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzItemFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzFailure.trap(ItemFileFuzzCheck.check(UnsafeRawBufferPointer(start: data, count: size)))
}
