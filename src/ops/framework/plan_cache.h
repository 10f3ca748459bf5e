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

  // Each argument's encoding is self-delimiting (a count or a null marker
  // first), so two different argument lists never give the same bytes.
  void Add(const aclTensor* tensor);
  void Add(const aclScalar* scalar);
  void Add(int64_t attribute);
  void AddDouble(double attribute);  // floats widen exactly
  void AddString(const char* text);
  void AddIntArray(const aclIntArray* array);
  void AddFloatArray(const aclFloatArray* array);
  void AddBoolArray(const aclBoolArray* array);
  // The count, then every element as Add(tensor) records it (each joins tensors()).
  void AddTensorList(const aclTensorList* list);
  void AddScalarList(const aclScalarList* list);
  // The storage shape of every tensor added so far, ND ones included: for ops
  // whose checks read it (those taking private layouts, whose weights may come
  // tagged ND over blocked storage), so that a hit cannot skip those checks.
  void AddStorageShapes();

  const std::string& bytes() const { return bytes_; }
  // The tensor arguments in order, a list's elements in place of the list
  // (null ones included), to rebind addresses from.
  const std::vector<const aclTensor*>& tensors() const { return tensors_; }
  // "name=value ..." of every argument, written only while tracing (DescribeArgument).
  std::string& description() { return description_; }
  const std::string& description() const { return description_; }

 private:
  void Append(const void* data, size_t size) { bytes_.append(static_cast<const char*>(data), size); }
  std::string bytes_;
  std::vector<const aclTensor*> tensors_;
  // Each tensor's latest position in tensors_, kept once the list is long (a
  // foreach op's thousand tensors: a scan per tensor was quadratic).
  std::unordered_map<const aclTensor*, int64_t> positions_;
  std::string description_;
};

// Appends " name=value" for one argument to a trace description.
void DescribeArgument(std::string& out, const char* name, const aclTensor* tensor);
void DescribeArgument(std::string& out, const char* name, const aclScalar* scalar);
void DescribeArgument(std::string& out, const char* name, int64_t value);
void DescribeArgument(std::string& out, const char* name, bool value);
void DescribeArgument(std::string& out, const char* name, double value);
void DescribeArgument(std::string& out, const char* name, const char* text);
void DescribeArgument(std::string& out, const char* name, const aclIntArray* array);
void DescribeArgument(std::string& out, const char* name, const aclFloatArray* array);
void DescribeArgument(std::string& out, const char* name, const aclBoolArray* array);
void DescribeArgument(std::string& out, const char* name, const aclTensorList* list);
void DescribeArgument(std::string& out, const char* name, const aclScalarList* list);

struct CachedPlan {
  std::shared_ptr<const ExecutorPlan> plan;
  std::vector<int32_t> slot_sources;  // per slot: index into PlanKey::tensors()
};

class PlanCache {
 public:
  // Entries kept at most, least recently used evicted first.
  static constexpr size_t kCapacity = 4096;
  // And at most this many bytes by EstimatedBytes: plans over long tensor lists
  // hold a step per tensor (ForeachAbs over 256 tensors, ~1 MiB), so 4096 of
  // them held ~4 GiB; a single plan above half of it is not kept.
  static constexpr int64_t kBudgetBytes = int64_t{64} << 20;
  // What a kept plan holds, estimated from its parts: its key (twice: list and
  // index), kStepBytes a step and kTensorBytes a tensor it reads or writes (a
  // list's steps nest inside one guard step, a step or more per tensor).
  // Measured with mallinfo2 on a Zen 5: Add 5.6 KiB a plan (estimate 7),
  // Softmax 4.7 (5), ForeachAbs over 256 tensors 1050 (1025); a oneDNN Matmul
  // 31 (7), whose primitive oneDNN's own cache also bounds.
  static constexpr int64_t kStepBytes = 1024;
  static constexpr int64_t kTensorBytes = 2048;
  static int64_t EstimatedBytes(const std::string& key, const CachedPlan& plan);

  static PlanCache& Get();

  std::shared_ptr<const CachedPlan> Find(const PlanKey& key);
  void Insert(const PlanKey& key, std::shared_ptr<const CachedPlan> plan);
  // A new executor running the cached steps on the key's tensors.
  static aclOpExecutor* Instantiate(const char* op_name, const CachedPlan& plan, const PlanKey& key);

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const CachedPlan> plan;
    int64_t bytes = 0;  // EstimatedBytes
  };
  std::mutex mutex_;
  std::list<Entry> recency_;  // most recent first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  int64_t bytes_ = 0;  // of every entry
};

bool PlanCacheEnabled();

// {"tensors":"FLOAT[2,3] ...","args":"self=FLOAT[2,3] dim=[0] ...","plan":"cache hit"}:
// the key's tensors and every argument's value, for trace events.
std::string TraceArgs(const PlanKey& key, bool cache_hit);

}  // namespace canopy::ops
