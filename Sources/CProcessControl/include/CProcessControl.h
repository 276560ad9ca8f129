#ifndef C_PROCESS_CONTROL_H
#define C_PROCESS_CONTROL_H

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

#endif
