import HearthServer
import Testing

/// Plain HTTP/1.1 on the gRPC port (`Listening.shared`), as Google's emulator answers
/// `DELETE /emulator/v1/projects/{p}/databases/{d}/documents` there.
@Suite(.timeLimit(.minutes(5)))
struct TransportHTTPTests {
  private static let http = """
    import socket, urllib.request, urllib.error
    def http(method, path, body=None, headers={}):
        request = urllib.request.Request(f"http://{target}{path}", data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read().strip()

    """

  @Test func httpAndGRPCShareThePort() async throws {
    let fixture = try EchoServer(.shared)
    let lines = try await PythonClient.run(
      Self.http + """
        say(channel.unary_unary("/test.Echo/Say")(b"before", timeout=30))
        say(*http("DELETE", "/emulator/v1/projects/demo/databases/(default)/documents"))
        say(*http("POST", "/echo", b"ping", {"Content-Type": "text/plain"}))
        big = os.urandom(1 << 20)
        status, body = http("POST", "/echo", big)
        say(status, body == big)
        say(*http("GET", "/nowhere"))
        say(channel.unary_unary("/test.Echo/Say")(b"after", timeout=30))
        """, port: fixture.server.port)
    await fixture.server.shutdown()
    #expect(lines == ["said before", "200 {}", "200 ping", "200 True", "404 Not Found", "said after"])
    #expect(fixture.events.all == ["deleted demo (default)"])
  }

  @Test func malformedAndAbandonedConnectionsLeaveTheServerHealthy() async throws {
    let fixture = try EchoServer(.shared)
    let lines = try await PythonClient.run(
      Self.http + """
        port = int(sys.argv[1])
        nonsense = socket.create_connection(("127.0.0.1", port))
        nonsense.sendall(b"NONSENSE\\r\\n\\r\\n")
        say(nonsense.recv(100).split(b"\\r\\n")[0])
        socket.create_connection(("127.0.0.1", port)).close()
        half = socket.create_connection(("127.0.0.1", port))
        half.sendall(b"PRI * HTTP/2.0\\r\\n")
        half.close()
        garbage = socket.create_connection(("127.0.0.1", port))
        garbage.sendall(b"PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n" + os.urandom(64))
        say(garbage.recv(1 << 16) != b"")
        garbage.close()
        say(channel.unary_unary("/test.Echo/Say")(b"still", timeout=30))
        """, port: fixture.server.port)
    await fixture.server.shutdown()
    #expect(lines == ["HTTP/1.1 400 Bad Request", "True", "said still"])
  }
}
