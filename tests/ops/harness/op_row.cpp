// Accessors of the row types and the descriptors a Call makes; see op_row.h.
#include "harness/op_row.h"

#include <gtest/gtest.h>

namespace canopy_test::harness {

// ---- Attributes -----------------------------------------------------------------------------------

const AttrValue* AttrSet::Find(const std::string& key) const {
  for (const auto& [name, value] : values) {
    if (name == key) return &value;
  }
  return nullptr;
}

bool AttrSet::Has(const std::string& key) const { return Find(key) != nullptr; }

namespace {

template <typename T>
const T& Get(const AttrSet& attrs, const std::string& key) {
  static const T fallback{};
  const AttrValue* value = attrs.Find(key);
  if (value == nullptr || !std::holds_alternative<T>(*value)) {
    ADD_FAILURE() << "harness row: attribute set '" << attrs.name << "' has no attribute '" << key
                  << "' of the type asked for";
    return fallback;
  }
  return std::get<T>(*value);
}

}  // namespace

int64_t AttrSet::Int(const std::string& key) const { return Get<int64_t>(*this, key); }
bool AttrSet::Bool(const std::string& key) const { return Get<bool>(*this, key); }
double AttrSet::Double(const std::string& key) const { return Get<double>(*this, key); }
const std::vector<int64_t>& AttrSet::IntArray(const std::string& key) const {
  return Get<std::vector<int64_t>>(*this, key);
}
ScalarAttr AttrSet::Scalar(const std::string& key) const { return Get<ScalarAttr>(*this, key); }
aclDataType AttrSet::Dtype(const std::string& key) const { return Get<aclDataType>(*this, key); }

// ---- Views, tolerance -----------------------------------------------------------------------------

const std::vector<View>& AllInputViews() {
  static const std::vector<View> views = {View::kContiguous, View::kOffset,  View::kTransposed,
                                          View::kReversed,   View::kStepped, View::kBroadcast};
  return views;
}

const std::vector<View>& AllOutputViews() {
  static const std::vector<View> views = {View::kContiguous, View::kOffset, View::kTransposed, View::kReversed,
                                          View::kStepped};
  return views;
}

double Tolerance::UlpsFor(aclDataType dtype) const {
  for (const auto& [d, u] : perDtype) {
    if (d == dtype) return u;
  }
  return ulps;
}

// ---- Call -----------------------------------------------------------------------------------------

aclTensor* Call::Tensor(size_t input) {
  if (input >= tensors_.size() || tensors_[input] == nullptr) {
    ADD_FAILURE() << "harness row: input " << input << " is not a tensor";
    return nullptr;
  }
  return args_.Tensor(*tensors_[input]);
}

aclScalar* Call::Scalar(size_t input) {
  if (input >= tensors_.size() || tensors_[input] != nullptr) {
    ADD_FAILURE() << "harness row: input " << input << " is not a scalar";
    return nullptr;
  }
  return args_.Scalar(info_.dtypes[input], scalars_[input]);
}

aclTensor* Call::Out() {
  if (out_ == nullptr) {
    ADD_FAILURE() << "harness row: Out() called in the in-place form";
    return nullptr;
  }
  return args_.Tensor(*out_);
}

aclScalar* Call::ScalarAttr(const std::string& key) {
  const harness::ScalarAttr scalar = info_.attrs.Scalar(key);
  return args_.Scalar(scalar.dtype, scalar.value);
}

aclIntArray* Call::IntArrayAttr(const std::string& key) { return args_.IntArray(info_.attrs.IntArray(key)); }

}  // namespace canopy_test::harness
