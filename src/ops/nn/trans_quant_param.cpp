// aclnnTransQuantParamV2 (tensors, on the stream) and aclnnTransQuantParam
// (host arrays, at once): pack FLOAT32 quantisation scales (and offsets) into
// the 64-bit words QuantMatmulV3/V4 take as a UINT64 / INT64 scale:
//   word = (bits(scale) & 0xFFFFE000) | 1 << 46
//   with an offset: word = (word & 0x4000FFFFFFFF) | (clamp(round(offset), -256, 255) & 0x1FF) << 37
// Shapes as CANN's doc gives them: without an offset out is scale's shape; with
// one, scale and offset are [1], [n] or [1, n] and broadcast against each
// other (a 1-D scale gives a 1-D out of the longer length, a 2-D one its own shape).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "aclnnop/aclnn_trans_quant_param.h"
#include "aclnnop/aclnn_trans_quant_param_v2.h"
#include "common/c_boundary.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kParamDtypes = {ACL_FLOAT};
constexpr DtypeSet kOutDtypes = {ACL_UINT64, ACL_INT64};

uint64_t PackQuantParam(float scale, const float* offset) {
  uint32_t bits = 0;
  std::memcpy(&bits, &scale, sizeof bits);
  uint64_t word = (uint64_t{bits} & 0xFFFFE000u) | (uint64_t{1} << 46);
  if (offset != nullptr) {
    // Clamped as a float first, so that a huge offset never meets an int conversion.
    const auto clamped = static_cast<int64_t>(std::clamp(std::round(*offset), -256.0f, 255.0f));
    word = (word & 0x4000FFFFFFFFull) | ((static_cast<uint64_t>(clamped) & 0x1FFu) << 37);
  }
  return word;
}

// words[i] = PackQuantParam(scale[i], offset[i]) over dense, equally long buffers.
class PackQuantParamStep final : public Step {
 public:
  PackQuantParamStep(const TensorRef& scale, const TensorRef* offset, const TensorRef& words)
      : scale_(scale), has_offset_(offset != nullptr), words_(words) {
    if (offset != nullptr) offset_ = *offset;
  }

  aclnnStatus Run(const RunContext& context) const override {
    const auto* scale = reinterpret_cast<const float*>(context.Resolve(scale_.buffer));
    const auto* offset = has_offset_ ? reinterpret_cast<const float*>(context.Resolve(offset_.buffer)) : nullptr;
    auto* words = reinterpret_cast<uint64_t*>(context.Resolve(words_.buffer));
    const int64_t count = words_.NumElements();
    for (int64_t i = 0; i < count; ++i) words[i] = PackQuantParam(scale[i], offset != nullptr ? offset + i : nullptr);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "pack " + std::to_string(words_.NumElements()) + " quant params" + (has_offset_ ? " with offsets" : "");
  }

 private:
  TensorRef scale_;
  bool has_offset_;
  TensorRef offset_;
  TensorRef words_;
};

aclnnStatus RejectShape(Plan& plan, const char* name, const aclTensor* t, const char* allowed) {
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be %s", name,
                     ShapeToString(t->view_shape).c_str(), allowed);
}

aclnnStatus PlanTransQuantParamV2(Plan& plan, const aclTensor* scale, const aclTensor* offset, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("scale", scale->dtype, kParamDtypes));
  if (offset != nullptr) CANOPY_CHECK(plan.CheckDtype("offset", offset->dtype, kParamDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kOutDtypes));
  for (const auto& [name, t] : {std::pair{"scale", scale}, std::pair{"offset", offset}, std::pair{"out", out}}) {
    if (t == nullptr) continue;
    CANOPY_CHECK(plan.CheckRank(name, t, 1, 2));
    if (t->NumElements() == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is empty (shape %s); it must not be", name,
                         ShapeToString(t->view_shape).c_str());
    }
  }
  Shape out_shape = scale->view_shape;
  if (offset != nullptr) {
    // With an offset both are [t] or [1, n] (t = 1 or n) and broadcast.
    if (offset->rank() == 2 && offset->view_shape[0] != 1) return RejectShape(plan, "offset", offset, "[t] or [1, n]");
    if (scale->rank() == 2 && scale->view_shape[0] != 1) {
      return RejectShape(plan, "scale", scale, "[t] or [1, n] when an offset is given");
    }
    const int64_t scale_n = scale->view_shape.back(), offset_n = offset->view_shape.back();
    if (scale_n != offset_n && scale_n != 1 && offset_n != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "arguments 'scale' of shape %s and 'offset' of shape %s do not broadcast: their lengths "
                         "must be equal or one of them 1",
                         ShapeToString(scale->view_shape).c_str(), ShapeToString(offset->view_shape).c_str());
    }
    out_shape.back() = std::max(scale_n, offset_n);
  }
  CANOPY_CHECK(plan.CheckShape("out", out, out_shape));

  const TensorRef scale_in = plan.Input(scale, "scale");
  TensorRef offset_in;
  if (offset != nullptr) {
    offset_in = plan.Input(offset, "offset");
  } else {
    plan.SkipInput();
  }
  const TensorRef dst = plan.Output(out, "out");
  // Dense f32 operands in out's element order, packed into dense words, copied into out.
  // With an offset both operands are [t] or [1, t]: their last dims, broadcast to out's length.
  const auto dense = [&](const TensorRef& operand) {
    if (offset == nullptr) return plan.Contiguous(operand, ACL_FLOAT);
    const TensorRef row = operand.rank() == 2 ? Squeeze(operand, 0) : operand;
    return plan.Contiguous(BroadcastTo(row, {out->NumElements()}), ACL_FLOAT);
  };
  const TensorRef scale_dense = dense(scale_in);
  TensorRef offset_dense;
  if (offset != nullptr) offset_dense = dense(offset_in);
  const TensorRef words = plan.Temporary(ACL_UINT64, out_shape);
  std::vector<TensorRef> reads = {scale_dense};
  if (offset != nullptr) reads.push_back(offset_dense);
  plan.AddStep(std::make_unique<PackQuantParamStep>(scale_dense, offset != nullptr ? &offset_dense : nullptr, words),
               reads, words);
  plan.Copy(words, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(TransQuantParamV2, PlanTransQuantParamV2,
                (OpTraits{.header = "aclnnop/aclnn_trans_quant_param_v2.h",
                          .dtypes = kOutDtypes,
                          .max_rank = 2,
                          .example = "f32[3] f32[3] u64[3]"}),
                (const aclTensor*, scale), (const aclTensor*, offset, optional), (const aclTensor*, out))

namespace {

aclnnStatus TransQuantParam(const float* scales, uint64_t scale_count, const float* offsets, uint64_t offset_count,
                            uint64_t** words, uint64_t* word_count) {
  for (const auto& [name, pointer] : {std::pair<const char*, const void*>{"quantParam", words},
                                      std::pair<const char*, const void*>{"scaleArray", scales},
                                      std::pair<const char*, const void*>{"quantParamSize", word_count}}) {
    if (pointer == nullptr) {
      SetErrorMessage("aclnnTransQuantParam: argument '%s' is null", name);
      return ACLNN_ERR_PARAM_NULLPTR;
    }
  }
  if (scale_count < 1) {
    SetErrorMessage("aclnnTransQuantParam: scaleSize is 0; scaleArray needs at least one value");
    return ACLNN_ERR_PARAM_INVALID;
  }
  if (offsets != nullptr && offset_count < 1) {
    SetErrorMessage("aclnnTransQuantParam: offsetSize is 0 with an offsetArray; it needs at least one value");
    return ACLNN_ERR_PARAM_INVALID;
  }
  if (offsets == nullptr && offset_count != 0) {
    SetErrorMessage("aclnnTransQuantParam: offsetSize is %llu without an offsetArray; it must be 0",
                    static_cast<unsigned long long>(offset_count));
    return ACLNN_ERR_PARAM_INVALID;
  }
  // The arrays broadcast as V2's tensors do: equal lengths, or one of them 1.
  if (offsets != nullptr && scale_count != offset_count && scale_count != 1 && offset_count != 1) {
    SetErrorMessage("aclnnTransQuantParam: scaleSize %llu and offsetSize %llu differ and neither is 1",
                    static_cast<unsigned long long>(scale_count), static_cast<unsigned long long>(offset_count));
    return ACLNN_ERR_PARAM_INVALID;
  }
  const uint64_t count = std::max(scale_count, offset_count);
  if (count > SIZE_MAX / sizeof(uint64_t)) {
    SetErrorMessage("aclnnTransQuantParam: %llu values do not fit in memory", static_cast<unsigned long long>(count));
    return ACLNN_ERR_PARAM_INVALID;
  }
  // malloc, not new: the caller gives the words back with free(), as CANN's example does.
  auto* out = static_cast<uint64_t*>(std::malloc(count * sizeof(uint64_t)));
  if (out == nullptr) {
    SetErrorMessage("aclnnTransQuantParam: allocating %llu words failed", static_cast<unsigned long long>(count));
    return ACLNN_ERR_INNER_NULLPTR;
  }
  for (uint64_t i = 0; i < count; ++i) {
    const float* offset = offsets == nullptr ? nullptr : offsets + (offset_count == 1 ? 0 : i);
    out[i] = PackQuantParam(scales[scale_count == 1 ? 0 : i], offset);
  }
  *words = out;
  *word_count = count;
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnTransQuantParam(const float* scaleArray, uint64_t scaleSize, const float* offsetArray,
                                 uint64_t offsetSize, uint64_t** quantParam, uint64_t* quantParamSize) try {
  return TransQuantParam(scaleArray, scaleSize, offsetArray, offsetSize, quantParam, quantParamSize);
}
CANOPY_C_BOUNDARY_ACLNN

}  // extern "C"
