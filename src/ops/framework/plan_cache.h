// Repeated phase 1 calls with the same op, dtypes, shapes, strides, formats,
// scalars and attributes reuse the steps planned the first time (oneDNN
// primitives included); only the tensors' addresses are taken afresh.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "nnopbase/executor.h"

namespace canopy::ops {

// The identity of a phase 1 call, minus the addresses.
class PlanKey {
 public:
  PlanKey() = default;
  explicit PlanKey(const char* op_name) { Reset(op_name); }
  // Starts a new key, keeping the buffers' capacity (phase 1 reuses one per thread).
  void Reset(const char* op_name);

  void Add(const aclTensor* tensor);
  void Add(const aclScalar* scalar);
  void Add(int64_t attribute);

  const std::string& bytes() const { return bytes_; }
  // The tensor arguments in order (null ones included), to rebind addresses from.
  const std::vector<const aclTensor*>& tensors() const { return tensors_; }

 private:
  void Append(const void* data, size_t size) { bytes_.append(static_cast<const char*>(data), size); }
  std::string bytes_;
  std::vector<const aclTensor*> tensors_;
};

struct CachedPlan {
  std::shared_ptr<const ExecutorPlan> plan;
  std::vector<int32_t> slot_sources;  // per slot: index into PlanKey::tensors()
};

class PlanCache {
 public:
  static constexpr size_t kCapacity = 4096;
  static PlanCache& Get();

  std::shared_ptr<const CachedPlan> Find(const PlanKey& key);
  void Insert(const PlanKey& key, std::shared_ptr<const CachedPlan> plan);
  // A new executor running the cached steps on the key's tensors.
  static aclOpExecutor* Instantiate(const char* op_name, const CachedPlan& plan, const PlanKey& key);

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const CachedPlan>>;
  std::mutex mutex_;
  std::list<Entry> recency_;  // most recent first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

bool PlanCacheEnabled();

// {"inputs":"FLOAT[2,3] ...","plan":"hit"}: the key's tensors for trace events.
std::string TraceArgs(const PlanKey& key, bool cache_hit);

}  // namespace canopy::ops
