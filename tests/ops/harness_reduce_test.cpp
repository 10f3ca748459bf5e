// Harness rows of the reductions on the reduction engine (src/kernels/reduce.h):
// Prod, ProdDim, ReduceNansum, Any, All, Max, Min, Var, VarCorrection, Std and
// LogSumExp, and of the along-one-dim kernel's Cumprod (with its in-place form),
// Median and NanMedian, against float64 references over each output's group (strided,
// transposed, reversed, broadcast and offset views, rank 0, rank 8, empty,
// large and threaded shapes, negative / empty dim lists, keepdim). Each
// reference states its own error bound: the accumulator's roundoff (f32 for
// 16-bit and f32 results, f64 for f64) times what the kind's error grows with,
// plus the rounding to out. Integer results are exact (products wrap in int64,
// then into out's dtype, as the kernels' accumulators do).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_cumprod.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_equal.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_median.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_log_sum.h"
#include "aclnnop/aclnn_reduce_nansum.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_trace.h"
#include "aclnnop/aclnn_var.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

constexpr aclDataType F32 = ACL_FLOAT, F16 = ACL_FLOAT16, BF16 = ACL_BF16, F64 = ACL_DOUBLE, C64 = ACL_COMPLEX64,
                      C128 = ACL_COMPLEX128, S8 = ACL_INT8, U8 = ACL_UINT8, S16 = ACL_INT16, S32 = ACL_INT32,
                      S64 = ACL_INT64, BOOL = ACL_BOOL, U16 = ACL_UINT16, U32 = ACL_UINT32, U64 = ACL_UINT64;

// The roundoff of the engine's accumulator for a result of `out`'s dtype.
double AccumulatorRoundoff(aclDataType out) {
  return (out == F64 || out == C128) ? UnitRoundoff(F64) : UnitRoundoff(F32);
}

// An int64 result wrapped into `out`, as the kernels store their int64 accumulators.
double WrapInto(int64_t v, aclDataType out) {
  switch (out) {
    case S8:
      return static_cast<int8_t>(v);
    case U8:
      return static_cast<uint8_t>(v);
    case S16:
      return static_cast<int16_t>(v);
    case S32:
      return static_cast<int32_t>(v);
    case U16:
      return static_cast<uint16_t>(v);
    case U32:
      return static_cast<uint32_t>(v);
    case U64:
      return static_cast<double>(static_cast<uint64_t>(v));
    case BOOL:
      return v != 0 ? 1 : 0;
    default:
      return static_cast<double>(v);
  }
}

// One output's exact value and the error allowed around it before the
// rounding to out (which GroupReference adds).
struct Bounded {
  Value value;
  double error = 0;
};
using GroupFn = std::function<Bounded(const Values& group, const RefCall& call)>;

// A reduction reference over the "dims" / "keepDim" attributes whose function
// sees the whole call (out's dtype) and bounds its own error.
Reference GroupReference(GroupFn fn) {
  return [fn = std::move(fn)](const RefCall& call) {
    std::vector<double> errors;
    Expected want = Reduction([&](const Values& group, const AttrSet&) {
      const Bounded b = fn(group, call);
      errors.push_back(b.error);
      return b.value;
    })(call);
    for (size_t i = 0; i < want.values.size(); ++i) {
      const Value v = ConvertValue(want.values[i], call.out);
      want.values[i] = v;
      const bool exact = IsIntegral(call.out) || IsBool(call.out) || !std::isfinite(std::abs(v));
      want.tolerance.push_back(exact ? 0 : errors[i] + 2 * UnitRoundoff(call.out) * std::abs(v));
    }
    return want;
  };
}

// Phase 1 of a dims / keepDim reduction with out's dtype as `dtype` (ReduceNansum).
Phase1Fn DimsCall(
    std::function<aclnnStatus(aclTensor*, aclIntArray*, bool, aclDataType, aclTensor*, uint64_t*, aclOpExecutor**)>
        fn) {
  return [fn](Call& c) {
    return fn(c.Tensor(0), c.IntArrayAttr("dims"), c.BoolAttr("keepDim"), c.OutDtype(), c.Out(), c.workspaceSize,
              c.executor);
  };
}

// The dim lists every row sweeps: outer, inner with keepdim, a negative pair, every dim.
std::vector<AttrSet> DimSets() {
  return {{"dim0", {{"dims", std::vector<int64_t>{0}}, {"keepDim", false}}},
          {"last_keepdim", {{"dims", std::vector<int64_t>{-1}}, {"keepDim", true}}},
          {"outer_inner", {{"dims", std::vector<int64_t>{-1, 0}}, {"keepDim", false}}},
          {"all", {{"dims", std::vector<int64_t>{}}, {"keepDim", false}}}};
}

// A sum's bound: the cascade's roundoff grows with the logarithm of the count (4 covers 2^48 terms at
// the scale of the blocks), relative to the sum of magnitudes.
double SumError(const Values& terms, aclDataType out) {
  double magnitude = 0;
  for (const Value& v : terms) magnitude += std::abs(v);
  return 4 * AccumulatorRoundoff(out) * magnitude;
}

// ---- Prod ------------------------------------------------------------------------------------------

Bounded Product(const Values& group, const RefCall& call) {
  if (IsIntegral(call.out) || IsBool(call.out)) {
    uint64_t p = 1;
    for (const Value& v : group) p *= static_cast<uint64_t>(static_cast<int64_t>(v.real()));
    return {WrapInto(static_cast<int64_t>(p), call.out), 0};
  }
  Value p = 1;
  for (const Value& v : group) p *= v;
  // Each multiplication rounds once (a complex one about four times); a product that
  // underflows does so in any order, to 0 or to a subnormal.
  const double per = IsComplex(call.out) ? 4 : 1;
  const double tiny = AccumulatorRoundoff(call.out) == UnitRoundoff(F64) ? 0x1p-1022 : 0x1p-126;
  return {p, (static_cast<double>(group.size()) + 2) * per * AccumulatorRoundoff(call.out) * std::abs(p) + tiny};
}

// Factors near 1 keep long products (33 410 factors in the threaded shape, a broadcast row raised to
// the 130th power) inside every dtype's range; integers small enough to wrap rarely.
RangeRule ProdRange() {
  return RangeRule([](aclDataType dtype, const CaseInfo&) {
    if (IsComplex(dtype)) return Range{-1, 1};
    if (IsRealFloat(dtype)) return Range{0.95, 1.05};
    return (IsUnsigned(dtype) || IsBool(dtype)) ? Range{0, 2} : Range{-2, 2};
  });
}

const std::vector<aclDataType> kProdDtypes = {F16, F32, F64, S8, U8, S16, S32, S64, BOOL, BF16};

// The shapes of ReductionShapes() but the empty one (an empty self into complex out is 161002, as in CANN).
std::vector<ShapeCase> NonEmptyReductionShapes() {
  std::vector<ShapeCase> shapes;
  for (const ShapeCase& shape : ReductionShapes()) {
    if (shape.name != "empty") shapes.push_back(shape);
  }
  return shapes;
}

OpRow ProdRow() {
  OpRow row;
  row.name = "Prod";
  row.inputs = {Arg{.name = "self", .range = ProdRange()}};
  row.out = {[](Call& c) {
               return aclnnProdGetWorkspaceSize(c.Tensor(0), c.OutDtype(), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnProd};
  row.dtypes = Concat(EachDtype(kProdDtypes), Singly({{{F16}, F32}, {{S32}, F64}, {{BOOL}, S64}}));
  row.shapes = ReductionShapes();
  // CANN documents out as [1].
  row.outShape = [](const std::vector<Shape>&, const AttrSet&) -> std::optional<Shape> { return Shape{1}; };
  row.attrs = {{"", {{"dims", std::vector<int64_t>{}}, {"keepDim", false}}}};
  row.reference = GroupReference(Product);
  return row;
}

OpRow ProdDimRow() {
  OpRow row = ProdRow();
  row.name = "ProdDim";
  row.out = {[](Call& c) {
               return aclnnProdDimGetWorkspaceSize(c.Tensor(0), c.info().attrs.IntArray("dims")[0],
                                                   c.BoolAttr("keepDim"), c.OutDtype(), c.Out(), c.workspaceSize,
                                                   c.executor);
             },
             aclnnProdDim};
  row.outShape = ReducedShape();
  row.attrs = {{"dim0", {{"dims", std::vector<int64_t>{0}}, {"keepDim", false}}},
               {"middle_keepdim", {{"dims", std::vector<int64_t>{1}}, {"keepDim", true}}},
               {"last_negative", {{"dims", std::vector<int64_t>{-1}}, {"keepDim", false}}}};
  return row;
}

// The complex forms of a Prod row.
OpRow ComplexRow(OpRow row) {
  row.name += "Complex";
  row.dtypes = EachDtype({C64, C128});
  row.shapes = NonEmptyReductionShapes();
  return row;
}

// ---- ReduceNansum ----------------------------------------------------------------------------------

OpRow NansumRow() {
  OpRow row;
  row.name = "ReduceNansum";
  row.inputs = {Arg{.name = "self", .range = Range{-3, 3}}};
  row.out = {DimsCall(aclnnReduceNansumGetWorkspaceSize), aclnnReduceNansum};
  row.dtypes = Concat(EachDtype({F16, F32, S8, S16, S32, S64, U8, BOOL, BF16}), Singly({{{F16}, F32}, {{S8}, S64}}));
  row.shapes = ReductionShapes();
  row.outShape = ReducedShape();
  row.attrs = DimSets();
  row.reference = GroupReference([](const Values& group, const RefCall& call) -> Bounded {
    if (IsIntegral(call.out) || IsBool(call.out)) {
      int64_t s = 0;
      for (const Value& v : group) s += static_cast<int64_t>(v.real());
      return {WrapInto(s, call.out), 0};
    }
    Value s = 0;
    for (const Value& v : group) s += std::isnan(v.real()) ? 0.0 : v.real();
    return {s, SumError(group, call.out)};
  });
  return row;
}

// ---- Any / All -------------------------------------------------------------------------------------

// Zeros among the values (every fifth element): groups of both answers.
RangeRule PredicateRange() {
  return RangeRule([](aclDataType dtype, const CaseInfo&) {
    if (IsBool(dtype) || IsUnsigned(dtype)) return Range{0, 1, 0, 0, true};
    if (IsIntegral(dtype)) return Range{-1, 1, 0, 0, true};
    return Range{-1, 1, 0, 5, true};
  });
}

OpRow PredicateRow(const char* name, bool all) {
  OpRow row;
  row.name = name;
  row.inputs = {Arg{.name = "self", .range = PredicateRange()}};
  const Phase2 phase2 = all ? aclnnAll : aclnnAny;
  row.out = {[all](Call& c) {
               const auto phase1 = all ? aclnnAllGetWorkspaceSize : aclnnAnyGetWorkspaceSize;
               return phase1(c.Tensor(0), c.IntArrayAttr("dims"), c.BoolAttr("keepDim"), c.Out(), c.workspaceSize,
                             c.executor);
             },
             phase2};
  std::vector<DtypeCase> dtypes;
  for (aclDataType dtype : {BOOL, S8, U8, S16, S32, S64, BF16, F16, F32, F64}) dtypes.push_back({{dtype}, BOOL});
  row.dtypes = Concat(dtypes, Singly({{{S32}, U8}, {{F32}, U8}, {{BOOL}, U8}}));
  row.shapes = ReductionShapes();
  row.outShape = ReducedShape();
  row.attrs = DimSets();
  row.reference = GroupReference([all](const Values& group, const RefCall&) -> Bounded {
    bool any = false, every = true;
    for (const Value& v : group) {
      const bool nonZero = v != Value(0);  // NaN is non-zero
      any = any || nonZero;
      every = every && nonZero;
    }
    return {(all ? every : any) ? 1.0 : 0.0, 0};
  });
  return row;
}

// ---- Max / Min -------------------------------------------------------------------------------------

Bounded Extreme(const Values& group, bool max) {
  double e = max ? -INFINITY : INFINITY;
  for (const Value& v : group) {
    const double x = v.real();
    if (std::isnan(e)) break;
    e = std::isnan(x) ? x : (max ? std::max(e, x) : std::min(e, x));
  }
  return {e, 0};  // an element of self: exact
}

const std::vector<aclDataType> kExtremeDtypes = {F16, F32, F64, U8, S8, S16, S32, S64, BOOL, BF16};

OpRow ExtremeRow(const char* name, bool max) {
  OpRow row;
  row.name = name;
  row.inputs = {Arg{.name = "self", .range = Range{-100, 100}}};
  row.out = {[max](Call& c) {
               return (max ? aclnnMaxGetWorkspaceSize : aclnnMinGetWorkspaceSize)(c.Tensor(0), c.Out(), c.workspaceSize,
                                                                                  c.executor);
             },
             max ? aclnnMax : aclnnMin};
  // Max converts into another out dtype; Min's out is self's (its document).
  row.dtypes = max ? Concat(EachDtype(kExtremeDtypes), Singly({{{F16}, F32}, {{S32}, F16}, {{F64}, S64}}))
                   : EachDtype(kExtremeDtypes);
  row.shapes = ReductionShapes();
  // Out holds one element ([1], as CANN documents); there is no extreme of nothing.
  row.outShape = [](const std::vector<Shape>& in, const AttrSet&) -> std::optional<Shape> {
    if (NumElements(in[0]) == 0) return std::nullopt;
    return Shape{1};
  };
  row.attrs = {{"", {{"dims", std::vector<int64_t>{}}, {"keepDim", false}}}};
  row.reference = GroupReference([max](const Values& group, const RefCall&) { return Extreme(group, max); });
  return row;
}

// ---- Var / VarCorrection / Std ---------------------------------------------------------------------

// The variance by two passes in float64, and the engine's bound: each
// deviation rounds when subtracted and when squared, their sum is a cascade
// (8 u |var|), and the mean's own error (4 u of the mean magnitude, from its
// cascade) enters squared, n times: an absolute term that matters only where
// the elements (nearly) agree.
Bounded Variance(const Values& group, double correction, bool root, aclDataType out) {
  const auto n = static_cast<double>(group.size());
  double mean = 0, magnitude = 0;
  for (const Value& v : group) {
    mean += v.real();
    magnitude += std::abs(v.real());
  }
  mean /= n;
  magnitude /= n;
  double squares = 0;
  for (const Value& v : group) squares += (v.real() - mean) * (v.real() - mean);
  const double divisor = std::max(0.0, n - correction);
  const double var = squares / divisor;  // 0 / 0 (nothing, or one element unbiased) is NaN
  const double u = AccumulatorRoundoff(out);
  const double error = 8 * u * std::abs(var) + n * (8 * u * magnitude) * (8 * u * magnitude) / divisor;
  if (!root) return {var, error};
  const double root_var = std::sqrt(var);
  return {root_var, std::sqrt(var + error) - std::sqrt(std::max(var - error, 0.0))};
}

OpRow VarianceRow(const char* name, Phase1Fn phase1, Phase2 phase2, std::vector<AttrSet> corrections, bool root) {
  OpRow row;
  row.name = name;
  row.inputs = {Arg{.name = "self", .range = Range{-3, 3}}};
  row.out = {std::move(phase1), phase2};
  row.dtypes = Concat(EachDtype({F32, F16, BF16}), Singly({{{F16}, F32}, {{F32}, BF16}}));
  row.shapes = ReductionShapes();
  row.outShape = ReducedShape();
  // Each dim set with each correction.
  for (const AttrSet& dims : DimSets()) {
    for (const AttrSet& correction : corrections) {
      AttrSet set{dims.name + "_" + correction.name, dims.values};
      set.values.insert(set.values.end(), correction.values.begin(), correction.values.end());
      row.attrs.push_back(set);
    }
  }
  row.reference = GroupReference([root](const Values& group, const RefCall& call) {
    const double correction = call.attrs.Has("unbiased") ? (call.attrs.Bool("unbiased") ? 1 : 0)
                                                         : static_cast<double>(call.attrs.Int("correction"));
    return Variance(group, correction, root, call.out);
  });
  return row;
}

std::vector<OpRow> VarianceRows() {
  return {
      VarianceRow(
          "Var",
          [](Call& c) {
            return aclnnVarGetWorkspaceSize(c.Tensor(0), c.IntArrayAttr("dims"), c.BoolAttr("unbiased"),
                                            c.BoolAttr("keepDim"), c.Out(), c.workspaceSize, c.executor);
          },
          aclnnVar, {{"unbiased", {{"unbiased", true}}}, {"biased", {{"unbiased", false}}}}, false),
      VarianceRow(
          "VarCorrection",
          [](Call& c) {
            return aclnnVarCorrectionGetWorkspaceSize(c.Tensor(0), c.IntArrayAttr("dims"), c.IntAttr("correction"),
                                                      c.BoolAttr("keepDim"), c.Out(), c.workspaceSize, c.executor);
          },
          aclnnVarCorrection, {{"c0", {{"correction", int64_t{0}}}}, {"c2", {{"correction", int64_t{2}}}}}, false),
      VarianceRow(
          "Std",
          [](Call& c) {
            return aclnnStdGetWorkspaceSize(c.Tensor(0), c.IntArrayAttr("dims"), c.IntAttr("correction"),
                                            c.BoolAttr("keepDim"), c.Out(), c.workspaceSize, c.executor);
          },
          aclnnStd, {{"c1", {{"correction", int64_t{1}}}}, {"c0", {{"correction", int64_t{0}}}}}, true),
  };
}

// ---- LogSumExp -------------------------------------------------------------------------------------

OpRow LogSumExpRow() {
  OpRow row;
  row.name = "LogSumExp";
  row.inputs = {Arg{.name = "self", .range = RangeRule([](aclDataType dtype, const CaseInfo&) {
                                      if (IsBool(dtype)) return Range{0, 1, 0, 0, true};
                                      return IsUnsigned(dtype) ? Range{0, 20} : Range{-20, 20};
                                    })}};
  row.out = {[](Call& c) {
               return aclnnLogSumExpGetWorkspaceSize(c.Tensor(0), c.IntArrayAttr("dims"), c.BoolAttr("keepDim"),
                                                     c.Out(), c.workspaceSize, c.executor);
             },
             aclnnLogSumExp};
  row.dtypes = Concat(
      EachDtype({F32, F16, BF16}),
      Singly({{{S32}, F32}, {{S64}, F32}, {{S16}, F16}, {{S8}, F32}, {{U8}, BF16}, {{BOOL}, F32}, {{F16}, F32}}));
  row.shapes = ReductionShapes();
  row.outShape = ReducedShape();
  row.attrs = DimSets();
  row.reference = GroupReference([](const Values& group, const RefCall& call) -> Bounded {
    double max = -INFINITY;
    for (const Value& v : group) max = std::max(max, v.real());
    const double shift = std::isfinite(max) ? max : 0;
    double sum = 0;
    for (const Value& v : group) sum += std::exp(v.real() - shift);
    const double lse = std::log(sum) + shift;  // nothing: log 0 = -inf
    // exp and the sum round relative to the sum, which log turns into an absolute error.
    return {lse, 8 * AccumulatorRoundoff(call.out) + 2 * AccumulatorRoundoff(call.out) * std::abs(lse)};
  });
  return row;
}

// ---- Cumprod ---------------------------------------------------------------------------------------

// The dim an attribute set names, wrapped for `rank`; nullopt outside [-rank, rank - 1] (rank 0: 0 and -1).
std::optional<int64_t> WrappedDim(const AttrSet& attrs, size_t rank) {
  const auto dim = static_cast<int64_t>(attrs.Scalar("dim").value.real());
  const auto wrap = static_cast<int64_t>(std::max<size_t>(rank, 1));
  if (dim < -wrap || dim >= wrap) return std::nullopt;
  return dim < 0 ? dim + wrap : dim;
}

// Running products along the dim, exact in float64 (each rounded once to out, as the kernel's f64
// products are), integers wrapping in int64 and then into out.
Expected CumprodReference(const RefCall& call) {
  const Operand& in = call.inputs.at(0);
  const int64_t dim = WrappedDim(call.attrs, in.shape.size()).value();
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(dim) + 1; d < in.shape.size(); ++d) inner *= in.shape[d];
  const int64_t length = in.shape.empty() ? 1 : in.shape[static_cast<size_t>(dim)];
  const bool integral = IsIntegral(call.out);
  std::vector<double> real(in.values.size());
  std::vector<uint64_t> wrapped(in.values.size());
  Expected want;
  for (size_t n = 0; n < in.values.size(); ++n) {
    // Row-major order visits an element's predecessor along dim (inner elements back) first.
    const bool first = (static_cast<int64_t>(n) / inner) % length == 0;
    const Value x = ConvertValue(in.values[n], call.out);  // input converted to the computation dtype first
    real[n] = (first ? 1.0 : real[n - static_cast<size_t>(inner)]) * x.real();
    wrapped[n] = (first ? uint64_t{1} : wrapped[n - static_cast<size_t>(inner)]) *
                 static_cast<uint64_t>(static_cast<int64_t>(x.real()));
    want.values.push_back(integral ? WrapInto(static_cast<int64_t>(wrapped[n]), call.out) : real[n]);
  }
  return want;
}

OpRow CumprodRow() {
  OpRow row;
  row.name = "Cumprod";
  // Factors around 1 keep the 257-long lines of the large shapes in range; integers wrap now and then.
  row.inputs = {Arg{.name = "input", .range = RangeRule([](aclDataType dtype, const CaseInfo&) {
                                       if (IsRealFloat(dtype)) return Range{0.5, 1.5};
                                       return IsUnsigned(dtype) ? Range{0, 3} : Range{-3, 3};
                                     })}};
  // "undefined": dtype ACL_DT_UNDEFINED (compute in out's dtype), else out's dtype itself.
  row.out = {[](Call& c) {
               const aclDataType dtype = c.BoolAttr("undefined") ? ACL_DT_UNDEFINED : c.OutDtype();
               return aclnnCumprodGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("dim"), dtype, c.Out(), c.workspaceSize,
                                                   c.executor);
             },
             aclnnCumprod};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceCumprodGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("dim"), c.workspaceSize,
                                                              c.executor);
                 },
                 aclnnInplaceCumprod};
  row.dtypes = Concat(EachDtype({F32, F16, BF16, F64, S8, S16, S32, S64, U8, U16, U32, U64}),
                      Singly({{{F16}, F32}, {{S32}, S64}, {{F64}, F32}, {{U8}, S32}}));
  row.shapes = SameShapes();
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& attrs) -> std::optional<Shape> {
    if (!WrappedDim(attrs, in[0].size())) return std::nullopt;
    return in[0];
  };
  row.attrs = {{"dim0", {{"dim", ScalarAttr{S32, 0}}, {"undefined", false}}},
               {"last_s64_undefined", {{"dim", ScalarAttr{S64, -1}}, {"undefined", true}}},
               {"dim1", {{"dim", ScalarAttr{S32, 1}}, {"undefined", false}}}};
  row.reference = CumprodReference;
  // Products that shrink below the dtype's normal range keep an absolute error of about its roundoff.
  row.tolerance = {.ulps = 2, .minMagnitude = 1e-3};
  return row;
}

// ---- Median / NanMedian ----------------------------------------------------------------------------

// The lower median of a group (ascending, NaN largest): NaN propagates (Median) or is left out
// (NanMedian); nothing gives CANN's fill: NaN in floats (NanMedian: in every dtype, 0 in an integer),
// the lowest INT32 / INT64, 0 in the other integers.
Value LowerMedian(const Values& group, bool nan_median, aclDataType dtype) {
  std::vector<double> numbers;
  bool nan = false;
  for (const Value& v : group) {
    if (std::isnan(v.real())) {
      nan = true;
    } else {
      numbers.push_back(v.real());
    }
  }
  if (group.empty()) {
    if (nan_median || !IsIntegral(dtype)) return IsIntegral(dtype) ? 0.0 : std::nan("");
    if (dtype == S64) return static_cast<double>(std::numeric_limits<int64_t>::min());
    if (dtype == S32) return static_cast<double>(std::numeric_limits<int32_t>::min());
    return 0.0;
  }
  if ((nan && !nan_median) || numbers.empty()) return std::nan("");
  std::sort(numbers.begin(), numbers.end());
  return numbers[(numbers.size() - 1) / 2];
}

OpRow MedianRow(bool nan_median) {
  OpRow row;
  row.name = nan_median ? "NanMedian" : "Median";
  // Ties on purpose in the integers.
  row.inputs = {Arg{.name = "self", .range = RangeRule([](aclDataType dtype, const CaseInfo&) {
                                      if (IsRealFloat(dtype)) return Range{-100, 100};
                                      return IsUnsigned(dtype) ? Range{0, 9} : Range{-9, 9};
                                    })}};
  row.out = {[nan_median](Call& c) {
               return (nan_median ? aclnnNanMedianGetWorkspaceSize : aclnnMedianGetWorkspaceSize)(
                   c.Tensor(0), c.Out(), c.workspaceSize, c.executor);
             },
             nan_median ? aclnnNanMedian : aclnnMedian};
  row.dtypes = EachDtype({F32, F16, BF16, U8, S8, S16, S32, S64});
  row.shapes = ReductionShapes();
  // NanMedian's document gives out as (1,); Median's result is one element of any shape.
  row.outShape = [nan_median](const std::vector<Shape>&, const AttrSet&) -> std::optional<Shape> {
    return nan_median ? Shape{1} : Shape{};
  };
  row.attrs = {{"", {{"dims", std::vector<int64_t>{}}, {"keepDim", false}}}};
  row.reference = [nan_median](const RefCall& call) {
    return Reduction([&](const Values& group, const AttrSet&) { return LowerMedian(group, nan_median, call.out); })(
        call);
  };
  return row;
}

// Equal: one BOOL, true when the shapes match and every promoted pair is equal.
// Values on a coarse grid over tiny tensors, so that both answers occur.
OpRow EqualRow() {
  OpRow row;
  row.name = "Equal";
  row.inputs = {Arg{.name = "self", .range = Range{0, 1}}, Arg{.name = "other", .range = Range{0, 1}}};
  row.out = {[](Call& c) {
               return aclnnEqualGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnEqual};
  row.dtypes = Concat(EachDtype({ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT8, ACL_UINT8, ACL_BOOL,
                                 ACL_DOUBLE, ACL_UINT16, ACL_BF16}),
                      Singly({{{ACL_INT32, ACL_FLOAT}}, {{ACL_FLOAT16, ACL_BF16}}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.shapes = {{"pair", {{2}, {2}}, true},       {"square", {{2, 2}, {2, 2}}}, {"one", {{1}, {1}}},
                {"shapes_differ", {{2, 1}, {2}}}, {"rank0_vs_1", {{}, {1}}},    {"empty", {{0, 3}, {0, 3}}}};
  row.outShape = [](const std::vector<Shape>&, const AttrSet&) { return std::optional<Shape>(Shape{1}); };
  row.reference = [](const RefCall& call) {
    const aclDataType p = *Promote(call.inputs[0].dtype, call.inputs[1].dtype);
    bool equal = call.inputs[0].shape == call.inputs[1].shape;
    for (size_t i = 0; equal && i < call.inputs[0].values.size(); ++i) {
      equal = ConvertValue(call.inputs[0].values[i], p) == ConvertValue(call.inputs[1].values[i], p);
    }
    return Expected{{Value(equal ? 1.0 : 0.0)}, {0}};
  };
  return row;
}

// Trace: the diagonal's sum, integers into INT64.
OpRow TraceRow() {
  OpRow row;
  row.name = "Trace";
  row.inputs = {Arg{.name = "self"}};
  row.out = {[](Call& c) { return aclnnTraceGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
             aclnnTrace};
  row.dtypes =
      EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8, ACL_BOOL, ACL_BF16});
  row.outDtype = [](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    return IsRealFloat(in[0]) ? in[0] : ACL_INT64;
  };
  row.shapes = {{"wide", {{3, 5}}, true}, {"tall", {{6, 2}}}, {"large", {{300, 300}}, true}, {"empty", {{0, 4}}}};
  row.outShape = [](const std::vector<Shape>&, const AttrSet&) { return std::optional<Shape>(Shape{}); };
  row.reference = [](const RefCall& call) {
    const Shape& s = call.inputs[0].shape;
    double sum = 0, magnitude = 0;
    for (int64_t i = 0; i < std::min(s[0], s[1]); ++i) {
      const double v = call.inputs[0].values[i * s[1] + i].real();
      sum += v;
      magnitude += std::abs(v);
    }
    const double u = IsRealFloat(call.out) ? 2 * std::max(UnitRoundoff(ACL_FLOAT), UnitRoundoff(call.out)) : 0;
    return Expected{{ConvertValue(sum, call.out)}, {u * (magnitude + std::abs(sum))}};
  };
  return row;
}

// Dot: two 1-D tensors of one dtype.
OpRow DotRow() {
  OpRow row;
  row.name = "Dot";
  row.inputs = {Arg{.name = "self", .range = Range{-3, 3}}, Arg{.name = "tensor", .range = Range{-3, 3}}};
  row.out = {
      [](Call& c) { return aclnnDotGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor); },
      aclnnDot};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32, ACL_UINT8});
  row.shapes = {{"typical", {{7}, {7}}, true}, {"large", {{5000}, {5000}}, true}, {"empty", {{0}, {0}}}};
  row.outShape = [](const std::vector<Shape>&, const AttrSet&) { return std::optional<Shape>(Shape{}); };
  row.reference = [](const RefCall& call) {
    double sum = 0, magnitude = 0;
    for (size_t i = 0; i < call.inputs[0].values.size(); ++i) {
      const double p = call.inputs[0].values[i].real() * call.inputs[1].values[i].real();
      sum += p;
      magnitude += std::abs(p);
    }
    if (!IsRealFloat(call.out)) return Expected{{Value(Wrapped(static_cast<int64_t>(sum), call.out))}, {0}};
    const double u = 4 * std::max(UnitRoundoff(ACL_FLOAT), UnitRoundoff(call.out));
    return Expected{{ConvertValue(sum, call.out)}, {u * (magnitude + std::abs(sum))}};
  };
  return row;
}

// ReduceLogSum: log of the sum over axes (positive data), accumulated in FLOAT.
OpRow ReduceLogSumRow() {
  OpRow row;
  row.name = "ReduceLogSum";
  row.inputs = {Arg{.name = "data", .range = Range{0.1, 2}}};
  row.out = {[](Call& c) {
               return aclnnReduceLogSumGetWorkspaceSize(c.Tensor(0), c.IntArrayAttr("axes"), c.BoolAttr("keepDims"),
                                                        c.BoolAttr("noop"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnReduceLogSum};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16});
  row.shapes = ReductionShapes();
  row.attrs = {{"axis0", {{"axes", std::vector<int64_t>{0}}, {"keepDims", false}, {"noop", false}}},
               {"last_keep", {{"axes", std::vector<int64_t>{-1}}, {"keepDims", true}, {"noop", true}}},
               {"all", {{"axes", std::vector<int64_t>{}}, {"keepDims", false}, {"noop", false}}}};
  row.outShape = ReducedShape("axes", "keepDims");
  row.reference = [](const RefCall& call) {
    if (NumElements(call.inputs[0].shape) == 0) {
      return Expected{Values(static_cast<size_t>(NumElements(call.outShape)), 0.0), {}};
    }
    Expected want = Reduction(
        [](const Values& group, const AttrSet&) {
          double sum = 0;
          for (Value v : group) sum += v.real();
          return Value(std::log(sum));
        },
        "axes", "keepDims")(call);
    return want;
  };
  row.tolerance = {.ulps = 4, .minMagnitude = 1};
  return row;
}

std::vector<OpRow> ReduceRows() {
  std::vector<OpRow> rows = {ProdRow(),
                             ComplexRow(ProdRow()),
                             ProdDimRow(),
                             ComplexRow(ProdDimRow()),
                             NansumRow(),
                             PredicateRow("Any", false),
                             PredicateRow("All", true),
                             ExtremeRow("Max", true),
                             ExtremeRow("Min", false),
                             LogSumExpRow(),
                             CumprodRow(),
                             MedianRow(false),
                             MedianRow(true),
                             ReduceLogSumRow(),
                             EqualRow(),
                             TraceRow(),
                             DotRow()};
  for (OpRow& row : VarianceRows()) rows.push_back(std::move(row));
  return rows;
}
CANOPY_HARNESS_ROWS(ReduceRows);

// ReduceLogSum with no axes and noopWithEmptyAxes copies data; an empty data
// fills reduce with 0 (CANN's value, not log 0).
TEST(ReduceLogSumValues, NoopAndEmpty) {
  DeviceTensor data(ACL_FLOAT, {2, 2}), copy(ACL_FLOAT, {2, 2}), all(ACL_FLOAT, Shape{});
  data.WriteView({1, 2, 3, 4});
  auto run = [&](bool noop, DeviceTensor& out, const DeviceTensor& in) {
    const OpRun r = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnReduceLogSumGetWorkspaceSize(a.Tensor(in), a.IntArray({}), false, noop, a.Tensor(out), w, e);
        },
        aclnnReduceLogSum);
    EXPECT_TRUE(r.ok()) << Describe(r);
  };
  run(true, copy, data);
  ExpectExact(copy.ReadView(), {1, 2, 3, 4}, "ReduceLogSum noop");
  run(false, all, data);
  ExpectNear(all.ReadView(), {{std::log(10.0)}, {1e-6}}, "ReduceLogSum over all");
  DeviceTensor empty(ACL_FLOAT, {0, 2}), filled(ACL_FLOAT, {2});
  filled.Poison();
  const OpRun r = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnReduceLogSumGetWorkspaceSize(a.Tensor(empty), a.IntArray({0}), false, false, a.Tensor(filled), w,
                                                 e);
      },
      aclnnReduceLogSum);
  EXPECT_TRUE(r.ok()) << Describe(r);
  ExpectExact(filled.ReadView(), {0, 0}, "ReduceLogSum of empty data");
}

// Equal of floats: true for the same values (+0 and -0 included), false once a
// NaN is among them (NaN is unequal to itself), true across promotable dtypes.
TEST(EqualValues, SignedZerosNanAndPromotion) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DeviceTensor a(ACL_FLOAT, {3}), b(ACL_FLOAT, {3}), c(ACL_INT32, {3});
  a.WriteView({1.5, 0.0, -2});
  b.WriteView({1.5, -0.0, -2});
  c.WriteView({1, 0, -2});
  auto equal = [](const DeviceTensor& x, const DeviceTensor& y) {
    DeviceTensor out(ACL_BOOL, {1});
    out.Poison();
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
          return aclnnEqualGetWorkspaceSize(args.Tensor(x), args.Tensor(y), args.Tensor(out), w, e);
        },
        aclnnEqual);
    EXPECT_TRUE(run.ok()) << Describe(run);
    return out.ReadView().at(0).real();
  };
  EXPECT_EQ(equal(a, b), 1.0);
  EXPECT_EQ(equal(a, c), 0.0);
  a.WriteView({1, 0, -2});
  EXPECT_EQ(equal(a, c), 1.0);
  a.WriteView({1, nan, -2});
  EXPECT_EQ(equal(a, a), 0.0);
}

}  // namespace
}  // namespace canopy_test
