// aclnnFusedLinearOnlineMaxSum: logits = input @ weight^T in f32 (stored in
// vocabParallelLogitsOutOptional's dtype when it is given), then per row i
//   logitsMaxLocalOut[i]       = max_v logits[i, v]
//   sumExpLogitsLocalOut[i]    = sum_v exp(logits[i, v] - max)
//   mask[i]                    = target[i] < vocabStartIndex or target[i] >= vocabEndIndex
//   maskedTargetOut[i]         = mask ? 0 : target[i] - vocabStartIndex
//   predictedLogitsLocalOut[i] = mask ? 0 : logits[i, maskedTarget] - max
//   targetMaskOut              = mask packed 8 a byte, row 8j + b in bit b of byte j
//                                (the rows past m, up to a multiple of 8, as for target 0)
// as CANN's reference and its backward kernel's reading of the mask do. A local
// index past weight's rows (vocabEndIndex beyond the doc's range) gives 0.
//
// CANN's checks (its host code), all 161002 after the null checks: dtypes
// (input and weight FLOAT16 / BFLOAT16 alike, target INT32 / INT64, the three
// statistics FLOAT, the mask UINT8, maskedTargetOut target's dtype, the logits
// input's), ranks, weight.size(0) > 0, input.size(1) <= 65534 and equal to
// weight.size(1), the outputs' shapes, vocabStartIndex >= 0, vocabEndIndex >=
// vocabStartIndex. An empty input (m = 0) is accepted and computes nothing.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "aclnnop/aclnn_fused_linear_online_max_sum.h"
#include "kernels/parallel_for.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kIndexDtypes = {ACL_INT32, ACL_INT64};
constexpr int64_t kMaxK = 65534;
constexpr int64_t kBitsPerByte = 8;
constexpr int64_t kRowGrain = 4;

struct RowStatsBuffers {
  TensorRef logits, target;                          // f32 [m, v], INT64 [m]
  TensorRef max, sum, predicted, masked, mask_bits;  // f32 [m] x3, INT64 [m], UINT8 [(m + 7) / 8]
};

class RowStatsStep final : public Step {
 public:
  RowStatsStep(RowStatsBuffers b, int64_t start, int64_t end) : b_(std::move(b)), start_(start), end_(end) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* logits = reinterpret_cast<const float*>(context.Resolve(b_.logits.buffer));
    const auto* target = reinterpret_cast<const int64_t*>(context.Resolve(b_.target.buffer));
    auto* max = reinterpret_cast<float*>(context.Resolve(b_.max.buffer));
    auto* sum = reinterpret_cast<float*>(context.Resolve(b_.sum.buffer));
    auto* predicted = reinterpret_cast<float*>(context.Resolve(b_.predicted.buffer));
    auto* masked = reinterpret_cast<int64_t*>(context.Resolve(b_.masked.buffer));
    auto* bits = reinterpret_cast<uint8_t*>(context.Resolve(b_.mask_bits.buffer));
    const int64_t m = b_.logits.shape[0], v = b_.logits.shape[1];
    const auto outside = [this](int64_t t) { return t < start_ || t >= end_; };
    kernels::ParallelFor(m, kRowGrain, 1, [&](int64_t begin, int64_t stop) {
      for (int64_t i = begin; i < stop; ++i) {
        const float* row = logits + i * v;
        float row_max = -std::numeric_limits<float>::infinity();
        for (int64_t j = 0; j < v; ++j) row_max = std::fmax(row_max, row[j]);
        float total = 0.0f;
        for (int64_t j = 0; j < v; ++j) total += std::exp(row[j] - row_max);
        max[i] = row_max;
        sum[i] = total;
        const bool out = outside(target[i]);
        const int64_t local = out ? 0 : target[i] - start_;
        masked[i] = local;
        predicted[i] = out || local >= v ? 0.0f : row[local] - row_max;
      }
    });
    const int64_t bytes = b_.mask_bits.shape[0];
    for (int64_t byte = 0; byte < bytes; ++byte) {
      uint8_t packed = 0;
      for (int64_t bit = 0; bit < kBitsPerByte; ++bit) {
        const int64_t row = byte * kBitsPerByte + bit;
        if (outside(row < m ? target[row] : 0)) packed = static_cast<uint8_t>(packed | (1u << bit));
      }
      bits[byte] = packed;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "online max-sum rows " + ShapeToString(b_.logits.shape); }

 private:
  RowStatsBuffers b_;
  int64_t start_, end_;
};

aclnnStatus PlanFusedLinearOnlineMaxSum(Plan& plan, const aclTensor* input, const aclTensor* weight,
                                        const aclTensor* target, int64_t vocab_start, int64_t vocab_end,
                                        const aclTensor* max_out, const aclTensor* sum_out,
                                        const aclTensor* predicted_out, const aclTensor* mask_out,
                                        const aclTensor* masked_out, const aclTensor* logits_out) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("weight", weight->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("target", target->dtype, kIndexDtypes));
  if (weight->dtype != input->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weight (%s) must have input's dtype (%s)", DtypeName(weight->dtype),
                       DtypeName(input->dtype));
  }
  for (const auto& [name, t] : {std::pair{"logitsMaxLocalOut", max_out}, std::pair{"sumExpLogitsLocalOut", sum_out},
                                std::pair{"predictedLogitsLocalOut", predicted_out}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {ACL_FLOAT}));
  }
  CANOPY_CHECK(plan.CheckDtype("targetMaskOut", mask_out->dtype, {ACL_UINT8}));
  if (masked_out->dtype != target->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "maskedTargetOut (%s) must have target's dtype (%s)",
                       DtypeName(masked_out->dtype), DtypeName(target->dtype));
  }
  if (logits_out != nullptr && logits_out->dtype != input->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "vocabParallelLogitsOutOptional (%s) must have input's dtype (%s)",
                       DtypeName(logits_out->dtype), DtypeName(input->dtype));
  }
  CANOPY_CHECK(plan.CheckRank("input", input, 2, 2));
  CANOPY_CHECK(plan.CheckRank("weight", weight, 2, 2));
  CANOPY_CHECK(plan.CheckRank("target", target, 1, 1));
  const int64_t m = input->view_shape[0], k = input->view_shape[1], v = weight->view_shape[0];
  if (v <= 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weight.size(0) must be greater than 0");
  if (k > kMaxK) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "input.size(1) (%lld) must be at most 65534",
                       static_cast<long long>(k));
  }
  if (weight->view_shape[1] != k) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weight %s and input %s must agree on k",
                       ShapeToString(weight->view_shape).c_str(), ShapeToString(input->view_shape).c_str());
  }
  const int64_t mask_bytes = (m + kBitsPerByte - 1) / kBitsPerByte;
  CANOPY_CHECK(plan.CheckShape("target", target, {m}));
  CANOPY_CHECK(plan.CheckShape("logitsMaxLocalOut", max_out, {m}));
  CANOPY_CHECK(plan.CheckShape("sumExpLogitsLocalOut", sum_out, {m}));
  CANOPY_CHECK(plan.CheckShape("predictedLogitsLocalOut", predicted_out, {m}));
  CANOPY_CHECK(plan.CheckShape("targetMaskOut", mask_out, {mask_bytes}));
  CANOPY_CHECK(plan.CheckShape("maskedTargetOut", masked_out, {m}));
  if (logits_out != nullptr) CANOPY_CHECK(plan.CheckShape("vocabParallelLogitsOutOptional", logits_out, {m, v}));
  if (vocab_start < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "vocabStartIndex (%lld) must be at least 0",
                       static_cast<long long>(vocab_start));
  }
  if (vocab_end < vocab_start) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "vocabEndIndex (%lld) must be at least vocabStartIndex (%lld)",
                       static_cast<long long>(vocab_end), static_cast<long long>(vocab_start));
  }

  const TensorRef input_ref = plan.Input(input, "input");
  const TensorRef weight_ref = plan.Input(weight, "weight");
  const TensorRef target_ref = plan.Input(target, "target");
  RowStatsBuffers b;
  const TensorRef max_ref = plan.Output(max_out, "logitsMaxLocalOut");
  const TensorRef sum_ref = plan.Output(sum_out, "sumExpLogitsLocalOut");
  const TensorRef predicted_ref = plan.Output(predicted_out, "predictedLogitsLocalOut");
  const TensorRef mask_ref = plan.Output(mask_out, "targetMaskOut");
  const TensorRef masked_ref = plan.Output(masked_out, "maskedTargetOut");
  TensorRef logits_ref;
  if (logits_out != nullptr) {
    logits_ref = plan.Output(logits_out, "vocabParallelLogitsOutOptional");
  } else {
    plan.SkipOutput();
  }
  if (m == 0) return ACLNN_SUCCESS;

  b.logits = plan.Temporary(ACL_FLOAT, {m, v});
  CANOPY_CHECK(PlanProduct(plan, input_ref, Transpose(weight_ref, 0, 1), b.logits, 0));
  if (logits_out != nullptr) plan.Copy(b.logits, logits_ref);
  b.target = plan.Contiguous(target_ref, ACL_INT64);
  b.max = plan.Temporary(ACL_FLOAT, {m});
  b.sum = plan.Temporary(ACL_FLOAT, {m});
  b.predicted = plan.Temporary(ACL_FLOAT, {m});
  b.masked = plan.Temporary(ACL_INT64, {m});
  b.mask_bits = plan.Temporary(ACL_UINT8, {mask_bytes});
  // One step writes five temporaries: the framework takes it to read and write everything (no overlap to stage).
  plan.AddStep(std::make_unique<RowStatsStep>(b, vocab_start, vocab_end));
  plan.Copy(b.max, max_ref);
  plan.Copy(b.sum, sum_ref);
  plan.Copy(b.predicted, predicted_ref);
  plan.Copy(b.masked, masked_ref);
  plan.Copy(b.mask_bits, mask_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(FusedLinearOnlineMaxSum, PlanFusedLinearOnlineMaxSum,
                (OpTraits{.header = "aclnnop/aclnn_fused_linear_online_max_sum.h",
                          .dtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_UINT8},
                          .example = "bf16[4,16] bf16[8,16] i64[4]{0:15} 4 12 f32[4] f32[4] f32[4] u8[1] i64[4] "
                                     "bf16[4,8]"}),
                (const aclTensor*, input), (const aclTensor*, weight), (const aclTensor*, target),
                (int64_t, vocabStartIndex), (int64_t, vocabEndIndex), (aclTensor*, logitsMaxLocalOut),
                (aclTensor*, sumExpLogitsLocalOut), (aclTensor*, predictedLogitsLocalOut), (aclTensor*, targetMaskOut),
                (aclTensor*, maskedTargetOut), (aclTensor*, vocabParallelLogitsOutOptional, optional))
