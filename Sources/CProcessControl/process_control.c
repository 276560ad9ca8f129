#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <unistd.h>
#include "CProcessControl.h"

#if defined(__linux__)
#include <sys/prctl.h>

int mutate_become_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}
#else
int mutate_become_child_subreaper(void) {
    return -1;
}
#endif

int mutate_pipe_cloexec(int ends[2]) {
#if defined(__linux__)
    return pipe2(ends, O_CLOEXEC);
#else
    if (pipe(ends) != 0) return -1;
    fcntl(ends[0], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

#if defined(__linux__)
// The profile runtime's writer, linked in only by a coverage build: a weak
// reference is null in any other (the runtime's symbols are hidden, so only
// the static link can find it, not dlsym).
extern int __llvm_profile_write_file(void) __attribute__((weak));

int mutate_write_coverage_profile(void) {
    if (__llvm_profile_write_file == 0) return 0;
    return __llvm_profile_write_file() == 0;
}
#else
int mutate_write_coverage_profile(void) {
    return 0;
}
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
int mutate_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from) == 0 ? 0 : -1;
}
#else
int mutate_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    (void)actions;
    (void)from;
    return -1;
}
#endif
