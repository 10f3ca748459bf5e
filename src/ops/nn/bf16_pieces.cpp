#include "bf16_pieces.h"

#include "kernels/matmul.h"

namespace canopy::ops {

int Bf16PiecesFor(aclDataType compute, int8_t cube_math_type, bool worthwhile) {
  constexpr int8_t kAllowFp32DownPrecision = 1, kUseHf32 = 3;
  if (!kernels::Bf16SplitEnabled() || !(worthwhile || kernels::Bf16SplitForced())) return 0;
  if (!kernels::MatmulSupportsDtype(ACL_BF16)) return 0;
  if (compute == ACL_FLOAT && (cube_math_type == kAllowFp32DownPrecision || cube_math_type == kUseHf32)) return 3;
  if (compute == ACL_FLOAT16) return 4;
  return 0;
}

TensorRef PlanBf16Pieces(Plan& plan, const TensorRef& matrix, int64_t batch, int64_t rows, int64_t cols,
                         bool along_columns, const std::vector<kernels::Bf16Piece>& pieces, const Shape& shape) {
  const auto count = static_cast<int64_t>(pieces.size());
  TensorRef split = plan.Temporary(ACL_BF16, shape);
  kernels::Bf16SplitDesc desc;
  desc.src = matrix.buffer;
  desc.src_dtype = matrix.dtype;
  desc.batch = batch;
  desc.rows = rows;
  desc.cols = cols;
  desc.dst = split.buffer;
  desc.piece_stride = along_columns ? cols : rows * cols;
  desc.row_stride = along_columns ? count * cols : cols;
  desc.batch_stride = count * rows * cols;
  desc.pieces = pieces;
  plan.AddStep(kernels::MakeBf16SplitStep(desc), {matrix}, split);
  return split;
}

}  // namespace canopy::ops
