import Foundation
import HearthTestSupport
import Synchronization

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
  /// it printed. Waits without holding a thread of Swift's cooperative pool, which the
  /// server's handlers need meanwhile.
  /// - Throws: `Failure` when Python or grpcio is missing, or the script fails.
  static func run(_ script: String, port: Int) async throws -> [String] {
    let python = JSONSchemaValidator.python
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python[0])
    // os._exit: a client thread still feeding an endless request stream must not keep the
    // process alive once the script is done.
    let program = prelude + script + "\nsys.stdout.flush()\nos._exit(0)\n"
    process.arguments = Array(python.dropFirst()) + ["-c", program, String(port)]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    let finished = DispatchGroup()
    finished.enter()
    process.terminationHandler = { _ in finished.leave() }
    do {
      try process.run()
    } catch {
      throw Failure(description: "\(python.joined(separator: " ")) cannot run (\(error)): run Tools/setup.sh")
    }
    let printed = Collected()
    let complained = Collected()
    // Threads of their own: on Linux, Dispatch's global queues are the threads Swift's
    // tasks run on, and a read blocked there would hold one of them for the whole run.
    for (pipe, into) in [(output, printed), (errors, complained)] {
      finished.enter()
      Thread.detachNewThread {
        into.set(pipe.fileHandleForReading.readDataToEndOfFile())
        finished.leave()
      }
    }
    await withCheckedContinuation { ended in finished.notify(queue: .global()) { ended.resume() } }
    let stderr = String(decoding: complained.get(), as: UTF8.self)
    switch process.terminationStatus {
    case 0: break
    case 3:
      throw Failure(description: "Python's grpcio is missing (\(stderr)): run Tools/setup.sh")
    default:
      throw Failure(description: "the Python client exited with \(process.terminationStatus): \(stderr)")
    }
    return String(decoding: printed.get(), as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Bytes a reading thread hands to the waiting task.
  private final class Collected: Sendable {
    private let data = Mutex(Data())
    func set(_ bytes: Data) { data.withLock { $0 = bytes } }
    func get() -> Data { data.withLock { $0 } }
  }
}
