// aclnnDynamicBlockQuant and aclnnDynamicBlockQuantV2: x (rank 2 or 3, its last dim the columns) is
// quantised block by block, a block being rowBlockSize rows by colBlockSize columns of each [M, N]
// matrix: scaleOut = max|block| / 127 (f32, [ceil(M / rowBlockSize), ceil(N / colBlockSize)] per
// matrix) and yOut = round(x / scaleOut), half to even, saturated to INT8; minScale > 0 caps
// scaleOut at 1 / minScale (kernels/quant_block.h has the kernel's exact f32 steps).
//
// CANN's A2 / A3 path (no hand-written host code: the op definition and DynamicBlockQuantI8's
// tiling): x FLOAT16 / BFLOAT16 (the docs list FLOAT32 as well; the A2 op definition does not, and
// Canopy follows it), yOut INT8, scaleOut FLOAT (161002). The tiling then rejects (561002) a negative
// minScale, a dstType other than yOut's dtype or than 2 (INT8), a dstTypeMax other than 0, a
// rowBlockSize other than 1 and a colBlockSize other than 128 (V2's doc allows 1 too; the tiling does
// not), yOut not x's shape, x not rank 2 or 3 and scaleOut not the block grid. roundModeOptional is
// not checked by the A2 tiling (it rounds half to even, "rint", whatever it says). The docs do not
// take empty tensors: an empty x is 161002.
#include "aclnnop/aclnn_dynamic_block_quant.h"
#include "aclnnop/aclnn_dynamic_block_quant_v2.h"
#include "common/shape.h"
#include "kernels/quant_block.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInputDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr int64_t kInt8DstType = 2;  // aclDataType ACL_INT8, the only dstType of the A2 kernel
constexpr int64_t kRowBlockSize = 1;
constexpr int64_t kColBlockSize = 128;

// The tiling's checks, in its order (561002).
aclnnStatus CheckTiling(Plan& plan, const aclTensor* x, double min_scale, int64_t dst_type, int64_t row_block_size,
                        int64_t col_block_size, double dst_type_max, const aclTensor* y_out,
                        const aclTensor* scale_out) {
  if (min_scale < 0.0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'minScale' is %g; it must not be negative", min_scale);
  }
  if (dst_type != static_cast<int64_t>(y_out->dtype) || dst_type != kInt8DstType) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "argument 'dstType' is %lld and yOut is %s; Atlas A2 takes dstType 2 (INT8) with an INT8 yOut",
                       static_cast<long long>(dst_type), DtypeName(y_out->dtype));
  }
  if (dst_type_max != 0.0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'dstTypeMax' is %g; Atlas A2 takes 0 only",
                       dst_type_max);
  }
  if (row_block_size != kRowBlockSize) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'rowBlockSize' is %lld; Atlas A2 takes 1 only",
                       static_cast<long long>(row_block_size));
  }
  if (col_block_size != kColBlockSize) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'colBlockSize' is %lld; Atlas A2 takes 128 only",
                       static_cast<long long>(col_block_size));
  }
  if (y_out->view_shape != x->view_shape) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'yOut' has shape %s; it must be x's %s",
                       ShapeToString(y_out->view_shape).c_str(), ShapeToString(x->view_shape).c_str());
  }
  if (x->rank() != 2 && x->rank() != 3) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'x' has rank %lld; it must be 2 or 3",
                       static_cast<long long>(x->rank()));
  }
  Shape grid = x->view_shape;
  grid[grid.size() - 2] = CeilDiv(grid[grid.size() - 2], row_block_size);
  grid.back() = CeilDiv(grid.back(), col_block_size);
  if (scale_out->view_shape != grid) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'scaleOut' has shape %s; for x %s it must be %s",
                       ShapeToString(scale_out->view_shape).c_str(), ShapeToString(x->view_shape).c_str(),
                       ShapeToString(grid).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDynamicBlockQuantV2(Plan& plan, const aclTensor* x, double min_scale, const char* /*round_mode*/,
                                    int64_t dst_type, int64_t row_block_size, int64_t col_block_size,
                                    double dst_type_max, const aclTensor* y_out, const aclTensor* scale_out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kInputDtypes));
  CANOPY_CHECK(plan.CheckDtype("yOut", y_out->dtype, DtypeSet{ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("scaleOut", scale_out->dtype, DtypeSet{ACL_FLOAT}));
  if (x->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x' is empty (%s); the op takes no empty tensors",
                       ShapeToString(x->view_shape).c_str());
  }
  CANOPY_CHECK(
      CheckTiling(plan, x, min_scale, dst_type, row_block_size, col_block_size, dst_type_max, y_out, scale_out));

  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef y_ref = plan.Output(y_out, "yOut");
  const TensorRef scale_ref = plan.Output(scale_out, "scaleOut");
  kernels::BlockQuantDesc desc;
  desc.x_dtype = x->dtype;
  desc.columns = x->view_shape.back();
  desc.rows = x->NumElements() / desc.columns;
  desc.block_columns = col_block_size;
  desc.min_scale = static_cast<float>(min_scale);  // the kernel's attribute is f32
  desc.x = plan.Contiguous(x_ref, x->dtype).buffer;
  const TensorRef y = y_ref.IsContiguous() ? y_ref : plan.Temporary(ACL_INT8, y_ref.shape);
  const TensorRef scale = scale_ref.IsContiguous() ? scale_ref : plan.Temporary(ACL_FLOAT, scale_ref.shape);
  desc.y = y.buffer;
  desc.scale = scale.buffer;
  plan.AddStep(kernels::MakeBlockQuantStep(desc));
  if (!y_ref.IsContiguous()) plan.Copy(y, y_ref);
  if (!scale_ref.IsContiguous()) plan.Copy(scale, scale_ref);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDynamicBlockQuant(Plan& plan, const aclTensor* x, double min_scale, const char* round_mode,
                                  int64_t dst_type, int64_t row_block_size, int64_t col_block_size,
                                  const aclTensor* y_out, const aclTensor* scale_out) {
  return PlanDynamicBlockQuantV2(plan, x, min_scale, round_mode, dst_type, row_block_size, col_block_size, 0.0, y_out,
                                 scale_out);
}

}  // namespace

CANOPY_ACLNN_OP(DynamicBlockQuant, PlanDynamicBlockQuant,
                (OpTraits{.header = "aclnnop/aclnn_dynamic_block_quant.h",
                          .dtypes = kInputDtypes,
                          .example = "f16[4,2] 0 'rint' 2 1 128 i8[4,2] f32[4,1]"}),
                (const aclTensor*, x), (double, minScale), (char*, roundModeOptional, optional), (int64_t, dstType),
                (int64_t, rowBlockSize), (int64_t, colBlockSize), (const aclTensor*, yOut),
                (const aclTensor*, scaleOut))

CANOPY_ACLNN_OP(DynamicBlockQuantV2, PlanDynamicBlockQuantV2,
                (OpTraits{.header = "aclnnop/aclnn_dynamic_block_quant_v2.h",
                          .dtypes = kInputDtypes,
                          .example = "f16[4,2] 0 'rint' 2 1 128 0 i8[4,2] f32[4,1]"}),
                (const aclTensor*, x), (double, minScale), (char*, roundModeOptional, optional), (int64_t, dstType),
                (int64_t, rowBlockSize), (int64_t, colBlockSize), (double, dstTypeMax), (const aclTensor*, yOut),
                (const aclTensor*, scaleOut))
