// The reduction ops' shared planning (see reduction.h).
#include "reduction.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "ops/framework/tensor_view.h"

namespace canopy::ops {

aclnnStatus NormalizeDims(Plan& plan, const char* name, const aclIntArray* dims, int64_t rank,
                          std::vector<bool>& reduced) {
  reduced.assign(static_cast<size_t>(rank), dims->values.empty());
  const int64_t wrap = std::max<int64_t>(rank, 1);
  std::vector<bool> seen(static_cast<size_t>(wrap), false);
  for (const int64_t dim : dims->values) {
    if (dim < -wrap || dim >= wrap) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' holds dim %lld, outside [%lld, %lld] for rank %lld",
                         name, static_cast<long long>(dim), static_cast<long long>(-wrap),
                         static_cast<long long>(wrap - 1), static_cast<long long>(rank));
    }
    const int64_t d = dim < 0 ? dim + wrap : dim;
    if (seen[static_cast<size_t>(d)]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' names dim %lld more than once", name,
                         static_cast<long long>(d));
    }
    seen[static_cast<size_t>(d)] = true;
    if (d < rank) reduced[static_cast<size_t>(d)] = true;
  }
  return ACLNN_SUCCESS;
}

Shape ReducedShape(const Shape& shape, const std::vector<bool>& reduced, bool keep_dims) {
  Shape out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) {
      out.push_back(shape[d]);
    } else if (keep_dims) {
      out.push_back(1);
    }
  }
  return out;
}

aclnnStatus CheckDtypeArgument(Plan& plan, const char* name, int raw, DtypeSet allowed, aclDataType& dtype) {
  if (!IsDtypeValue(raw)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %d, not a value of aclDataType", name, raw);
  }
  dtype = static_cast<aclDataType>(raw);
  return plan.CheckDtype(name, dtype, allowed);
}

// One element each is accepted as CANN's CheckShapeAndScalarSame does: ggml's
// cross-entropy loss reduces every dim into a [1] out with keepDims false.
aclnnStatus CheckReducedOut(Plan& plan, const char* name, const aclTensor* out, const Shape& expected) {
  int64_t expected_elements = 1;
  for (const int64_t extent : expected) expected_elements *= extent;
  const bool one_element = expected_elements == 1 && out->NumElements() == 1;
  if (!one_element) CANOPY_CHECK(plan.CheckShape(name, out, expected));
  return ACLNN_SUCCESS;
}

namespace {

// out's view as the reduced shape (one element: always viewable).
TensorRef AsReducedShape(const TensorRef& dst, const Shape& expected) {
  return dst.shape == expected ? dst : *Reshape(dst, expected);
}

// Adds the engine step reducing `in` over `reduced` into `result` (self's
// reduced shape), reading `reads` (in, and a centred kind's center).
void AddReduceStep(Plan& plan, kernels::ReduceDesc desc, const TensorRef& in, const TensorRef& result,
                   const std::vector<bool>& reduced, bool keep_dims, const std::vector<TensorRef>& reads) {
  desc.rank = static_cast<int>(in.rank());
  desc.in = {in.buffer, in.dtype, {}};
  desc.out = {result.buffer, result.dtype, {}};
  for (int d = 0, o = 0; d < desc.rank; ++d) {
    desc.shape[d] = in.shape[static_cast<size_t>(d)];
    desc.in.strides[d] = in.strides[static_cast<size_t>(d)];
    desc.reduced[d] = reduced[static_cast<size_t>(d)];
    // out's dims are self's kept ones (and, with keep_dims, the reduced ones as extent 1).
    if (!desc.reduced[d] || keep_dims) {
      desc.out.strides[d] = desc.reduced[d] ? 0 : result.strides[static_cast<size_t>(o)];
      ++o;
    }
  }
  plan.AddStep(kernels::MakeReduceStep(desc), reads, result);
}

// Whether every value of `from` is a value of `to`, so that converting to it first changes nothing.
bool HoldsEveryValue(aclDataType from, aclDataType to) {
  if (from == to || from == ACL_BOOL) return true;
  if (IsComplex(from) && !IsComplex(to)) return false;
  const auto [from_low, from_high] = DtypeRange(PartDtype(from));
  const auto [to_low, to_high] = DtypeRange(PartDtype(to));
  if (IsIntegral(to)) return IsIntegral(from) && to_low <= from_low && from_high <= to_high;
  const int bits = SignificandDigits(to);
  if (IsIntegral(from)) return std::max(-from_low, from_high) <= std::ldexp(1.0, bits);
  // A float or complex `from` into a float or complex `to`: its significand and range.
  return SignificandDigits(from) <= bits && to_low <= from_low && from_high <= to_high;
}

aclnnStatus PlanReductionOf(Plan& plan, kernels::ReduceKind kind, const aclTensor* self,
                            const std::vector<bool>& reduced, bool keep_dims, aclDataType dtype, const aclTensor* out,
                            double p, bool convert_first) {
  const Shape expected = ReducedShape(self->view_shape, reduced, keep_dims);
  CANOPY_CHECK(CheckReducedOut(plan, "out", out, expected));
  if (self->NumElements() == 0 && IsComplex(out->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an empty 'self' cannot be reduced into complex 'out' (%s)",
                       DtypeName(out->dtype));
  }
  TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (convert_first && !HoldsEveryValue(in.dtype, dtype) && in.NumElements() != 0) in = plan.Contiguous(in, dtype);
  PlanReduceInto(plan, kind, in, reduced, keep_dims, dtype, dst, p);
  return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus PlanReduction(Plan& plan, kernels::ReduceKind kind, const aclTensor* self, const std::vector<bool>& reduced,
                          bool keep_dims, aclDataType dtype, const aclTensor* out, double p) {
  return PlanReductionOf(plan, kind, self, reduced, keep_dims, dtype, out, p, false);
}

aclnnStatus PlanReductionInDtype(Plan& plan, kernels::ReduceKind kind, const aclTensor* self,
                                 const std::vector<bool>& reduced, bool keep_dims, aclDataType dtype,
                                 const aclTensor* out) {
  return PlanReductionOf(plan, kind, self, reduced, keep_dims, dtype, out, 2, true);
}

void PlanReduceInto(Plan& plan, kernels::ReduceKind kind, const TensorRef& in, const std::vector<bool>& reduced,
                    bool keep_dims, aclDataType dtype, const TensorRef& out, double p) {
  const TensorRef dst = AsReducedShape(out, ReducedShape(in.shape, reduced, keep_dims));
  // The engine writes `dtype` itself when out holds it; otherwise a temporary
  // of `dtype` is rounded once more into out, as CANN casts the result.
  const TensorRef result = dtype == dst.dtype ? dst : plan.Temporary(dtype, dst.shape);
  kernels::ReduceDesc desc;
  desc.kind = kind;
  desc.p = p;
  AddReduceStep(plan, desc, in, result, reduced, keep_dims, {in});
  if (dtype != dst.dtype) plan.Copy(result, dst);
}

aclnnStatus PlanCenteredReduction(Plan& plan, kernels::ReduceKind kind, const aclTensor* self,
                                  const std::vector<bool>& reduced, bool keep_dims, const aclTensor* out,
                                  const char* out_name, const aclTensor* mean_out, double correction, bool root) {
  const Shape expected = ReducedShape(self->view_shape, reduced, keep_dims);
  CANOPY_CHECK(CheckReducedOut(plan, out_name, out, expected));
  if (mean_out != nullptr) CANOPY_CHECK(CheckReducedOut(plan, "meanOut", mean_out, expected));
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = AsReducedShape(plan.Output(out, out_name), expected);
  std::optional<TensorRef> mean_dst;
  if (mean_out != nullptr) mean_dst = AsReducedShape(plan.Output(mean_out, "meanOut"), expected);
  // The centre (mean or max) and the result, both in the accumulator dtype and
  // laid out alike (the engine reads the centre with the result's strides). A
  // variance accumulates in double, as PyTorch's CPU kernel does: in f32 a mean
  // one ulp off at 1e30 gave deviations whose squares overflowed, so constant
  // data had an infinite variance.
  const aclDataType acc = kind == kernels::ReduceKind::kVariance && !IsComplex(out->dtype)
                              ? ACL_DOUBLE
                              : kernels::ReduceAccumulatorDtype(out->dtype);
  const TensorRef center = plan.Temporary(acc, expected);
  const TensorRef result = plan.Temporary(acc, expected);
  kernels::ReduceDesc first;
  first.kind = kind == kernels::ReduceKind::kVariance ? kernels::ReduceKind::kMean : kernels::ReduceKind::kMax;
  AddReduceStep(plan, first, in, center, reduced, keep_dims, {in});
  kernels::ReduceDesc second;
  second.kind = kind;
  second.center = {center.buffer, center.dtype, {}};
  second.correction = correction;
  second.root = root;
  AddReduceStep(plan, second, in, result, reduced, keep_dims, {in, center});
  plan.Copy(result, dst);
  if (mean_dst) plan.Copy(center, *mean_dst);
  return ACLNN_SUCCESS;
}

aclnnStatus NormalizeDim(Plan& plan, const char* name, int64_t dim, int64_t rank, int64_t& wrapped) {
  const int64_t wrap = std::max<int64_t>(rank, 1);
  if (dim < -wrap || dim >= wrap) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %lld, outside [%lld, %lld] for rank %lld", name,
                       static_cast<long long>(dim), static_cast<long long>(-wrap), static_cast<long long>(wrap - 1),
                       static_cast<long long>(rank));
  }
  wrapped = dim < 0 ? dim + wrap : dim;
  return ACLNN_SUCCESS;
}

void PlanDimOp(Plan& plan, kernels::DimOpDesc desc, const TensorRef& in, const TensorRef& out_view, int64_t dim,
               bool drops_dim, bool keep_dim, const TensorRef* values_view) {
  desc.rank = static_cast<int>(in.rank());
  desc.dim = static_cast<int>(desc.rank == 0 ? 0 : dim);
  // A reduced dim's outputs as the shape the step walks: CheckReducedOut lets
  // a one-element out of another rank stand for a one-element result. (Outs
  // that keep the dim, as Sort's and Topk's, have self's rank.)
  Shape reduced;
  for (int d = 0; d < desc.rank; ++d) {
    if (d != desc.dim) {
      reduced.push_back(in.shape[static_cast<size_t>(d)]);
    } else if (keep_dim) {
      reduced.push_back(1);
    }
  }
  const auto walked = [&](const TensorRef& t) { return drops_dim ? AsReducedShape(t, reduced) : t; };
  const TensorRef out = walked(out_view);
  std::optional<TensorRef> reshaped_values;
  if (values_view != nullptr) reshaped_values = walked(*values_view);
  const TensorRef* values = reshaped_values ? &*reshaped_values : nullptr;
  desc.in = {in.buffer, in.dtype, {}};
  desc.out = {out.buffer, out.dtype, {}};
  desc.has_values = values != nullptr;
  if (values != nullptr) desc.values = {values->buffer, values->dtype, {}};
  for (int d = 0, o = 0; d < desc.rank; ++d) {
    desc.shape[d] = in.shape[static_cast<size_t>(d)];
    desc.in.strides[d] = in.strides[static_cast<size_t>(d)];
    if (drops_dim && d == desc.dim) {
      if (keep_dim) ++o;  // out's extent-1 dim: never stepped
      continue;
    }
    desc.out.strides[d] = out.strides[static_cast<size_t>(o)];
    if (values != nullptr) desc.values.strides[d] = values->strides[static_cast<size_t>(o)];
    ++o;
  }
  if (values == nullptr) {
    plan.AddStep(kernels::MakeDimOpStep(desc), {in}, out);
  } else {
    plan.AddStep(kernels::MakeDimOpStep(desc));  // two outputs: the framework stages any that overlaps self
  }
}

}  // namespace canopy::ops
