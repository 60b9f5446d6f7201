import CGRPC

// The memory the transport shares with gRPC's C core, and how bytes cross between them.

/// The address of one of gRPC's core objects (a server, a call, a completion queue).
///
/// @unchecked Sendable: the functions the transport calls on these objects
/// (`grpc_call_start_batch`, `grpc_call_cancel`, `grpc_server_request_call`,
/// `grpc_server_cancel_all_calls`, …) are thread-safe in gRPC's core, and each object's
/// owner destroys it exactly once, after its last use, under the owner's own lock.
struct CorePointer: @unchecked Sendable {
  let raw: OpaquePointer
}

/// Keeps gRPC's library initialised while something of it is in use: `grpc_init` and
/// `grpc_shutdown` count, and the last `grpc_shutdown` tears down gRPC's own threads, so
/// a process whose servers have all shut down holds nothing of gRPC's.
final class GRPCLibrary: Sendable {
  init() { grpc_init() }
  deinit { grpc_shutdown() }
}

/// Memory that gRPC writes an operation's result into (a received message, the
/// "cancelled" flag), alive from the start of the operation until its completion is handled.
///
/// @unchecked Sendable: the pointee is written by gRPC before it posts the operation's
/// completion, and read only by the completion queue's thread after it took that completion
/// from the queue; the queue orders the write before the read.
final class ResultSlot<Pointee>: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<Pointee>

  init(_ initial: Pointee) {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: initial)
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }
}

/// A message on its way out: gRPC takes the buffer's slices when the send starts, and the
/// buffer itself must live until the send completes, when its owner destroys it.
///
/// @unchecked Sendable: made on the sending thread, then touched only by gRPC and, once
/// released by the send's completion, destroyed; nothing reads it in between.
final class OutgoingBuffer: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<grpc_byte_buffer>

  init(_ bytes: [UInt8]) {
    var slice =
      bytes.isEmpty
      ? grpc_empty_slice()
      : bytes.withUnsafeBytes {
        grpc_slice_from_copied_buffer($0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
      }
    pointer = grpc_raw_byte_buffer_create(&slice, 1)
    grpc_slice_unref(slice)
  }

  deinit { grpc_byte_buffer_destroy(pointer) }
}

/// The bytes of a received message, decompressed if the client compressed it; nil when it
/// cannot be decompressed. Destroys the buffer, which the receiver owns.
func consumeMessage(_ buffer: UnsafeMutablePointer<grpc_byte_buffer>) -> [UInt8]? {
  defer { grpc_byte_buffer_destroy(buffer) }
  var reader = grpc_byte_buffer_reader()
  guard grpc_byte_buffer_reader_init(&reader, buffer) != 0 else { return nil }
  defer { grpc_byte_buffer_reader_destroy(&reader) }
  var bytes: [UInt8] = []
  bytes.reserveCapacity(grpc_byte_buffer_length(buffer))
  var slice = grpc_slice()
  while grpc_byte_buffer_reader_next(&reader, &slice) != 0 {
    withUnsafePointer(to: &slice) { bytes.append(contentsOf: sliceBytes($0)) }
    grpc_slice_unref(slice)
  }
  return bytes
}

/// A slice's bytes as text (method paths, metadata); invalid UTF-8 is repaired, not trusted.
func string(of slice: grpc_slice) -> String {
  withUnsafePointer(to: slice) { String(decoding: sliceBytes($0), as: UTF8.self) }
}

/// A slice's bytes, valid while `slice` is: a short slice holds them inline.
private func sliceBytes(_ slice: UnsafePointer<grpc_slice>) -> UnsafeBufferPointer<UInt8> {
  UnsafeBufferPointer(start: hearth_grpc_slice_start(slice), count: hearth_grpc_slice_length(slice))
}
