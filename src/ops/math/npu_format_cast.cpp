// aclnnNpuFormatCast and aclnnNpuFormatCastCalculateSizeAndFormat: a tensor
// converted between a plain layout and a private NPU layout, on the format
// pairs CANN's Atlas A2 path takes (conversion/npu_format_cast, its 910B list).
//
// FRACTAL_NZ keeps Canopy's convention (see trans_matmul_weight.cpp): an NZ
// tensor holds its view's elements row-major, so that a weight cast here is
// read by the matmul ops exactly as one prepared by TransMatmulWeight. Casting
// to or from NZ is a copy between the two views; CalculateSizeAndFormat still
// gives CANN's padded NZ storage shape, which always has room for it.
//
// The convolution layouts are stored as on the NPU (ops/math/conv_layout.h,
// which aclnnQuantConvolutionWeightNz reads too), padding zeroed. C0 is 32
// bytes of additionalDtype in CalculateSizeAndFormat; the cast itself reads it
// from the private tensor's storage shape.
//
// A plain tensor cast to its own plain format is copied: CANN's code answers such
// a pair with success (and no executor), so a client cannot rely on a rejection.
//
// Where CANN's code and document differ, the code is followed: a null srcTensor
// in CalculateSizeAndFormat is 161002, an empty one and a pair it does not
// convert are ACLNN_ERR_RUNTIME_ERROR, and the FLOAT8/FLOAT4/HIFLOAT8 dtypes that
// the A2 column marks unsupported pass CalculateSizeAndFormat (the cast rejects them).
#include <array>
#include <cstdarg>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include "aclnnop/aclnn_npu_format_cast.h"
#include "common/c_boundary.h"
#include "common/shape.h"
#include "conv_layout.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCastDtypes = {ACL_INT8, ACL_UINT8, ACL_INT32, ACL_UINT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
// What CalculateSizeAndFormat's code lets through on every SoC.
constexpr DtypeSet kSizeDtypes =
    kCastDtypes | DtypeSet{ACL_FLOAT8_E4M3FN, ACL_FLOAT4_E2M1, ACL_HIFLOAT8, ACL_FLOAT4_E1M2};
constexpr int64_t kBlockBytes = 32;   // C0 elements fill 32 bytes
constexpr int64_t kFractalRows = 16;  // NZ's row block
constexpr int64_t kMinRank = 2, kMaxRank = 6;
constexpr int kAdditionalIsSource = -1;
// GE's DHWCN, which acl's aclFormat does not name (CANN's doc passes it by value).
constexpr auto kFormatDhwcn = static_cast<aclFormat>(31);

enum class Blocking { kNz, kChannels, kFractal };  // kChannels: NC1HWC0 / NDC1HWC0

// A format pair CANN's A2 path converts: `plain` <-> `blocked`.
struct FormatPair {
  aclFormat plain;
  aclFormat blocked;
  Blocking blocking;
};

constexpr std::array<FormatPair, 12> kPairs = {{
    {ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ, Blocking::kNz},
    {ACL_FORMAT_NCL, ACL_FORMAT_FRACTAL_NZ, Blocking::kNz},
    {ACL_FORMAT_NCHW, ACL_FORMAT_FRACTAL_NZ, Blocking::kNz},
    {ACL_FORMAT_NCDHW, ACL_FORMAT_FRACTAL_NZ, Blocking::kNz},
    {ACL_FORMAT_NCDHW, ACL_FORMAT_NDC1HWC0, Blocking::kChannels},
    {ACL_FORMAT_NDHWC, ACL_FORMAT_NDC1HWC0, Blocking::kChannels},
    {ACL_FORMAT_NCHW, ACL_FORMAT_NC1HWC0, Blocking::kChannels},
    {ACL_FORMAT_NHWC, ACL_FORMAT_NC1HWC0, Blocking::kChannels},
    {ACL_FORMAT_NCDHW, ACL_FRACTAL_Z_3D, Blocking::kFractal},
    {kFormatDhwcn, ACL_FRACTAL_Z_3D, Blocking::kFractal},
    {ACL_FORMAT_NCHW, ACL_FORMAT_FRACTAL_Z, Blocking::kFractal},
    {ACL_FORMAT_HWCN, ACL_FORMAT_FRACTAL_Z, Blocking::kFractal},
}};

const FormatPair* FindPair(int plain, int blocked) {
  for (const FormatPair& pair : kPairs) {
    if (pair.plain == plain && pair.blocked == blocked) return &pair;
  }
  return nullptr;
}

// The axis letters of a plain convolution format, outermost first.
std::string_view AxesOf(aclFormat format) {
  if (format == kFormatDhwcn) return "DHWCN";
  switch (format) {
    case ACL_FORMAT_NCHW:
      return "NCHW";
    case ACL_FORMAT_NHWC:
      return "NHWC";
    case ACL_FORMAT_HWCN:
      return "HWCN";
    case ACL_FORMAT_NCDHW:
      return "NCDHW";
    case ACL_FORMAT_NDHWC:
      return "NDHWC";
    default:
      return "";
  }
}

// The shared layout code's name for a convolution pair's blocking (not kNz).
ConvBlocking ConvBlockingOf(const FormatPair& pair) {
  return pair.blocking == Blocking::kChannels ? ConvBlocking::kChannels : ConvBlocking::kFractal;
}

// The storage shape of the blocked layout of `axes` with `c0` channels a block.
Shape BlockedShape(const FormatPair& pair, const ConvAxes& axes, int64_t c0) {
  return ConvBlockedShape(ConvBlockingOf(pair), axes, AxesOf(pair.plain).size() == 5, c0);
}

// NZ's storage shape: the batch dims, then [ceil(cols / c0), ceil(rows / 16), 16, c0].
Shape NzShape(const Shape& view, int64_t c0) {
  Shape shape(view.begin(), view.end() - 2);
  shape.push_back(CeilDiv(view.back(), c0));
  shape.push_back(CeilDiv(view[view.size() - 2], kFractalRows));
  shape.push_back(kFractalRows);
  shape.push_back(c0);
  return shape;
}

bool IsContiguousView(const aclTensor* tensor) {
  TensorRef view;
  view.shape = tensor->view_shape;
  view.strides = tensor->strides;
  return view.IsContiguous();
}

aclnnStatus PlanNpuFormatCast(Plan& plan, const aclTensor* src, const aclTensor* dst) {
  if (!IsContiguousView(src)) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'srcTensor' must be contiguous");
  if (!IsContiguousView(dst)) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dstTensor' must be contiguous");
  CANOPY_CHECK(plan.CheckDtype("srcTensor", src->dtype, kCastDtypes));
  CANOPY_CHECK(plan.CheckDtype("dstTensor", dst->dtype, kCastDtypes));
  if (src->dtype != dst->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "srcTensor's dtype %s and dstTensor's dtype %s differ",
                       DtypeName(src->dtype), DtypeName(dst->dtype));
  }
  // A plain tensor cast to its own format is copied (CANN's code reports success for it without an executor).
  if (src->format == dst->format && IsPlainFormat(src->format)) {
    CANOPY_CHECK(plan.CheckShape("dstTensor", dst, src->view_shape));
    const TensorRef in = plan.Input(src, "srcTensor");
    plan.Copy(in, plan.Output(dst, "dstTensor"));
    return ACLNN_SUCCESS;
  }
  const FormatPair* forward = FindPair(src->format, dst->format);
  const FormatPair* pair = forward != nullptr ? forward : FindPair(dst->format, src->format);
  if (pair == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "the cast from srcTensor's format %d to dstTensor's format %d is not supported",
                       static_cast<int>(src->format), static_cast<int>(dst->format));
  }
  const bool to_blocked = forward != nullptr;
  const aclTensor* plain_tensor = to_blocked ? src : dst;
  const aclTensor* blocked_tensor = to_blocked ? dst : src;
  const char* plain_name = to_blocked ? "srcTensor" : "dstTensor";
  const char* blocked_name = to_blocked ? "dstTensor" : "srcTensor";
  CANOPY_CHECK(plan.CheckRank(plain_name, plain_tensor, kMinRank, kMaxRank));
  const std::string_view letters = AxesOf(pair->plain);
  if (pair->blocking != Blocking::kNz && plain_tensor->rank() != static_cast<int64_t>(letters.size())) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' %s has %lld dimensions; its format %.*s needs %zu",
                       plain_name, ShapeToString(plain_tensor->view_shape).c_str(),
                       static_cast<long long>(plain_tensor->rank()), static_cast<int>(letters.size()), letters.data(),
                       letters.size());
  }
  const Shape& storage = blocked_tensor->storage_shape;
  const int64_t c0 = storage.empty() ? 0 : storage.back();
  const ConvAxes axes = ConvAxesFrom(letters, plain_tensor->view_shape, plain_tensor->strides);
  const bool fits = c0 > 0 && (pair->blocking == Blocking::kNz ? NzShape(plain_tensor->view_shape, c0) == storage
                                                               : BlockedShape(*pair, axes, c0) == storage);
  if (!fits) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument '%s' has storage shape %s, which is not the blocked shape of '%s' %s (create it "
                       "with aclnnNpuFormatCastCalculateSizeAndFormat's shape)",
                       blocked_name, ShapeToString(storage).c_str(), plain_name,
                       ShapeToString(plain_tensor->view_shape).c_str());
  }
  if (pair->blocking == Blocking::kNz && plain_tensor->view_shape != blocked_tensor->view_shape) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dstTensor' %s does not have srcTensor's shape %s",
                       ShapeToString(dst->view_shape).c_str(), ShapeToString(src->view_shape).c_str());
  }
  const TensorRef in = plan.Input(src, "srcTensor");
  const TensorRef out = plan.Output(dst, "dstTensor");
  if (pair->blocking == Blocking::kNz) {
    plan.Copy(in, out);  // Canopy's NZ holds the view row-major (see the top of this file)
    return ACLNN_SUCCESS;
  }
  // The blocked side is its whole storage, not its view.
  TensorRef blocked = to_blocked ? out : in;
  blocked.shape = storage;
  blocked.strides = ContiguousStrides(storage);
  AddConvLayoutStep(plan, to_blocked ? in : out, blocked, axes, ConvBlockingOf(*pair), c0, to_blocked);
  return ACLNN_SUCCESS;
}

// ---- CalculateSizeAndFormat

aclnnStatus Fail(aclnnStatus status, const char* format, ...) __attribute__((format(printf, 2, 3)));
aclnnStatus Fail(aclnnStatus status, const char* format, ...) {
  va_list args;
  va_start(args, format);
  canopyNnopbaseSetErrorMessageV(format, args);
  va_end(args);
  return status;
}

aclnnStatus HandOut(const Shape& shape, aclFormat format, int64_t** dst_shape, uint64_t* dst_shape_size,
                    int* actual_format) {
  auto* dims = new (std::nothrow) int64_t[shape.size()];
  if (dims == nullptr) return Fail(ACLNN_ERR_RUNTIME_ERROR, "aclnnNpuFormatCastCalculateSizeAndFormat: out of memory");
  for (size_t i = 0; i < shape.size(); ++i) dims[i] = shape[i];
  *dst_shape = dims;
  *dst_shape_size = shape.size();
  *actual_format = format;
  return ACLNN_SUCCESS;
}

aclnnStatus CalculateSizeAndFormat(const aclTensor* src, int dst_format, int additional_dtype, int64_t** dst_shape,
                                   uint64_t* dst_shape_size, int* actual_format) {
  constexpr const char* kName = "aclnnNpuFormatCastCalculateSizeAndFormat";
  if (src == nullptr) return Fail(ACLNN_ERR_PARAM_INVALID, "%s: argument 'srcTensor' is null", kName);
  if (dst_shape == nullptr || dst_shape_size == nullptr || actual_format == nullptr) {
    const char* name = dst_shape == nullptr ? "dstShape" : dst_shape_size == nullptr ? "dstShapeSize" : "actualFormat";
    return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s: argument '%s' is null", kName, name);
  }
  if (!kSizeDtypes.Contains(src->dtype)) {
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s: srcTensor's dtype %s is not supported", kName, DtypeName(src->dtype));
  }
  const int additional = additional_dtype == kAdditionalIsSource ? static_cast<int>(src->dtype) : additional_dtype;
  if (!IsDtypeValue(additional) || !kSizeDtypes.Contains(static_cast<aclDataType>(additional))) {
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s: additionalDtype %d is not supported", kName, additional_dtype);
  }
  const int64_t c0 = kBlockBytes / static_cast<int64_t>(DtypeSize(static_cast<aclDataType>(additional)));
  const bool empty = src->NumElements() == 0;
  if (src->rank() < kMinRank || src->rank() > kMaxRank) {
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s: srcTensor %s has %lld dimensions; 2 to 6 are supported", kName,
                ShapeToString(src->view_shape).c_str(), static_cast<long long>(src->rank()));
  }
  const bool nz_source = src->format == ACL_FORMAT_FRACTAL_NZ ||
                         (src->format >= ACL_FORMAT_FRACTAL_NZ_C0_16 && src->format <= ACL_FORMAT_FRACTAL_NZ_C0_8);
  const bool to_nz =
      dst_format == ACL_FORMAT_FRACTAL_NZ && (src->format == ACL_FORMAT_ND || src->format == ACL_FORMAT_NCL ||
                                              (additional == static_cast<int>(src->dtype) &&
                                               (src->format == ACL_FORMAT_NCHW || src->format == ACL_FORMAT_NCDHW)));
  const FormatPair* forward = FindPair(src->format, dst_format);
  const FormatPair* backward = FindPair(dst_format, src->format);
  const bool supported = to_nz || (nz_source && dst_format == ACL_FORMAT_ND) ||
                         (forward != nullptr && forward->blocking != Blocking::kNz) ||
                         (backward != nullptr && backward->blocking != Blocking::kNz);
  if (!supported) {
    return Fail(ACLNN_ERR_RUNTIME_ERROR, "%s: the cast from format %d to format %d is not supported", kName,
                static_cast<int>(src->format), dst_format);
  }
  if (nz_source && src->format != ACL_FORMAT_FRACTAL_NZ) {
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s: srcTensor's format %d is not FRACTAL_NZ", kName,
                static_cast<int>(src->format));
  }
  if (empty) {
    return Fail(ACLNN_ERR_RUNTIME_ERROR, "%s: srcTensor %s is empty", kName, ShapeToString(src->view_shape).c_str());
  }
  if (to_nz)
    return HandOut(NzShape(src->view_shape, c0), ACL_FORMAT_FRACTAL_NZ, dst_shape, dst_shape_size, actual_format);
  if (nz_source) return HandOut(src->view_shape, ACL_FORMAT_ND, dst_shape, dst_shape_size, actual_format);
  // A convolution layout: the plain side's letters name src's dims either way.
  const FormatPair& pair = forward != nullptr ? *forward : *backward;
  const std::string_view letters = AxesOf(pair.plain);
  if (src->rank() != static_cast<int64_t>(letters.size())) {
    return Fail(forward != nullptr ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_RUNTIME_ERROR,
                "%s: srcTensor %s has %lld dimensions; format %.*s needs %zu", kName,
                ShapeToString(src->view_shape).c_str(), static_cast<long long>(src->rank()),
                static_cast<int>(letters.size()), letters.data(), letters.size());
  }
  if (forward == nullptr) {
    return HandOut(src->view_shape, static_cast<aclFormat>(dst_format), dst_shape, dst_shape_size, actual_format);
  }
  return HandOut(BlockedShape(pair, ConvAxesFrom(letters, src->view_shape, {}), c0), pair.blocked, dst_shape,
                 dst_shape_size, actual_format);
}

}  // namespace

CANOPY_ACLNN_OP(NpuFormatCast, PlanNpuFormatCast,
                (OpTraits{.header = "aclnnop/aclnn_npu_format_cast.h",
                          .dtypes = kCastDtypes,
                          .private_formats = true,
                          .example = "f32[2,3] f32[2,3]"}),
                (const aclTensor*, srcTensor), (aclTensor*, dstTensor))

extern "C" {

aclnnStatus aclnnNpuFormatCastCalculateSizeAndFormat(const aclTensor* srcTensor, const int dstFormat,
                                                     const int additionalDtype, int64_t** dstShape,
                                                     uint64_t* dstShapeSize, int* actualFormat) try {
  return CalculateSizeAndFormat(srcTensor, dstFormat, additionalDtype, dstShape, dstShapeSize, actualFormat);
}
CANOPY_C_BOUNDARY_ACLNN

}  // extern "C"
