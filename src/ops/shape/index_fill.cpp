// aclnnIndexFill and aclnnInplaceIndexFill (torch.index_fill with an index
// tensor): the slices of self along dim at the positions `index` holds set to
// value, into out (a copy of self) or self itself. The positions are read on
// the stream: negative ones count from the end and, as CANN documents, ones
// out of range are skipped. Dtypes: the Atlas A2 column of CANN's code.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_index_fill.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kIndexFillDtypes = {ACL_INT32, ACL_FLOAT16, ACL_FLOAT, ACL_INT64, ACL_BOOL, ACL_BF16};
constexpr DtypeSet kIndexDtypes = {ACL_INT32, ACL_INT64};

// dst[..., p, ...] = value along dim for every position p of the index.
class IndexFillStep final : public Step {
 public:
  IndexFillStep(const TensorRef& dst, int64_t dim, const TensorRef& index, ScalarValue value)
      : dst_(dst), dim_(dim), index_(index) {
    kernels::VisitStorage(dst.dtype, [&](auto tag) {
      using Storage = decltype(tag);
      const Storage v = value.As<Storage>();
      static_assert(sizeof(Storage) <= sizeof(value_bytes_));
      std::memcpy(value_bytes_, &v, sizeof v);
    });
  }

  aclnnStatus Run(const RunContext& context) const override {
    char* base = context.Resolve(dst_.buffer);
    const auto element = static_cast<int64_t>(DtypeSize(dst_.dtype));
    const char* index = context.Resolve(index_.buffer);
    const auto index_size = static_cast<int64_t>(DtypeSize(index_.dtype));
    const int64_t count = index_.NumElements();
    const int64_t extent = dst_.shape[static_cast<size_t>(dim_)];
    const auto rank = static_cast<int64_t>(dst_.shape.size());
    for (int64_t k = 0; k < count; ++k) {
      int64_t position = 0;
      kernels::Load(index_.dtype, index + k * (index_.strides.empty() ? 0 : index_.strides[0]) * index_size, 1, 1,
                    &position);
      if (position < 0) position += extent;
      if (position < 0 || position >= extent) continue;  // skipped, as CANN documents
      // Every element of the slice: an odometer over the other dims.
      std::vector<int64_t> at(static_cast<size_t>(rank), 0);
      at[static_cast<size_t>(dim_)] = position;
      for (bool more = true; more;) {
        int64_t offset = 0;
        for (int64_t d = 0; d < rank; ++d) offset += at[static_cast<size_t>(d)] * dst_.strides[static_cast<size_t>(d)];
        std::memcpy(base + offset * element, value_bytes_, static_cast<size_t>(element));
        more = false;
        for (int64_t d = rank - 1; d >= 0; --d) {
          if (d == dim_) continue;
          if (++at[static_cast<size_t>(d)] < dst_.shape[static_cast<size_t>(d)]) {
            more = true;
            break;
          }
          at[static_cast<size_t>(d)] = 0;
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("index fill of ") + DtypeName(dst_.dtype) + " along dim " + std::to_string(dim_) + " at " +
           std::to_string(index_.NumElements()) + " positions";
  }

 private:
  TensorRef dst_;
  int64_t dim_;
  TensorRef index_;
  alignas(16) char value_bytes_[16] = {};
};

// `out` is self itself for the in-place form.
aclnnStatus PlanIndexFillInto(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                              const aclScalar* value, const aclTensor* out) {
  const bool in_place = out == self;
  const char* self_name = in_place ? "selfRef" : "self";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kIndexFillDtypes));
  if (!in_place) CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("index", index->dtype, kIndexDtypes));
  if (!in_place) CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const int64_t rank = std::max<int64_t>(self->rank(), 1);  // a rank-0 self: one dim of extent 1
  int64_t d = 0;
  CANOPY_CHECK(CheckDim(plan, "dim", dim, rank, d));
  if (index->view_shape.size() > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'index' has rank %zu; it must be a vector or a scalar",
                       index->view_shape.size());
  }
  if (IsComplex(value->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'value' is complex (%s); it must be real",
                       DtypeName(value->dtype));
  }
  const TensorRef src = plan.Input(self, self_name);
  const TensorRef positions = plan.Input(index, "index");
  TensorRef dst = plan.Output(out, in_place ? "selfRef" : "out");
  if (!in_place) plan.Copy(src, dst);
  if (self->NumElements() == 0 || index->NumElements() == 0) return ACLNN_SUCCESS;
  if (self->rank() == 0) dst = Unsqueeze(dst, 0);
  plan.AddStep(std::make_unique<IndexFillStep>(dst, d, positions, ValueOf(*value)), {positions}, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanIndexFill(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                          const aclScalar* value, const aclTensor* out) {
  return PlanIndexFillInto(plan, self, dim, index, value, out);
}

aclnnStatus PlanInplaceIndexFill(Plan& plan, const aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                 const aclScalar* value) {
  return PlanIndexFillInto(plan, selfRef, dim, index, value, selfRef);
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_index_fill.h", .dtypes = kIndexFillDtypes};

}  // namespace

CANOPY_ACLNN_OP(IndexFill, PlanIndexFill, WithExample(kTraits, "f32[3,4] 1 i64[2]{0:3} f32:1.5 f32[3,4]"),
                (const aclTensor*, self), (int64_t, dim), (const aclTensor*, index), (const aclScalar*, value),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceIndexFill, PlanInplaceIndexFill, InPlace(kTraits, "f32[3,4] 1 i64[2]{0:3} f32:1.5"),
                (aclTensor*, selfRef), (int64_t, dim), (const aclTensor*, index), (const aclScalar*, value))
