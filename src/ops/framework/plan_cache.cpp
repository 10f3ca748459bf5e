#include "plan_cache.h"

#include <cstdio>
#include <cstring>

#include "canopy/canopy_runtime.h"
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
  positions_.clear();
  description_.clear();
  bytes_.append(op_name);
  bytes_.push_back('\0');
  // A plan made under ACL_OPT_DETERMINISTIC splits its work differently
  // (kernels/matmul.cpp): the mode is part of every call's identity.
  bytes_.push_back(canopyDeterministicMode() != 0 ? 'D' : '-');
}

void PlanKey::Add(const aclTensor* tensor) {
  // Which earlier argument this one is (in-place calls pass a tensor twice), or
  // -1: a scan of the few arguments of most ops, a map for long lists.
  constexpr size_t kScanned = 32;
  int64_t same_as = kNullMarker;
  if (tensor != nullptr && tensors_.size() <= kScanned) {
    for (size_t i = 0; i < tensors_.size(); ++i) {
      if (tensors_[i] == tensor) same_as = static_cast<int64_t>(i);
    }
  } else if (tensor != nullptr) {
    if (positions_.empty()) {
      for (size_t i = 0; i < tensors_.size(); ++i) {
        if (tensors_[i] != nullptr) positions_[tensors_[i]] = static_cast<int64_t>(i);
      }
    }
    const auto found = positions_.find(tensor);
    if (found != positions_.end()) same_as = found->second;
  }
  if (!positions_.empty() && tensor != nullptr) positions_[tensor] = static_cast<int64_t>(tensors_.size());
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
  // A private layout's storage shape is checked by the ops that take one
  // (ConvertWeightToINT4Pack's, TransposeBatchMatMulWeightNz's NZ rank): a hit must not skip that.
  if (tensor->format != ACL_FORMAT_ND) {
    const auto storage_rank = static_cast<int64_t>(tensor->storage_shape.size());
    Append(&storage_rank, sizeof(storage_rank));
    Append(tensor->storage_shape.data(), tensor->storage_shape.size() * sizeof(int64_t));
  }
}

void PlanKey::AddStorageShapes() {
  for (const aclTensor* tensor : tensors_) {
    if (tensor == nullptr) continue;
    const auto storage_rank = static_cast<int64_t>(tensor->storage_shape.size());
    Append(&storage_rank, sizeof(storage_rank));
    Append(tensor->storage_shape.data(), tensor->storage_shape.size() * sizeof(int64_t));
  }
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

void PlanKey::AddDouble(double attribute) { Append(&attribute, sizeof(attribute)); }

void PlanKey::AddString(const char* text) {
  const int64_t length = text == nullptr ? kNullMarker : static_cast<int64_t>(std::strlen(text));
  Append(&length, sizeof(length));
  if (text != nullptr) Append(text, static_cast<size_t>(length));
}

void PlanKey::AddIntArray(const aclIntArray* array) {
  const int64_t count = array == nullptr ? kNullMarker : static_cast<int64_t>(array->values.size());
  Append(&count, sizeof(count));
  if (array != nullptr) Append(array->values.data(), array->values.size() * sizeof(int64_t));
}

void PlanKey::AddFloatArray(const aclFloatArray* array) {
  const int64_t count = array == nullptr ? kNullMarker : static_cast<int64_t>(array->values.size());
  Append(&count, sizeof(count));
  if (array != nullptr) Append(array->values.data(), array->values.size() * sizeof(float));
}

void PlanKey::AddBoolArray(const aclBoolArray* array) {
  const int64_t count = array == nullptr ? kNullMarker : static_cast<int64_t>(array->values.size());
  Append(&count, sizeof(count));
  if (array == nullptr) return;
  for (const bool value : array->values) bytes_.push_back(value ? '\1' : '\0');
}

void PlanKey::AddTensorList(const aclTensorList* list) {
  const int64_t count = list == nullptr ? kNullMarker : static_cast<int64_t>(list->tensors.size());
  Append(&count, sizeof(count));
  if (list == nullptr) return;
  for (const aclTensor* tensor : list->tensors) Add(tensor);
}

void PlanKey::AddScalarList(const aclScalarList* list) {
  const int64_t count = list == nullptr ? kNullMarker : static_cast<int64_t>(list->scalars.size());
  Append(&count, sizeof(count));
  if (list == nullptr) return;
  for (const aclScalar* scalar : list->scalars) Add(scalar);
}

namespace {

void DescribeTensor(std::string& out, const aclTensor* tensor) {
  if (tensor == nullptr) {
    out += "null";
    return;
  }
  out += DtypeName(tensor->dtype);
  out += '[';
  for (size_t d = 0; d < tensor->view_shape.size(); ++d) {
    if (d > 0) out += ',';
    out += std::to_string(tensor->view_shape[d]);
  }
  out += ']';
}

void DescribeScalar(std::string& out, const aclScalar* scalar) {
  if (scalar == nullptr) {
    out += "null";
    return;
  }
  out += DtypeName(scalar->dtype);
}

void Named(std::string& out, const char* name) {
  if (!out.empty()) out += ' ';
  out += name;
  out += '=';
}

// [a,b,c] of any sequence, each element written by `write`.
template <typename Sequence, typename Write>
void DescribeSequence(std::string& out, const Sequence& values, Write write) {
  out += '[';
  bool first = true;
  for (const auto& value : values) {
    if (!first) out += ',';
    first = false;
    write(value);
  }
  out += ']';
}

std::string ShortDouble(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace

void DescribeArgument(std::string& out, const char* name, const aclTensor* tensor) {
  Named(out, name);
  DescribeTensor(out, tensor);
}

void DescribeArgument(std::string& out, const char* name, const aclScalar* scalar) {
  Named(out, name);
  DescribeScalar(out, scalar);
}

void DescribeArgument(std::string& out, const char* name, int64_t value) {
  Named(out, name);
  out += std::to_string(value);
}

void DescribeArgument(std::string& out, const char* name, bool value) {
  Named(out, name);
  out += value ? "true" : "false";
}

void DescribeArgument(std::string& out, const char* name, double value) {
  Named(out, name);
  out += ShortDouble(value);
}

void DescribeArgument(std::string& out, const char* name, const char* text) {
  Named(out, name);
  if (text == nullptr) {
    out += "null";
    return;
  }
  // Trace arguments are a JSON string: keep the client's text to plain characters.
  for (const char* c = text; *c != '\0'; ++c) out += (*c >= 0x20 && *c < 0x7f && *c != '"' && *c != '\\') ? *c : '?';
}

void DescribeArgument(std::string& out, const char* name, const aclIntArray* array) {
  Named(out, name);
  if (array == nullptr) {
    out += "null";
    return;
  }
  DescribeSequence(out, array->values, [&](int64_t v) { out += std::to_string(v); });
}

void DescribeArgument(std::string& out, const char* name, const aclFloatArray* array) {
  Named(out, name);
  if (array == nullptr) {
    out += "null";
    return;
  }
  DescribeSequence(out, array->values, [&](float v) { out += ShortDouble(v); });
}

void DescribeArgument(std::string& out, const char* name, const aclBoolArray* array) {
  Named(out, name);
  if (array == nullptr) {
    out += "null";
    return;
  }
  DescribeSequence(out, array->values, [&](bool v) { out += v ? "true" : "false"; });
}

void DescribeArgument(std::string& out, const char* name, const aclTensorList* list) {
  Named(out, name);
  if (list == nullptr) {
    out += "null";
    return;
  }
  DescribeSequence(out, list->tensors, [&](const aclTensor* t) { DescribeTensor(out, t); });
}

void DescribeArgument(std::string& out, const char* name, const aclScalarList* list) {
  Named(out, name);
  if (list == nullptr) {
    out += "null";
    return;
  }
  DescribeSequence(out, list->scalars, [&](const aclScalar* s) { DescribeScalar(out, s); });
}

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
  return "{\"tensors\":\"" + tensors + "\",\"args\":\"" + key.description() + "\",\"plan\":\"" +
         (cache_hit ? "cache hit" : "planned") + "\"}";
}

PlanCache& PlanCache::Get() {
  static auto* cache = new PlanCache();
  return *cache;
}

int64_t PlanCache::EstimatedBytes(const std::string& key, const CachedPlan& plan) {
  const ExecutorPlan& steps = *plan.plan;
  return 2 * static_cast<int64_t>(key.size()) + static_cast<int64_t>(steps.steps.size()) * kStepBytes +
         static_cast<int64_t>(steps.accesses.size()) * kTensorBytes;
}

std::shared_ptr<const CachedPlan> PlanCache::Find(const PlanKey& key) {
  std::lock_guard lock(mutex_);
  auto it = index_.find(key.bytes());
  if (it == index_.end()) return nullptr;
  recency_.splice(recency_.begin(), recency_, it->second);
  return it->second->plan;
}

void PlanCache::Insert(const PlanKey& key, std::shared_ptr<const CachedPlan> plan) {
  const int64_t bytes = EstimatedBytes(key.bytes(), *plan);
  if (bytes > kBudgetBytes / 2) return;  // it would evict most of the others
  std::lock_guard lock(mutex_);
  if (index_.contains(key.bytes())) return;
  recency_.push_front(Entry{key.bytes(), std::move(plan), bytes});
  index_[key.bytes()] = recency_.begin();
  bytes_ += bytes;
  while (recency_.size() > kCapacity || bytes_ > kBudgetBytes) {
    bytes_ -= recency_.back().bytes;
    index_.erase(recency_.back().key);
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
