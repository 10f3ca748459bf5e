// aclnnRotateQuant on its Atlas A2 / A3 path: Y = (x.reshape(-1, k) @
// rotation).reshape(m, n), the products accumulated in f32, then symmetric
// dynamic quantisation per row: scaleOut[i] = max_j |Y[i, j]| / q_max (127 for
// INT8, 7 for INT4 and INT32 holding eight INT4), yOut = round(Y / scaleOut),
// saturated. roundMode "rint" (or null) and "round" round half to even (as
// Canopy's AscendQuant reads CANN's "round"), "floor" down.
//
// CANN generates this op's aclnn layer from its definition (there is no host
// code to read), so the checks are the doc's A2 constraints, all 161002: x and
// rotation FLOAT16 / BFLOAT16 of one dtype, x [m, n], rotation [k, k] with k in
// [16, 1024], n in [128, 16000] a multiple of k and of 8; yOut INT8 or INT4 (the
// definition's) [m, n] or INT32 [m, n / 8] (the doc's), scaleOut FLOAT [m];
// alpha null, axis -1 or 1, scaleAlg 0, dstTypeMax 0.0, trans false; no empty x.
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "aclnnop/aclnn_rotate_quant.h"
#include "kernels/parallel_for.h"
#include "matmul_planner.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "quant_rows.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kOutDtypes = {ACL_INT8, ACL_INT4, ACL_INT32};
constexpr int64_t kMinN = 128, kMaxN = 16000, kMinK = 16, kMaxK = 1024;
constexpr int64_t kValuesPerWord = 8;  // INT4 values in an INT32 yOut element
constexpr float kInt8Max = 127.0f, kInt4Max = 7.0f;
constexpr int64_t kRowGrain = 8;

// scale[i] = max_j |rows[i, j]| / q_max over a dense f32 [m, n].
class RowScaleStep final : public Step {
 public:
  RowScaleStep(const TensorRef& rows, const TensorRef& scale, float q_max)
      : rows_(rows), scale_(scale), q_max_(q_max) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* rows = reinterpret_cast<const float*>(context.Resolve(rows_.buffer));
    auto* scale = reinterpret_cast<float*>(context.Resolve(scale_.buffer));
    const int64_t m = rows_.shape[0], n = rows_.shape[1];
    kernels::ParallelFor(m, kRowGrain, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        float amax = 0.0f;
        for (int64_t j = 0; j < n; ++j) amax = std::fmax(amax, std::fabs(rows[i * n + j]));
        scale[i] = amax / q_max_;
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "row absmax scale " + ShapeToString(rows_.shape); }

 private:
  TensorRef rows_, scale_;
  float q_max_;
};

std::optional<kernels::QuantRound> RoundModeOf(const char* mode) {
  if (mode == nullptr || std::strcmp(mode, "rint") == 0 || std::strcmp(mode, "round") == 0) {
    return kernels::QuantRound::kRint;
  }
  if (std::strcmp(mode, "floor") == 0) return kernels::QuantRound::kFloor;
  return std::nullopt;
}

aclnnStatus PlanRotateQuant(Plan& plan, const aclTensor* x, const aclTensor* rotation, const aclTensor* alpha,
                            int64_t axis, const char* round_mode, int64_t scale_alg, double dst_type_max, bool trans,
                            const aclTensor* y_out, const aclTensor* scale_out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kInputDtypes));
  if (rotation->dtype != x->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "rotation (%s) must have x's dtype (%s)", DtypeName(rotation->dtype),
                       DtypeName(x->dtype));
  }
  if (alpha != nullptr) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'alpha' must be null on Atlas A2");
  CANOPY_CHECK(plan.CheckDtype("yOut", y_out->dtype, kOutDtypes));
  CANOPY_CHECK(plan.CheckDtype("scaleOut", scale_out->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckRank("x", x, 2, 2));
  CANOPY_CHECK(plan.CheckRank("rotation", rotation, 2, 2));
  const int64_t m = x->view_shape[0], n = x->view_shape[1], k = rotation->view_shape[0];
  if (rotation->view_shape[1] != k || k < kMinK || k > kMaxK) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "rotation %s must be square [k, k] with k in [16, 1024]",
                       ShapeToString(rotation->view_shape).c_str());
  }
  if (n < kMinN || n > kMaxN || n % k != 0 || n % kValuesPerWord != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x %s: n must be in [128, 16000] and a multiple of k (%lld) and of 8",
                       ShapeToString(x->view_shape).c_str(), static_cast<long long>(k));
  }
  const Shape y_shape = y_out->dtype == ACL_INT32 ? Shape{m, n / kValuesPerWord} : Shape{m, n};
  CANOPY_CHECK(plan.CheckShape("yOut", y_out, y_shape));
  CANOPY_CHECK(plan.CheckShape("scaleOut", scale_out, {m}));
  if (axis != -1 && axis != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'axis' is %lld; it must be -1 or 1",
                       static_cast<long long>(axis));
  }
  const std::optional<kernels::QuantRound> round = RoundModeOf(round_mode);
  if (!round) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'roundMode' is \"%s\"; it must be \"rint\", \"round\" or "
                       "\"floor\"",
                       round_mode);
  }
  if (scale_alg != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'scaleAlg' is %lld; it must be 0",
                       static_cast<long long>(scale_alg));
  }
  if (dst_type_max != 0.0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dstTypeMax' is %g; it must be 0.0", dst_type_max);
  }
  if (trans) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'trans' must be false");
  if (m == 0)
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' %s is empty", ShapeToString(x->view_shape).c_str());

  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef rot_ref = plan.Input(rotation, "rotation");
  plan.SkipInput();  // alpha
  const TensorRef y_ref = plan.Output(y_out, "yOut");
  const TensorRef scale_ref = plan.Output(scale_out, "scaleOut");
  // Two INT4 values share a byte: a strided INT4 view cannot be written through a staging copy.
  if (y_out->dtype == ACL_INT4 && !y_ref.IsContiguous()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT4 yOut must be contiguous");
  }

  const int64_t groups = m * (n / k);
  std::optional<TensorRef> grouped = Reshape(x_ref, {groups, k});
  if (!grouped) grouped = Reshape(plan.Contiguous(x_ref, x->dtype), {groups, k});
  const TensorRef product = plan.Temporary(ACL_FLOAT, {groups, k});
  CANOPY_CHECK(PlanProduct(plan, *grouped, rot_ref, product, 0));
  const TensorRef rows = *Reshape(product, {m, n});
  const TensorRef scale = plan.Temporary(ACL_FLOAT, {m});
  const float q_max = y_out->dtype == ACL_INT8 ? kInt8Max : kInt4Max;
  plan.AddStep(std::make_unique<RowScaleStep>(rows, scale, q_max), {rows}, scale);
  kernels::QuantAffineDesc desc;
  desc.quantise = true;
  desc.in_dtype = ACL_FLOAT;
  // An INT32 yOut holds eight INT4 a word: the quantiser writes its bytes as INT4 [m, n].
  desc.out_dtype = y_out->dtype == ACL_INT32 ? ACL_INT4 : y_out->dtype;
  desc.elements = m * n;
  desc.axis_extent = m;
  desc.inner = n;
  desc.param_dtype = ACL_FLOAT;
  desc.param_count = m;
  desc.divide = true;
  desc.round = *round;
  if (y_out->dtype != ACL_INT32) {
    AddAffineStep(plan, desc, rows, scale, nullptr, y_ref);
  } else {
    const TensorRef words = y_ref.IsContiguous() ? y_ref : plan.Temporary(ACL_INT32, y_shape);
    const TensorRef nibbles{.buffer = words.buffer, .dtype = ACL_INT4, .shape = {m, n}, .strides = {n, 1}};
    AddAffineStep(plan, desc, rows, scale, nullptr, nibbles);
    if (!y_ref.IsContiguous()) plan.Copy(words, y_ref);
  }
  plan.Copy(scale, scale_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(RotateQuant, PlanRotateQuant,
                (OpTraits{.header = "aclnnop/aclnn_rotate_quant.h",
                          .dtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT4, ACL_INT32, ACL_FLOAT},
                          .example = "bf16[2,128] bf16[16,16] - -1 'rint' 0 0.0 false i8[2,128] f32[2]"}),
                (const aclTensor*, x), (const aclTensor*, rotation), (const aclTensor*, alpha, optional),
                (int64_t, axis), (char*, roundMode, optional), (int64_t, scaleAlg), (double, dstTypeMax), (bool, trans),
                (aclTensor*, yOut), (aclTensor*, scaleOut))
