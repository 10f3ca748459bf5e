// aclnnDequantBias: an INT32 x [M, N] (a quantised matmul's result) back to
// out (f16 with an f32 weightScale, bf16 with a bf16 one): x * weightScale
// (per column) * activateScaleOptional (f32, per row), with biasOptional (per
// column) added first when INT32 and last when f32 / f16 / bf16; f32 inside,
// rounded half to even into out (kernels/dequant_bias.h).
//
// CANN checks x, weightScale and out (and their pairing) in its generated host
// code (161002) and everything else in its tiling (561002): outputDtype 1 or 27,
// the ranks, N and M against x (an empty optional is not compared), the
// optional dtypes and M <= 25000. Its doc marks the tensors as contiguous only;
// Canopy takes views too.
#include "kernels/dequant_bias.h"
#include "aclnnop/aclnn_dequant_bias.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kBiasDtypes = {ACL_INT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kOutFloat16 = ACL_FLOAT16, kOutBf16 = ACL_BF16;
constexpr int64_t kMaxRows = 25000;  // CANN's tiling limit on M

// The tiling's checks (561002), in its order.
aclnnStatus CheckTiling(Plan& plan, const aclTensor* x, const aclTensor* weight_scale, const aclTensor* activate_scale,
                        const aclTensor* bias, int64_t output_dtype, const aclTensor* out) {
  const auto fault = [&plan](const char* format, auto... args) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, format, args...);
  };
  if (output_dtype != kOutFloat16 && output_dtype != kOutBf16) {
    return fault("argument 'outputDtype' is %lld; it must be 1 (FLOAT16) or 27 (BFLOAT16)",
                 static_cast<long long>(output_dtype));
  }
  const auto rank = [&fault](const char* name, const aclTensor* t, int64_t want) {
    if (t == nullptr || t->rank() == want) return ACLNN_SUCCESS;
    return fault("argument '%s' has rank %lld; it must be %lld", name, static_cast<long long>(t->rank()),
                 static_cast<long long>(want));
  };
  CANOPY_CHECK(rank("x", x, 2));
  CANOPY_CHECK(rank("weightScale", weight_scale, 1));
  CANOPY_CHECK(rank("activateScaleOptional", activate_scale, 1));
  CANOPY_CHECK(rank("biasOptional", bias, 1));
  CANOPY_CHECK(rank("out", out, 2));
  const int64_t m = x->view_shape[0], n = x->view_shape[1];
  if (weight_scale->view_shape[0] != n) {
    return fault("argument 'weightScale' holds %lld values; it must hold x's N (%lld)",
                 static_cast<long long>(weight_scale->view_shape[0]), static_cast<long long>(n));
  }
  if (activate_scale != nullptr && activate_scale->NumElements() > 0 && activate_scale->view_shape[0] != m) {
    return fault("argument 'activateScaleOptional' holds %lld values; it must hold x's M (%lld)",
                 static_cast<long long>(activate_scale->view_shape[0]), static_cast<long long>(m));
  }
  if (bias != nullptr && bias->NumElements() > 0 && bias->view_shape[0] != n) {
    return fault("argument 'biasOptional' holds %lld values; it must hold x's N (%lld)",
                 static_cast<long long>(bias->view_shape[0]), static_cast<long long>(n));
  }
  if (out->view_shape != x->view_shape) {
    return fault("argument 'out' has shape %s; it must be x's %s", ShapeToString(out->view_shape).c_str(),
                 ShapeToString(x->view_shape).c_str());
  }
  if (activate_scale != nullptr && activate_scale->dtype != ACL_FLOAT) {
    return fault("argument 'activateScaleOptional' is %s; it must be FLOAT", DtypeName(activate_scale->dtype));
  }
  if (bias != nullptr && !kBiasDtypes.Contains(bias->dtype)) {
    return fault("argument 'biasOptional' is %s; it must be BFLOAT16, FLOAT, FLOAT16 or INT32", DtypeName(bias->dtype));
  }
  if (m > kMaxRows) return fault("x has %lld rows; CANN's kernel takes at most 25000", static_cast<long long>(m));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDequantBias(Plan& plan, const aclTensor* x, const aclTensor* weight_scale,
                            const aclTensor* activate_scale, const aclTensor* bias, int64_t output_dtype,
                            const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, DtypeSet{ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("weightScale", weight_scale->dtype, DtypeSet{ACL_FLOAT, ACL_BF16}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{ACL_FLOAT16, ACL_BF16}));
  if ((weight_scale->dtype == ACL_BF16) != (out->dtype == ACL_BF16)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'out' is %s with a %s weightScale: FLOAT gives FLOAT16, BFLOAT16 gives BFLOAT16",
                       DtypeName(out->dtype), DtypeName(weight_scale->dtype));
  }
  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef weight_ref = plan.Input(weight_scale, "weightScale");
  const auto optional_input = [&plan](const aclTensor* t, const char* name) {
    if (t == nullptr) {
      plan.SkipInput();
      return TensorRef{};
    }
    return plan.Input(t, name);
  };
  const TensorRef activate_ref = optional_input(activate_scale, "activateScaleOptional");
  const TensorRef bias_ref = optional_input(bias, "biasOptional");
  const TensorRef out_ref = plan.Output(out, "out");
  if (x->NumElements() == 0 && out->NumElements() == 0) return ACLNN_SUCCESS;
  CANOPY_CHECK(CheckTiling(plan, x, weight_scale, activate_scale, bias, output_dtype, out));
  if (x->NumElements() == 0) return ACLNN_SUCCESS;

  kernels::DequantBiasDesc desc;
  desc.rows = x->view_shape[0];
  desc.columns = x->view_shape[1];
  desc.x = plan.Contiguous(x_ref, ACL_INT32).buffer;
  desc.weight_scale = plan.Contiguous(weight_ref, weight_scale->dtype).buffer;
  desc.weight_scale_dtype = weight_scale->dtype;
  desc.y_dtype = out->dtype;
  if (activate_scale != nullptr && activate_scale->NumElements() > 0) {
    desc.has_activate_scale = true;
    desc.activate_scale = plan.Contiguous(activate_ref, ACL_FLOAT).buffer;
  }
  if (bias != nullptr && bias->NumElements() > 0) {
    desc.has_bias = true;
    desc.bias = plan.Contiguous(bias_ref, bias->dtype).buffer;
    desc.bias_dtype = bias->dtype;
  }
  const TensorRef y = out_ref.IsContiguous() ? out_ref : plan.Temporary(out->dtype, out_ref.shape);
  desc.y = y.buffer;
  plan.AddStep(kernels::MakeDequantBiasStep(desc));
  if (!out_ref.IsContiguous()) plan.Copy(y, out_ref);
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kAllDtypes = {ACL_INT32, ACL_FLOAT, ACL_BF16, ACL_FLOAT16};

}  // namespace

CANOPY_ACLNN_OP(DequantBias, PlanDequantBias,
                (OpTraits{.header = "aclnnop/aclnn_dequant_bias.h",
                          .dtypes = kAllDtypes,
                          .example = "i32[4,8]{-100:100} f32[8] f32[4] i32[8]{-10:10} 1 f16[4,8]"}),
                (const aclTensor*, x), (const aclTensor*, weightScale),
                (const aclTensor*, activateScaleOptional, optional), (const aclTensor*, biasOptional, optional),
                (int64_t, outputDtype), (const aclTensor*, out))
