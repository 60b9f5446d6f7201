#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain HTTP/1.1 request that came to the gRPC port: Google's emulator answers a few
/// there besides gRPC (`DELETE /emulator/v1/projects/{p}/databases/{d}/documents` empties
/// a database), and tools call them with curl, so Hearth must too.
package struct HTTPRequest: Sendable, Equatable {
  package let method: String
  /// The request target as sent: path and query (`/emulator/v1/projects/p/…?x=1`).
  package let target: String
  /// Header names lowercase, in the order sent.
  package let headers: [GRPCMetadata.Entry]
  package let body: [UInt8]

  /// The target's path, without the query.
  package var path: String { String(target.prefix { $0 != "?" }) }
}

/// The answer to an `HTTPRequest`; the connection closes after it.
package struct HTTPResponse: Sendable, Equatable {
  package var status: Int
  package var contentType: String
  package var body: [UInt8]

  package init(status: Int, contentType: String = "application/json", body: [UInt8] = []) {
    self.status = status
    self.contentType = contentType
    self.body = body
  }

  package static let notFound = HTTPResponse(status: 404, contentType: "text/plain", body: Array("Not Found\n".utf8))
}

/// Answers an HTTP/1.1 request, on a thread of the listener's (not Swift's cooperative
/// pool): it may block, as a write to the database does.
package typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// One HTTP/1.1 exchange on a connected socket: reads a request (headers up to 64 KiB, a
/// body of `Content-Length` up to 16 MiB), answers it and closes. Malformed requests get
/// 400, chunked bodies 411; a client that stops sending is dropped by the socket's timeout.
enum HTTP1Exchange {
  private static let maxHeaderBytes = 64 << 10
  private static let maxBodyBytes = 16 << 20

  static func serve(_ descriptor: Int32, _ handler: HTTPHandler) {
    defer { close(descriptor) }
    let response: HTTPResponse
    switch readRequest(descriptor) {
    case .request(let request): response = handler(request)
    case .malformed(let status): response = HTTPResponse(status: status, contentType: "text/plain")
    case .gone: return
    }
    writeAll(descriptor, serialise(response))
  }

  private enum Reading {
    case request(HTTPRequest)
    case malformed(Int)
    case gone
  }

  private static func readRequest(_ descriptor: Int32) -> Reading {
    var bytes: [UInt8] = []
    var headerEnd: Int?
    while headerEnd == nil {
      guard bytes.count <= maxHeaderBytes else { return .malformed(431) }
      guard let chunk = receive(descriptor), !chunk.isEmpty else { return .gone }
      let searchFrom = max(0, bytes.count - 3)
      bytes += chunk
      headerEnd = find([13, 10, 13, 10], in: bytes, from: searchFrom)
    }
    guard let headerEnd else { return .gone }
    let head = String(decoding: bytes[..<headerEnd], as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), !requestLine[0].isEmpty,
      requestLine[1].hasPrefix("/")
    else { return .malformed(400) }
    var headers: [GRPCMetadata.Entry] = []
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { return .malformed(400) }
      headers.append(
        GRPCMetadata.Entry(
          name: line[..<colon].lowercased(),
          value: String(
            line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }.reversed().drop {
              $0 == " " || $0 == "\t"
            }.reversed())))
    }
    let fields = GRPCMetadata(headers)
    if fields["transfer-encoding"] != nil { return .malformed(411) }
    let length = fields["content-length"].map { Int($0) } ?? 0
    guard let length, length >= 0 else { return .malformed(400) }
    guard length <= maxBodyBytes else { return .malformed(413) }
    var body = Array(bytes[(headerEnd + 4)...])
    while body.count < length {
      guard let chunk = receive(descriptor), !chunk.isEmpty else { return .gone }
      body += chunk
    }
    return .request(
      HTTPRequest(
        method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
        body: Array(body.prefix(length))))
  }

  private static func serialise(_ response: HTTPResponse) -> [UInt8] {
    let head =
      "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
      + "Content-Type: \(response.contentType)\r\nContent-Length: \(response.body.count)\r\n"
      + "Connection: close\r\n\r\n"
    return Array(head.utf8) + response.body
  }

  private static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 400: "Bad Request"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 411: "Length Required"
    case 413: "Content Too Large"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    default: "Status"
    }
  }

  /// Up to 64 KiB, nil on an error (the timeout included).
  private static func receive(_ descriptor: Int32) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count >= 0 { return Array(buffer.prefix(count)) }
      if errno != EINTR { return nil }
    }
  }

  private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, sendFlags) }
      if count > 0 {
        offset += count
      } else if count < 0 && errno == EINTR {
        continue
      } else {
        return  // the client went away: nobody to answer
      }
    }
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    return (start...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
  }
}

/// send(2) flags: no SIGPIPE for a peer that went away (Darwin sets SO_NOSIGPIPE instead).
#if canImport(Glibc)
  let sendFlags = Int32(MSG_NOSIGNAL)
#else
  let sendFlags: Int32 = 0
#endif
