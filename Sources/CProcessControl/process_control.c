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
