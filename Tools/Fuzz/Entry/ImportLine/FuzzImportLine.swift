// The entry point of fuzz-import-line (Tools/Fuzz/README.md).
import Foundation
import HearthFuzzing

#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { FuzzTarget.importLine.fuzz(data, size) }
#else
  @main enum Replay {
    static func main() { exit(FuzzTarget.importLine.replay(Array(CommandLine.arguments.dropFirst()))) }
  }
#endif
