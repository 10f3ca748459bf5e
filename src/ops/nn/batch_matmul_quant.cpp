// aclnnBatchMatmulQuant: out = quant(x1 @ x2 + bias), FLOAT16 operands, INT8 out.
// The product accumulates in f32 and the bias (FLOAT16) is added in f32; each
// column is then quantised with the scale and offset of its quantParam word
// (aclnnTransQuantParam's: the scale's f32 bits in bits 0-31, a 9-bit signed
// offset in bits 37-45), y = round(acc * scale + offset) half to even,
// saturated to INT8. One word serves every column; otherwise there is one per
// column, the words past n (quantParam is n rounded up to 16) unused.
//
// CANN's checks (its code): x1 and x2 of one rank, 2 to 6 (the doc's table says
// 2), K agreeing, out's last two dims [m, n], quantParam 1-D of 1 or n rounded
// up to 16 values, bias 1-D of n, no empty operand. It checks neither batch
// dims nor formats; Canopy broadcasts the batch dims (out has the broadcast
// shape) and takes quantParam in ND or NC1HWC0 (the format CANN's kernel
// relabels it to), the other tensors in plain formats.
#include <cstdint>
#include <cstring>
#include <string>

#include "aclnnop/aclnn_batchmatmul_quant.h"
#include "matmul_planner.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "quant_rows.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr int64_t kMinRank = 2, kMaxRank = 6;
constexpr int64_t kParamAlign = 16;
constexpr int kOffsetShift = 37;
constexpr uint64_t kOffsetMask = 0x1FFu;
constexpr int64_t kOffsetSignBit = 0x100;
constexpr uint64_t kScaleMask = 0xFFFFFFFFu;

// scale[i], offset[i] = the f32 scale and the signed 9-bit offset of words[i].
class UnpackQuantParamStep final : public Step {
 public:
  UnpackQuantParamStep(const TensorRef& words, const TensorRef& scale, const TensorRef& offset)
      : words_(words), scale_(scale), offset_(offset) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* words = reinterpret_cast<const uint64_t*>(context.Resolve(words_.buffer));
    auto* scale = reinterpret_cast<float*>(context.Resolve(scale_.buffer));
    auto* offset = reinterpret_cast<float*>(context.Resolve(offset_.buffer));
    for (int64_t i = 0; i < scale_.NumElements(); ++i) {
      const auto bits = static_cast<uint32_t>(words[i] & kScaleMask);
      std::memcpy(&scale[i], &bits, sizeof bits);
      const auto nine = static_cast<int64_t>((words[i] >> kOffsetShift) & kOffsetMask);
      offset[i] = static_cast<float>((nine & kOffsetSignBit) != 0 ? nine - 2 * kOffsetSignBit : nine);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "unpack " + std::to_string(scale_.NumElements()) + " quant params"; }

 private:
  TensorRef words_, scale_, offset_;
};

aclnnStatus PlanBatchMatmulQuant(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* quant_param,
                                 const aclTensor* bias, bool transpose_x1, bool transpose_x2, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, {ACL_FLOAT16}));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {ACL_FLOAT16}));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("bias", bias->dtype, {ACL_FLOAT16}));
  CANOPY_CHECK(plan.CheckDtype("quantParam", quant_param->dtype, {ACL_UINT64}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_INT8}));
  for (const auto& [name, t] :
       {std::pair{"x1", x1}, std::pair{"x2", x2}, std::pair{"bias", bias}, std::pair{"out", out}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckPlainFormat(name, t));
  }
  if (quant_param->format != ACL_FORMAT_NC1HWC0) CANOPY_CHECK(plan.CheckPlainFormat("quantParam", quant_param));
  CANOPY_CHECK(plan.CheckRank("x1", x1, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("x2", x2, kMinRank, kMaxRank));
  if (x1->rank() != x2->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1 %s and x2 %s must have one rank",
                       ShapeToString(x1->view_shape).c_str(), ShapeToString(x2->view_shape).c_str());
  }
  const Shape& s1 = x1->view_shape;
  const Shape& s2 = x2->view_shape;
  const size_t r = s1.size();
  const int64_t m = transpose_x1 ? s1[r - 1] : s1[r - 2], k1 = transpose_x1 ? s1[r - 2] : s1[r - 1];
  const int64_t k2 = transpose_x2 ? s2[r - 1] : s2[r - 2], n = transpose_x2 ? s2[r - 2] : s2[r - 1];
  const int64_t aligned_n = (n + kParamAlign - 1) / kParamAlign * kParamAlign;
  const int64_t params = quant_param->NumElements();
  if (quant_param->rank() != 1 || (params != 1 && params != aligned_n)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "quantParam %s must be 1-D with 1 value or n = %lld rounded up to a multiple of 16 (%lld)",
                       ShapeToString(quant_param->view_shape).c_str(), static_cast<long long>(n),
                       static_cast<long long>(aligned_n));
  }
  if (bias != nullptr && (bias->rank() != 1 || bias->view_shape[0] != n)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "bias %s must be [n] = [%lld]", ShapeToString(bias->view_shape).c_str(),
                       static_cast<long long>(n));
  }
  if (k1 != k2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1 %s and x2 %s do not agree on K (transposeX1 %d, transposeX2 %d)",
                       ShapeToString(s1).c_str(), ShapeToString(s2).c_str(), transpose_x1 ? 1 : 0,
                       transpose_x2 ? 1 : 0);
  }
  Shape batch;
  const Shape b1(s1.begin(), s1.end() - 2), b2(s2.begin(), s2.end() - 2);
  CANOPY_CHECK(plan.CheckBroadcast("x1's batch dims", b1, "x2's batch dims", b2, batch));
  Shape expected = batch;
  expected.push_back(m);
  expected.push_back(n);
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  if (x1->NumElements() == 0 || x2->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x1 %s and x2 %s must not be empty", ShapeToString(s1).c_str(),
                       ShapeToString(s2).c_str());
  }

  TensorRef a = plan.Input(x1, "x1");
  TensorRef b = plan.Input(x2, "x2");
  if (transpose_x1) a = Transpose(a, a.rank() - 2, a.rank() - 1);
  if (transpose_x2) b = Transpose(b, b.rank() - 2, b.rank() - 1);
  const TensorRef words = plan.Input(quant_param, "quantParam");
  TensorRef bias_ref;
  if (bias != nullptr) {
    bias_ref = plan.Input(bias, "bias");
  } else {
    plan.SkipInput();
  }
  const TensorRef result = plan.Output(out, "out");

  const TensorRef product = plan.Temporary(ACL_FLOAT, expected);
  CANOPY_CHECK(PlanProduct(plan, a, b, product, 0,
                           ProductTerms{.alpha = 1.0f, .beta = 1.0f, .bias = bias != nullptr ? &bias_ref : nullptr}));
  const int64_t count = params == 1 ? 1 : n;
  const TensorRef used_words = plan.Contiguous(Narrow(words, 0, 0, count), ACL_UINT64);
  const TensorRef scale = plan.Temporary(ACL_FLOAT, {count});
  const TensorRef offset = plan.Temporary(ACL_FLOAT, {count});
  plan.AddStep(std::make_unique<UnpackQuantParamStep>(used_words, scale, offset), {used_words}, scale);
  kernels::QuantAffineDesc desc;
  desc.quantise = true;
  desc.in_dtype = ACL_FLOAT;
  desc.out_dtype = ACL_INT8;
  desc.elements = product.NumElements();
  desc.axis_extent = n;
  desc.inner = 1;
  desc.param_dtype = ACL_FLOAT;
  desc.param_count = count;
  desc.round = kernels::QuantRound::kRint;
  AddAffineStep(plan, desc, product, scale, &offset, result);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(BatchMatmulQuant, PlanBatchMatmulQuant,
                (OpTraits{.header = "aclnnop/aclnn_batchmatmul_quant.h",
                          .dtypes = {ACL_FLOAT16, ACL_INT8},
                          .max_rank = kMaxRank,
                          .private_formats = true,
                          .example = "f16[2,16] f16[16,16] u64[16] f16[16] false false i8[2,16]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, quantParam),
                (const aclTensor*, bias, optional), (bool, transposeX1), (bool, transposeX2), (aclTensor*, out))
