#ifndef C_PROCESS_CONTROL_H
#define C_PROCESS_CONTROL_H

/// Makes the calling process a child subreaper (Linux): orphaned descendants
/// are re-parented to it instead of to init. Returns 0 on success, -1 where
/// the system has no such facility.
int mutate_become_child_subreaper(void);

#endif
