// aclnnConvertWeightToINT4Pack: a weight carrying one 4-bit value per element
// (INT32 in [-8, 7], or FLOAT holding a FLOAT4_E2M1 value) packed densely, two
// values a byte in row-major order, the even element in the low nibble. An
// INT32 / FLOAT weightInt4Pack is the same bytes seen as 8 values an element.
//
// CANN packs in phase 1, synchronously, and its phase 2 does nothing; Canopy
// packs on the stream in phase 2, which a client that runs both phases (as the
// doc's example does) cannot tell apart.
//
// A FRACTAL_NZ weightInt4Pack is written in its view's row-major layout: on
// Canopy a FRACTAL_NZ weight is read through its view, as every matmul op
// (WeightQuantBatchMatmulV2 included) reads it (see trans_matmul_weight.cpp);
// its storage shape is still checked as CANN checks it, and the NZ storage
// always has room for the dense bytes.
//
// Dtypes: the doc's A2 column lists INT32 -> INT4 / INT32 only; CANN's code
// checks no SoC for the FLOAT -> FLOAT4_E2M1 / FLOAT form, so it is accepted too.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "aclnnop/aclnn_convert_weight_to_int4_pack.h"
#include "common/shape.h"
#include "kernels/parallel_for.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kWeightDtypes = {ACL_INT32, ACL_FLOAT};
constexpr DtypeSet kPackDtypes = {ACL_INT4, ACL_INT32, ACL_FLOAT4_E2M1, ACL_FLOAT};
constexpr int64_t kMinRank = 2, kMaxRank = 3;
constexpr int64_t kValuesPerByte = 2;
constexpr int64_t kValuesPerWord = 8;  // 4-bit values in an INT32 / FLOAT element
constexpr int64_t kNzBlockRows = 16;
// CANN's NZ storage for the A2 / A3 packing: [ceil(n / c), ceil(k / 16), 16, c] in the
// last four dims, c = 64 INT4 values or 8 INT32 words (32 bytes either way).
constexpr int64_t kNzInt4Columns = 64;
constexpr int64_t kNzRankMin = 4, kNzRankMax = 5;
constexpr int64_t kPackGrain = 1 << 16;  // bytes per parallel piece, at least

bool IsDense(const aclTensor* t) {
  return TensorRef{.buffer = {}, .dtype = t->dtype, .shape = t->view_shape, .strides = t->strides}.IsContiguous();
}

// FLOAT4_E2M1's code of a float as CANN reads it: sign, exponent and the first
// mantissa bit are kept (the rest truncated); a value that is then none of the
// 16 E2M1 values gives code 0.
uint8_t Fp4Code(uint32_t bits) {
  constexpr uint32_t kKeptBits = 0xFFC00000u;
  constexpr uint32_t kSignBit = 0x80000000u;
  constexpr uint8_t kSignCode = 0x8;
  constexpr std::array<float, 8> kMagnitudes = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  const uint32_t kept = bits & kKeptBits;
  for (size_t code = 0; code < kMagnitudes.size(); ++code) {
    uint32_t magnitude = 0;
    std::memcpy(&magnitude, &kMagnitudes[code], sizeof magnitude);
    if ((kept & ~kSignBit) == magnitude) {
      return static_cast<uint8_t>(code | ((kept & kSignBit) != 0 ? kSignCode : 0));
    }
  }
  return 0;
}

// dst[i] = code(src[2i]) | code(src[2i + 1]) << 4 over dense buffers.
class PackStep final : public Step {
 public:
  PackStep(const TensorRef& src, const TensorRef& dst, bool fp4) : src_(src), dst_(dst), fp4_(fp4) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* src = reinterpret_cast<const uint32_t*>(context.Resolve(src_.buffer));
    auto* dst = reinterpret_cast<uint8_t*>(context.Resolve(dst_.buffer));
    const int64_t bytes = src_.NumElements() / kValuesPerByte;
    const bool fp4 = fp4_;
    kernels::ParallelFor(bytes, kPackGrain, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const uint32_t low = src[kValuesPerByte * i], high = src[kValuesPerByte * i + 1];
        const uint8_t low_code = fp4 ? Fp4Code(low) : static_cast<uint8_t>(low & 0xFu);
        const uint8_t high_code = fp4 ? Fp4Code(high) : static_cast<uint8_t>(high & 0xFu);
        dst[i] = static_cast<uint8_t>(low_code | (high_code << 4));
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("pack ") + std::to_string(src_.NumElements()) + (fp4_ ? " fp4" : " int4") + " values";
  }

 private:
  TensorRef src_, dst_;
  bool fp4_;
};

// CANN's storage-shape rule for an NZ weightInt4Pack of view [..., rows, columns].
aclnnStatus CheckNzStorage(Plan& plan, const aclTensor* pack, int64_t rows, int64_t columns) {
  const Shape& storage = pack->storage_shape;
  const auto rank = static_cast<int64_t>(storage.size());
  if (rank < kNzRankMin || rank > kNzRankMax) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'weightInt4Pack' is FRACTAL_NZ with storage shape %s; it must have 4 or 5 dims",
                       ShapeToString(storage).c_str());
  }
  if (pack->dtype != ACL_INT4 && pack->dtype != ACL_INT32) return ACLNN_SUCCESS;  // CANN checks no more
  const int64_t block = pack->dtype == ACL_INT4 ? kNzInt4Columns : kValuesPerWord;
  const Shape expected = {CeilDiv(columns, block), CeilDiv(rows, kNzBlockRows), kNzBlockRows, block};
  const Shape last(storage.end() - kNzRankMin, storage.end());
  if (last != expected) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'weightInt4Pack' is FRACTAL_NZ %s with storage shape %s; its last four dims must "
                       "be %s",
                       DtypeName(pack->dtype), ShapeToString(storage).c_str(), ShapeToString(expected).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanConvertWeightToInt4Pack(Plan& plan, const aclTensor* weight, const aclTensor* pack) {
  // CANN's order: contiguity, dtypes, formats, ranks, shapes.
  for (const auto& [name, t] : {std::pair{"weight", weight}, std::pair{"weightInt4Pack", pack}}) {
    if (!IsDense(t)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' must be contiguous (strides %s for shape %s)", name,
                         ShapeToString(t->strides).c_str(), ShapeToString(t->view_shape).c_str());
    }
  }
  CANOPY_CHECK(plan.CheckDtype("weight", weight->dtype, kWeightDtypes));
  CANOPY_CHECK(plan.CheckDtype("weightInt4Pack", pack->dtype, kPackDtypes));
  const bool int_weight = weight->dtype == ACL_INT32;
  const bool pack_fits = int_weight ? (pack->dtype == ACL_INT4 || pack->dtype == ACL_INT32)
                                    : (pack->dtype == ACL_FLOAT4_E2M1 || pack->dtype == ACL_FLOAT);
  if (!pack_fits) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weight %s packs into weightInt4Pack %s or %s, not %s",
                       DtypeName(weight->dtype), int_weight ? "INT4" : "FLOAT4_E2M1", int_weight ? "INT32" : "FLOAT",
                       DtypeName(pack->dtype));
  }
  CANOPY_CHECK(plan.CheckPlainFormat("weight", weight));
  if (pack->format != ACL_FORMAT_ND && pack->format != ACL_FORMAT_FRACTAL_NZ) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'weightInt4Pack' has format %d; it must be ND or FRACTAL_NZ",
                       static_cast<int>(pack->format));
  }
  if (weight->format != ACL_FORMAT_ND) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'weight' has format %d; it must be ND",
                       static_cast<int>(weight->format));
  }
  CANOPY_CHECK(plan.CheckRank("weight", weight, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("weightInt4Pack", pack, kMinRank, kMaxRank));

  const Shape& ws = weight->view_shape;
  const Shape& ps = pack->view_shape;
  const int64_t rows = ws[ws.size() - 2], columns = ws.back();
  const int64_t pack_rows = ps[ps.size() - 2], pack_columns = ps.back();
  const bool per_value = pack->dtype == ACL_INT4 || pack->dtype == ACL_FLOAT4_E2M1;
  const int64_t per_element = per_value ? 1 : kValuesPerWord;
  const int64_t alignment = per_value ? kValuesPerByte : kValuesPerWord;
  if (columns % alignment != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "weight %s: its last dim must be a multiple of %lld for a %s weightInt4Pack",
                       ShapeToString(ws).c_str(), static_cast<long long>(alignment), DtypeName(pack->dtype));
  }
  if (rows != pack_rows || columns / per_element != pack_columns) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "weightInt4Pack %s does not fit weight %s: its last two dims must be [%lld, %lld]",
                       ShapeToString(ps).c_str(), ShapeToString(ws).c_str(), static_cast<long long>(rows),
                       static_cast<long long>(columns / per_element));
  }
  if (pack->format == ACL_FORMAT_FRACTAL_NZ) CANOPY_CHECK(CheckNzStorage(plan, pack, pack_rows, pack_columns));
  // CANN checks only the last two dims; the packed bytes follow the weight's, so
  // a leading dim must hold as many values too.
  const int64_t pack_values = pack->NumElements() * per_element;
  if (weight->NumElements() != pack_values) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weightInt4Pack %s holds %lld values; weight %s has %lld",
                       ShapeToString(ps).c_str(), static_cast<long long>(pack_values), ShapeToString(ws).c_str(),
                       static_cast<long long>(weight->NumElements()));
  }
  if (weight->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'weight' %s is empty; it must not be",
                       ShapeToString(ws).c_str());
  }
  const TensorRef src = plan.Input(weight, "weight");
  const TensorRef dst = plan.Output(pack, "weightInt4Pack");
  plan.AddStep(std::make_unique<PackStep>(src, dst, !int_weight), {src}, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ConvertWeightToINT4Pack, PlanConvertWeightToInt4Pack,
                (OpTraits{.header = "aclnnop/aclnn_convert_weight_to_int4_pack.h",
                          .dtypes = kPackDtypes,
                          .max_rank = kMaxRank,
                          .private_formats = true,
                          .example = "i32[4,16]{-8:7} i4[4,16]"}),
                (const aclTensor*, weight), (aclTensor*, weightInt4Pack))
