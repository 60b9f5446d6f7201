import Foundation
import HearthTestSupport

/// Google's own gRPC client, Python's `grpcio` (Tools/setup.sh installs it into
/// `.build/python`), calling a server under test: the transport is right when a client it
/// did not write understands it.
///
/// A client that cannot run fails the test, never skips it.
enum PythonClient {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// What every client script starts with: grpcio imported (exit 3 without it), a channel
  /// to the server's port (`sys.argv[1]`), `say(text)` printing one line of the outcome,
  /// `failure(error)` naming a gRPC error as `CODE: details`, `stream_of(queue)` a request
  /// stream fed by the script.
  private static let prelude = """
    import asyncio, os, queue, sys, threading
    try:
        import grpc
        import grpc.aio
    except ImportError as error:
        print(f"{sys.executable}: {error}", file=sys.stderr)
        sys.exit(3)
    target = f"127.0.0.1:{sys.argv[1]}"
    channel = grpc.insecure_channel(target)
    def say(*parts):
        print(" ".join(p.decode() if isinstance(p, bytes) else str(p) for p in parts), flush=True)
    def failure(error):
        return f"{error.code().name}: {error.details()}"
    # The messages put into `requests` (a queue.Queue), until None: a request stream the
    # script feeds whenever it likes.
    def stream_of(requests):
        while (item := requests.get()) is not None:
            yield item

    """

  /// Runs `script` (after the prelude) against the server on `port` and returns the lines
  /// it printed. The client runs through `runProcess` (not Foundation's `Process`, see
  /// there) on a thread of its own, so that the wait holds no thread of Swift's
  /// cooperative pool, which the server's handlers need meanwhile.
  /// - Throws: `Failure` when Python or grpcio is missing, or the script fails.
  static func run(_ script: String, port: Int) async throws -> [String] {
    let python = JSONSchemaValidator.python
    // os._exit: a client thread still feeding an endless request stream must not keep the
    // process alive once the script is done.
    let program = prelude + script + "\nsys.stdout.flush()\nos._exit(0)\n"
    let arguments = Array(python.dropFirst()) + ["-c", program, String(port)]
    let outcome: ProcessOutcome
    do {
      outcome = try await withCheckedThrowingContinuation { ended in
        Thread.detachNewThread {
          ended.resume(with: Result { try runProcess(URL(fileURLWithPath: python[0]), arguments) })
        }
      }
    } catch {
      throw Failure(description: "\(python.joined(separator: " ")) cannot run (\(error)): run Tools/setup.sh")
    }
    switch (outcome.status, outcome.endedBySignal) {
    case (0, false): break
    case (3, false):
      throw Failure(description: "Python's grpcio is missing (\(outcome.stderr)): run Tools/setup.sh")
    default:
      let ending = outcome.endedBySignal ? "was ended by signal" : "exited with"
      throw Failure(description: "the Python client \(ending) \(outcome.status): \(outcome.stderr)")
    }
    return outcome.stdout.split(separator: "\n").map(String.init)
  }
}
