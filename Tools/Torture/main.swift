// hearth-torture: the worker processes of the crash and many-process harnesses
// (Tools/crash-test.sh, and CrashHarnessTests in the test suite).
//
//   hearth-torture writer DB LOG SEED [COMMITS]   durable commits of every kind until killed;
//                                                 each one logged (and fsynced) after it returns
//   hearth-torture verify DB LOG                  check, and every logged commit is in DB
//   hearth-torture threads DB LOG THREADS [COMMITS]
//                                                 THREADS threads of durable single sets until
//                                                 killed, each logging its own (LOG.t<T>)
//   hearth-torture verify-threads DB LOG THREADS  check, and every thread's logged commit is in DB
//   hearth-torture counter DB N ID [PAYLOAD]      N transactions incrementing counters/main
//                                                 and writing workers/ID/items/i<k>
//   hearth-torture listen DB WORKERS N [TIMEOUT]  listens until all WORKERS × N items arrive
//   hearth-torture peek DB                        opens the database and prints the counter
//   hearth-torture verify-counters DB WORKERS N   check, counter, items, no lost increment
//   hearth-torture hold-reader DB                 holds a read transaction until killed
//   hearth-torture readers DB                     the reader slots in use, as JSON
//
// Exit status: 0 ok, 1 a check failed, 2 an error, 64 wrong usage.
import Foundation

let usage = """
  usage: hearth-torture writer DB LOG SEED [COMMITS]
         hearth-torture verify DB LOG
         hearth-torture threads DB LOG THREADS [COMMITS]
         hearth-torture verify-threads DB LOG THREADS
         hearth-torture counter DB N ID [PAYLOAD_BYTES]
         hearth-torture listen DB WORKERS N [TIMEOUT_SECONDS]
         hearth-torture peek DB
         hearth-torture verify-counters DB WORKERS N
         hearth-torture hold-reader DB
         hearth-torture readers DB

  """

func main(_ arguments: [String]) -> Int32 {
  func number(_ index: Int) -> Int? { index < arguments.count ? Int(arguments[index]) : nil }
  let count = arguments.count
  do {
    switch (arguments.first, count) {
    case ("writer", 4...5):
      guard let seed = UInt64(arguments[3]), count == 4 || number(4) != nil else { break }
      try Writer.run(path: arguments[1], logPath: arguments[2], seed: seed, limit: number(4))
      return 0
    case ("verify", 3):
      return try Verifier.run(path: arguments[1], logPath: arguments[2]) ? 0 : 1
    case ("threads", 4...5):
      guard let threads = number(3), threads > 0, count == 4 || number(4) != nil else { break }
      try ThreadedWriter.run(path: arguments[1], logPath: arguments[2], threads: threads, limit: number(4))
      return 0
    case ("verify-threads", 4):
      guard let threads = number(3), threads > 0 else { break }
      return try ThreadedWriter.verify(path: arguments[1], logPath: arguments[2], threads: threads) ? 0 : 1
    case ("counter", 4...5):
      guard let n = number(2), count == 4 || number(4) != nil else { break }
      try Counters.runCounter(path: arguments[1], count: n, worker: arguments[3], payloadBytes: number(4) ?? 8000)
      return 0
    case ("listen", 4...5):
      guard let workers = number(2), let n = number(3) else { break }
      let timeout = count == 5 ? Double(arguments[4]) : 60
      guard let timeout else { break }
      return try Counters.runListener(path: arguments[1], workers: workers, count: n, timeout: timeout) ? 0 : 1
    case ("peek", 2):
      try Counters.peek(path: arguments[1])
      return 0
    case ("verify-counters", 4):
      guard let workers = number(2), let n = number(3) else { break }
      return try Counters.verify(path: arguments[1], workers: workers, count: n) ? 0 : 1
    case ("hold-reader", 2):
      try Readers.hold(path: arguments[1])
      return 0
    case ("readers", 2):
      try Readers.list(path: arguments[1])
      return 0
    default:
      break
    }
  } catch {
    report("\(arguments.first ?? ""): \(error)")
    return 2
  }
  FileHandle.standardError.write(Data(usage.utf8))
  return 64
}

exit(main(Array(CommandLine.arguments.dropFirst())))
