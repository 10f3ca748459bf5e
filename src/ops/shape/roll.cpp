// aclnnRoll: out = x with its elements moved shifts[i] places (cyclically)
// along dims[i]; with dims empty, along x flattened. Each rolled dimension
// splits into two runs that swap places, so the roll is at most 2^k strided
// copies of views for k distinct dims (shifts along the same dim add up).
#include <optional>
#include <vector>

#include "aclnnop/aclnn_roll.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRollDtypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_INT8,  ACL_UINT8, ACL_INT32,
                                  ACL_UINT32, ACL_BOOL,    ACL_INT64, ACL_BF16,  ACL_INT16};

// Copies src rolled by shift[d] along each dimension d with a non-zero shift into dst.
void PlanRolledCopies(Plan& plan, const TensorRef& src, const TensorRef& dst, const std::vector<int64_t>& shift) {
  std::vector<int64_t> rolled;
  for (size_t d = 0; d < shift.size(); ++d) {
    if (shift[d] != 0) rolled.push_back(static_cast<int64_t>(d));
  }
  // Piece `mask`: along rolled dim k, bit k clear is the run that moves from
  // [0, n - s) to [s, n), bit k set the run from [n - s, n) to [0, s).
  for (uint32_t mask = 0; mask < (1u << rolled.size()); ++mask) {
    TensorRef from = src;
    TensorRef to = dst;
    for (size_t k = 0; k < rolled.size(); ++k) {
      const int64_t d = rolled[k];
      const int64_t n = src.shape[static_cast<size_t>(d)], s = shift[static_cast<size_t>(d)];
      if ((mask >> k) & 1u) {
        from = Narrow(from, d, n - s, s);
        to = Narrow(to, d, 0, s);
      } else {
        from = Narrow(from, d, 0, n - s);
        to = Narrow(to, d, s, n - s);
      }
    }
    plan.Copy(from, to);
  }
}

aclnnStatus PlanRoll(Plan& plan, const aclTensor* x, const aclIntArray* shifts, const aclIntArray* dims,
                     const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kRollDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kRollDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "x", x));
  CANOPY_CHECK(plan.CheckShape("out", out, x->view_shape));
  const size_t count = dims->values.size();
  if (count != 0 && shifts->values.size() != count) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'shifts' has %zu values; 'dims' has %zu",
                       shifts->values.size(), count);
  }
  if (count == 0 && shifts->values.size() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'shifts' has %zu values; with 'dims' empty it needs 1",
                       shifts->values.size());
  }
  const int64_t rank = x->rank();
  const bool empty = x->NumElements() == 0;  // as CANN has it, an empty x takes any dims
  if (!empty && rank == 0 && count != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dims' must be empty for a rank-0 x; it has %zu values",
                       count);
  }
  std::vector<int64_t> shift(static_cast<size_t>(rank), 0);
  if (!empty) {
    for (size_t i = 0; i < count; ++i) {
      int64_t d = 0;
      CANOPY_CHECK(CheckDim(plan, "dims", dims->values[i], rank, d));
      const int64_t n = x->view_shape[static_cast<size_t>(d)];
      // Reduced modulo n one at a time, so adding shifts of the same dim cannot overflow.
      shift[static_cast<size_t>(d)] = ((shift[static_cast<size_t>(d)] + shifts->values[i] % n) % n + n) % n;
    }
  }
  const TensorRef src = plan.Input(x, "x");
  const TensorRef dst = plan.Output(out, "out");
  if (empty) return ACLNN_SUCCESS;
  if (count != 0) {
    PlanRolledCopies(plan, src, dst, shift);
    return ACLNN_SUCCESS;
  }
  // Along x flattened: both sides as one dimension, through dense copies where strides cannot merge.
  const int64_t total = src.NumElements();
  const int64_t s = (shifts->values[0] % total + total) % total;
  std::optional<TensorRef> flat_src = Reshape(src, {total});
  if (!flat_src) flat_src = *Reshape(plan.Contiguous(src, src.dtype), {total});
  const std::optional<TensorRef> flat_dst = Reshape(dst, {total});
  if (flat_dst) {
    PlanRolledCopies(plan, *flat_src, *flat_dst, {s});
    return ACLNN_SUCCESS;
  }
  const TensorRef staged = plan.Temporary(dst.dtype, dst.shape);
  PlanRolledCopies(plan, *flat_src, *Reshape(staged, {total}), {s});
  plan.Copy(staged, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Roll, PlanRoll, (OpTraits{.header = "aclnnop/aclnn_roll.h", .dtypes = kRollDtypes}),
                (const aclTensor*, x), (const aclIntArray*, shifts), (const aclIntArray*, dims), (aclTensor*, out))
