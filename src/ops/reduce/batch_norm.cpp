// aclnnBatchNorm: per channel (dim 1) of an input of rank 2-8, normalisation
// with the batch's statistics (training: saveMean gets the mean, saveInvstd the
// biased variance, as CANN documents for Atlas A2; runningMean / runningVar are
// updated with momentum, the variance unbiased) or with the running statistics
// (inference), on the batch-normalisation kernel.
#include <cmath>
#include <optional>

#include "aclnnop/aclnn_batch_norm.h"
#include "batch_norm_plan.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kBatchNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus PlanBatchNorm(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                          const aclTensor* running_mean, const aclTensor* running_var, bool training, double momentum,
                          double eps, const aclTensor* output, const aclTensor* save_mean,
                          const aclTensor* save_invstd) {
  if (training) {
    CANOPY_CHECK(plan.CheckNotNull("saveMean", save_mean));
    CANOPY_CHECK(plan.CheckNotNull("saveInvstd", save_invstd));
  }
  // CANN returns before its other checks for an empty input: saveMean 0, saveInvstd NaN.
  if (input->NumElements() == 0) {
    plan.Input(input, "input");
    OptionalInput(plan, weight, "weight");
    OptionalInput(plan, bias, "bias");
    OptionalInput(plan, running_mean, "runningMean");
    OptionalInput(plan, running_var, "runningVar");
    plan.Output(output, "output");
    const std::optional<TensorRef> mean = OptionalOutput(plan, save_mean, "saveMean");
    const std::optional<TensorRef> var = OptionalOutput(plan, save_invstd, "saveInvstd");
    if (mean && mean->NumElements() > 0) plan.Fill(*mean, ScalarValue::Integer(0));
    if (var && var->NumElements() > 0) plan.Fill(*var, ScalarValue::Real(std::nan("")));
    return ACLNN_SUCCESS;
  }
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kBatchNormDtypes));
  CANOPY_CHECK(plan.CheckDtype("output", output->dtype, kBatchNormDtypes));
  if (training) {
    CANOPY_CHECK(plan.CheckDtype("saveMean", save_mean->dtype, kBatchNormDtypes));
    CANOPY_CHECK(plan.CheckDtype("saveInvstd", save_invstd->dtype, kBatchNormDtypes));
  }
  for (const auto& [name, t] : {std::pair{"weight", weight}, std::pair{"bias", bias},
                                std::pair{"runningMean", running_mean}, std::pair{"runningVar", running_var}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kBatchNormDtypes));
  }
  if (input->format != output->format) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'input' and 'output' differ in format (%d and %d)",
                       static_cast<int>(input->format), static_cast<int>(output->format));
  }
  constexpr int64_t kFiveDims = 5;
  if (input->rank() == kFiveDims && input->format != ACL_FORMAT_NCDHW) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a 5-dim 'input' must have format NCDHW");
  }
  CANOPY_CHECK(plan.CheckRank("input", input, 2, 8));
  CANOPY_CHECK(plan.CheckShape("output", output, input->view_shape));
  const int64_t channels = input->view_shape[1];
  CANOPY_CHECK(CheckChannelVector(plan, "weight", weight, channels));
  CANOPY_CHECK(CheckChannelVector(plan, "bias", bias, channels));
  CANOPY_CHECK(CheckChannelVector(plan, "runningMean", running_mean, channels));
  CANOPY_CHECK(CheckChannelVector(plan, "runningVar", running_var, channels));
  if (training) {
    CANOPY_CHECK(CheckChannelVector(plan, "saveMean", save_mean, channels));
    CANOPY_CHECK(CheckChannelVector(plan, "saveInvstd", save_invstd, channels));
  }

  const TensorRef in = plan.Input(input, "input");
  const std::optional<TensorRef> w = OptionalInput(plan, weight, "weight");
  const std::optional<TensorRef> b = OptionalInput(plan, bias, "bias");
  const std::optional<TensorRef> rm = OptionalInput(plan, running_mean, "runningMean");
  const std::optional<TensorRef> rv = OptionalInput(plan, running_var, "runningVar");
  // Training writes the running statistics (in place) before the outputs.
  std::optional<TensorRef> rm_out, rv_out;
  if (training && running_mean != nullptr) rm_out = plan.Output(running_mean, "runningMean");
  if (training && running_var != nullptr) rv_out = plan.Output(running_var, "runningVar");
  const TensorRef out = plan.Output(output, "output");
  std::optional<TensorRef> mean_out = OptionalOutput(plan, save_mean, "saveMean");
  std::optional<TensorRef> var_out = OptionalOutput(plan, save_invstd, "saveInvstd");

  // input as [N, C, S]: a view where strides allow, else a contiguous copy; output likewise or staged.
  const int64_t n = input->view_shape[0];
  const Shape nc_s = {n, channels, input->NumElements() / (n * channels)};
  const NcsOutput y = PlanNcsOutput(plan, out, nc_s);

  kernels::BatchNormDesc desc = NcsDesc(plan, in, nc_s, training, eps);
  desc.momentum = momentum;
  desc.y = y.operand;
  desc.weight = ChannelOf(w);
  desc.bias = ChannelOf(b);
  desc.running_mean_in = ChannelOf(rm);
  desc.running_var_in = ChannelOf(rv);
  desc.running_mean_out = ChannelOf(rm_out);
  desc.running_var_out = ChannelOf(rv_out);
  if (training) {
    desc.save_mean = ChannelOf(mean_out);
    desc.save_var = ChannelOf(var_out);
  }
  plan.AddStep(kernels::MakeBatchNormStep(desc));
  FinishNcsOutput(plan, y, out);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(BatchNorm, PlanBatchNorm,
                (OpTraits{
                    .header = "aclnnop/aclnn_batch_norm.h",
                    .dtypes = kBatchNormDtypes,
                    // !CODE (registry_example.h): training (the example) needs saveMean and saveInvstd
                    .example = "f32[2,3,4] f32[3] f32[3] f32[3] f32[3]{0.5:2} true 0.1 1e-5 f32[2,3,4] f32[3]!161001 "
                               "f32[3]!161001"}),
                (const aclTensor*, input), (const aclTensor*, weight, optional), (const aclTensor*, bias, optional),
                (aclTensor*, runningMean, optional), (aclTensor*, runningVar, optional), (bool, training),
                (double, momentum), (double, eps), (aclTensor*, output), (aclTensor*, saveMean, optional),
                (aclTensor*, saveInvstd, optional))
