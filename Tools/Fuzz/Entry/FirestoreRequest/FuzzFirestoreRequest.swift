// The entry point of fuzz-firestore-request (Tools/Fuzz/README.md).
import Foundation
import HearthFuzzing

#if FUZZING
  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.firestoreRequest.fuzz(data, size)
  }
#else
  @main enum Replay {
    static func main() { exit(FuzzTarget.firestoreRequest.replay(Array(CommandLine.arguments.dropFirst()))) }
  }
#endif
