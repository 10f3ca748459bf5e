// aclnnChunkCat (torch._chunk_cat with dim 0, FSDP's gradient packing): each
// tensor t_k, viewed as [s_k, r_k] (r_k the product of its other dimensions),
// is split into numChunks chunks of c_k = ceil(s_k / numChunks) rows, the
// last padded with zeros; row i of out is chunk i of every tensor, flattened
// and concatenated. Tensor k owns the columns [o_k, o_k + c_k * r_k) of out,
// which as a [numChunks, c_k, r_k] view takes t_k's rows chunk by chunk: the
// full chunks in one copy, the partial one in another, zeros for the rest.
#include <string>
#include <vector>

#include "aclnnop/aclnn_chunk_cat.h"
#include "common/shape.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "view_or_copy.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kChunkCatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxRank = 8;

int64_t RowWidth(const Shape& shape) {
  int64_t width = 1;
  for (size_t d = 1; d < shape.size(); ++d) width *= shape[d];
  return width;
}

aclnnStatus CheckChunkCat(Plan& plan, const aclTensorList* tensors, int64_t num_chunks, const aclTensor* out) {
  const aclDataType dtype = tensors->tensors[0]->dtype;
  CANOPY_CHECK(plan.CheckDtype("tensors[0]", dtype, kChunkCatDtypes));
  for (size_t k = 1; k < tensors->tensors.size(); ++k) {
    if (tensors->tensors[k]->dtype != dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'tensors[%zu]' has dtype %s; 'tensors[0]' has %s", k,
                         DtypeName(tensors->tensors[k]->dtype), DtypeName(dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kChunkCatDtypes));
  if (dtype == ACL_FLOAT && out->dtype != ACL_FLOAT) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "FLOAT tensors need a FLOAT 'out', not %s", DtypeName(out->dtype));
  }
  for (size_t k = 0; k < tensors->tensors.size(); ++k) {
    const std::string name = "tensors[" + std::to_string(k) + "]";
    CANOPY_CHECK(plan.CheckRank(name.c_str(), tensors->tensors[k], 1, kMaxRank));
  }
  // CANN leaves numChunks unchecked (its shape inference divides by it).
  if (num_chunks <= 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'numChunks' (%lld) must be positive",
                       static_cast<long long>(num_chunks));
  }
  int64_t width = 0;
  for (const aclTensor* t : tensors->tensors) {
    if (t->NumElements() == 0) continue;  // an empty tensor contributes nothing
    int64_t piece = 0;
    if (__builtin_mul_overflow(CeilDiv(t->view_shape[0], num_chunks), RowWidth(t->view_shape), &piece) ||
        __builtin_add_overflow(width, piece, &width)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the chunks' rows are wider than int64 can count");
    }
  }
  const Shape expected = {num_chunks, width};
  if (out->view_shape != expected && !(out->NumElements() == 1 && num_chunks == 1 && width == 1)) {
    return plan.CheckShape("out", out, expected);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanChunkCat(Plan& plan, const aclTensorList* tensors, int64_t dim, int64_t numChunks,
                         const aclTensor* out) {
  if (dim != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dim' is %lld; ChunkCat splits along dim 0 only",
                       static_cast<long long>(dim));
  }
  if (tensors->tensors.empty()) {  // as CANN: nothing to do, out untouched
    plan.InputList(tensors, "tensors");
    plan.Output(out, "out");
    return ACLNN_SUCCESS;
  }
  CANOPY_CHECK(CheckChunkCat(plan, tensors, numChunks, out));
  const std::vector<TensorRef> list = plan.InputList(tensors, "tensors");
  const TensorRef dst = plan.Output(out, "out");
  const TensorRef rows = *Reshape(dst, {numChunks, dst.NumElements() / numChunks});
  int64_t column = 0;
  for (const TensorRef& t : list) {
    if (t.NumElements() == 0) continue;
    const int64_t extent = t.shape[0];
    const int64_t per_chunk = CeilDiv(extent, numChunks);
    const int64_t width = RowWidth(t.shape);
    const int64_t columns = per_chunk * width;
    // Tensor k's block of out as [numChunks, c_k, r_k]; a narrowed row-major block always splits its columns.
    const TensorRef block = *Reshape(Narrow(rows, 1, column, columns), {numChunks, per_chunk, width});
    column += columns;
    const TensorRef src = ViewOrCopy(plan, t, {extent, width});
    const int64_t full = extent / per_chunk;  // chunks that take c_k rows of t
    const int64_t partial = extent - full * per_chunk;
    plan.Copy(*Reshape(Narrow(src, 0, 0, full * per_chunk), {full, per_chunk, width}), Narrow(block, 0, 0, full));
    if (full == numChunks) continue;
    const TensorRef tail = Select(block, 0, full);
    if (partial > 0) plan.Copy(Narrow(src, 0, full * per_chunk, partial), Narrow(tail, 0, 0, partial));
    plan.Fill(Narrow(tail, 0, partial, per_chunk - partial), ScalarValue::Integer(0));
    if (full + 1 < numChunks) plan.Fill(Narrow(block, 0, full + 1, numChunks - full - 1), ScalarValue::Integer(0));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ChunkCat, PlanChunkCat,
                (OpTraits{.header = "aclnnop/aclnn_chunk_cat.h",
                          .dtypes = kChunkCatDtypes,
                          .example = "(f32[2,3],f32[1,3]) 0 2 f32[2,6]"}),
                (const aclTensorList*, tensors), (int64_t, dim), (int64_t, numChunks), (aclTensor*, out))
