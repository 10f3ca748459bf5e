#include "after_queued_work.h"

#include <atomic>
#include <utility>

#include "runtime.h"
#include "stream.h"

namespace canopy::runtime {
namespace {

// Shared by the marker tasks; the last one to let go runs the release.
struct PendingRelease {
  std::atomic<int> references;
  std::function<void()> release;
};

void DropReference(PendingRelease* pending) {
  if (pending->references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    pending->release();
    delete pending;
  }
}

int32_t RunNothing(void*) { return 0; }
// A marker task lets go once it has run, or when it is dropped unrun: both
// happen only after every earlier task of its stream has returned.
void DropReferenceTask(void* payload) { DropReference(*static_cast<PendingRelease**>(payload)); }

}  // namespace

void RunAfterQueuedWork(const char* name, std::function<void()> release) {
  auto* pending = new PendingRelease{{1}, std::move(release)};  // our own reference
  for (const auto& stream : Runtime::Get().StreamsThatMayRun()) {
    if (stream->Idle()) continue;
    pending->references.fetch_add(1, std::memory_order_relaxed);
    stream->EnqueueOrReleaseAfterLastTask(Task::Compute(name, RunNothing, pending, DropReferenceTask));
  }
  DropReference(pending);
}

}  // namespace canopy::runtime
