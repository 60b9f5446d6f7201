import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A listening socket of Hearth's own in front of gRPC, so that plain HTTP/1.1 requests
/// (the emulator's `DELETE …/documents`) and gRPC share one port, as with Google's emulator.
///
/// Each accepted connection is classified on a thread of its own by peeking (MSG_PEEK, so
/// nothing is consumed) at its first bytes: a client that opens with HTTP/2's preface
/// (`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`, which every gRPC client sends first) is handed to
/// gRPC with `grpc_server_add_channel_from_fd`; anything else is an HTTP/1.1 request, which
/// `HTTP1Exchange` answers with the caller's handler.
///
/// gRPC 1.51 takes the descriptor as it is: it reads it with its own poller and needs it
/// non-blocking (its own listener sets that, as do gRPC's tests of this function), so the
/// listener sets O_NONBLOCK (and TCP_NODELAY, as gRPC's listener does) before handing over.
final class SharedPortListener: Sendable {
  /// The bound port.
  let port: Int
  private let descriptor: Int32
  /// Written to once to wake the accepting thread for `stop`.
  private let wake: (read: Int32, write: Int32)
  private let stopped = Latch()
  private let started = Atomic(false)

  /// A client that sends nothing for this long is dropped.
  private static let idleSeconds = 30
  private static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

  /// Binds `host:port` (0 picks a free port); `start` begins accepting.
  init(host: String, port: Int) throws {
    let (descriptor, bound) = try Self.listen(host: host, port: port)
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else {
      close(descriptor)
      throw GRPCServer.StartError(description: "cannot make a pipe: errno \(errno)")
    }
    self.descriptor = descriptor
    self.port = bound
    wake = (pipeEnds[0], pipeEnds[1])
  }

  /// Accepts on a thread of its own until `stop`. `handOver` gives an HTTP/2 connection's
  /// descriptor to gRPC (or closes it); `http` answers the others.
  func start(handOver: @escaping @Sendable (Int32) -> Void, http: @escaping HTTPHandler) {
    started.store(true, ordering: .sequentiallyConsistent)
    let thread = Thread { [self] in accept(handOver: handOver, http: http) }
    thread.name = "hearth-grpc-listener"
    thread.start()
  }

  /// A listener never started still holds its sockets (a started one's thread closes them).
  deinit {
    guard !started.load(ordering: .sequentiallyConsistent) else { return }
    close(descriptor)
    close(wake.read)
    close(wake.write)
  }

  /// Stops accepting and closes the socket (call it after `start`). Connections already accepted are classified
  /// still: `handOver` must refuse them once the server is shutting down.
  func stop() async {
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    await stopped.wait()
  }

  private func accept(handOver: @escaping @Sendable (Int32) -> Void, http: @escaping HTTPHandler) {
    defer {
      close(descriptor)
      close(wake.read)
      close(wake.write)
      stopped.open()
    }
    var watched = [
      pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      guard poll(&watched, 2, -1) >= 0 else {
        if errno == EINTR { continue }
        return
      }
      if watched[1].revents != 0 { return }
      guard watched[0].revents != 0 else { continue }
      // The listening socket is non-blocking: a client that gave up between poll and
      // accept leaves nothing to accept, and the thread must not wait for the next one.
      let connection = systemAccept(descriptor)
      guard connection >= 0 else { continue }  // that, or EMFILE
      _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
      // Blocking while classified and for HTTP/1.1 (Darwin's accept copies O_NONBLOCK).
      _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) & ~O_NONBLOCK)
      Thread.detachNewThread {
        switch Self.classify(connection) {
        case .http2:
          Self.prepareForGRPC(connection)
          handOver(connection)
        case .http1:
          HTTP1Exchange.serve(connection, http)
        case .gone:
          close(connection)
        }
      }
    }
  }

  private enum Opening {
    case http2, http1, gone
  }

  /// Peeks until the first bytes either are HTTP/2's preface or cannot be.
  private static func classify(_ connection: Int32) -> Opening {
    var timeout = timeval(tv_sec: idleSeconds, tv_usec: 0)
    _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var peeked = [UInt8](repeating: 0, count: preface.count)
    // The first peek takes what has arrived; later ones wait (MSG_WAITALL) for one byte
    // more than the last, so a short HTTP/1.1 request is never waited on for bytes it lacks.
    // A peek that brings nothing new (the timeout passed, or the client closed) ends it.
    var wanted = 0
    var seen = 0
    while true {
      let flags = Int32(MSG_PEEK) | (wanted == 0 ? 0 : Int32(MSG_WAITALL))
      let count = peeked.withUnsafeMutableBytes {
        recv(connection, $0.baseAddress, wanted == 0 ? $0.count : wanted, flags)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > seen else { return .gone }
      guard peeked[..<count].elementsEqual(preface[..<count]) else { return .http1 }
      if count == preface.count { return .http2 }
      seen = count
      wanted = count + 1
    }
  }

  /// As gRPC's own listener leaves an accepted socket: non-blocking, Nagle off, no timeout.
  private static func prepareForGRPC(_ connection: Int32) {
    var timeout = timeval(tv_sec: 0, tv_usec: 0)
    _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
    var on: Int32 = 1
    _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
  }

  /// A listening socket on the first address `host` resolves to, and its port.
  private static func listen(host: String, port: Int) throws -> (Int32, Int) {
    var hints = addrinfo()
    hints.ai_socktype = streamSocket
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else {
      throw GRPCServer.StartError(description: "cannot resolve \(host)")
    }
    defer { freeaddrinfo(found) }
    let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
    guard descriptor >= 0 else { throw GRPCServer.StartError(description: "cannot make a socket: errno \(errno)") }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    var on: Int32 = 1
    _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    guard bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
      systemListen(descriptor, 128) == 0
    else {
      let error = errno
      close(descriptor)
      throw GRPCServer.StartError(description: "cannot listen on \(host):\(port): errno \(error)")
    }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    let family = Int32(storage.ss_family)
    let bound = withUnsafePointer(to: &storage) { pointer -> UInt16 in
      if family == AF_INET6 {
        return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
      }
      return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
    }
    return (descriptor, Int(UInt16(bigEndian: bound)))
  }
}

#if canImport(Glibc)
  private let streamSocket = Int32(SOCK_STREAM.rawValue)
  private func systemAccept(_ descriptor: Int32) -> Int32 { Glibc.accept(descriptor, nil, nil) }
  private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { Glibc.listen(descriptor, backlog) }
#else
  private let streamSocket = SOCK_STREAM
  private func systemAccept(_ descriptor: Int32) -> Int32 { Darwin.accept(descriptor, nil, nil) }
  private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { Darwin.listen(descriptor, backlog) }
#endif
