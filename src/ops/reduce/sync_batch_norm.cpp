// The steps of SyncBatchNorm, on the batch-normalisation kernel (kernels/batch_norm.h):
//   aclnnBatchNormStats: per channel (dim 1) of input [N, C, ...] the mean and the invstd
//     1 / sqrt(biased variance + eps) (FLOAT); an empty input gives 0 and NaN.
//   aclnnBatchNormReduce: per channel of a 4-dim NCHW or NHWC x the sum and the sum of squares
//     (FLOAT); an empty tensor among the three gives zeros before any other check, as CANN does.
//   aclnnBatchNormElemt: (input - mean) * invstd * weight + bias with the given mean and invstd.
//   aclnnBatchNormGatherStatsWithCounts: the pooled mean and invstd of `world` batches' means,
//     invstds and element counts, and the running statistics updated (the variance unbiased).
//   aclnnSyncBatchNormGatherStats: the same from the batches' sums and sums of squares with INT32
//     sample counts: batchMean, batchInvstd, and mean / variance (the running statistics) updated.
// The dtype lists are CANN's A2 ones (no BFLOAT16 for BatchNormStats' input and
// SyncBatchNormGatherStats' tensors, as the docs' A2 notes and code say).
#include <cmath>
#include <optional>

#include "aclnnop/aclnn_batch_norm_elemt.h"
#include "aclnnop/aclnn_batch_norm_gather_stats_with_counts.h"
#include "aclnnop/aclnn_batch_norm_reduce.h"
#include "aclnnop/aclnn_batch_norm_stats.h"
#include "aclnnop/aclnn_sync_batch_norm_gather_stats.h"
#include "batch_norm_plan.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kStatsDtypes = {ACL_FLOAT, ACL_FLOAT16};
constexpr DtypeSet kSyncCountDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32};
constexpr int64_t kMinRank = 2;
constexpr int64_t kMaxRank = 8;
constexpr int64_t kReduceRank = 4;

// input [N, C, ...] as [N, C, S].
Shape NcsOf(const Shape& shape) {
  const int64_t n = shape[0], c = shape[1];
  int64_t s = 1;
  for (size_t d = 2; d < shape.size(); ++d) s *= shape[d];
  return {n, c, s};
}

aclnnStatus PlanBatchNormStats(Plan& plan, const aclTensor* input, double eps, const aclTensor* mean,
                               const aclTensor* invstd) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kStatsDtypes));
  CANOPY_CHECK(plan.CheckDtype("mean", mean->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("invstd", invstd->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckRank("input", input, kMinRank, kMaxRank));
  for (const auto& [name, t] : {std::pair{"mean", mean}, std::pair{"invstd", invstd}}) {
    if (t->rank() != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be 1", name,
                         static_cast<long long>(t->rank()));
    }
  }
  const int64_t channels = input->view_shape[1];
  if (channels == 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'input' has no channels (dim 1 is 0)");
  CANOPY_CHECK(CheckChannelVector(plan, "mean", mean, channels));
  CANOPY_CHECK(CheckChannelVector(plan, "invstd", invstd, channels));
  const TensorRef in = plan.Input(input, "input");
  const TensorRef mean_out = plan.Output(mean, "mean");
  const TensorRef invstd_out = plan.Output(invstd, "invstd");
  if (input->NumElements() == 0) {  // CANN's fill: mean 0, invstd NaN
    plan.Fill(mean_out, ScalarValue::Integer(0));
    plan.Fill(invstd_out, ScalarValue::Real(std::nan("")));
    return ACLNN_SUCCESS;
  }
  const Shape ncs = NcsOf(input->view_shape);
  kernels::BatchNormDesc desc = NcsDesc(plan, in, ncs, true, eps);
  desc.write_y = false;
  desc.save_mean = ChannelOf(mean_out);
  desc.save_invstd = ChannelOf(invstd_out);
  plan.AddStep(kernels::MakeBatchNormStep(desc));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanBatchNormReduce(Plan& plan, const aclTensor* x, const aclTensor* sum, const aclTensor* square_sum) {
  if (x->NumElements() == 0 || sum->NumElements() == 0 || square_sum->NumElements() == 0) {
    plan.Input(x, "x");
    for (const auto& [name, t] : {std::pair{"sum", sum}, std::pair{"squareSum", square_sum}}) {
      const TensorRef out = plan.Output(t, name);
      if (out.NumElements() > 0) plan.Fill(out, ScalarValue::Integer(0));
    }
    return ACLNN_SUCCESS;
  }
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("sum", sum->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("squareSum", square_sum->dtype, {ACL_FLOAT}));
  if (x->format != ACL_FORMAT_NCHW && x->format != ACL_FORMAT_NHWC) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' has format %d; it must be NCHW or NHWC",
                       static_cast<int>(x->format));
  }
  for (const auto& [name, t] : {std::pair{"sum", sum}, std::pair{"squareSum", square_sum}}) {
    if (t->format != ACL_FORMAT_ND) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has format %d; it must be ND", name,
                         static_cast<int>(t->format));
    }
  }
  if (x->rank() != kReduceRank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' has rank %lld; it must be 4",
                       static_cast<long long>(x->rank()));
  }
  const bool nhwc = x->format == ACL_FORMAT_NHWC;
  const int64_t channels = x->view_shape[nhwc ? 3 : 1];
  CANOPY_CHECK(CheckChannelVector(plan, "sum", sum, channels));
  CANOPY_CHECK(CheckChannelVector(plan, "squareSum", square_sum, channels));
  const TensorRef in = plan.Input(x, "x");
  const TensorRef sum_out = plan.Output(sum, "sum");
  const TensorRef square_out = plan.Output(square_sum, "squareSum");
  const Shape& s = x->view_shape;
  const Shape ncs = nhwc ? Shape{s[0] * s[1] * s[2], channels, 1} : NcsOf(s);
  kernels::BatchNormDesc desc = NcsDesc(plan, in, ncs, true, 0);
  desc.write_y = false;
  desc.save_sum = ChannelOf(sum_out);
  desc.save_square_sum = ChannelOf(square_out);
  plan.AddStep(kernels::MakeBatchNormStep(desc));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanBatchNormElemt(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                               const aclTensor* mean, const aclTensor* invstd, double eps, const aclTensor* output) {
  for (const auto& [name, t] : {std::pair{"input", input}, std::pair{"weight", weight}, std::pair{"bias", bias},
                                std::pair{"mean", mean}, std::pair{"invstd", invstd}, std::pair{"output", output}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kFloatDtypes));
  }
  if (input->format != output->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'input' and 'output' differ in format (%d and %d)",
                       static_cast<int>(input->format), static_cast<int>(output->format));
  }
  CANOPY_CHECK(plan.CheckRank("input", input, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("output", output, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckShape("output", output, input->view_shape));
  const int64_t channels = input->view_shape[1];
  if (channels == 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'input' has no channels (dim 1 is 0)");
  for (const auto& [name, t] :
       {std::pair{"weight", weight}, std::pair{"bias", bias}, std::pair{"mean", mean}, std::pair{"invstd", invstd}}) {
    CANOPY_CHECK(CheckChannelVector(plan, name, t, channels));
  }
  const TensorRef in = plan.Input(input, "input");
  const std::optional<TensorRef> w = OptionalInput(plan, weight, "weight");
  const std::optional<TensorRef> b = OptionalInput(plan, bias, "bias");
  const TensorRef m = plan.Input(mean, "mean");
  const TensorRef s = plan.Input(invstd, "invstd");
  const TensorRef out = plan.Output(output, "output");
  if (input->NumElements() == 0) return ACLNN_SUCCESS;
  const Shape ncs = NcsOf(input->view_shape);
  kernels::BatchNormDesc desc = NcsDesc(plan, in, ncs, false, eps);
  const NcsOutput y = PlanNcsOutput(plan, out, ncs);
  desc.y = y.operand;
  desc.weight = ChannelOf(w);
  desc.bias = ChannelOf(b);
  desc.running_mean_in = ChannelOf(m);
  desc.invstd_in = ChannelOf(s);
  plan.AddStep(kernels::MakeBatchNormStep(desc));
  FinishNcsOutput(plan, y, out);
  return ACLNN_SUCCESS;
}

// A [world, c] operand of the gather step.
kernels::StridedOperand RowsOf(const TensorRef& t) { return {t.buffer, t.dtype, {t.strides[0], t.strides[1]}}; }

// The gather step's operands: the [world, c] pair, the counts, the pooled outputs and the running
// statistics (absent ones not updated).
struct GatherOperands {
  TensorRef first, second, counts, mean_out, invstd_out;
  std::optional<TensorRef> running_mean, running_var, running_mean_out, running_var_out;
};
void AddGatherStep(Plan& plan, kernels::BatchNormGatherDesc desc, const GatherOperands& o) {
  desc.first = RowsOf(o.first);
  desc.second = RowsOf(o.second);
  desc.counts = ChannelOf(o.counts);
  desc.mean_out = ChannelOf(o.mean_out);
  desc.invstd_out = ChannelOf(o.invstd_out);
  desc.running_mean_in = ChannelOf(o.running_mean);
  desc.running_var_in = ChannelOf(o.running_var);
  desc.running_mean_out = ChannelOf(o.running_mean_out);
  desc.running_var_out = ChannelOf(o.running_var_out);
  plan.AddStep(kernels::MakeBatchNormGatherStep(desc));
}

aclnnStatus PlanBatchNormGatherStatsWithCounts(Plan& plan, const aclTensor* input, const aclTensor* mean,
                                               const aclTensor* invstd, const aclTensor* running_mean,
                                               const aclTensor* running_var, double momentum, double eps,
                                               const aclTensor* counts, const aclTensor* mean_all,
                                               const aclTensor* invstd_all) {
  for (const auto& [name, t] :
       {std::pair{"input", input}, std::pair{"mean", mean}, std::pair{"invstd", invstd},
        std::pair{"runningMean", running_mean}, std::pair{"runningVar", running_var}, std::pair{"counts", counts},
        std::pair{"meanAll", mean_all}, std::pair{"invstdAll", invstd_all}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kFloatDtypes));
  }
  CANOPY_CHECK(plan.CheckRank("input", input, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("mean", mean, 2, 2));
  CANOPY_CHECK(plan.CheckRank("invstd", invstd, 2, 2));
  if (counts->rank() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'counts' has rank %lld; it must be 1",
                       static_cast<long long>(counts->rank()));
  }
  const int64_t world = mean->view_shape[0];
  if (invstd->view_shape[0] != world || counts->view_shape[0] != world) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'mean' %s, 'invstd' %s and 'counts' %s differ in their first dim",
                       ShapeToString(mean->view_shape).c_str(), ShapeToString(invstd->view_shape).c_str(),
                       ShapeToString(counts->view_shape).c_str());
  }
  const int64_t channels = input->view_shape[1];
  for (const auto& [name, t] : {std::pair{"mean", mean}, std::pair{"invstd", invstd}}) {
    if (t->view_shape[1] != channels) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; its dim 1 must be input's channels %lld",
                         name, ShapeToString(t->view_shape).c_str(), static_cast<long long>(channels));
    }
  }
  for (const auto& [name, t] : {std::pair{"runningMean", running_mean}, std::pair{"runningVar", running_var},
                                std::pair{"meanAll", mean_all}, std::pair{"invstdAll", invstd_all}}) {
    CANOPY_CHECK(CheckChannelVector(plan, name, t, channels));
  }
  plan.Input(input, "input");
  const TensorRef m = plan.Input(mean, "mean");
  const TensorRef s = plan.Input(invstd, "invstd");
  const std::optional<TensorRef> rm = OptionalInput(plan, running_mean, "runningMean");
  const std::optional<TensorRef> rv = OptionalInput(plan, running_var, "runningVar");
  const TensorRef n = plan.Input(counts, "counts");
  // CANN updates the running statistics only with runningMean given.
  std::optional<TensorRef> rm_out, rv_out;
  if (running_mean != nullptr) rm_out = plan.Output(running_mean, "runningMean");
  if (running_mean != nullptr && running_var != nullptr) rv_out = plan.Output(running_var, "runningVar");
  const TensorRef mean_out = plan.Output(mean_all, "meanAll");
  const TensorRef invstd_out = plan.Output(invstd_all, "invstdAll");
  if (mean->NumElements() == 0) {  // CANN's fill: meanAll 0, invstdAll NaN
    if (mean_out.NumElements() > 0) plan.Fill(mean_out, ScalarValue::Integer(0));
    if (invstd_out.NumElements() > 0) plan.Fill(invstd_out, ScalarValue::Real(std::nan("")));
    return ACLNN_SUCCESS;
  }
  kernels::BatchNormGatherDesc desc;
  desc.world = world;
  desc.c = channels;
  desc.momentum = momentum;
  desc.eps = eps;
  AddGatherStep(plan, desc, {m, s, n, mean_out, invstd_out, rm, rv, rm_out, rv_out});
  return ACLNN_SUCCESS;
}

aclnnStatus PlanSyncBatchNormGatherStats(Plan& plan, const aclTensor* total_sum, const aclTensor* total_square_sum,
                                         const aclTensor* sample_count, const aclTensor* mean,
                                         const aclTensor* variance, float momentum, float eps,
                                         const aclTensor* batch_mean, const aclTensor* batch_invstd) {
  for (const auto& [name, t] : {std::pair{"totalSum", total_sum}, std::pair{"totalSquareSum", total_square_sum}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kStatsDtypes));
  }
  CANOPY_CHECK(plan.CheckDtype("sampleCount", sample_count->dtype, kSyncCountDtypes));
  for (const auto& [name, t] : {std::pair{"mean", mean}, std::pair{"variance", variance},
                                std::pair{"batchMean", batch_mean}, std::pair{"batchInvstd", batch_invstd}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kStatsDtypes));
  }
  for (const auto& [name, t] :
       {std::pair{"totalSquareSum", total_square_sum}, std::pair{"mean", mean}, std::pair{"variance", variance}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {total_sum->dtype}));
  }
  CANOPY_CHECK(plan.CheckDtype("batchInvstd", batch_invstd->dtype, {batch_mean->dtype}));
  CANOPY_CHECK(plan.CheckRank("totalSum", total_sum, 2, 2));
  CANOPY_CHECK(plan.CheckRank("totalSquareSum", total_square_sum, 2, 2));
  for (const auto& [name, t] :
       {std::pair{"sampleCount", sample_count}, std::pair{"mean", mean}, std::pair{"variance", variance},
        std::pair{"batchMean", batch_mean}, std::pair{"batchInvstd", batch_invstd}}) {
    CANOPY_CHECK(plan.CheckRank(name, t, 1, 1));
  }
  CANOPY_CHECK(plan.CheckShape("totalSquareSum", total_square_sum, total_sum->view_shape));
  const int64_t world = total_sum->view_shape[0], channels = total_sum->view_shape[1];
  CANOPY_CHECK(plan.CheckShape("sampleCount", sample_count, {world}));
  for (const auto& [name, t] : {std::pair{"mean", mean}, std::pair{"variance", variance},
                                std::pair{"batchMean", batch_mean}, std::pair{"batchInvstd", batch_invstd}}) {
    CANOPY_CHECK(plan.CheckShape(name, t, {channels}));
  }
  if (world == 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'totalSum' has no rows (dim 0 is 0)");
  const TensorRef sums = plan.Input(total_sum, "totalSum");
  const TensorRef squares = plan.Input(total_square_sum, "totalSquareSum");
  const TensorRef n = plan.Input(sample_count, "sampleCount");
  const TensorRef rm = plan.Input(mean, "mean");
  const TensorRef rv = plan.Input(variance, "variance");
  const TensorRef rm_out = plan.Output(mean, "mean");
  const TensorRef rv_out = plan.Output(variance, "variance");
  const TensorRef mean_out = plan.Output(batch_mean, "batchMean");
  const TensorRef invstd_out = plan.Output(batch_invstd, "batchInvstd");
  if (channels == 0) return ACLNN_SUCCESS;
  kernels::BatchNormGatherDesc desc;
  desc.from_sums = true;
  desc.truncate_counts = true;
  desc.world = world;
  desc.c = channels;
  desc.momentum = momentum;
  desc.eps = eps;
  AddGatherStep(plan, desc, {sums, squares, n, mean_out, invstd_out, rm, rv, rm_out, rv_out});
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(BatchNormStats, PlanBatchNormStats,
                (OpTraits{.header = "aclnnop/aclnn_batch_norm_stats.h",
                          .dtypes = kStatsDtypes,
                          .example = "f32[2,3,4] 1e-5 f32[3] f32[3]"}),
                (const aclTensor*, input), (double, eps), (aclTensor*, mean), (aclTensor*, invstd))
CANOPY_ACLNN_OP(BatchNormReduce, PlanBatchNormReduce,
                (OpTraits{.header = "aclnnop/aclnn_batch_norm_reduce.h",
                          .dtypes = kFloatDtypes,
                          .example = "f32[1,2,3,4]@NCHW f32[2] f32[2]"}),
                (const aclTensor*, x), (aclTensor*, sum), (aclTensor*, squareSum))
CANOPY_ACLNN_OP(BatchNormElemt, PlanBatchNormElemt,
                (OpTraits{.header = "aclnnop/aclnn_batch_norm_elemt.h",
                          .dtypes = kFloatDtypes,
                          .example = "f32[2,4,2] f32[4] f32[4] f32[4] f32[4]{0.5:2} 1e-5 f32[2,4,2]"}),
                (const aclTensor*, input), (const aclTensor*, weight, optional), (const aclTensor*, bias, optional),
                (aclTensor*, mean), (aclTensor*, invstd), (double, eps), (aclTensor*, output))
CANOPY_ACLNN_OP(BatchNormGatherStatsWithCounts, PlanBatchNormGatherStatsWithCounts,
                (OpTraits{.header = "aclnnop/aclnn_batch_norm_gather_stats_with_counts.h",
                          .dtypes = kFloatDtypes,
                          .example = "f32[2,4,2] f32[3,4] f32[3,4]{0.5:2} f32[4] f32[4]{0.5:2} 0.1 1e-5 f32[3]{1:8} "
                                     "f32[4] f32[4]"}),
                (const aclTensor*, input), (const aclTensor*, mean), (const aclTensor*, invstd),
                (aclTensor*, runningMean, optional), (aclTensor*, runningVar, optional), (double, momentum),
                (double, eps), (const aclTensor*, counts), (aclTensor*, meanAll), (aclTensor*, invstdAll))
CANOPY_ACLNN_OP(SyncBatchNormGatherStats, PlanSyncBatchNormGatherStats,
                (OpTraits{
                    .header = "aclnnop/aclnn_sync_batch_norm_gather_stats.h",
                    .dtypes = kStatsDtypes,
                    .example = "f32[1,2] f32[1,2]{300:400} i32[1]{400:400} f32[2] f32[2] 0.1 1e-5 f32[2] f32[2]"}),
                (const aclTensor*, totalSum), (const aclTensor*, totalSquareSum), (const aclTensor*, sampleCount),
                (aclTensor*, mean), (aclTensor*, variance), (float, momentum), (float, eps), (aclTensor*, batchMean),
                (aclTensor*, batchInvstd))
