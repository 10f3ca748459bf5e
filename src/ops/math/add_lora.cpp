// aclnnAddLora (batched LoRA, A2's AddLora kernel): out = y, and for each row b
// of x whose adapter i = indices[b] has weights, columns yOffset .. yOffset + H2
// - 1 of out[b] get scale * z2 added, where z1 = x[b] . weightA[i, layerIdx]^T
// (x[b] itself without weightA) and z2 = z1 . weightB[i, layerIdx]^T. The kernel
// keeps z1 and z2 in f16 (f32 sums), scales in f16 and adds in f16; this does
// the same. A negative index, or one equal to weightB's adapter count, is the
// kernel's "no adapter" group: the row keeps y. A larger one would read past
// the weights there: here the run fails before out is written. The kernel adds
// H2 columns whatever ySliceSize is (ySliceSize is only checked).
//
// CANN's generated aclnn layer checks nulls and dtypes (161002); the rest is
// the tiling's (561002). Two more here: without weightA, x's width must be
// weightB's rank R (the kernel would read past x's rows otherwise), and out
// must have y's shape.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_lora.h"
#include "common/half.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/shape/gather.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kHalf = {ACL_FLOAT16};
constexpr DtypeSet kIndexDtype = {ACL_INT32};
constexpr DtypeSet kAllDtypes = {ACL_FLOAT16, ACL_INT32};
constexpr aclnnStatus kTilingRejects = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kBlock = 16;          // H1, H2, H3 and R: multiples of the cube block
constexpr int64_t kMaxHidden = 131072;  // H1, H2, H3
constexpr int64_t kMaxRankSize = 128;   // R, with weightA
constexpr int64_t kMaxAdapters = 32;    // W
constexpr int64_t kMaxLayers = 32;      // L
constexpr int64_t kWholeSlice = -1;     // ySliceSize: H2
constexpr int64_t kRowGrain = 4;

float HalfRounded(float value) { return HalfToFloat(FloatToHalf(value)); }

struct LoraShape {
  int64_t batch = 0, h1 = 0, h2 = 0, h3 = 0, adapters = 0, layers = 0, rank = 0;
  bool has_a = false;
};

// delta[b, :] = f16(f16(z2) * f16(scale)) for rows with an adapter, 0 for the others.
class AddLoraStep final : public Step {
 public:
  AddLoraStep(const LoraShape& shape, const TensorRef& x, const TensorRef* a, const TensorRef& b,
              const TensorRef& indices, const TensorRef& delta, float scale)
      : shape_(shape),
        x_(x),
        a_(a != nullptr ? *a : TensorRef{}),
        b_(b),
        indices_(indices),
        delta_(delta),
        scale_(HalfRounded(scale)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* indices = reinterpret_cast<const int32_t*>(context.Resolve(indices_.buffer));
    for (int64_t r = 0; r < shape_.batch; ++r) {
      if (indices[r] > shape_.adapters) {
        SetErrorMessage(
            "aclnnAddLora: indices[%lld] is %d; weightB holds %lld adapters (a negative index, or %lld, "
            "means none)",
            static_cast<long long>(r), indices[r], static_cast<long long>(shape_.adapters),
            static_cast<long long>(shape_.adapters));
        return kIndexOutOfRangeStatus;
      }
    }
    const auto* x = reinterpret_cast<const float*>(context.Resolve(x_.buffer));
    const auto* a = shape_.has_a ? reinterpret_cast<const float*>(context.Resolve(a_.buffer)) : nullptr;
    const auto* b = reinterpret_cast<const float*>(context.Resolve(b_.buffer));
    auto* delta = reinterpret_cast<float*>(context.Resolve(delta_.buffer));
    const int64_t h1 = shape_.h1, h2 = shape_.h2, rank = shape_.rank;
    kernels::ParallelFor(shape_.batch, kRowGrain, 1, [&](int64_t begin, int64_t end) {
      std::vector<float> z1(static_cast<size_t>(rank));
      for (int64_t row = begin; row < end; ++row) {
        float* out = delta + row * h2;
        const int32_t adapter = indices[row];
        if (adapter < 0 || adapter == shape_.adapters) {
          std::fill(out, out + h2, 0.0F);
          continue;
        }
        const float* xr = x + row * h1;
        for (int64_t k = 0; k < rank; ++k) {
          if (a == nullptr) {
            z1[static_cast<size_t>(k)] = xr[k];
            continue;
          }
          const float* ak = a + (adapter * rank + k) * h1;
          float sum = 0;
          for (int64_t h = 0; h < h1; ++h) sum += xr[h] * ak[h];
          z1[static_cast<size_t>(k)] = HalfRounded(sum);
        }
        for (int64_t n = 0; n < h2; ++n) {
          const float* bn = b + (adapter * h2 + n) * rank;
          float sum = 0;
          for (int64_t k = 0; k < rank; ++k) sum += z1[static_cast<size_t>(k)] * bn[k];
          out[n] = HalfRounded(HalfRounded(sum) * scale_);
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "add lora x " + ShapeToString(x_.shape) + " into " + ShapeToString(delta_.shape);
  }

 private:
  LoraShape shape_;
  TensorRef x_, a_, b_, indices_, delta_;
  float scale_;
};

aclnnStatus CheckRankIs(Plan& plan, const char* name, const aclTensor* tensor, int64_t rank) {
  if (tensor->rank() == rank) return ACLNN_SUCCESS;
  return plan.Reject(kTilingRejects, "%s has shape %s; it must have rank %lld", name,
                     ShapeToString(tensor->view_shape).c_str(), static_cast<long long>(rank));
}

aclnnStatus CheckExtent(Plan& plan, const char* what, int64_t value, int64_t limit, int64_t multiple) {
  if (value <= limit && value % multiple == 0) return ACLNN_SUCCESS;
  return plan.Reject(kTilingRejects, "%s is %lld; it must be a multiple of %lld, at most %lld", what,
                     static_cast<long long>(value), static_cast<long long>(multiple), static_cast<long long>(limit));
}

// The tiling's checks in its order; the extents on success.
aclnnStatus CheckTiling(Plan& plan, const aclTensor* y, const aclTensor* x, const aclTensor* weight_b,
                        const aclTensor* indices, const aclTensor* weight_a, int64_t layer_idx, int64_t y_offset,
                        int64_t y_slice_size, LoraShape& s) {
  CANOPY_CHECK(CheckRankIs(plan, "y", y, 2));
  CANOPY_CHECK(CheckRankIs(plan, "x", x, 2));
  if (y->view_shape[0] != x->view_shape[0]) {
    return plan.Reject(kTilingRejects, "y %s and x %s must have one batch", ShapeToString(y->view_shape).c_str(),
                       ShapeToString(x->view_shape).c_str());
  }
  s.batch = y->view_shape[0];
  s.h3 = y->view_shape[1];
  s.h1 = x->view_shape[1];
  CANOPY_CHECK(CheckRankIs(plan, "weightB", weight_b, 4));
  const Shape& wb = weight_b->view_shape;
  s.adapters = wb[0];
  s.layers = wb[1];
  s.h2 = wb[2];
  s.rank = wb[3];
  if (s.h2 > s.h3) {
    return plan.Reject(kTilingRejects, "weightB %s is wider (H2 %lld) than y %s", ShapeToString(wb).c_str(),
                       static_cast<long long>(s.h2), ShapeToString(y->view_shape).c_str());
  }
  CANOPY_CHECK(CheckRankIs(plan, "indices", indices, 1));
  if (indices->view_shape[0] != s.batch) {
    return plan.Reject(kTilingRejects, "indices %s must hold one index per row of y (%lld)",
                       ShapeToString(indices->view_shape).c_str(), static_cast<long long>(s.batch));
  }
  s.has_a = weight_a != nullptr;
  if (s.has_a) {
    CANOPY_CHECK(CheckRankIs(plan, "weightAOptional", weight_a, 4));
    const Shape& wa = weight_a->view_shape;
    if (wa[0] != wb[0] || wa[1] != wb[1] || wa[2] != s.rank || wa[3] != s.h1) {
      return plan.Reject(kTilingRejects, "weightAOptional %s must be [W, L, R, H1] = [%lld, %lld, %lld, %lld]",
                         ShapeToString(wa).c_str(), static_cast<long long>(wb[0]), static_cast<long long>(wb[1]),
                         static_cast<long long>(s.rank), static_cast<long long>(s.h1));
    }
  }
  if (layer_idx < 0 || layer_idx >= s.layers) {
    return plan.Reject(kTilingRejects, "layerIdx is %lld; it must be in [0, %lld)", static_cast<long long>(layer_idx),
                       static_cast<long long>(s.layers));
  }
  if (y_offset < 0 || y_offset >= s.h3) {
    return plan.Reject(kTilingRejects, "yOffset is %lld; it must be in [0, %lld)", static_cast<long long>(y_offset),
                       static_cast<long long>(s.h3));
  }
  const int64_t slice = y_slice_size == kWholeSlice ? s.h2 : y_slice_size;
  if (slice < 0 || slice > s.h2) {
    return plan.Reject(kTilingRejects, "ySliceSize is %lld; it must be -1 or in [0, H2 = %lld]",
                       static_cast<long long>(y_slice_size), static_cast<long long>(s.h2));
  }
  if (y_offset + s.h2 > s.h3) {
    return plan.Reject(kTilingRejects, "yOffset %lld + H2 %lld is past y's width %lld",
                       static_cast<long long>(y_offset), static_cast<long long>(s.h2), static_cast<long long>(s.h3));
  }
  if (s.has_a && s.rank > kMaxRankSize) {
    return plan.Reject(kTilingRejects, "R is %lld; it must be at most %lld", static_cast<long long>(s.rank),
                       static_cast<long long>(kMaxRankSize));
  }
  CANOPY_CHECK(CheckExtent(plan, "weightB's R", s.rank, INT64_MAX, kBlock));
  if (s.adapters > kMaxAdapters || s.layers > kMaxLayers) {
    return plan.Reject(kTilingRejects, "weightB %s holds more than %lld adapters or %lld layers",
                       ShapeToString(wb).c_str(), static_cast<long long>(kMaxAdapters),
                       static_cast<long long>(kMaxLayers));
  }
  CANOPY_CHECK(CheckExtent(plan, "x's H1", s.h1, kMaxHidden, kBlock));
  CANOPY_CHECK(CheckExtent(plan, "weightB's H2", s.h2, kMaxHidden, kBlock));
  CANOPY_CHECK(CheckExtent(plan, "y's H3", s.h3, kMaxHidden, kBlock));
  if (!s.has_a && s.h1 != s.rank) {
    return plan.Reject(kTilingRejects, "without weightAOptional, x %s must be R = %lld wide",
                       ShapeToString(x->view_shape).c_str(), static_cast<long long>(s.rank));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddLora(Plan& plan, const aclTensor* y, const aclTensor* x, const aclTensor* weight_b,
                        const aclTensor* indices, const aclTensor* weight_a, int64_t layer_idx, double scale,
                        int64_t y_offset, int64_t y_slice_size, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("y", y->dtype, kHalf));
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kHalf));
  CANOPY_CHECK(plan.CheckDtype("weightB", weight_b->dtype, kHalf));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtype));
  if (weight_a != nullptr) CANOPY_CHECK(plan.CheckDtype("weightAOptional", weight_a->dtype, kHalf));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kHalf));
  LoraShape s;
  CANOPY_CHECK(CheckTiling(plan, y, x, weight_b, indices, weight_a, layer_idx, y_offset, y_slice_size, s));
  CANOPY_CHECK(plan.CheckShape("out", out, y->view_shape));

  const TensorRef y_ref = plan.Input(y, "y");
  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef b_ref = plan.Input(weight_b, "weightB");
  const TensorRef index_ref = plan.Input(indices, "indices");
  TensorRef a_ref;
  if (weight_a != nullptr) {
    a_ref = plan.Input(weight_a, "weightAOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef out_ref = plan.Output(out, "out");
  if (out_ref.NumElements() == 0) return ACLNN_SUCCESS;

  // The layer's weights, x and indices as dense f32 / int32, the update in f32.
  const TensorRef xs = plan.Contiguous(x_ref, ACL_FLOAT);
  const TensorRef bs = plan.Contiguous(Select(b_ref, 1, layer_idx), ACL_FLOAT);
  const TensorRef as = weight_a != nullptr ? plan.Contiguous(Select(a_ref, 1, layer_idx), ACL_FLOAT) : TensorRef{};
  const TensorRef is = plan.Contiguous(index_ref, ACL_INT32);
  const TensorRef delta = plan.Temporary(ACL_FLOAT, {s.batch, s.h2});
  plan.AddStep(std::make_unique<AddLoraStep>(s, xs, weight_a != nullptr ? &as : nullptr, bs, is, delta,
                                             static_cast<float>(scale)));
  plan.Copy(y_ref, out_ref);
  if (s.h2 == 0) return ACLNN_SUCCESS;
  plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {Narrow(y_ref, 1, y_offset, s.h2), delta},
                   Narrow(out_ref, 1, y_offset, s.h2), ScalarValue::Integer(1));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(AddLora, PlanAddLora,
                (OpTraits{.header = "aclnnop/aclnn_add_lora.h",
                          .dtypes = kAllDtypes,
                          .example = "f16[1,16] f16[1,16] f16[1,1,16,16] i32[1]{0:0} f16[1,1,16,16] 0 1 0 16 "
                                     "f16[1,16]"}),
                (const aclTensor*, y), (const aclTensor*, x), (const aclTensor*, weightB), (const aclTensor*, indices),
                (const aclTensor*, weightAOptional, optional), (int64_t, layerIdx), (double, scale), (int64_t, yOffset),
                (int64_t, ySliceSize), (const aclTensor*, out))
