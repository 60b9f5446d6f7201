import Foundation
import HearthServer
import Synchronization
import Testing

/// What the handlers under test did, in order, for the tests to wait for and check:
/// the server's side of each call is observed, not assumed from what the client saw.
final class Events: Sendable {
  private struct State {
    var seen: [String] = []
    var waiters: [(event: String, waiter: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Mutex(State())

  var all: [String] { state.withLock { $0.seen } }

  func record(_ event: String) {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.seen.append(event)
      let ready = state.waiters.filter { $0.event == event }.map(\.waiter)
      state.waiters.removeAll { $0.event == event }
      return ready
    }
    for waiter in ready { waiter.resume() }
  }

  /// Returns once `event` has been recorded (before or after this call).
  func wait(for event: String) async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let seen = state.withLock { state -> Bool in
        if state.seen.contains(event) { return true }
        state.waiters.append((event, waiter))
        return false
      }
      if seen { waiter.resume() }
    }
  }
}

/// Who listens on a test server's port.
enum Listening: String, CaseIterable, CustomTestStringConvertible {
  /// gRPC itself (`grpc_server_add_http2_port`).
  case byGRPC
  /// Hearth's `SharedPortListener`, which hands HTTP/2 connections to gRPC and answers
  /// HTTP/1.1 itself.
  case shared

  var testDescription: String { rawValue }
}

/// A server on a free port with a small echo service, `/test.Echo/…`, one method per
/// behaviour under test; listening `.shared`, it also answers HTTP/1.1 with `echoHTTP`.
final class EchoServer: Sendable {
  let server: GRPCServer
  let events = Events()
  let chats = Chats()

  init(_ listening: Listening = .byGRPC) throws {
    let events = events
    let chats = chats
    var handlers = GRPCHandlers()
    handlers.unary("/test.Echo/Say") { _, request in Array("said ".utf8) + request }
    handlers.unary("/test.Echo/Headers") { call, _ in
      let authorization = call.metadata["authorization"] ?? "-"
      let prefix = call.metadata["Google-Cloud-Resource-Prefix"] ?? "-"
      return Array("authorization=\(authorization) prefix=\(prefix)".utf8)
    }
    handlers.unary("/test.Echo/Fail") { _, request in
      throw GRPCStatus(.notFound, "no document at \(String(decoding: request, as: UTF8.self))")
    }
    // "N" answers "0" … "N-1"; "N aborted" then fails the call.
    handlers.serverStreaming("/test.Echo/Count") { call, request in
      let words = String(decoding: request, as: UTF8.self).split(separator: " ")
      for index in 0..<(Int(words.first ?? "") ?? 0) { try await call.write(Array("\(index)".utf8)) }
      if words.dropFirst().first == "aborted" { throw GRPCStatus(.aborted, "too much contention") }
    }
    // Answers each message, and "bye" once the client's messages end (refused when they
    // ended because the client went away).
    handlers.bidirectional("/test.Echo/Chat") { call in
      chats.opened(call)
      defer { chats.closed(call) }
      for try await request in call.requests { call.send(Array("heard ".utf8) + request) }
      do {
        try await call.write(Array("bye".utf8))
        events.record("chat ended: bye said, cancelled \(call.isCancelled)")
      } catch {
        events.record("chat ended: bye refused, cancelled \(call.isCancelled)")
        throw error
      }
    }
    // Pushes the request to every open Chat from a thread of its own, as a commit would
    // push to its listeners.
    handlers.unary("/test.Echo/Publish") { _, request in
      let reached = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
        Thread.detachNewThread {
          let calls = chats.open
          done.resume(returning: calls.filter { $0.send(request) }.count)
        }
      }
      return Array("published to \(reached)".utf8)
    }
    // Answers "entered", then reads until the call ends: its messages end (gRPC 1.51 ends
    // a cancelled call's messages as a half-closed one's), or, when the call ended before
    // the handler asked for a message, the receive fails. Either is "hang ended".
    handlers.bidirectional("/test.Echo/Hang") { call in
      call.send(Array("entered".utf8))
      events.record("hang entered")
      do {
        for try await _ in call.requests {}
        events.record("hang ended: half-closed")
      } catch {
        events.record("hang ended: \(error)")
      }
      events.record("hang ended")
    }
    // Answers "entered", then ignores the call until the test releases it.
    handlers.bidirectional("/test.Echo/Stuck") { call in
      call.send(Array("entered".utf8))
      events.record("stuck entered")
      await events.wait(for: "release stuck")
      events.record("stuck sent: \(call.send(Array("late".utf8)))")
    }
    // Answers once the test releases it.
    handlers.unary("/test.Echo/Slow") { _, request in
      events.record("slow entered")
      await events.wait(for: "release slow")
      return Array("slow ".utf8) + request
    }
    server = try GRPCServer(handlers: handlers, http: listening == .shared ? Self.echoHTTP(events) : nil)
  }

  /// Empties "databases" (`DELETE /emulator/v1/projects/{p}/databases/{d}/documents`, as
  /// Google's emulator does) by recording it, echoes `POST /echo`, and knows nothing else.
  private static func echoHTTP(_ events: Events) -> HTTPHandler {
    { request in
      let parts = request.path.split(separator: "/")
      if request.method == "DELETE", parts.count == 7, parts[0] == "emulator", parts[6] == "documents" {
        events.record("deleted \(parts[3]) \(parts[5])")
        return HTTPResponse(status: 200, body: Array("{}".utf8))
      }
      if request.method == "POST", request.path == "/echo" {
        return HTTPResponse(
          status: 200, contentType: request.headers.first { $0.name == "content-type" }?.value ?? "", body: request.body
        )
      }
      return .notFound
    }
  }
}

/// The open `Chat` calls, to which `Publish` pushes, and how many were open at most.
final class Chats: Sendable {
  private let state = Mutex((open: [ObjectIdentifier: ServerCall](), most: 0))

  var open: [ServerCall] { state.withLock { Array($0.open.values) } }
  var mostOpen: Int { state.withLock { $0.most } }

  func opened(_ call: ServerCall) {
    state.withLock { state in
      state.open[ObjectIdentifier(call)] = call
      state.most = max(state.most, state.open.count)
    }
  }

  func closed(_ call: ServerCall) { state.withLock { _ = $0.open.removeValue(forKey: ObjectIdentifier(call)) } }
}
