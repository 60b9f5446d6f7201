// gRPC's C core (Debian libgrpc-dev), for HearthServer's transport.
//
// What Swift cannot call directly gets a small static inline function here: the slice
// macros, and grpc_op, whose arguments live in a union of nested structs (filling it in C
// keeps every batch's op one readable call in Swift).
#ifndef HEARTH_CGRPC_SHIM_H
#define HEARTH_CGRPC_SHIM_H

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_posix.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/status.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <string.h>

/// GRPC_SLICE_START_PTR. By pointer: a short slice holds its bytes inline, so the start of
/// a copy passed by value would point into this function's own stack frame.
static inline const uint8_t *hearth_grpc_slice_start(const grpc_slice *slice) {
  return GRPC_SLICE_START_PTR(*slice);
}

/// GRPC_SLICE_LENGTH.
static inline size_t hearth_grpc_slice_length(const grpc_slice *slice) {
  return GRPC_SLICE_LENGTH(*slice);
}

/// Initial metadata (here always none: the server answers with what gRPC adds itself).
static inline grpc_op hearth_grpc_op_send_initial_metadata(void) {
  grpc_op op;
  memset(&op, 0, sizeof op);
  op.op = GRPC_OP_SEND_INITIAL_METADATA;
  return op;
}

/// One message; gRPC takes the slices, the caller still destroys the buffer afterwards.
static inline grpc_op hearth_grpc_op_send_message(grpc_byte_buffer *message) {
  grpc_op op;
  memset(&op, 0, sizeof op);
  op.op = GRPC_OP_SEND_MESSAGE;
  op.data.send_message.send_message = message;
  return op;
}

/// The call's status; gRPC copies `details` during grpc_call_start_batch.
static inline grpc_op hearth_grpc_op_send_status_from_server(grpc_status_code status, grpc_slice *details) {
  grpc_op op;
  memset(&op, 0, sizeof op);
  op.op = GRPC_OP_SEND_STATUS_FROM_SERVER;
  op.data.send_status_from_server.status = status;
  op.data.send_status_from_server.status_details = details;
  return op;
}

/// The next message into `*message` (NULL once the client has half-closed).
static inline grpc_op hearth_grpc_op_recv_message(grpc_byte_buffer **message) {
  grpc_op op;
  memset(&op, 0, sizeof op);
  op.op = GRPC_OP_RECV_MESSAGE;
  op.data.recv_message.recv_message = message;
  return op;
}

/// Completes when the call is over; `*cancelled` is 1 when it ended without the server's
/// status reaching the client (cancelled, deadline, vanished peer).
static inline grpc_op hearth_grpc_op_recv_close_on_server(int *cancelled) {
  grpc_op op;
  memset(&op, 0, sizeof op);
  op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
  op.data.recv_close_on_server.cancelled = cancelled;
  return op;
}

/// A server that takes messages of up to `max_receive_message_length` bytes (gRPC's default
/// is 4 MiB, below the 10 MiB a Firestore request may reach) and that owns its port: gRPC
/// sets SO_REUSEPORT by default, with which a second server binds a busy port without an
/// error and the two split the connections between them. The arguments' keys are macro
/// strings, hence C.
static inline grpc_server *hearth_grpc_server_create(int max_receive_message_length) {
  grpc_arg args[2];
  memset(args, 0, sizeof args);
  args[0].type = GRPC_ARG_INTEGER;
  args[0].key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
  args[0].value.integer = max_receive_message_length;
  args[1].type = GRPC_ARG_INTEGER;
  args[1].key = (char *)GRPC_ARG_ALLOW_REUSEPORT;
  args[1].value.integer = 0;
  grpc_channel_args channel_args = {2, args};
  return grpc_server_create(&channel_args, NULL);
}

#endif
