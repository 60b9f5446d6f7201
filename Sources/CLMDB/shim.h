#include <lmdb.h>

/* Asks the processor to start bringing the `count` bytes at `start` (a value in LMDB's
   map) into its caches, without waiting for them: a hint, which changes nothing else.
   (Swift has no prefetch of its own.) */
static inline void hearth_prefetch(const void *start, unsigned long count) {
  for (unsigned long offset = 0; offset < count; offset += 64) {
    __builtin_prefetch((const char *)start + offset, 0, 2);
  }
}
