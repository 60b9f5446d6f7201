import Foundation
import HearthServer
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shutting down with calls in flight: those that finish within the grace period finish,
/// the rest are cancelled, and nothing of the server outlives `shutdown`.
@Suite(.timeLimit(.minutes(5)))
struct TransportShutdownTests {
  @Test(arguments: Listening.allCases) func callInFlightFinishesWithinTheGracePeriod(_ listening: Listening)
    async throws
  {
    let fixture = try EchoServer(listening)
    let port = fixture.server.port
    let client = Task {
      try await PythonClient.run(#"say(channel.unary_unary("/test.Echo/Slow")(b"call", timeout=30))"#, port: port)
    }
    await fixture.events.wait(for: "slow entered")
    let server = fixture.server
    async let first: Void = server.shutdown(grace: .seconds(50))
    async let second: Void = server.shutdown(grace: .seconds(50))
    // The shutdown has begun once the server stops listening; only then is the handler let go.
    var probes = 0
    while acceptsConnections(port: port) && probes < 1000 {
      probes += 1
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(!acceptsConnections(port: port))
    fixture.events.record("release slow")
    _ = await (first, second)
    #expect(try await client.value == ["slow call"])
  }

  @Test(arguments: Listening.allCases) func callsStillRunningAfterTheGracePeriodAreCancelled(_ listening: Listening)
    async throws
  {
    let fixture = try EchoServer(listening)
    let port = fixture.server.port
    let client = Task {
      try await PythonClient.run(
        """
        hang = channel.stream_stream("/test.Echo/Hang")(stream_of(queue.Queue()), timeout=30)
        say(next(hang))
        stuck = channel.stream_stream("/test.Echo/Stuck")(stream_of(queue.Queue()), timeout=30)
        say(next(stuck))
        for name, call in [("hang", hang), ("stuck", stuck)]:
            try:
                next(call)
            except grpc.RpcError as error:
                say(name, error.code().name)
        try:
            grpc.insecure_channel(target).unary_unary("/test.Echo/Say")(b"late", timeout=30)
        except grpc.RpcError as error:
            say("after", error.code().name)
        """, port: port)
    }
    await fixture.events.wait(for: "hang entered")
    await fixture.events.wait(for: "stuck entered")
    await fixture.server.shutdown(grace: .milliseconds(100))
    // The reading handler saw its call end; the one that ignores its call did not stop the
    // shutdown, and once let go finds its call refusing to send.
    await fixture.events.wait(for: "hang ended")
    fixture.events.record("release stuck")
    await fixture.events.wait(for: "stuck sent: false")
    let lines = try await client.value
    // gRPC's cancel_all_calls also drops the connection, which the client reports first.
    let ended = ["UNAVAILABLE", "CANCELLED"]
    #expect(lines.count == 5)
    #expect(lines.prefix(2) == ["entered", "entered"])
    #expect(ended.map { "hang \($0)" }.contains(lines[2]))
    #expect(ended.map { "stuck \($0)" }.contains(lines[3]))
    #expect(lines.last == "after UNAVAILABLE")
  }
}

/// Whether something accepts TCP connections on the loopback port.
private func acceptsConnections(port: Int) -> Bool {
  #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
}
