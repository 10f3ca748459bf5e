// aclnnConstantPadNd: self with pad[2i] elements before and pad[2i + 1] after
// its i-th dimension from the last (a negative count crops), the new elements
// `value`. out's border is filled region by region, then the kept part of self
// is copied into its interior: each element of out is written once.
#include <algorithm>
#include <vector>

#include "aclnnop/aclnn_constant_pad_nd.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kPadDtypes = {ACL_FLOAT, ACL_INT32, ACL_FLOAT16,   ACL_INT8,       ACL_DOUBLE,
                                 ACL_INT16, ACL_INT64, ACL_UINT64,    ACL_UINT32,     ACL_UINT16,
                                 ACL_UINT8, ACL_BOOL,  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus CheckPad(Plan& plan, const aclTensor* self, const aclIntArray* pad, const aclTensor* out,
                     std::vector<int64_t>& before, std::vector<int64_t>& after) {
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kPadDtypes));
  // value converts to self's dtype: CANN's implementation checks no promotion between the two
  // (its table has none for u16 / u32 / u64, which self may be).
  if (self->format != out->format && self->format != ACL_FORMAT_ND) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "self's format %d is not ND, and out's format %d differs from it",
                       static_cast<int>(self->format), static_cast<int>(out->format));
  }
  const int64_t rank = self->rank();
  if (out->rank() != rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' has rank %lld; self has rank %lld",
                       static_cast<long long>(out->rank()), static_cast<long long>(rank));
  }
  const auto count = static_cast<int64_t>(pad->values.size());
  if (count % 2 != 0 || count / 2 > rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'pad' has %lld values; it needs an even count of at most twice self's rank %lld",
                       static_cast<long long>(count), static_cast<long long>(rank));
  }
  before.assign(static_cast<size_t>(rank), 0);
  after.assign(static_cast<size_t>(rank), 0);
  bool grows = false;
  bool padded_dim_empty = false;
  Shape expected = self->view_shape;
  for (int64_t i = 0; i < count / 2; ++i) {  // pad pair i is dimension rank - 1 - i
    const int64_t d = rank - 1 - i;
    const int64_t b = pad->values[2 * i], e = pad->values[2 * i + 1];
    const int64_t n = self->view_shape[d];
    // Every partial extent (n + b, n + e, n + b + e) must stay >= 0.
    int64_t extent = 0;
    if (b < -n || e < -n || __builtin_add_overflow(n, b, &extent) || __builtin_add_overflow(extent, e, &extent) ||
        extent < 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'pad' gives dimension %lld of extent %lld the pads %lld and %lld: a negative (or "
                         "unaddressable) extent",
                         static_cast<long long>(d), static_cast<long long>(n), static_cast<long long>(b),
                         static_cast<long long>(e));
    }
    expected[static_cast<size_t>(d)] = extent;
    grows = grows || b > 0 || e > 0;
    padded_dim_empty = padded_dim_empty || extent == 0;
    before[static_cast<size_t>(d)] = b;
    after[static_cast<size_t>(d)] = e;
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  if (grows && padded_dim_empty) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'out' of shape %s has a padded dimension of extent 0 while 'pad' pads elsewhere",
                       ShapeToString(out->view_shape).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanConstantPadNd(Plan& plan, const aclTensor* self, const aclIntArray* pad, const aclScalar* value,
                              const aclTensor* out) {
  std::vector<int64_t> before, after;
  CANOPY_CHECK(CheckPad(plan, self, pad, out, before, after));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  // The kept part of self and where it lands in out, per dimension.
  const int64_t rank = src.rank();
  TensorRef kept = src;
  TensorRef interior = dst;
  for (int64_t d = 0; d < rank; ++d) {
    const auto i = static_cast<size_t>(d);
    const int64_t crop_front = std::max<int64_t>(-before[i], 0), crop_back = std::max<int64_t>(-after[i], 0);
    const int64_t length = std::max<int64_t>(src.shape[i] - crop_front - crop_back, 0);
    kept = Narrow(kept, d, std::min(crop_front, src.shape[i]), length);
    interior = Narrow(interior, d, std::max<int64_t>(before[i], 0), length);
  }
  const ScalarValue fill = ValueOf(*value);
  if (interior.NumElements() == 0) {
    plan.Fill(dst, fill);
    return ACLNN_SUCCESS;
  }
  // The border: for each dimension d, the part before and after the interior
  // along d, within the interior along the dimensions before d.
  TensorRef band = dst;
  for (int64_t d = 0; d < rank; ++d) {
    const auto i = static_cast<size_t>(d);
    const int64_t start = std::max<int64_t>(before[i], 0), length = interior.shape[i];
    if (start > 0) plan.Fill(Narrow(band, d, 0, start), fill);
    const int64_t tail = dst.shape[i] - start - length;
    if (tail > 0) plan.Fill(Narrow(band, d, start + length, tail), fill);
    band = Narrow(band, d, start, length);
  }
  plan.Copy(kept, interior);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ConstantPadNd, PlanConstantPadNd,
                (OpTraits{.header = "aclnnop/aclnn_constant_pad_nd.h",
                          .dtypes = kPadDtypes,
                          .example = "f32[2,3] ints[1,1,0,1] f32:0 f32[3,5]"}),
                (const aclTensor*, self), (const aclIntArray*, pad), (const aclScalar*, value), (aclTensor*, out))
