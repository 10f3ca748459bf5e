// aclnnScatter, aclnnScatterValue, their in-place forms and aclnnScatterAdd
// (Scatter with reduce 1, torch.scatter_add): for each position
// p of index, self[p with p[dim] replaced by index[p]] is replaced by (reduce
// 0), has added (1) or is multiplied by (2) src[p] (or the scalar value). The
// index values are checked at run time before anything is written (the shared
// index check of gather.h); updates apply in index's row-major order, so
// duplicates are deterministic: the last one wins, sums and products in order.
#include <cstring>
#include <string>

#include "accumulate.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_scatter_reduce.h"
#include "gather.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"
#include "strided_loops.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kScatterDtypes = {ACL_UINT8,   ACL_INT8,  ACL_INT16,  ACL_INT32,     ACL_INT64,      ACL_BOOL,
                                     ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

enum class Reduce : uint8_t { kNone = 0, kAdd = 1, kMul = 2 };

// dst[p with p[dim] = values[k]] op= src[p], p the k-th position of src's
// view of index's shape (src's strides, index's extents).
class ScatterStep final : public Step {
 public:
  ScatterStep(const TensorRef& dst, int64_t dim, const TensorRef& values, const TensorRef& src, Reduce reduce)
      : dst_(dst), dim_(static_cast<size_t>(dim)), values_(values), src_(src), reduce_(reduce) {
    dst_strides_ = dst.strides;
    dst_strides_[dim_] = 0;  // the index value picks the position along dim
  }

  aclnnStatus Run(const RunContext& context) const override {
    char* dst = context.Resolve(dst_.buffer);
    const char* src = context.Resolve(src_.buffer);
    const auto* values = reinterpret_cast<const int64_t*>(context.Resolve(values_.buffer));
    const auto bytes = static_cast<int64_t>(DtypeSize(dst_.dtype));
    const int64_t along = dst_.strides[dim_];
    int64_t k = 0;
    if (reduce_ == Reduce::kNone) {
      ForEachOffsetPair(src_.shape, src_.strides, dst_strides_, [&](int64_t s, int64_t t) {
        std::memcpy(dst + (t + values[k++] * along) * bytes, src + s * bytes, static_cast<size_t>(bytes));
      });
      return ACLNN_SUCCESS;
    }
    kernels::VisitStorage(dst_.dtype, [&](auto tag) {
      using S = decltype(tag);
      ForEachOffsetPair(src_.shape, src_.strides, dst_strides_, [&](int64_t s, int64_t t) {
        CombineElement<S>(dst + (t + values[k++] * along) * bytes, src + s * bytes, CombineType<S>(1),
                          reduce_ == Reduce::kMul);
      });
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    static const char* const kNames[] = {"scatter", "scatter add", "scatter mul"};
    return std::string(kNames[static_cast<int>(reduce_)]) + " dim " + std::to_string(dim_) + " " +
           ShapeToString(src_.shape) + " into " + ShapeToString(dst_.shape) + " " + DtypeName(dst_.dtype);
  }

 private:
  TensorRef dst_;
  size_t dim_;
  TensorRef values_;
  TensorRef src_;
  Reduce reduce_;
  Shape dst_strides_;
};

// Every extent of `small` at most `large`'s, except along `skip` (-1: none).
bool FitsWithin(const Shape& small, const Shape& large, int64_t skip) {
  for (size_t i = 0; i < small.size() && i < large.size(); ++i) {
    if (static_cast<int64_t>(i) != skip && small[i] > large[i]) return false;
  }
  return true;
}

// The shared checks, in CANN's order; `src` is null for the value forms
// (a value spread over index's shape). An empty index skips the shape checks.
aclnnStatus CheckScatter(Plan& plan, const char* self_name, const aclTensor* self, int64_t dim, const aclTensor* index,
                         const aclTensor* src, const aclScalar* value, int64_t reduce, const aclTensor* out,
                         int64_t& d) {
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kScatterDtypes));
  if (src != nullptr) CANOPY_CHECK(CheckSameDtype(plan, "src", src, self_name, self));
  if (out != self) CANOPY_CHECK(CheckSameDtype(plan, "out", out, self_name, self));
  if (index->NumElements() != 0) CANOPY_CHECK(plan.CheckDtype("index", index->dtype, kIndexDtypes));
  const bool complex_self = self->dtype == ACL_COMPLEX64 || self->dtype == ACL_COMPLEX128;
  if (value != nullptr && !complex_self && (value->dtype == ACL_COMPLEX64 || value->dtype == ACL_COMPLEX128)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'value' is complex (%s) while %s is %s",
                       DtypeName(value->dtype), self_name, DtypeName(self->dtype));
  }
  if (reduce < 0 || reduce > 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'reduce' is %lld; it must be 0 (replace), 1 (add) or 2 (multiply)",
                       static_cast<long long>(reduce));
  }
  if (out != self) CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  if (index->NumElements() == 0) return ACLNN_SUCCESS;
  const int64_t rank = self->rank();
  if (index->rank() != rank || (src != nullptr && src->rank() != rank)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s (rank %lld), 'index' (rank %lld) and %s must have the same rank",
                       self_name, static_cast<long long>(rank), static_cast<long long>(index->rank()),
                       src != nullptr ? ("'src' (rank " + std::to_string(src->rank()) + ")").c_str() : "'value'");
  }
  CANOPY_CHECK(CheckDim(plan, "dim", dim, std::max<int64_t>(rank, 1), d));  // rank 0 counts as 1
  if (src != nullptr && !FitsWithin(index->view_shape, src->view_shape, -1)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'index' of shape %s exceeds 'src' of shape %s",
                       ShapeToString(index->view_shape).c_str(), ShapeToString(src->view_shape).c_str());
  }
  if (!FitsWithin(index->view_shape, self->view_shape, d)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'index' of shape %s exceeds %s of shape %s outside dim %lld",
                       ShapeToString(index->view_shape).c_str(), self_name, ShapeToString(self->view_shape).c_str(),
                       static_cast<long long>(d));
  }
  return ACLNN_SUCCESS;
}

// Operands in prototype order: self, index, src (none for the value forms), out.
aclnnStatus PlanScatterInto(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                            const aclTensor* src, const aclScalar* value, int64_t reduce, const aclTensor* out) {
  const bool in_place = out == self;
  const char* self_name = in_place ? "selfRef" : "self";
  int64_t d = 0;
  CANOPY_CHECK(CheckScatter(plan, self_name, self, dim, index, src, value, reduce, out, d));
  TensorRef original = plan.Input(self, self_name);
  TensorRef indices = plan.Input(index, "index");
  TensorRef updates;
  if (src != nullptr) updates = plan.Input(src, "src");
  TensorRef dst = plan.Output(out, in_place ? "selfRef" : "out");
  if (self->rank() == 0) {  // one element: a dimension of extent 1
    original = Unsqueeze(original, 0);
    dst = Unsqueeze(dst, 0);
    indices = Unsqueeze(indices, 0);
    if (src != nullptr) updates = Unsqueeze(updates, 0);
  }
  const std::optional<TensorRef> values =
      indices.NumElements() == 0 ? std::nullopt : PlanIndexValues(plan, indices, "index", d, dst.shape[d]);
  if (!in_place) plan.Copy(original, dst);  // after the check: a failed one leaves out as it was
  if (!values || dst.NumElements() == 0) return ACLNN_SUCCESS;
  if (src == nullptr) {  // the value, in self's dtype, spread over index's shape
    const TensorRef one = plan.Temporary(dst.dtype, {1});
    plan.Fill(one, ValueOf(*value));
    updates = BroadcastTo(one, indices.shape);
  } else {
    for (int64_t i = 0; i < updates.rank(); ++i) updates = Narrow(updates, i, 0, indices.shape[i]);
  }
  plan.AddStep(std::make_unique<ScatterStep>(dst, d, *values, updates, static_cast<Reduce>(reduce)), {updates, *values},
               dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanScatter(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* src,
                        int64_t reduce, const aclTensor* out) {
  return PlanScatterInto(plan, self, dim, index, src, nullptr, reduce, out);
}

aclnnStatus PlanInplaceScatter(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                               const aclTensor* src, int64_t reduce) {
  return PlanScatterInto(plan, self, dim, index, src, nullptr, reduce, self);
}

aclnnStatus PlanScatterValue(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                             const aclScalar* value, int64_t reduce, const aclTensor* out) {
  return PlanScatterInto(plan, self, dim, index, nullptr, value, reduce, out);
}

aclnnStatus PlanInplaceScatterValue(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                                    const aclScalar* value, int64_t reduce) {
  return PlanScatterInto(plan, self, dim, index, nullptr, value, reduce, self);
}

aclnnStatus PlanScatterAdd(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* src,
                           const aclTensor* out) {
  return PlanScatterInto(plan, self, dim, index, src, nullptr, static_cast<int64_t>(Reduce::kAdd), out);
}

// torch.scatter_reduce. CANN's Atlas A2 path takes FLOAT self, reduce 1 (sum)
// and includeSelf only: out = self plus every src element at its index.
aclnnStatus PlanScatterReduceInto(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                                  const aclTensor* src, int64_t reduce, bool include_self, const aclTensor* out) {
  // reduce: 0 none, 1 sum, 2 prod, 3 amax, 4 amin, 5 mean; the gate below admits sum alone.
  constexpr int64_t kReduceSum = 1;
  if (self->dtype != ACL_FLOAT || reduce != kReduceSum || !include_self) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "Atlas A2 takes a FLOAT self, reduce 1 (sum) and includeSelf true only, not %s, reduce %lld, "
                       "includeSelf %s",
                       DtypeName(self->dtype), static_cast<long long>(reduce), include_self ? "true" : "false");
  }
  return PlanScatterInto(plan, self, dim, index, src, nullptr, static_cast<int64_t>(Reduce::kAdd), out);
}

aclnnStatus PlanScatterReduce(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                              const aclTensor* src, int64_t reduce, bool include_self, const aclTensor* out) {
  return PlanScatterReduceInto(plan, self, dim, index, src, reduce, include_self, out);
}

aclnnStatus PlanInplaceScatterReduce(Plan& plan, const aclTensor* self, int64_t dim, const aclTensor* index,
                                     const aclTensor* src, int64_t reduce, bool include_self) {
  return PlanScatterReduceInto(plan, self, dim, index, src, reduce, include_self, self);
}

constexpr OpTraits kScatterReduce{.header = "aclnnop/aclnn_scatter_reduce.h",
                                  .dtypes = DtypeSet{ACL_FLOAT},
                                  .example = "f32[2,3] 1 i64[2,3]{0:2} f32[2,3] 1 true f32[2,3]"};

constexpr OpTraits kScatter{.header = "aclnnop/aclnn_scatter.h", .dtypes = kScatterDtypes};

}  // namespace

CANOPY_ACLNN_OP(Scatter, PlanScatter, kScatter, (const aclTensor*, self), (int64_t, dim), (const aclTensor*, index),
                (const aclTensor*, src), (int64_t, reduce), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceScatter, PlanInplaceScatter, InPlace(kScatter), (aclTensor*, selfRef), (int64_t, dim),
                (const aclTensor*, index), (const aclTensor*, src), (int64_t, reduce))
CANOPY_ACLNN_OP(ScatterValue, PlanScatterValue, kScatter, (const aclTensor*, self), (int64_t, dim),
                (const aclTensor*, index), (const aclScalar*, value), (int64_t, reduce), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceScatterValue, PlanInplaceScatterValue, InPlace(kScatter), (aclTensor*, selfRef), (int64_t, dim),
                (const aclTensor*, index), (const aclScalar*, value), (int64_t, reduce))
CANOPY_ACLNN_OP(ScatterAdd, PlanScatterAdd,
                (OpTraits{.header = "aclnnop/aclnn_scatter_add.h",
                          .dtypes = kScatterDtypes,
                          .example = "f32[3,4] 0 i64[2,4]{0:2} f32[2,4] f32[3,4]"}),
                (const aclTensor*, self), (int64_t, dim), (const aclTensor*, index), (const aclTensor*, src),
                (aclTensor*, out))
CANOPY_ACLNN_OP(ScatterReduce, PlanScatterReduce, kScatterReduce, (const aclTensor*, self), (int64_t, dim),
                (const aclTensor*, index), (const aclTensor*, src), (int64_t, reduce), (bool, includeSelf),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceScatterReduce, PlanInplaceScatterReduce,
                InPlace(kScatterReduce, "f32[2,3] 1 i64[2,3]{0:2} f32[2,3] 1 true"), (aclTensor*, selfRef),
                (int64_t, dim), (const aclTensor*, index), (const aclTensor*, src), (int64_t, reduce),
                (bool, includeSelf))
