// aclnnSearchSorted and aclnnSearchSorteds (torch.searchsorted): for each value
// of self, the index at which it would be inserted into its row of
// sortedSequence (one 1-D sequence for every value, or rows matching self's
// leading dimensions) to keep the row sorted: the first position whose element
// is not less than the value (right: greater than it). Both are compared in
// their promoted dtype as CANN's kernel compares them (no element is at least
// a NaN value, and a NaN element is at least no value). With `sorter`, row element j is
// sortedSequence[sorter[j]] (its argsort), each sorter index checked at run
// time. An empty sequence, self or out gives zeros, as CANN does.
// SearchSorteds searches one host scalar, taken as a float in the sequence's
// dtype (CANN's code), and gives out, one element, the view shape [1].
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_searchsorted.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSearchDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT16, ACL_INT8,
                                    ACL_UINT8,   ACL_INT32, ACL_INT64, ACL_DOUBLE};

// A value's exact, comparable form: floats as double, integers as int64.
template <typename T>
auto Comparable(T value) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<int64_t>(value);
  } else {
    return kernels::Convert<double>(value);
  }
}

class SearchSortedStep final : public Step {
 public:
  // sequence [rows, n] and values [rows, m] contiguous in one dtype (rows 1 for
  // a shared 1-D sequence: every value searches it); sorter [rows, n] int64 or
  // absent; result [values] int64.
  SearchSortedStep(const char* op, const TensorRef& sequence, const TensorRef& values, std::optional<TensorRef> sorter,
                   bool right, const TensorRef& result)
      : op_(op), sequence_(sequence), values_(values), sorter_(std::move(sorter)), right_(right), result_(result) {}

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t n = sequence_.shape.back();
    const int64_t sequence_rows = sequence_.NumElements() / std::max<int64_t>(n, 1);
    const int64_t m = values_.shape.back();
    const auto* order = sorter_ ? reinterpret_cast<const int64_t*>(context.Resolve(sorter_->buffer)) : nullptr;
    if (order != nullptr) {
      for (int64_t i = 0; i < sorter_->NumElements(); ++i) {
        if (order[i] < 0 || order[i] >= n) {
          SetErrorMessage("%s: sorter element %lld is %lld, outside [0, %lld)", op_, static_cast<long long>(i),
                          static_cast<long long>(order[i]), static_cast<long long>(n));
          return ACL_ERROR_RT_AICORE_EXCEPTION;  // what a faulting kernel reports
        }
      }
    }
    auto* result = reinterpret_cast<int64_t*>(context.Resolve(result_.buffer));
    kernels::VisitStorage(sequence_.dtype, [&](auto tag) {
      using T = decltype(tag);
      const auto* sequence = reinterpret_cast<const T*>(context.Resolve(sequence_.buffer));
      const auto* values = reinterpret_cast<const T*>(context.Resolve(values_.buffer));
      for (int64_t v = 0, count = values_.NumElements(); v < count; ++v) {
        const int64_t row = sequence_rows == 1 ? 0 : v / m;
        const auto at = [&](int64_t j) {
          const int64_t k = row * n + j;
          return Comparable(sequence[order != nullptr ? row * n + order[k] : k]);
        };
        const auto x = Comparable(values[v]);
        // The first j whose element is above x (right) or at least x, as CANN's kernel and PyTorch
        // compare: written !(e > x) and !(e >= x), so a NaN on either side never stops the search.
        int64_t lo = 0, hi = n;
        while (lo < hi) {
          const int64_t mid = lo + (hi - lo) / 2;
          const auto e = at(mid);
          const bool go_right = right_ ? !(e > x) : !(e >= x);
          if (go_right) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        result[v] = lo;
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("search sorted ") + ShapeToString(values_.shape) + " in " + ShapeToString(sequence_.shape) +
           " " + DtypeName(sequence_.dtype) + (right_ ? " right" : " left");
  }

 private:
  const char* op_;
  TensorRef sequence_, values_;
  std::optional<TensorRef> sorter_;
  bool right_;
  TensorRef result_;
};

aclnnStatus CheckSearchSorted(Plan& plan, const aclTensor* sequence, const aclTensor* self, bool out_int32,
                              const aclTensor* sorter, const aclTensor* out, aclDataType& promoted) {
  CANOPY_CHECK(plan.CheckDtype("sortedSequence", sequence->dtype, kSearchDtypes));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kSearchDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{out_int32 ? ACL_INT32 : ACL_INT64}));
  if (sorter != nullptr) CANOPY_CHECK(plan.CheckDtype("sorter", sorter->dtype, DtypeSet{ACL_INT64}));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  if (sorter != nullptr) CANOPY_CHECK(plan.CheckShape("sorter", sorter, sequence->view_shape));
  const Shape& s = sequence->view_shape;
  const Shape& v = self->view_shape;
  if (v.size() == 1 && v[0] == 1 && s.size() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a one-element 1-D self needs a 1-D sortedSequence, not %s",
                       ShapeToString(s).c_str());
  }
  const bool rows_match = s.size() == v.size() && !s.empty() && std::equal(s.begin(), s.end() - 1, v.begin());
  if (s.size() != 1 && !rows_match) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "sortedSequence %s must be 1-D, or match self %s in every dimension but the last",
                       ShapeToString(s).c_str(), ShapeToString(v).c_str());
  }
  promoted = PromoteTypes(sequence->dtype, self->dtype);
  if (!kSearchDtypes.Contains(promoted)) {
    return plan.Reject(
        ACLNN_ERR_PARAM_INVALID, "sortedSequence (%s) and self (%s) promote to %s, which is not one of %s",
        DtypeName(sequence->dtype), DtypeName(self->dtype), DtypeName(promoted), kSearchDtypes.ToString().c_str());
  }
  return ACLNN_SUCCESS;
}

// Everything after the checks; `self` is a registered input (or a temporary holding the scalar).
void PlanSearch(Plan& plan, const char* op, const TensorRef& sequence, const TensorRef& self,
                const std::optional<TensorRef>& sorter, bool right, aclDataType promoted, const TensorRef& dst) {
  if (sequence.NumElements() == 0 || self.NumElements() == 0 || dst.NumElements() == 0) {
    if (dst.NumElements() > 0) plan.Fill(dst, ScalarValue::Integer(0));
    return;
  }
  // [rows, n] and [rows or 1, m]: a rank-0 self is one value.
  const int64_t n = sequence.shape.back();
  const TensorRef rows = *Reshape(plan.Contiguous(sequence, promoted), {sequence.NumElements() / n, n});
  const int64_t m = self.rank() == 0 ? 1 : self.shape.back();
  const TensorRef values = *Reshape(plan.Contiguous(self, promoted), {self.NumElements() / m, m});
  std::optional<TensorRef> order;
  if (sorter) order = *Reshape(plan.Contiguous(*sorter, ACL_INT64), rows.shape);
  const TensorRef result = plan.Temporary(ACL_INT64, values.shape);
  plan.AddStep(std::make_unique<SearchSortedStep>(op, rows, values, order, right, result));
  plan.Copy(*Reshape(result, dst.shape), dst);
}

aclnnStatus PlanSearchSorted(Plan& plan, const aclTensor* sequence, const aclTensor* self, bool out_int32, bool right,
                             const aclTensor* sorter, const aclTensor* out) {
  aclDataType promoted = ACL_DT_UNDEFINED;
  CANOPY_CHECK(CheckSearchSorted(plan, sequence, self, out_int32, sorter, out, promoted));
  const TensorRef seq = plan.Input(sequence, "sortedSequence");
  const TensorRef values = plan.Input(self, "self");
  std::optional<TensorRef> order;
  if (sorter != nullptr) {
    order = plan.Input(sorter, "sorter");
  } else {
    plan.SkipInput();
  }
  PlanSearch(plan, "aclnnSearchSorted", seq, values, order, right, promoted, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanSearchSorteds(Plan& plan, const aclTensor* sequence, const aclScalar* self, bool out_int32, bool right,
                              const aclTensor* sorter, const aclTensor* out) {
  if (out->NumElements() != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' has shape %s; it must hold one element",
                       ShapeToString(out->view_shape).c_str());
  }
  // CANN's code reads the scalar as a float, makes it a [1] tensor of the
  // sequence's dtype, and sets out's view shape to [1] before its checks.
  auto* writable = const_cast<aclTensor*>(out);  // the prototype's out is the caller's writable tensor
  writable->view_shape = {1};
  writable->strides = {1};
  aclTensor one;
  one.view_shape = {1};
  one.strides = {1};
  one.dtype = sequence->dtype;
  aclDataType promoted = ACL_DT_UNDEFINED;
  CANOPY_CHECK(CheckSearchSorted(plan, sequence, &one, out_int32, sorter, out, promoted));
  const TensorRef seq = plan.Input(sequence, "sortedSequence");
  plan.SkipInput();  // self, a scalar
  std::optional<TensorRef> order;
  if (sorter != nullptr) {
    order = plan.Input(sorter, "sorter");
  } else {
    plan.SkipInput();
  }
  const TensorRef dst = plan.Output(out, "out");
  const TensorRef value = plan.Temporary(sequence->dtype, {1});
  plan.Fill(value, ScalarValue::Real(static_cast<float>(ValueOf(*self).real)));
  PlanSearch(plan, "aclnnSearchSorteds", seq, value, order, right, promoted, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(SearchSorted, PlanSearchSorted,
                (OpTraits{.header = "aclnnop/aclnn_searchsorted.h",
                          .dtypes = kSearchDtypes,
                          .example = "f32[4] f32[2,3] false false - i64[2,3]"}),
                (const aclTensor*, sortedSequence), (const aclTensor*, self), (bool, outInt32), (bool, right),
                (const aclTensor*, sorter, optional), (aclTensor*, out))
CANOPY_ACLNN_OP(SearchSorteds, PlanSearchSorteds,
                (OpTraits{.header = "aclnnop/aclnn_searchsorted.h",
                          .dtypes = kSearchDtypes,
                          .example = "f32[4] f32:5 false false - i64[1]"}),
                (const aclTensor*, sortedSequence), (const aclScalar*, self), (const bool, outInt32),
                (const bool, right), (const aclTensor*, sorter, optional), (aclTensor*, out))
