// aclnnTransMatmulWeight and aclnnCalculateMatmulWeightSize(V2): preparing a
// matmul weight in the layout Canopy's matmul kernels read fastest.
//
// CANN's document leaves that layout to the implementation ("ND or a private
// format, as suits the matmul"). On Canopy it is ND: oneDNN and the skinny
// kernel stream a row-major weight (or its transpose) as stored, so any
// blocked layout would have to be unpacked again on every call. A weight
// prepared here is therefore left as it is, and the matmul ops read a tensor
// created over it with ACL_FORMAT_FRACTAL_NZ through its view, exactly as the
// ND tensor: the products are the same, and the sizes below (CANN's padded NZ
// sizes) only ever leave room to spare.
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "common/c_boundary.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kWeightDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT8};
constexpr int64_t kMinRank = 2, kMaxRank = 6;

aclnnStatus PlanTransMatmulWeight(Plan& plan, const aclTensor* weight) {
  CANOPY_CHECK(plan.CheckDtype("mmWeightRef", weight->dtype, kWeightDtypes));
  if (weight->format != ACL_FORMAT_ND) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'mmWeightRef' has format %d; it must be ND",
                       static_cast<int>(weight->format));
  }
  CANOPY_CHECK(plan.CheckRank("mmWeightRef", weight, kMinRank, kMaxRank));
  if (weight->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'mmWeightRef' %s is empty",
                       ShapeToString(weight->view_shape).c_str());
  }
  // Canopy's prepared layout is the ND one: nothing moves (see above), so the
  // executor reads its argument and writes nothing.
  plan.Input(weight, "mmWeightRef");
  return ACLNN_SUCCESS;
}

// A positive extent rounded up to whole blocks of `to`, in 64 unsigned bits (INT64_MAX + 15 fits).
uint64_t AlignUp(int64_t value, uint64_t to) { return (static_cast<uint64_t>(value) + to - 1) / to * to; }

aclnnStatus WeightSize(const char* function, const aclIntArray* shape, int raw_dtype, uint64_t* size) {
  if (shape == nullptr || size == nullptr) {
    SetErrorMessage("%s: argument '%s' is null", function, shape == nullptr ? "tensorShape" : "weightTensorSize");
    return ACLNN_ERR_PARAM_NULLPTR;
  }
  const std::vector<int64_t>& dims = shape->values;
  if (static_cast<int64_t>(dims.size()) < kMinRank || static_cast<int64_t>(dims.size()) > kMaxRank) {
    SetErrorMessage("%s: tensorShape has %zu dimensions; 2 to 6 are supported", function, dims.size());
    return ACLNN_ERR_PARAM_INVALID;
  }
  // The last two dimensions are padded to whole fractal blocks: 16 rows, and
  // 16 columns for FLOAT16 / BFLOAT16, 32 for any other dataType. CANN's code
  // checks no dataType here (its document lists FLOAT16, BFLOAT16 and INT8,
  // but GroupedMatmulFinalizeRouting's examples size an INT32 weight), so
  // neither does Canopy.
  const uint64_t column_block = raw_dtype == ACL_FLOAT16 || raw_dtype == ACL_BF16 ? 16 : 32;
  uint64_t elements = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] <= 0) {
      SetErrorMessage("%s: tensorShape [%s] has a dimension that is not positive", function,
                      ShapeToString(dims).c_str());
      return ACLNN_ERR_PARAM_INVALID;
    }
    const uint64_t extent = d + 2 == dims.size()   ? AlignUp(dims[d], 16)
                            : d + 1 == dims.size() ? AlignUp(dims[d], column_block)
                                                   : static_cast<uint64_t>(dims[d]);
    if (__builtin_mul_overflow(elements, extent, &elements)) {
      SetErrorMessage("%s: tensorShape [%s] is too large", function, ShapeToString(dims).c_str());
      return ACLNN_ERR_PARAM_INVALID;
    }
  }
  *size = elements;
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(TransMatmulWeight, PlanTransMatmulWeight,
                (OpTraits{.header = "aclnnop/aclnn_trans_matmul_weight.h",
                          .dtypes = kWeightDtypes,
                          .max_rank = kMaxRank,
                          .example = "f16[2,2]"}),
                (aclTensor*, mmWeightRef))

extern "C" {

aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape, aclDataType dataType,
                                             uint64_t* weightTensorSize) try {
  return WeightSize(__func__, tensorShape, RawEnumValue(dataType), weightTensorSize);
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape, uint64_t* weightTensorSize) try {
  return WeightSize(__func__, tensorShape, ACL_FLOAT16, weightTensorSize);
}
CANOPY_C_BOUNDARY_ACLNN

}  // extern "C"
