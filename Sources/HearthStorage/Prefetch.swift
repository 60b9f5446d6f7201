import CLMDB

/// Starts bringing `bytes` (a value in the memory map) into the processor's caches
/// without waiting for them, for a read of them soon after (64-byte lines, to the
/// outer caches). A hint: nothing else changes.
package func prefetch(_ bytes: UnsafeRawBufferPointer) {
  hearth_prefetch(bytes.baseAddress, UInt(bytes.count))
}
