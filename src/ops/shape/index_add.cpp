// aclnnIndexAdd (torch.index_add): out = self, then for each k the slice k of
// source along dim, times alpha, is added to out's slice index[k]. Index values
// are checked at run time before anything is written (the shared index check
// of gather.h); duplicates add up in index order, each sum rounded to the dtype.
// aclnnIndexAddV2 adds CANN's `mode`: 0 is its fast path (FLOAT, FLOAT16,
// BF16, INT32 or INT16; 2-D self; dim 0 or -2), which does not apply alpha;
// any other mode is IndexAdd. With ACL_OPT_DETERMINISTIC set, CANN runs
// IndexAdd whatever the mode, and so does Canopy.
#include <string>

#include "accumulate.h"
#include "aclnnop/aclnn_index_add.h"
#include "aclnnop/aclnn_index_add_v2.h"
#include "canopy/canopy_runtime.h"
#include "gather.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"
#include "strided_loops.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kIndexAddDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT16, ACL_INT8,
                                      ACL_UINT8, ACL_DOUBLE,  ACL_INT64, ACL_BOOL,  ACL_BF16};

// dst[pre, values[k], post] += alpha * source[pre, k, post], k in order.
class IndexAddStep final : public Step {
 public:
  IndexAddStep(const TensorRef& dst, int64_t dim, BufferRef values, const TensorRef& source, ScalarValue alpha)
      : dst_(dst), dim_(static_cast<size_t>(dim)), values_(values), source_(source), alpha_(alpha) {
    // The slices: source's shape and both views' strides without dim.
    slice_shape_ = source.shape;
    dst_slice_ = dst.strides;
    source_slice_ = source.strides;
    slice_shape_.erase(slice_shape_.begin() + dim);
    dst_slice_.erase(dst_slice_.begin() + dim);
    source_slice_.erase(source_slice_.begin() + dim);
  }

  aclnnStatus Run(const RunContext& context) const override {
    char* dst = context.Resolve(dst_.buffer);
    const char* source = context.Resolve(source_.buffer);
    const auto* values = reinterpret_cast<const int64_t*>(context.Resolve(values_));
    const auto bytes = static_cast<int64_t>(DtypeSize(dst_.dtype));
    const int64_t count = source_.shape[dim_];
    kernels::VisitStorage(dst_.dtype, [&](auto tag) {
      using S = decltype(tag);
      const CombineType<S> alpha = CombineScalar<S>(alpha_);
      for (int64_t k = 0; k < count; ++k) {
        char* to = dst + values[k] * dst_.strides[dim_] * bytes;
        const char* from = source + k * source_.strides[dim_] * bytes;
        ForEachOffsetPair(slice_shape_, dst_slice_, source_slice_,
                          [&](int64_t t, int64_t s) { CombineElement<S>(to + t * bytes, from + s * bytes, alpha); });
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "index add dim " + std::to_string(dim_) + " " + ShapeToString(source_.shape) + " into " +
           ShapeToString(dst_.shape) + " " + DtypeName(dst_.dtype);
  }

 private:
  TensorRef dst_;
  size_t dim_;
  BufferRef values_;
  TensorRef source_;
  ScalarValue alpha_;
  Shape slice_shape_;
  Shape dst_slice_;
  Shape source_slice_;
};

aclnnStatus CheckIndexAdd(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                          const aclTensor* source, const aclScalar* alpha, const aclTensor* out, int64_t& d) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kIndexAddDtypes));
  CANOPY_CHECK(plan.CheckDtype("index", index->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckDtype("source", source->dtype, kIndexAddDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "source", source, "self", self));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  const int64_t rank = std::max<int64_t>(self->rank(), 1);  // rank 0 counts as 1
  CANOPY_CHECK(CheckDim(plan, "dim", dim, rank, d));
  if (!CanCast(alpha->dtype, self->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'alpha' has dtype %s, which cannot be cast to self's dtype %s",
                       DtypeName(alpha->dtype), DtypeName(self->dtype));
  }
  if (std::max<int64_t>(source->rank(), 1) != rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'source' has rank %lld; self has rank %lld",
                       static_cast<long long>(source->rank()), static_cast<long long>(self->rank()));
  }
  const int64_t source_extent = source->rank() == 0 ? 1 : source->view_shape[d];
  for (int64_t i = 0; i < self->rank(); ++i) {
    if (i != d && self->view_shape[i] != source->view_shape[i]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'source' of shape %s and self of shape %s differ outside dim %lld",
                         ShapeToString(source->view_shape).c_str(), ShapeToString(self->view_shape).c_str(),
                         static_cast<long long>(d));
    }
  }
  if (index->rank() > 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'index' has rank %lld; it must be 0 or 1",
                       static_cast<long long>(index->rank()));
  }
  if (index->NumElements() != source_extent) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'index' has %lld elements; source has %lld along dim %lld",
                       static_cast<long long>(index->NumElements()), static_cast<long long>(source_extent),
                       static_cast<long long>(d));
  }
  return plan.CheckShape("out", out, self->view_shape);
}

// The planning after the checks; `alpha` as it is applied.
aclnnStatus PlanIndexAddSteps(Plan& plan, const aclTensor* self, int64_t d, const aclTensor* index,
                              const aclTensor* source, ScalarValue alpha, const aclTensor* out) {
  TensorRef original = plan.Input(self, "self");
  TensorRef indices = plan.Input(index, "index");
  TensorRef slices = plan.Input(source, "source");
  TensorRef dst = plan.Output(out, "out");
  // A rank-0 self or source is one element: a dimension of extent 1 (either
  // may be rank 0 while the other is [n]).
  if (self->rank() == 0) {
    original = Unsqueeze(original, 0);
    dst = Unsqueeze(dst, 0);
  }
  if (source->rank() == 0) slices = Unsqueeze(slices, 0);
  indices = *Reshape(indices, {indices.NumElements()});
  // The check comes first: a failed one leaves out as it was.
  const std::optional<TensorRef> values = PlanIndexValues(plan, indices, "index", d, dst.shape[d]);
  plan.Copy(original, dst);
  if (!values || slices.NumElements() == 0) return ACLNN_SUCCESS;
  plan.AddStep(std::make_unique<IndexAddStep>(dst, d, values->buffer, slices, alpha), {slices, *values}, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanIndexAdd(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                         const aclTensor* source, const aclScalar* alpha, const aclTensor* out) {
  int64_t d = 0;
  CANOPY_CHECK(CheckIndexAdd(plan, self, dim, index, source, alpha, out, d));
  return PlanIndexAddSteps(plan, self, d, index, source, ValueOf(*alpha), out);
}

aclnnStatus PlanIndexAddV2(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                           const aclTensor* source, const aclScalar* alpha, int64_t mode, const aclTensor* out) {
  if (canopyDeterministicMode() != 0) return PlanIndexAdd(plan, self, dim, index, source, alpha, out);
  int64_t d = 0;
  CANOPY_CHECK(CheckIndexAdd(plan, self, dim, index, source, alpha, out, d));
  if (self->NumElements() == 0 || source->NumElements() == 0) {  // CANN: nothing, out not written
    plan.Input(self, "self");
    plan.Input(index, "index");
    plan.Input(source, "source");
    plan.Output(out, "out");
    return ACLNN_SUCCESS;
  }
  if (mode != 0) return PlanIndexAddSteps(plan, self, d, index, source, ValueOf(*alpha), out);
  constexpr DtypeSet kFastDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT16, ACL_BF16};
  if (!kFastDtypes.Contains(self->dtype) || self->rank() != 2 || index->rank() != 1 || d != 0) {
    // CANN's code fails inside (561103) where its document says 161002.
    return plan.Reject(ACLNN_ERR_INNER_NULLPTR,
                       "mode 0 takes a 2-D self of FLOAT, FLOAT16, BF16, INT32 or INT16, a 1-D index and dim 0 "
                       "(self %s %s, index rank %lld, dim %lld); another mode takes the rest",
                       ShapeToString(self->view_shape).c_str(), DtypeName(self->dtype),
                       static_cast<long long>(index->rank()), static_cast<long long>(dim));
  }
  return PlanIndexAddSteps(plan, self, d, index, source, ScalarValue::Integer(1), out);  // mode 0 leaves alpha out
}

}  // namespace

CANOPY_ACLNN_OP(IndexAdd, PlanIndexAdd,
                (OpTraits{.header = "aclnnop/aclnn_index_add.h",
                          .dtypes = kIndexAddDtypes,
                          .example = "f32[4,3] 0 i64[2]{0:3} f32[2,3] f32:1 f32[4,3]"}),
                (const aclTensor*, self), (const int64_t, dim), (const aclTensor*, index), (const aclTensor*, source),
                (const aclScalar*, alpha), (aclTensor*, out))
CANOPY_ACLNN_OP(IndexAddV2, PlanIndexAddV2,
                (OpTraits{.header = "aclnnop/aclnn_index_add_v2.h",
                          .dtypes = kIndexAddDtypes,
                          .example = "f32[4,2] 0 i32[4]{0:3} f32[4,2] f32:1 0 f32[4,2]"}),
                (const aclTensor*, self), (const int64_t, dim), (const aclTensor*, index), (const aclTensor*, source),
                (const aclScalar*, alpha), (int64_t, mode), (aclTensor*, out))
