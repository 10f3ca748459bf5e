#include "plan_cache.h"

#include "common/dtype.h"
#include "common/env.h"

namespace canopy::ops {
namespace {
constexpr int64_t kNullMarker = -1;
}  // namespace

bool PlanCacheEnabled() {
  static const bool enabled = EnvSwitch("CANOPY_PLAN_CACHE", true);
  return enabled;
}

void PlanKey::Reset(const char* op_name) {
  bytes_.clear();
  tensors_.clear();
  bytes_.append(op_name);
  bytes_.push_back('\0');
}

void PlanKey::Add(const aclTensor* tensor) {
  // Which earlier argument this one is (in-place calls pass a tensor twice), or -1.
  int64_t same_as = kNullMarker;
  for (size_t i = 0; i < tensors_.size(); ++i) {
    if (tensors_[i] == tensor && tensor != nullptr) same_as = static_cast<int64_t>(i);
  }
  tensors_.push_back(tensor);
  if (tensor == nullptr) {
    const int64_t marker[2] = {kNullMarker, kNullMarker};
    Append(marker, sizeof(marker));
    return;
  }
  const int64_t header[5] = {same_as, tensor->dtype, tensor->format, tensor->offset,
                             static_cast<int64_t>(tensor->view_shape.size())};
  Append(header, sizeof(header));
  Append(tensor->view_shape.data(), tensor->view_shape.size() * sizeof(int64_t));
  Append(tensor->strides.data(), tensor->strides.size() * sizeof(int64_t));
}

void PlanKey::Add(const aclScalar* scalar) {
  if (scalar == nullptr) {
    const int64_t marker = kNullMarker;
    Append(&marker, sizeof(marker));
    return;
  }
  const int64_t dtype = scalar->dtype;
  Append(&dtype, sizeof(dtype));
  Append(scalar->value, DtypeSize(scalar->dtype));
}

void PlanKey::Add(int64_t attribute) { Append(&attribute, sizeof(attribute)); }

std::string TraceArgs(const PlanKey& key, bool cache_hit) {
  std::string tensors;
  for (const aclTensor* tensor : key.tensors()) {
    if (!tensors.empty()) tensors += ' ';
    if (tensor == nullptr) {
      tensors += "null";
      continue;
    }
    tensors += DtypeName(tensor->dtype);
    tensors += '[';
    for (size_t d = 0; d < tensor->view_shape.size(); ++d) {
      if (d > 0) tensors += ',';
      tensors += std::to_string(tensor->view_shape[d]);
    }
    tensors += ']';
  }
  return "{\"tensors\":\"" + tensors + "\",\"plan\":\"" + (cache_hit ? "cache hit" : "planned") + "\"}";
}

PlanCache& PlanCache::Get() {
  static auto* cache = new PlanCache();
  return *cache;
}

std::shared_ptr<const CachedPlan> PlanCache::Find(const PlanKey& key) {
  std::lock_guard lock(mutex_);
  auto it = index_.find(key.bytes());
  if (it == index_.end()) return nullptr;
  recency_.splice(recency_.begin(), recency_, it->second);
  return it->second->second;
}

void PlanCache::Insert(const PlanKey& key, std::shared_ptr<const CachedPlan> plan) {
  std::lock_guard lock(mutex_);
  if (index_.contains(key.bytes())) return;
  recency_.emplace_front(key.bytes(), std::move(plan));
  index_[key.bytes()] = recency_.begin();
  if (recency_.size() > kCapacity) {
    index_.erase(recency_.back().first);
    recency_.pop_back();
  }
}

aclOpExecutor* PlanCache::Instantiate(const char* op_name, const CachedPlan& plan, const PlanKey& key) {
  auto* executor = new aclOpExecutor();
  executor->op_name = op_name;
  executor->plan = plan.plan;
  executor->slot_addresses.reserve(plan.slot_sources.size());
  for (int32_t source : plan.slot_sources) executor->slot_addresses.push_back(key.tensors()[source]->data);
  return executor;
}

}  // namespace canopy::ops
