// Giving memory back while queued work may still touch it. aclrtFree,
// aclrtUnmapMem, aclrtReleaseMemAddress and canopyReleaseCachedMemory return at
// once, as on CANN; what they release must outlive every task already queued on
// any stream that may still run: registered streams, streams another thread is
// draining in aclrtDestroyStream, and streams force-destroyed while a task of
// theirs runs. This is the one place that knows all of them.
#pragma once

#include <functional>

namespace canopy::runtime {

// Runs `release` once every stream with unfinished work at the call has passed
// the point of the call in its order; on the caller, at once, when none has.
// Never waits. `release` may run on an engine thread or wherever a stream object
// is destroyed, so it must not take a lock held while enqueuing work (the
// callers call this holding none of their own locks).
void RunAfterQueuedWork(const char* name, std::function<void()> release);

}  // namespace canopy::runtime
