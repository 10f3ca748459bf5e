// aclnnBincount (torch.bincount): out[v] counts the elements of self equal
// to v (adds their weights, when weights is given). self is INT32 as CANN
// casts it; out is 1-D, at least minlength long, and values below 0 or from
// its extent on are not counted. FLOAT and DOUBLE weights accumulate in their
// own dtype, other weights in DOUBLE, no weights as integers; the sums are
// cast to out's dtype.
#include <algorithm>
#include <optional>
#include <vector>

#include "aclnnop/aclnn_bincount.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSelfDtypes = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8};
constexpr DtypeSet kWeightsDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                     ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BOOL};
constexpr DtypeSet kOutDtypes = {ACL_FLOAT, ACL_DOUBLE, ACL_INT32, ACL_INT64};
constexpr int64_t kMaxSize = 2147483647;

// sums[v] (Sum: INT64, FLOAT or DOUBLE) += weights[i] (1 without) for each self[i] == v, all contiguous.
template <typename Sum>
class BincountStep final : public Step {
 public:
  BincountStep(const TensorRef& self, const TensorRef* weights, const TensorRef& sums)
      : self_(self), has_weights_(weights != nullptr), sums_(sums) {
    if (weights != nullptr) weights_ = *weights;
  }

  aclnnStatus Run(const RunContext& context) const override {
    const auto* self = reinterpret_cast<const int32_t*>(context.Resolve(self_.buffer));
    const auto* weights = has_weights_ ? reinterpret_cast<const Sum*>(context.Resolve(weights_.buffer)) : nullptr;
    auto* sums = reinterpret_cast<Sum*>(context.Resolve(sums_.buffer));
    const int64_t size = sums_.NumElements();
    for (int64_t v = 0; v < size; ++v) sums[v] = Sum(0);
    for (int64_t i = 0, n = self_.NumElements(); i < n; ++i) {
      const int64_t v = self[i];
      if (v >= 0 && v < size) sums[v] += weights != nullptr ? weights[i] : Sum(1);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "bincount of " + ShapeToString(self_.shape) + " into " + std::to_string(sums_.NumElements()) + " bins";
  }

 private:
  TensorRef self_;
  bool has_weights_;
  TensorRef weights_;
  TensorRef sums_;
};

aclnnStatus PlanBincount(Plan& plan, const aclTensor* self, const aclTensor* weights, int64_t minlength,
                         const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSelfDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kOutDtypes));
  if (weights != nullptr) CANOPY_CHECK(plan.CheckDtype("weights", weights->dtype, kWeightsDtypes));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, 1));
  if (weights != nullptr) {
    if (weights->format != self->format) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'weights' must have self's format");
    }
    CANOPY_CHECK(plan.CheckShape("weights", weights, self->view_shape));
  }
  const TensorRef in = plan.Input(self, "self");
  std::optional<TensorRef> w;
  if (weights != nullptr) {
    w = plan.Input(weights, "weights");
  } else {
    plan.SkipInput();
  }
  CANOPY_CHECK(plan.CheckRank("out", out, 1, 1));
  const TensorRef dst = plan.Output(out, "out");
  if (in.NumElements() == 0) {
    // CANN fills out only where minlength > 0 and leaves it unwritten otherwise; zeros are the counts either way.
    plan.Fill(dst, ScalarValue::Integer(0));
    return ACLNN_SUCCESS;
  }
  const int64_t size = std::max(dst.shape[0], minlength);
  if (size > kMaxSize) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the output size %ld exceeds %ld", static_cast<long>(size),
                       static_cast<long>(kMaxSize));
  }
  // CANN computes [size] values and copies them into out.
  if (size != dst.shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has %ld elements, fewer than minlength %ld",
                       static_cast<long>(dst.shape[0]), static_cast<long>(minlength));
  }
  const TensorRef indices = plan.Contiguous(in, ACL_INT32);
  const aclDataType sum_dtype = !w ? ACL_INT64 : (w->dtype == ACL_FLOAT ? ACL_FLOAT : ACL_DOUBLE);
  const TensorRef sums = plan.Temporary(sum_dtype, {size});
  std::vector<TensorRef> reads = {indices};
  std::optional<TensorRef> contiguous_weights;
  if (w) {
    contiguous_weights = plan.Contiguous(*w, sum_dtype);
    reads.push_back(*contiguous_weights);
  }
  const TensorRef* weight_ref = contiguous_weights ? &*contiguous_weights : nullptr;
  switch (sum_dtype) {
    case ACL_FLOAT:
      plan.AddStep(std::make_unique<BincountStep<float>>(indices, weight_ref, sums), reads, sums);
      break;
    case ACL_DOUBLE:
      plan.AddStep(std::make_unique<BincountStep<double>>(indices, weight_ref, sums), reads, sums);
      break;
    default:
      plan.AddStep(std::make_unique<BincountStep<int64_t>>(indices, weight_ref, sums), reads, sums);
      break;
  }
  plan.Copy(sums, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Bincount, PlanBincount,
                (OpTraits{.header = "aclnnop/aclnn_bincount.h",
                          .dtypes = kSelfDtypes | kWeightsDtypes | kOutDtypes,
                          .example = "i32[6]{0:4} f32[6] 0 f32[5]"}),
                (const aclTensor*, self), (const aclTensor*, weights, optional), (int64_t, minlength),
                (aclTensor*, out))
