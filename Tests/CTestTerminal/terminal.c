#define _GNU_SOURCE
#include "CTestTerminal.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hearth_test_open_pty(char *name, size_t size) {
  int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0) return -1;
  if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, size) != 0) {
    close(master);
    return -1;
  }
  return master;
}

short hearth_test_spawn_setsid(void) { return POSIX_SPAWN_SETSID; }
