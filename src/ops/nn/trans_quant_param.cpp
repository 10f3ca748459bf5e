// aclnnTransQuantParamV2 and V3 (tensors, on the stream) and
// aclnnTransQuantParam (host arrays, at once): pack FLOAT32 quantisation scales (and offsets) into
// the 64-bit words QuantMatmulV3/V4 take as a UINT64 / INT64 scale: the
// scale's f32 bits in bits 0-31, bit 46 set, and an offset rounded to an
// integer, clamped to [-256, 255] and kept as 9 bits in bits 37-45.
//
// The two differ where CANN's two implementations differ (its docs give one
// formula for both; clients on hardware get what the implementations do):
//  * V2 keeps the top 19 bits of the scale (bits & 0xFFFFE000, the doc's
//    formula) and rounds offsets half to even (its kernel's cast); V3 with
//    roundMode 1 rounds the scale to those 19 bits instead (ties to even);
//  * V1 keeps all 32 bits and rounds offsets half away from zero (C's
//    round()); its words number max(scaleSize, offsetSize) rounded up to a
//    multiple of 16 (unless 1), zero where neither array reaches, and the
//    scales and offsets each fill words from the first, by their own length.
// V2's shapes are the doc's: without an offset out is scale's shape; with
// one, scale and offset are [1], [n] or [1, n] and broadcast against each
// other (a 1-D scale gives a 1-D out of the longer length, a 2-D one its own shape).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "aclnnop/aclnn_trans_quant_param.h"
#include "aclnnop/aclnn_trans_quant_param_v2.h"
#include "aclnnop/aclnn_trans_quant_param_v3.h"
#include "common/c_boundary.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kParamDtypes = {ACL_FLOAT};
constexpr DtypeSet kOutDtypes = {ACL_UINT64, ACL_INT64};

constexpr uint64_t kScaleFlag = uint64_t{1} << 46;

// `word` with `offset` (rounded by `round`, clamped to 9 bits) in bits 37-45.
// The clamp comes first, in float, so that no offset meets an int conversion
// it cannot survive; NaN (which CANN's docs forbid) gives 0.
template <typename Round>
uint64_t WithOffset(uint64_t word, float offset, Round round) {
  const float clamped = std::isnan(offset) ? 0.0f : std::clamp(round(offset), -256.0f, 255.0f);
  const uint64_t nine_bits = static_cast<uint64_t>(static_cast<int64_t>(clamped)) & 0x1FFu;
  return (word & 0x4000FFFFFFFFull) | (nine_bits << 37);
}

uint32_t BitsOf(float value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// The scale's bits rounded to the nearest FP19 (1 sign, 8 exponent, 10 mantissa bits), ties to even, as
// V3's kernel does with roundMode 1: a positive subnormal flushes to zero and an all-ones exponent keeps
// its bits truncated. The kernel reads the exponent with the sign bit above it, so a negative value's
// tests see a nine-bit exponent; that is kept (only its flush and all-ones cases differ).
uint32_t RoundToFp19(uint32_t bits) {
  constexpr uint32_t kTail = 13;  // mantissa bits FP19 drops
  const uint32_t sign = bits >> 31, exponent = (bits >> 23) & 0x1FFu;
  uint32_t mantissa = (bits & 0x7FFFFFu) >> kTail;
  const uint32_t round_bit = (bits >> (kTail - 1)) & 1u, sticky = bits & ((1u << (kTail - 1)) - 1u);
  if (exponent == 0) return sign << 31;
  uint32_t e = exponent;
  if (exponent != 0x1FFu && round_bit != 0 && (sticky != 0 || (mantissa & 1u) != 0)) {
    if (++mantissa == (1u << 10)) {
      mantissa = 0;
      ++e;
    }
  }
  const uint32_t fp19 = (sign << 18) | ((e > 0x1FFu ? 0x1FFu : e) << 10) | (e > 0x1FFu ? 0 : mantissa);
  return fp19 << kTail;
}

// V2's word (V3 with roundMode 0): the scale's top 19 bits; roundMode 1 rounds them; an offset rounded
// half to even.
uint64_t PackQuantParam(float scale, const float* offset, int64_t round_mode = 0) {
  const uint32_t bits = round_mode == 1 ? RoundToFp19(BitsOf(scale)) : BitsOf(scale) & 0xFFFFE000u;
  const uint64_t word = uint64_t{bits} | kScaleFlag;
  return offset == nullptr ? word : WithOffset(word, *offset, [](float v) { return std::nearbyint(v); });
}

// words[i] = PackQuantParam(scale[i], offset[i]) over dense, equally long buffers.
class PackQuantParamStep final : public Step {
 public:
  PackQuantParamStep(const TensorRef& scale, std::optional<TensorRef> offset, const TensorRef& words,
                     int64_t round_mode)
      : scale_(scale), offset_(std::move(offset)), words_(words), round_mode_(round_mode) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* scale = reinterpret_cast<const float*>(context.Resolve(scale_.buffer));
    const auto* offset = offset_ ? reinterpret_cast<const float*>(context.Resolve(offset_->buffer)) : nullptr;
    auto* words = reinterpret_cast<uint64_t*>(context.Resolve(words_.buffer));
    const int64_t count = words_.NumElements();
    for (int64_t i = 0; i < count; ++i) {
      words[i] = PackQuantParam(scale[i], offset != nullptr ? offset + i : nullptr, round_mode_);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "pack " + std::to_string(words_.NumElements()) + " quant params" + (offset_ ? " with offsets" : "");
  }

 private:
  TensorRef scale_;
  std::optional<TensorRef> offset_;
  TensorRef words_;
  int64_t round_mode_;
};

aclnnStatus RejectShape(Plan& plan, const char* name, const aclTensor* t, const char* allowed) {
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be %s", name,
                     ShapeToString(t->view_shape).c_str(), allowed);
}

// V2 and V3 (roundMode 0 or 1, checked after the shapes).
aclnnStatus PlanPackedScale(Plan& plan, const aclTensor* scale, const aclTensor* offset, int64_t round_mode,
                            const aclTensor* out) {
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
  if (round_mode != 0 && round_mode != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'roundMode' is %lld; it must be 0 or 1",
                       static_cast<long long>(round_mode));
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
  std::optional<TensorRef> offset_dense;
  if (offset != nullptr) offset_dense = dense(offset_in);
  const TensorRef words = plan.Temporary(ACL_UINT64, out_shape);
  std::vector<TensorRef> reads = {scale_dense};
  if (offset_dense) reads.push_back(*offset_dense);
  plan.AddStep(std::make_unique<PackQuantParamStep>(scale_dense, offset_dense, words, round_mode), reads, words);
  plan.Copy(words, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanTransQuantParamV2(Plan& plan, const aclTensor* scale, const aclTensor* offset, const aclTensor* out) {
  return PlanPackedScale(plan, scale, offset, 0, out);
}

aclnnStatus PlanTransQuantParamV3(Plan& plan, const aclTensor* scale, const aclTensor* offset, int64_t roundMode,
                                  const aclTensor* out) {
  return PlanPackedScale(plan, scale, offset, roundMode, out);
}

}  // namespace

CANOPY_ACLNN_OP(TransQuantParamV2, PlanTransQuantParamV2,
                (OpTraits{.header = "aclnnop/aclnn_trans_quant_param_v2.h",
                          .dtypes = kOutDtypes,
                          .max_rank = 2,
                          .example = "f32[3] f32[3] u64[3]"}),
                (const aclTensor*, scale), (const aclTensor*, offset, optional), (const aclTensor*, out))
CANOPY_ACLNN_OP(TransQuantParamV3, PlanTransQuantParamV3,
                (OpTraits{.header = "aclnnop/aclnn_trans_quant_param_v3.h",
                          .dtypes = kOutDtypes,
                          .max_rank = 2,
                          .example = "f32[3] f32[3] 1 u64[3]"}),
                (const aclTensor*, scale), (const aclTensor*, offset, optional), (int64_t, roundMode),
                (const aclTensor*, out))

namespace {

aclnnStatus TransQuantParam(const float* scales, uint64_t scale_count, const float* offsets, uint64_t offset_count,
                            uint64_t** words, uint64_t* word_count) {
  // CANN's order and codes: the arrays first, every problem with them
  // ACLNN_ERR_PARAM_INVALID (a null scaleArray too, whatever the doc's table
  // says), then the two outputs.
  const auto invalid = [](const char* reason) {
    SetErrorMessage("aclnnTransQuantParam: %s", reason);
    return ACLNN_ERR_PARAM_INVALID;
  };
  if (offsets != nullptr && offset_count < 1) return invalid("offsetSize is 0 with an offsetArray; it must be >= 1");
  if (offsets == nullptr && offset_count != 0) return invalid("offsetSize is not 0 but offsetArray is null");
  if (scales == nullptr) return invalid("argument 'scaleArray' is null");
  if (scale_count < 1) return invalid("scaleSize is 0; scaleArray needs at least one value");
  for (const auto& [name, pointer] : {std::pair<const char*, const void*>{"quantParam", words},
                                      std::pair<const char*, const void*>{"quantParamSize", word_count}}) {
    if (pointer == nullptr) {
      SetErrorMessage("aclnnTransQuantParam: argument '%s' is null", name);
      return ACLNN_ERR_PARAM_NULLPTR;
    }
  }
  constexpr uint64_t kAlign = 16;
  uint64_t count = std::max(scale_count, offset_count);
  const bool fits = count <= SIZE_MAX / sizeof(uint64_t) - kAlign;  // else: as a failed allocation
  if (count != 1) count = (count + kAlign - 1) / kAlign * kAlign;
  // calloc, not new: the caller gives the words back with free(), as CANN's
  // example does, and words no array reaches stay 0.
  auto* out = fits ? static_cast<uint64_t*>(std::calloc(count, sizeof(uint64_t))) : nullptr;
  if (out == nullptr) {
    *word_count = 0;
    SetErrorMessage("aclnnTransQuantParam: allocating %llu words failed", static_cast<unsigned long long>(count));
    return ACLNN_ERR_INNER_NULLPTR;
  }
  for (uint64_t i = 0; i < scale_count; ++i) out[i] = uint64_t{BitsOf(scales[i])} | kScaleFlag;
  for (uint64_t i = 0; i < offset_count; ++i) {
    out[i] = WithOffset(out[i], offsets[i], [](float v) { return std::round(v); });
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
