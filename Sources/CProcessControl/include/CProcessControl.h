#ifndef C_PROCESS_CONTROL_H
#define C_PROCESS_CONTROL_H

#include <spawn.h>

/// Makes the calling process a child subreaper (Linux): orphaned descendants
/// are re-parented to it instead of to init. Returns 0 on success, -1 where
/// the system has no such facility.
int mutate_become_child_subreaper(void);

/// Opens a pipe whose two ends are closed on exec, atomically where the
/// system can (Linux: pipe2), so a command started by another thread at the
/// same moment never inherits them. Returns 0, or -1 with errno set.
int mutate_pipe_cloexec(int ends[2]);

/// Writes this program's coverage profile now, where `LLVM_PROFILE_FILE`
/// says, when it was built with coverage (`-profile-generate`; Linux):
/// an exit by `_exit` skips the write the profile runtime makes at exit.
/// Returns 1 if a profile was written, 0 otherwise.
int mutate_write_coverage_profile(void);

/// Adds to `actions` the closing of every descriptor from `from` up in the
/// child (glibc 2.34 and later: `posix_spawn_file_actions_addclosefrom_np`),
/// so a command inherits none this process opened without close-on-exec
/// (a socket, a pipe of another library). Returns 0, or -1 where the system
/// has no such action (Darwin has `POSIX_SPAWN_CLOEXEC_DEFAULT` instead).
int mutate_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

#endif
