import Foundation
import HearthTestSupport
import Testing

/// `runProcess`, the tests' way to run a child to its end.
@Suite struct RunProcessTests {
  /// A child holds no descriptor of this process but its standard streams: the ends of
  /// Foundation's `Pipe` are not close-on-exec, and a child that held another test's
  /// write end would keep that test's reader waiting for the end.
  @Test func aChildInheritsOnlyItsStandardStreams() throws {
    let pipe = Pipe()
    let descriptor = pipe.fileHandleForWriting.fileDescriptor
    #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC == 0, "the test's own premise")
    let outcome = try runProcess(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "test -e /proc/$$/fd/\(descriptor) && echo open || echo closed"])
    #expect(outcome.stdout == "closed\n")
    #expect(outcome.succeeded)
  }
}
