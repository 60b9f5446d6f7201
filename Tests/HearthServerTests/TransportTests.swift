import HearthServer
import Testing

/// One request, one or many responses: what the client sends and receives, and what the
/// server's handlers saw.
@Suite(.timeLimit(.minutes(5)))
struct TransportTests {
  @Test(arguments: Listening.allCases) func unaryEchoes(_ listening: Listening) async throws {
    let fixture = try EchoServer(listening)
    let lines = try await PythonClient.run(
      """
      echo = channel.unary_unary("/test.Echo/Say")
      say(echo(b"hello", timeout=30))
      say(len(echo(b"", timeout=30)))
      big = os.urandom(5 << 20)
      roomy = grpc.insecure_channel(target, options=[("grpc.max_receive_message_length", -1),
                                                    ("grpc.max_send_message_length", -1)])
      say(roomy.unary_unary("/test.Echo/Say")(big, timeout=30) == b"said " + big)
      try:
          roomy.unary_unary("/test.Echo/Say")(os.urandom(17 << 20), timeout=30)
      except grpc.RpcError as error:
          say(error.code().name)
      say(echo(b"zipped", timeout=30, compression=grpc.Compression.Gzip))
      """, port: fixture.server.port)
    await fixture.server.shutdown()
    #expect(lines == ["said hello", "5", "True", "RESOURCE_EXHAUSTED", "said zipped"])
  }

  @Test(arguments: Listening.allCases) func handlerReadsRequestMetadata(_ listening: Listening) async throws {
    let fixture = try EchoServer(listening)
    let lines = try await PythonClient.run(
      """
      headers = channel.unary_unary("/test.Echo/Headers")
      say(headers(b"", timeout=30, metadata=[("authorization", "Bearer owner"),
                                             ("google-cloud-resource-prefix", "projects/p/databases/(default)")]))
      say(headers(b"", timeout=30))
      """, port: fixture.server.port)
    await fixture.server.shutdown()
    #expect(lines == ["authorization=Bearer owner prefix=projects/p/databases/(default)", "authorization=- prefix=-"])
  }

  @Test(arguments: Listening.allCases) func clientSeesStatusCodeAndMessage(_ listening: Listening) async throws {
    let fixture = try EchoServer(listening)
    let lines = try await PythonClient.run(
      """
      try:
          channel.unary_unary("/test.Echo/Fail")(b"rooms/r1", timeout=30)
      except grpc.RpcError as error:
          say(failure(error))
      received = []
      try:
          for message in channel.unary_stream("/test.Echo/Count")(b"2 aborted", timeout=30):
              received.append(message.decode())
      except grpc.RpcError as error:
          say(",".join(received), failure(error))
      """, port: fixture.server.port)
    await fixture.server.shutdown()
    #expect(lines == ["NOT_FOUND: no document at rooms/r1", "0,1 ABORTED: too much contention"])
  }

  @Test(arguments: Listening.allCases) func serverStreamsManyResponses(_ listening: Listening) async throws {
    let fixture = try EchoServer(listening)
    let lines = try await PythonClient.run(
      """
      count = channel.unary_stream("/test.Echo/Count")
      responses = count(b"1000", timeout=30)
      received = [message.decode() for message in responses]
      say(len(received), received == [str(i) for i in range(1000)], responses.code().name)
      none = count(b"0", timeout=30)
      say(len(list(none)), none.code().name)
      """, port: fixture.server.port)
    await fixture.server.shutdown()
    #expect(lines == ["1000 True OK", "0 OK"])
  }

  @Test(arguments: Listening.allCases) func unknownMethodIsUnimplemented(_ listening: Listening) async throws {
    let fixture = try EchoServer(listening)
    let lines = try await PythonClient.run(
      """
      for method in ["/test.Echo/Nope", "/google.firestore.v1.Firestore/Nope"]:
          try:
              channel.unary_unary(method)(b"x", timeout=30)
          except grpc.RpcError as error:
              say(failure(error))
      try:
          list(channel.stream_stream("/test.Echo/Nope")(iter([b"x"]), timeout=30))
      except grpc.RpcError as error:
          say(error.code().name)
      """, port: fixture.server.port)
    await fixture.server.shutdown()
    #expect(
      lines == [
        "UNIMPLEMENTED: Method not found: /test.Echo/Nope",
        "UNIMPLEMENTED: Method not found: /google.firestore.v1.Firestore/Nope", "UNIMPLEMENTED",
      ])
  }

  @Test(arguments: Listening.allCases) func portZeroBindsAFreePortAndABusyPortIsAnError(_ listening: Listening)
    async throws
  {
    let fixture = try EchoServer(listening)
    #expect(fixture.server.port > 0)
    let notFound: HTTPHandler = { _ in HTTPResponse.notFound }
    let http = listening == .shared ? notFound : nil
    #expect(throws: GRPCServer.StartError.self) {
      try GRPCServer(port: fixture.server.port, handlers: GRPCHandlers(), http: http)
    }
    await fixture.server.shutdown()
  }
}
