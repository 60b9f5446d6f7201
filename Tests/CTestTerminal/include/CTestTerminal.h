// For the shell's terminal tests: the pseudo-terminal calls, which Swift's Glibc module
// hides behind feature macros.
#pragma once
#include <stddef.h>

/// Opens a pseudo-terminal's master side (close-on-exec) and writes its other side's
/// path into `name`; returns the master's descriptor, or -1.
int hearth_test_open_pty(char *name, size_t size);

/// posix_spawn's flag for starting the child in a new session.
short hearth_test_spawn_setsid(void);
