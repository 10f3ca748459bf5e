// aclnnSignBitsPack and aclnnSignBitsUnpack, 1-bit Adam's compression of a
// momentum to its signs: element i of a 1-D tensor is bit i % 8 (least
// significant first) of byte i / 8, set where the element is >= 0 (-0 too);
// the last byte's unused bits are 0. Packing gives [size, bytes / size]
// UINT8; unpacking gives every bit back as +1 or -1, [size, 8 * bytes /
// size]. Both run on contiguous copies and write out through one copy.
#include <memory>
#include <string>

#include "aclnnop/aclnn_sign_bits_pack.h"
#include "aclnnop/aclnn_sign_bits_unpack.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16};
constexpr int64_t kBitsPerByte = 8;

class PackSignBitsStep final : public Step {
 public:
  PackSignBitsStep(const TensorRef& values, const TensorRef& bytes) : values_(values), bytes_(bytes) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* values = reinterpret_cast<const float*>(context.Resolve(values_.buffer));
    auto* bytes = reinterpret_cast<uint8_t*>(context.Resolve(bytes_.buffer));
    const int64_t count = values_.NumElements();
    for (int64_t b = 0; b < bytes_.NumElements(); ++b) {
      unsigned byte = 0;
      for (int64_t bit = 0; bit < kBitsPerByte && b * kBitsPerByte + bit < count; ++bit) {
        if (values[b * kBitsPerByte + bit] >= 0.0F) byte |= 1U << bit;
      }
      bytes[b] = static_cast<uint8_t>(byte);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "sign bits pack " + std::to_string(values_.NumElements()); }

 private:
  TensorRef values_, bytes_;
};

class UnpackSignBitsStep final : public Step {
 public:
  UnpackSignBitsStep(const TensorRef& bytes, const TensorRef& values) : bytes_(bytes), values_(values) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* bytes = reinterpret_cast<const uint8_t*>(context.Resolve(bytes_.buffer));
    auto* values = reinterpret_cast<float*>(context.Resolve(values_.buffer));
    for (int64_t i = 0; i < values_.NumElements(); ++i) {
      values[i] = ((bytes[i / kBitsPerByte] >> (i % kBitsPerByte)) & 1U) != 0 ? 1.0F : -1.0F;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "sign bits unpack " + std::to_string(bytes_.NumElements()); }

 private:
  TensorRef bytes_, values_;
};

aclnnStatus CheckRanks(Plan& plan, const aclTensor* self, const aclTensor* out) {
  if (self->rank() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' has shape %s; it must be 1-D",
                       ShapeToString(self->view_shape).c_str());
  }
  if (out->rank() != 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has shape %s; it must be 2-D",
                       ShapeToString(out->view_shape).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckSize(Plan& plan, int64_t size, int64_t total, const char* what) {
  if (size <= 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'size' (%lld) must be positive",
                       static_cast<long long>(size));
  }
  if (total % size != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the %lld %s do not divide into 'size' %lld rows",
                       static_cast<long long>(total), what, static_cast<long long>(size));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanSignBitsPack(Plan& plan, const aclTensor* self, int64_t size, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_UINT8}));
  CANOPY_CHECK(CheckRanks(plan, self, out));
  const int64_t bytes = (self->view_shape[0] + kBitsPerByte - 1) / kBitsPerByte;
  CANOPY_CHECK(CheckSize(plan, size, bytes, "packed bytes"));
  CANOPY_CHECK(plan.CheckShape("out", out, {size, bytes / size}));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (src.NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef values = plan.Contiguous(src, ACL_FLOAT);
  const TensorRef packed = plan.Temporary(ACL_UINT8, dst.shape);
  plan.AddStep(std::make_unique<PackSignBitsStep>(values, packed), {values}, packed);
  plan.Copy(packed, dst);
  return ACLNN_SUCCESS;
}

// `dtype` arrives as the int the caller passed (any value, not only an aclDataType's).
aclnnStatus PlanSignBitsUnpack(Plan& plan, const aclTensor* self, int64_t size, int dtype, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, {ACL_UINT8}));
  if (dtype != ACL_FLOAT && dtype != ACL_FLOAT16) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dtype' is %d; it must be ACL_FLOAT or ACL_FLOAT16", dtype);
  }
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kFloatDtypes));
  if (out->dtype != static_cast<aclDataType>(dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; argument 'dtype' asks for %s",
                       DtypeName(out->dtype), DtypeName(static_cast<aclDataType>(dtype)));
  }
  CANOPY_CHECK(CheckRanks(plan, self, out));
  const int64_t bits = self->view_shape[0] * kBitsPerByte;
  CANOPY_CHECK(CheckSize(plan, size, bits, "unpacked signs"));
  CANOPY_CHECK(plan.CheckShape("out", out, {size, bits / size}));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (src.NumElements() == 0) return ACLNN_SUCCESS;
  const TensorRef bytes = plan.Contiguous(src, ACL_UINT8);
  const TensorRef signs = plan.Temporary(ACL_FLOAT, dst.shape);
  plan.AddStep(std::make_unique<UnpackSignBitsStep>(bytes, signs), {bytes}, signs);
  plan.Copy(signs, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(SignBitsPack, PlanSignBitsPack,
                (OpTraits{.header = "aclnnop/aclnn_sign_bits_pack.h",
                          .dtypes = kFloatDtypes | DtypeSet{ACL_UINT8},
                          .example = "f32[16] 2 u8[2,1]"}),
                (const aclTensor*, self), (int64_t, size), (aclTensor*, out))
CANOPY_ACLNN_OP(SignBitsUnpack, PlanSignBitsUnpack,
                (OpTraits{.header = "aclnnop/aclnn_sign_bits_unpack.h",
                          .dtypes = kFloatDtypes | DtypeSet{ACL_UINT8},
                          .example = "u8[2] 2 0 f32[2,8]"}),
                (const aclTensor*, self), (int64_t, size), (aclDataType, dtype), (aclTensor*, out))
