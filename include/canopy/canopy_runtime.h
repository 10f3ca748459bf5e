/* Canopy's own runtime extensions, apart from CANN's compatible surface. */
#ifndef CANOPY_CANOPY_RUNTIME_H_
#define CANOPY_CANOPY_RUNTIME_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A task run by the device engine in stream order. It returns 0 or an error
 * code; on failure it should set the message with canopySetRecentErrMsg, and
 * the code and message surface at the stream's next synchronisation. */
typedef int32_t (*canopyTaskFn)(void *userData);
/* Called once after the task has run (or when it is dropped unrun). */
typedef void (*canopyTaskRelease)(void *userData);

/* Enqueues `run(userData)` on `stream` (NULL: the current default stream) and
 * returns at once. `name` must outlive the task (a string literal). When the
 * call fails nothing is queued and `release` is not called: userData is still
 * the caller's. */
ACL_FUNC_VISIBILITY aclError canopyLaunchTask(aclrtStream stream, const char *name, canopyTaskFn run,
                                              canopyTaskRelease release, void *userData);

/* As canopyLaunchTask, but `run` runs on a host thread instead of the device
 * engine, so a run that waits (a collective waiting for its peers) never holds
 * up the device's other streams; the stream still waits for it, and its status
 * is the stream's as a task's is. A host task queued on a stream with nothing
 * queued or running starts at once, and a thread that then synchronises the
 * stream without a timeout (aclrtSynchronizeStream) runs it itself if no
 * callback thread has taken it yet, so that waiting for it costs no thread
 * hand-offs: `run` must not depend on the thread it runs on. The synchronising
 * thread keeps its current context, last error code and aclGetRecentErrMsg
 * text; it does not run the task on a device engine's thread or while a graph
 * capture is active. */
ACL_FUNC_VISIBILITY aclError canopyLaunchHostTask(aclrtStream stream, const char *name, canopyTaskFn run,
                                                  canopyTaskRelease release, void *userData);

/* Replaces the calling thread's aclGetRecentErrMsg() text (and logs it as an
 * ERROR record, see canopyLog). */
ACL_FUNC_VISIBILITY void canopySetRecentErrMsg(const char *message);

/* CANN's logging conventions: `level` 0 debug, 1 info, 2 warning, 3 error.
 * A record is written when ASCEND_GLOBAL_LOG_LEVEL (default 3) lets its level
 * through, to stdout with ASCEND_SLOG_PRINT_TO_STDOUT=1 and to a plog file
 * under ASCEND_PROCESS_LOG_PATH when that is set. canopyLogEnabled says
 * whether a record of `level` would be written (1) or not (0). */
ACL_FUNC_VISIBILITY int canopyLogEnabled(int level);
ACL_FUNC_VISIBILITY void canopyLog(int level, const char *module, const char *message);

/* 1 when [ptr, ptr + bytes) lies in live device memory (aclrtMalloc or a
 * mapped virtual range), else 0. */
ACL_FUNC_VISIBILITY int canopyIsDeviceMemory(const void *ptr, size_t bytes);

/* 1 when the calling thread is a device engine running a task. */
ACL_FUNC_VISIBILITY int canopyOnEngineThread(void);

/* The value of ACL_OPT_DETERMINISTIC (aclrtSetSysParamOpt): 0 off, else
 * kernels whose float results could depend on the thread count (a matmul that
 * splits its reduction over threads) take a fixed split instead. */
ACL_FUNC_VISIBILITY int canopyDeterministicMode(void);

/* A kernel running on a device engine calls this right before it forks an
 * OpenMP team (or runs a oneDNN primitive that does): the first call binds the
 * engine and its OpenMP workers one per CPU (CANOPY_BIND_THREADS=0: not).
 * Cheap after the first call; no effect on other threads. */
ACL_FUNC_VISIBILITY void canopyPrepareComputeTeam(void);

/* Stream-ordered caching allocator for workspaces and temporaries: a block
 * freed on a stream is reused by later work on that stream at once, and by
 * other streams once the freeing stream has passed the free. Sizes are
 * rounded up to 512 bytes; blocks come from aclrtMalloc on the stream's device. */
ACL_FUNC_VISIBILITY aclError canopyMallocAsync(void **ptr, size_t size, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError canopyFreeAsync(void *ptr, aclrtStream stream);
/* Returns every cached, unused block to the device (synchronises first). */
ACL_FUNC_VISIBILITY aclError canopyReleaseCachedMemory(void);

/* Checker mode (also CANOPY_CHECK=1, or CANOPY_CHECK=abort to abort at the
 * first report): 0 off, 1 report, 2 report and abort. */
ACL_FUNC_VISIBILITY int canopyCheckEnabled(void);
ACL_FUNC_VISIBILITY void canopySetCheckMode(int mode);

/* One memory range a task reads or writes. */
typedef struct canopyMemoryAccess {
  const void *begin;
  size_t bytes;
  int write;
  const char *argument; /* the argument's name, for reports */
} canopyMemoryAccess;

/* In checker mode, checks the accesses of a task about to be enqueued on
 * `stream`: each range must lie in live device memory, and no other stream
 * may touch it unordered (one side writing). Returns ACL_SUCCESS, or
 * ACL_ERROR_INVALID_PARAM after a report. Outside checker mode: ACL_SUCCESS.
 * On a capturing stream the accesses are kept for the next task recorded
 * there when its name equals `opName` (canopyLaunchTask's `name`), and each
 * replay checks them again. */
ACL_FUNC_VISIBILITY aclError canopyCheckAccesses(aclrtStream stream, const char *opName,
                                                 const canopyMemoryAccess *accesses, size_t count);

/* Tracing (CANOPY_TRACE=FILE writes a Chrome/Perfetto JSON trace). */
ACL_FUNC_VISIBILITY int canopyTraceEnabled(void);
/* Nanoseconds on the trace's clock. */
ACL_FUNC_VISIBILITY int64_t canopyTraceNowNs(void);
/* A span on the calling thread (inside a running task: on that task's stream).
 * `name` and `category` must outlive the process (string literals); `argsJson`
 * is a JSON object or NULL. */
ACL_FUNC_VISIBILITY void canopyTraceSpan(const char *name, const char *category, int64_t beginNs, int64_t endNs,
                                         const char *argsJson);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_CANOPY_RUNTIME_H_ */
