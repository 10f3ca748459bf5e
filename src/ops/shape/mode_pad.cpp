#include "mode_pad.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "shape_checks.h"

namespace canopy::ops {
namespace {

const char* ModeName(PadMode mode) {
  switch (mode) {
    case PadMode::kReplicate:
      return "replication";
    case PadMode::kReflect:
      return "reflection";
    case PadMode::kCircular:
      return "circular";
  }
  return "?";
}

// Index j of a padded dimension of extent n + before + after mapped into [0, n).
int64_t MapIndex(PadMode mode, int64_t j, int64_t n, int64_t before, int64_t after) {
  int64_t i = j - before;
  switch (mode) {
    case PadMode::kReplicate:
      return std::clamp<int64_t>(i, 0, n - 1);
    case PadMode::kReflect:
      if (i < 0) i = -i;
      if (i >= n) i = 2 * (n - 1) - i;
      return i;
    case PadMode::kCircular: {
      // As torch's circular pad: negative pads crop first, and the pads wrap
      // around what is left (length kept), whose first element is self's
      // element max(-before, 0).
      const int64_t crop = std::max<int64_t>(-before, 0);
      const int64_t kept = n - crop - std::max<int64_t>(-after, 0);
      i = j - std::max<int64_t>(before, 0);
      return ((i % kept) + kept) % kept + crop;
    }
  }
  return 0;
}

// out[p] = src[sum over d of table_d[p_d]]: one offset table per dimension of out.
class TableGatherStep final : public Step {
 public:
  TableGatherStep(std::string what, const TensorRef& src, const TensorRef& dst, std::vector<Shape> tables)
      : what_(std::move(what)), src_(src), dst_(dst), tables_(std::move(tables)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* src = context.Resolve(src_.buffer);
    char* dst = context.Resolve(dst_.buffer);
    const auto bytes = static_cast<size_t>(DtypeSize(dst_.dtype));
    const size_t rank = dst_.shape.size();
    const size_t last = rank - 1;
    const int64_t width = dst_.shape[last];
    const int64_t dst_step = dst_.strides[last];
    const Shape& inner = tables_[last];
    std::vector<int64_t> position(rank, 0);
    while (true) {
      int64_t from = 0;
      int64_t to = 0;
      for (size_t d = 0; d < last; ++d) {
        from += tables_[d][position[d]];
        to += position[d] * dst_.strides[d];
      }
      for (int64_t j = 0; j < width; ++j) {
        std::memcpy(dst + (to + j * dst_step) * static_cast<int64_t>(bytes),
                    src + (from + inner[j]) * static_cast<int64_t>(bytes), bytes);
      }
      size_t d = last;
      while (d > 0) {
        --d;
        if (++position[d] < dst_.shape[d]) break;
        position[d] = 0;
        if (d == 0) return ACLNN_SUCCESS;
      }
      if (last == 0) return ACLNN_SUCCESS;
    }
  }

  std::string Describe() const override {
    return what_ + " " + ShapeToString(src_.shape) + " -> " + ShapeToString(dst_.shape) + " " + DtypeName(dst_.dtype);
  }

 private:
  std::string what_;
  TensorRef src_;
  TensorRef dst_;
  std::vector<Shape> tables_;
};

}  // namespace

aclnnStatus PlanModePad(Plan& plan, const ModePadRule& rule, const aclTensor* self, const aclIntArray* padding,
                        const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, rule.dtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, rule.dtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckRank("self", self, rule.spatial + 1, rule.spatial + 2));
  const int64_t rank = self->rank();
  if (padding->values.size() != static_cast<size_t>(2 * rule.spatial)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'padding' has %zu values; it needs %lld",
                       padding->values.size(), 2 * static_cast<long long>(rule.spatial));
  }
  Shape expected = self->view_shape;
  for (int64_t k = 0; k < rule.spatial; ++k) {
    const int64_t d = rank - 1 - k;
    const int64_t n = self->view_shape[d];
    const int64_t before = padding->values[2 * k], after = padding->values[2 * k + 1];
    // Each value below the extent (CANN's rule), and no crop past it (the sum stays in range).
    if (before >= n || after >= n || before <= -n || after <= -n) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'padding' holds [%lld, %lld] for dimension %lld of extent %lld; each must lie in "
                         "(-%lld, %lld)",
                         static_cast<long long>(before), static_cast<long long>(after), static_cast<long long>(d),
                         static_cast<long long>(n), static_cast<long long>(n), static_cast<long long>(n));
    }
    expected[d] = n + before + after;
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  if (self->NumElements() == 0 || out->NumElements() == 0) {
    // CANN takes an empty batch (a batched self of extent 0 in dimension 0) and nothing else empty.
    bool empty_batch = rank == rule.spatial + 2;
    for (int64_t d = 1; d < rank; ++d) empty_batch = empty_batch && self->view_shape[d] != 0;
    if (!empty_batch) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "self of shape %s: only the batch dimension of a %lld-D self may be empty (out %s)",
                         ShapeToString(self->view_shape).c_str(), static_cast<long long>(rule.spatial) + 2,
                         ShapeToString(out->view_shape).c_str());
    }
  }
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  std::vector<Shape> tables(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t k = rank - 1 - d;  // which padded dimension d is, counted from the last
    const int64_t before = k < rule.spatial ? padding->values[2 * k] : 0;
    const int64_t after = k < rule.spatial ? padding->values[2 * k + 1] : 0;
    Shape& table = tables[static_cast<size_t>(d)];
    for (int64_t j = 0; j < dst.shape[d]; ++j) {
      const int64_t i = k < rule.spatial ? MapIndex(rule.mode, j, src.shape[d], before, after) : j;
      table.push_back(i * src.strides[d]);
    }
  }
  plan.AddStep(
      std::make_unique<TableGatherStep>(std::string(ModeName(rule.mode)) + " pad", src, dst, std::move(tables)), {src},
      dst);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
