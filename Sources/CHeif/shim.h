// libheif (HEIF and AVIF; HEVC through libde265, AV1 through dav1d, both plugins). It reports
// errors as returned structs, so no other wrapper is needed.
#include <libheif/heif.h>

// 1.19 opens the HEICs iPhones write since iOS 17 and decodes a grid tile by tile; Debian 12
// has it in bookworm-backports (scripts/install-deps.sh installs it; docs/INSTALL.md).
#if !LIBHEIF_HAVE_VERSION(1, 19, 0)
#error "Tessera needs libheif 1.19 or later (found " LIBHEIF_VERSION "): on Debian 12, scripts/install-deps.sh installs it from bookworm-backports"
#endif


#include <sys/syscall.h>
#include <unistd.h>

// The calling thread's CPU mask, read or (set) replaced: dav1d sizes its thread pool by it, and
// libheif 1.19 has no way to tell it how many threads to use. Raw system calls, since glibc
// declares sched_setaffinity only under _GNU_SOURCE. Returns < 0 on failure.
static inline long tessera_thread_cpus(unsigned long *mask, unsigned long bytes, int set) {
    return syscall(set ? SYS_sched_setaffinity : SYS_sched_getaffinity, 0, bytes, mask);
}

// The CPU the calling thread runs on, or -1.
static inline int tessera_current_cpu(void) {
    unsigned cpu = 0;
    return syscall(SYS_getcpu, &cpu, (void *)0, (void *)0) == 0 ? (int)cpu : -1;
}
