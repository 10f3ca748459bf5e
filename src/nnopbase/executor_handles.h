// The aclOpExecutor* a client holds is a handle, not the executor's address,
// as streams and events are: a table entry index plus the entry's generation.
// A non-repeatable executor's handle dies at its phase 2, a repeatable one's at
// aclDestroyAclOpExecutor; using it afterwards (a second launch, a rebind, a
// second destroy) finds a retired generation and is an error code, never a
// dereference of freed memory or of the next executor that took its place.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "aclnn/aclnn_base.h"

struct aclOpExecutor;

namespace canopy {

class ExecutorHandles {
 public:
  static ExecutorHandles& Get();

  // A fresh handle for `executor` (which keeps the client's reference); null
  // when the table is full.
  aclOpExecutor* Publish(aclOpExecutor* executor);

  // The live executor behind `handle`, or null (and the reason in `why`).
  // Retire: the handle dies now and the caller inherits the client's reference
  // (phase 2 of a non-repeatable executor, aclDestroyAclOpExecutor).
  // Borrow: the caller gets a reference of its own to release.
  // LaunchOrBorrow: Retire when the executor is not repeatable, else Borrow;
  // `retired` says which.
  aclOpExecutor* Retire(aclOpExecutor* handle, const char** why);
  aclOpExecutor* Borrow(aclOpExecutor* handle, const char** why);
  aclOpExecutor* LaunchOrBorrow(aclOpExecutor* handle, bool* retired, const char** why);
  // aclSetAclOpExecutorRepeatable: false (and `why`) when the handle is not live.
  bool SetRepeatable(aclOpExecutor* handle, const char** why);

 private:
  ExecutorHandles() = default;

  struct Entry {
    aclOpExecutor* executor = nullptr;  // null while the entry is free
    uint64_t generation = 1;            // advanced each time the entry is retired
  };
  // The entry `handle` names while it is live, else null; needs mutex_.
  Entry* FindLocked(aclOpExecutor* handle, const char** why);
  void RetireLocked(uint32_t index);

  std::mutex mutex_;  // a leaf lock: nothing is called out of this class while it is held
  std::vector<Entry> entries_;
  // Retired entries, oldest first: reusing the oldest, and only once many are
  // free, spreads an entry's generations over the longest time.
  std::deque<uint32_t> free_;
};

}  // namespace canopy
