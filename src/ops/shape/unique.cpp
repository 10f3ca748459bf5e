// aclnnUnique, aclnnUnique2, aclnnUniqueConsecutive and aclnnUniqueDim
// (torch.unique, torch.unique_consecutive): the distinct elements of self
// (flattened), or its distinct slices along `dim`, with each element's (or
// slice's) group index and each group's size. Sorted ascending (slices
// lexicographically; `sorted` false leaves the order to the op, and sorted is
// one), or for UniqueConsecutive in order of first appearance, runs of equal
// neighbours collapsed. NaN equals nothing (each NaN is its own value, sorted
// last); -0.0 equals 0.0.
//
// The number of groups is known only once the run has counted: as on CANN,
// the caller allocates valueOut and countsOut with room for it, and phase 2
// waits for the run and then sets their view shapes (and inverseOut's where
// CANN does) to the result's, contiguous from their first elements; callers
// read them with aclGetViewShape. A result larger than an output fails the run
// without writing any output.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_unique.h"
#include "aclnnop/aclnn_unique2.h"
#include "aclnnop/aclnn_unique_consecutive.h"
#include "aclnnop/aclnn_unique_dim.h"
#include "common/shape.h"
#include "kernels/dtype_dispatch.h"
#include "nnopbase/live_tensor.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kUniqueDtypes = {ACL_BOOL,   ACL_UINT8, ACL_INT8,   ACL_UINT16, ACL_INT16,   ACL_UINT32, ACL_INT32,
                                    ACL_UINT64, ACL_INT64, ACL_DOUBLE, ACL_FLOAT,  ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kUniqueConsecutiveDtypes = kUniqueDtypes | DtypeSet{ACL_COMPLEX64, ACL_COMPLEX128};
// UniqueConsecutive's dim that means "flatten self" (CANN's spelling of None).
constexpr int64_t kNoDim = 1000;

// What one run computes: self as [outer, n, inner] (n slices along the dim,
// each outer x inner elements; a flattened self is [1, numel, 1]).
struct UniqueLayout {
  int64_t outer = 1;
  int64_t n = 1;
  int64_t inner = 1;
  bool consecutive = false;  // groups are runs of equal neighbours, not equal values
};

// Where the run writes: each output contiguous from its first element with
// `capacity` elements of room (values, inverse and counts; null: not written).
struct UniqueOutput {
  BufferRef buffer;
  int64_t capacity = 0;
  bool wanted = false;
};

// A comparable, exact key of one element: floats as double, integers as
// themselves, complex numbers as (real, imaginary).
template <typename T>
auto KeyOf(T value) {
  using kernels::BFloat16;
  using kernels::Bool8;
  using kernels::Half;
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16> || std::is_floating_point_v<T>) {
    return kernels::Convert<double>(value);
  } else if constexpr (std::is_same_v<T, Bool8>) {
    return static_cast<int>(value.byte != 0);
  } else if constexpr (kernels::kIsComplex<T>) {
    return std::pair<double, double>(value.real(), value.imag());
  } else {
    return value;
  }
}

bool IsNan(double v) { return std::isnan(v); }
bool IsNan(const std::pair<double, double>& v) { return std::isnan(v.first) || std::isnan(v.second); }
template <typename K>
bool IsNan(const K&) {
  return false;
}

// A strict weak order with NaN after everything (the values' order otherwise).
template <typename K>
bool KeyLess(const K& a, const K& b) {
  if (IsNan(a) || IsNan(b)) return !IsNan(a) && IsNan(b);
  return a < b;
}

// Groups the n slices of `self`: `group[i]` is slice i's group, `first[g]` the
// slice that stands for group g, `sizes[g]` how many slices it has.
template <typename T>
void GroupSlices(const T* self, const UniqueLayout& layout, std::vector<int64_t>& group, std::vector<int64_t>& first,
                 std::vector<int64_t>& sizes) {
  const int64_t slice_stride = layout.inner;
  const int64_t outer_stride = layout.n * layout.inner;
  const auto element = [&](int64_t slice, int64_t k) {
    return KeyOf(self[(k / layout.inner) * outer_stride + slice * slice_stride + k % layout.inner]);
  };
  const int64_t slice_size = layout.outer * layout.inner;
  const auto equal = [&](int64_t a, int64_t b) {
    for (int64_t k = 0; k < slice_size; ++k) {
      if (!(element(a, k) == element(b, k))) return false;  // NaN equals nothing
    }
    return true;
  };
  std::vector<int64_t> order(static_cast<size_t>(layout.n));
  std::iota(order.begin(), order.end(), int64_t{0});
  if (!layout.consecutive) {
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      for (int64_t k = 0; k < slice_size; ++k) {
        const auto x = element(a, k), y = element(b, k);
        if (KeyLess(x, y)) return true;
        if (KeyLess(y, x)) return false;
      }
      return false;
    });
  }
  group.assign(static_cast<size_t>(layout.n), 0);
  first.clear();
  sizes.clear();
  for (int64_t slice : order) {
    if (first.empty() || !equal(first.back(), slice)) {
      first.push_back(slice);
      sizes.push_back(0);
    }
    group[static_cast<size_t>(slice)] = static_cast<int64_t>(first.size()) - 1;
    ++sizes.back();
  }
}

class UniqueStep final : public Step {
 public:
  UniqueStep(const char* op, const TensorRef& self, const UniqueLayout& layout, UniqueOutput values,
             UniqueOutput inverse, UniqueOutput counts, BufferRef count)
      : op_(op), self_(self), layout_(layout), values_(values), inverse_(inverse), counts_(counts), count_(count) {}

  aclnnStatus Run(const RunContext& context) const override {
    std::vector<int64_t> group, first, sizes;
    const char* self = context.Resolve(self_.buffer);
    kernels::VisitStorage(self_.dtype, [&](auto tag) {
      using T = decltype(tag);
      GroupSlices(reinterpret_cast<const T*>(self), layout_, group, first, sizes);
    });
    const auto groups = static_cast<int64_t>(first.size());
    const int64_t slice_size = layout_.outer * layout_.inner;
    if (const char* short_of = ShortOutput(groups * slice_size, groups)) {
      SetErrorMessage("%s: the result has %lld groups; argument '%s' has no room for it", op_,
                      static_cast<long long>(groups), short_of);
      return ACLNN_ERR_PARAM_INVALID;
    }
    // values[o, g, i] = self[o, first[g], i]
    const auto bytes = static_cast<int64_t>(DtypeSize(self_.dtype));
    char* values = context.Resolve(values_.buffer);
    for (int64_t o = 0; o < layout_.outer; ++o) {
      for (int64_t g = 0; g < groups; ++g) {
        const int64_t from = (o * layout_.n + first[static_cast<size_t>(g)]) * layout_.inner;
        const int64_t to = (o * groups + g) * layout_.inner;
        std::memcpy(values + to * bytes, self + from * bytes, static_cast<size_t>(layout_.inner * bytes));
      }
    }
    if (inverse_.wanted) std::memcpy(context.Resolve(inverse_.buffer), group.data(), group.size() * sizeof(int64_t));
    if (counts_.wanted) std::memcpy(context.Resolve(counts_.buffer), sizes.data(), sizes.size() * sizeof(int64_t));
    std::memcpy(context.Resolve(count_), &groups, sizeof groups);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string(layout_.consecutive ? "unique consecutive " : "unique ") + ShapeToString(self_.shape) + " " +
           DtypeName(self_.dtype);
  }

 private:
  // The name of the first output without room for `value_elements` values and `groups` groups, or null.
  const char* ShortOutput(int64_t value_elements, int64_t groups) const {
    if (value_elements > values_.capacity) return "valueOut";
    if (inverse_.wanted && layout_.n > inverse_.capacity) return "inverseOut";
    if (counts_.wanted && groups > counts_.capacity) return "countsOut";
    return nullptr;
  }

  const char* op_;
  TensorRef self_;  // contiguous
  UniqueLayout layout_;
  UniqueOutput values_, inverse_, counts_;
  BufferRef count_;  // the number of groups, int64 in the workspace
};

// After the run: each output's view becomes its shape for the counted groups.
class UniqueShapes final : public AfterRun {
 public:
  // A shape with -1 where the number of groups goes.
  struct Rewrite {
    aclTensor* tensor;  // the caller's, checked alive before it is written
    Shape shape;
  };

  UniqueShapes(std::vector<Rewrite> rewrites, BufferRef count) : rewrites_(std::move(rewrites)), count_(count) {}

  aclnnStatus Finish(const RunContext& context) const override {
    int64_t groups = 0;
    std::memcpy(&groups, context.Resolve(count_), sizeof groups);
    for (const Rewrite& rewrite : rewrites_) {
      Shape shape = rewrite.shape;
      std::replace(shape.begin(), shape.end(), int64_t{-1}, groups);
      // Skipped for a descriptor the client destroyed after phase 1; runs of
      // one repeatable executor on several threads write it in turn.
      canopyNnopbaseSetContiguousView(rewrite.tensor, shape.data(), shape.size());
    }
    return ACLNN_SUCCESS;
  }

 private:
  std::vector<Rewrite> rewrites_;
  BufferRef count_;
};

// An output the run writes from its first element, then reshapes.
aclnnStatus CheckWritable(Plan& plan, const char* name, const aclTensor* tensor) {
  if (tensor->NumElements() <= 1 || tensor->strides == ContiguousStrides(tensor->view_shape)) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "argument '%s' (shape %s) must be contiguous: the run writes its result from the first element "
                     "and then gives it the result's shape",
                     name, ShapeToString(tensor->view_shape).c_str());
}

aclnnStatus CheckIndexOutputs(Plan& plan, const aclTensor* inverse, const aclTensor* counts) {
  CANOPY_CHECK(plan.CheckDtype("inverseOut", inverse->dtype, DtypeSet{ACL_INT64}));
  if (counts != nullptr) CANOPY_CHECK(plan.CheckDtype("countsOut", counts->dtype, DtypeSet{ACL_INT64}));
  return ACLNN_SUCCESS;
}

aclnnStatus CheckDim(Plan& plan, const aclTensor* self, int64_t dim, int64_t& normalised) {
  const int64_t rank = std::max<int64_t>(self->rank(), 1);
  if (dim < -rank || dim >= rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dim' (%lld) is out of range [%lld, %lld] for self %s",
                       static_cast<long long>(dim), static_cast<long long>(-rank), static_cast<long long>(rank - 1),
                       ShapeToString(self->view_shape).c_str());
  }
  normalised = dim < 0 ? dim + rank : dim;
  return ACLNN_SUCCESS;
}

// What a call asks for, checked: the layout, which outputs the run writes and
// the shapes each takes after it (-1: the number of groups).
struct UniqueCall {
  const char* op;
  const aclTensor* self;
  UniqueLayout layout;
  const aclTensor* values;
  const aclTensor* inverse;  // null: not written
  const aclTensor* counts;   // null: not written
  Shape value_shape, inverse_shape, counts_shape;
  bool reshape_inverse = false;  // CANN rewrites inverseOut's view too
};

aclnnStatus PlanUnique(Plan& plan, const UniqueCall& call, const aclTensor* inverse_arg, const aclTensor* counts_arg) {
  CANOPY_CHECK(CheckWritable(plan, "valueOut", call.values));
  if (call.inverse != nullptr) CANOPY_CHECK(CheckWritable(plan, "inverseOut", call.inverse));
  if (call.counts != nullptr) CANOPY_CHECK(CheckWritable(plan, "countsOut", call.counts));
  const TensorRef self = plan.Input(call.self, "self");
  const TensorRef values = plan.Output(call.values, "valueOut");
  const TensorRef inverse = plan.Output(inverse_arg, "inverseOut");
  std::optional<TensorRef> counts;
  if (counts_arg != nullptr) counts = plan.Output(counts_arg, "countsOut");
  if (call.self->NumElements() == 0) return ACLNN_SUCCESS;  // CANN: nothing, not even the shapes
  const auto output = [](const TensorRef& t, bool wanted) { return UniqueOutput{t.buffer, t.NumElements(), wanted}; };
  const TensorRef count = plan.Temporary(ACL_INT64, {1});
  plan.AddStep(std::make_unique<UniqueStep>(call.op, plan.Contiguous(self, self.dtype), call.layout,
                                            output(values, true), output(inverse, call.inverse != nullptr),
                                            counts ? output(*counts, call.counts != nullptr) : UniqueOutput{},
                                            count.buffer));
  // The prototype's outputs are the caller's writable tensors; the recipe sees them const.
  std::vector<UniqueShapes::Rewrite> rewrites = {{const_cast<aclTensor*>(call.values), call.value_shape}};
  if (call.inverse != nullptr && call.reshape_inverse) {
    rewrites.push_back({const_cast<aclTensor*>(call.inverse), call.inverse_shape});
  }
  if (call.counts != nullptr) rewrites.push_back({const_cast<aclTensor*>(call.counts), call.counts_shape});
  plan.SetAfterRun(std::make_unique<UniqueShapes>(std::move(rewrites), count.buffer));
  return ACLNN_SUCCESS;
}

UniqueLayout FlatLayout(const aclTensor* self) { return UniqueLayout{1, self->NumElements(), 1, false}; }

// self as [outer, shape[dim], inner].
UniqueLayout DimLayout(const aclTensor* self, int64_t dim) {
  UniqueLayout layout;
  const Shape& shape = self->view_shape;
  if (shape.empty()) return layout;  // a 0-d self is one slice of one element
  for (int64_t d = 0; d < dim; ++d) layout.outer *= shape[static_cast<size_t>(d)];
  layout.n = shape[static_cast<size_t>(dim)];
  for (auto d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) layout.inner *= shape[d];
  return layout;
}

// self's shape with dim's extent the number of groups.
Shape GroupedShape(const aclTensor* self, int64_t dim) {
  Shape shape = self->view_shape;
  if (shape.empty()) return {-1};
  shape[static_cast<size_t>(dim)] = -1;
  return shape;
}

aclnnStatus CheckSameShape(Plan& plan, const char* name, const aclTensor* tensor, const char* other_name,
                           const aclTensor* other) {
  if (tensor->view_shape == other->view_shape) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must have %s's shape %s", name,
                     ShapeToString(tensor->view_shape).c_str(), other_name, ShapeToString(other->view_shape).c_str());
}

aclnnStatus PlanUnique1(Plan& plan, const aclTensor* self, bool /*sorted: always*/, bool return_inverse,
                        const aclTensor* value_out, const aclTensor* inverse_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kUniqueDtypes));
  CANOPY_CHECK(CheckIndexOutputs(plan, inverse_out, nullptr));
  CANOPY_CHECK(plan.CheckDtype("valueOut", value_out->dtype, DtypeSet{self->dtype}));
  if (return_inverse) CANOPY_CHECK(CheckSameShape(plan, "inverseOut", inverse_out, "self", self));
  const UniqueCall call{
      "aclnnUnique", self, FlatLayout(self), value_out, return_inverse ? inverse_out : nullptr, nullptr, {-1}, {}, {},
      false};
  return PlanUnique(plan, call, inverse_out, nullptr);
}

aclnnStatus PlanUnique2(Plan& plan, const aclTensor* self, bool /*sorted: always*/, bool return_inverse,
                        bool return_counts, const aclTensor* value_out, const aclTensor* inverse_out,
                        const aclTensor* counts_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kUniqueDtypes));
  CANOPY_CHECK(CheckIndexOutputs(plan, inverse_out, counts_out));
  CANOPY_CHECK(plan.CheckDtype("valueOut", value_out->dtype, DtypeSet{self->dtype}));
  if (return_inverse || return_counts) CANOPY_CHECK(CheckSameShape(plan, "inverseOut", inverse_out, "self", self));
  if (return_counts) CANOPY_CHECK(CheckSameShape(plan, "countsOut", counts_out, "valueOut", value_out));
  const UniqueCall call{"aclnnUnique2",
                        self,
                        FlatLayout(self),
                        value_out,
                        return_inverse ? inverse_out : nullptr,
                        return_counts ? counts_out : nullptr,
                        {-1},
                        {},
                        {-1},
                        false};
  return PlanUnique(plan, call, inverse_out, counts_out);
}

aclnnStatus CheckSliceOutputs(Plan& plan, DtypeSet dtypes, const aclTensor* self, const aclTensor* value_out,
                              const aclTensor* inverse_out, const aclTensor* counts_out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, dtypes));
  CANOPY_CHECK(CheckIndexOutputs(plan, inverse_out, counts_out));
  return plan.CheckDtype("valueOut", value_out->dtype, DtypeSet{self->dtype});
}

aclnnStatus PlanUniqueConsecutive(Plan& plan, const aclTensor* self, bool return_inverse, bool return_counts,
                                  int64_t dim, const aclTensor* value_out, const aclTensor* inverse_out,
                                  const aclTensor* counts_out) {
  CANOPY_CHECK(CheckSliceOutputs(plan, kUniqueConsecutiveDtypes, self, value_out, inverse_out, counts_out));
  UniqueCall call{"aclnnUniqueConsecutive",
                  self,
                  FlatLayout(self),
                  value_out,
                  return_inverse ? inverse_out : nullptr,
                  return_counts ? counts_out : nullptr,
                  {-1},
                  self->view_shape,
                  {-1},
                  true};
  if (dim != kNoDim) {
    int64_t d = 0;
    CANOPY_CHECK(CheckDim(plan, self, dim, d));
    call.layout = DimLayout(self, d);
    call.value_shape = GroupedShape(self, d);
    call.inverse_shape = {call.layout.n};
  }
  call.layout.consecutive = true;
  return PlanUnique(plan, call, inverse_out, counts_out);
}

aclnnStatus PlanUniqueDim(Plan& plan, const aclTensor* self, bool /*sorted: always*/, bool return_inverse, int64_t dim,
                          const aclTensor* value_out, const aclTensor* inverse_out, const aclTensor* counts_out) {
  CANOPY_CHECK(CheckSliceOutputs(plan, kUniqueDtypes, self, value_out, inverse_out, counts_out));
  int64_t d = 0;
  CANOPY_CHECK(CheckDim(plan, self, dim, d));
  const UniqueLayout layout = DimLayout(self, d);
  const UniqueCall call{
      "aclnnUniqueDim",      self,       layout, value_out, return_inverse ? inverse_out : nullptr, counts_out,
      GroupedShape(self, d), {layout.n}, {-1},   true};
  return PlanUnique(plan, call, inverse_out, counts_out);
}

}  // namespace

CANOPY_ACLNN_OP(Unique, PlanUnique1,
                (OpTraits{.header = "aclnnop/aclnn_unique.h",
                          .dtypes = kUniqueDtypes,
                          .example = "f32[8] true true f32[8] i64[8]"}),
                (const aclTensor*, self), (bool, sorted), (bool, returnInverse), (aclTensor*, valueOut),
                (aclTensor*, inverseOut))
CANOPY_ACLNN_OP(Unique2, PlanUnique2,
                (OpTraits{.header = "aclnnop/aclnn_unique2.h",
                          .dtypes = kUniqueDtypes,
                          .example = "f32[8] true true true f32[8] i64[8] i64[8]"}),
                (const aclTensor*, self), (bool, sorted), (bool, returnInverse), (bool, returnCounts),
                (aclTensor*, valueOut), (aclTensor*, inverseOut), (aclTensor*, countsOut))
CANOPY_ACLNN_OP(UniqueConsecutive, PlanUniqueConsecutive,
                (OpTraits{.header = "aclnnop/aclnn_unique_consecutive.h",
                          .dtypes = kUniqueConsecutiveDtypes,
                          .example = "f32[4,2] true true 1000 f32[8] i64[4,2] i64[8]"}),
                (const aclTensor*, self), (bool, returnInverse), (bool, returnCounts), (int64_t, dim),
                (aclTensor*, valueOut), (aclTensor*, inverseOut), (aclTensor*, countsOut))
CANOPY_ACLNN_OP(UniqueDim, PlanUniqueDim,
                (OpTraits{.header = "aclnnop/aclnn_unique_dim.h",
                          .dtypes = kUniqueDtypes,
                          .example = "f32[4,2] true true 0 f32[4,2] i64[4] i64[4]"}),
                (const aclTensor*, self), (bool, sorted), (bool, returnInverse), (int64_t, dim), (aclTensor*, valueOut),
                (aclTensor*, inverseOut), (aclTensor*, countsOut))
