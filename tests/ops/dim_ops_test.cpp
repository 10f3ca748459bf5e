// ArgMax, ArgMin, MaxDim, MinDim, Cumsum / CumsumV2, Cummax, Cummin, Argsort,
// Sort, Topk, Kthvalue, MedianDim and NanMedianDim (ops along one dim) through the public C API against a float64
// reference (indices and, where the op has them, values): every documented dtype, inner / outer /
// middle and negative dims, keepdim, strided and transposed views, rank 0,
// empty tensors, lines long and many enough to tile, ties (first index,
// stable order), NaN, integer wrap-around, ggml's call patterns, and the
// rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_cummax.h"
#include "aclnnop/aclnn_cummin.h"
#include "aclnnop/aclnn_cumprod.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_kthvalue.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_median.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

enum class Op {
  kArgMax,
  kArgMin,
  kMaxDim,
  kMinDim,
  kCumsum,
  kCumsumV2,
  kCummax,
  kCummin,
  kArgsort,
  kSort,
  kTopk,
  kKthvalue,
  kMedianDim,
  kNanMedianDim
};

// Ops that pick one element of the sorted line (and drop the dim).
bool Selects(Op op) { return op == Op::kKthvalue || op == Op::kMedianDim || op == Op::kNanMedianDim; }
// Ops that drop (or keep as 1) the dim; ops with a values output besides indices.
bool Reduces(Op op) {
  return op == Op::kArgMax || op == Op::kArgMin || op == Op::kMaxDim || op == Op::kMinDim || Selects(op);
}
bool HasValues(Op op) {
  return op == Op::kMaxDim || op == Op::kMinDim || op == Op::kCummax || op == Op::kCummin || op == Op::kSort ||
         op == Op::kTopk || Selects(op);
}

struct DimCase {
  std::string name;
  Op op;
  aclDataType self, out;
  Shape shape;
  int64_t dim = 0;
  bool flag = false;  // ArgMax (and the selections) keepdim, Argsort descending, CumsumV2 exclusive
  bool reverse = false;
  View view = View::kContiguous;
  View outView = View::kContiguous;
  Range range = Range{-3, 3};
  aclDataType values = ACL_DT_UNDEFINED;  // the values output's dtype (HasValues)
  int64_t k = 0;                          // Topk, Kthvalue (from 1)
};

void PrintTo(const DimCase& c, std::ostream* os) { *os << c.name; }

int64_t Wrap(int64_t dim, size_t rank) { return dim < 0 ? dim + static_cast<int64_t>(std::max<size_t>(rank, 1)) : dim; }

Shape OutShape(const DimCase& c) {
  if (c.shape.empty()) return c.shape;
  Shape out = c.shape;
  const auto d = static_cast<size_t>(Wrap(c.dim, c.shape.size()));
  if (c.op == Op::kTopk) {
    out[d] = c.k;
    return out;
  }
  if (!Reduces(c.op)) return out;
  if (c.flag) {
    out[d] = 1;
  } else {
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(d));
  }
  return out;
}

// NaN ranks above every number, as in PyTorch's max and sort (and below, in its min).
bool Above(double v, double b) { return (std::isnan(v) && !std::isnan(b)) || v > b; }
bool Below(double v, double b) { return (std::isnan(v) && !std::isnan(b)) || v < b; }

// Calls f(line) for each line along dim: the row-major indices of its elements.
template <typename F>
void ForLines(const Shape& shape, int64_t dim, const F& f) {
  if (shape.empty()) {
    f(std::vector<int64_t>{0});
    return;
  }
  const int64_t length = shape[static_cast<size_t>(dim)];
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t outer = NumElements(shape) / std::max<int64_t>(length * inner, 1);
  if (length == 0) return;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      std::vector<int64_t> line;
      for (int64_t k = 0; k < length; ++k) line.push_back((o * length + k) * inner + i);
      f(line);
    }
  }
}

// The elements' positions in out (of OutShape) of line element k, for a line of `inner`-strided elements.
int64_t OutPosition(int64_t first, int64_t k, int64_t length, int64_t outLength, int64_t inner) {
  const int64_t o = first / (length * inner), i = first % inner;
  return (o * outLength + k) * inner + i;
}

// Indices (and, into `valuesWant`, the values) of the ops that pick elements:
// exact, the values converted to the values dtype.
Expected PickReference(const DimCase& c, const Values& values, Expected* valuesWant) {
  const int64_t dim = Wrap(c.dim, c.shape.size());
  const Shape outShape = OutShape(c);
  Expected want;
  want.values.assign(static_cast<size_t>(NumElements(outShape)), 0.0);
  if (!HasValues(c.op)) valuesWant = nullptr;  // ArgMax, ArgMin: indices only
  if (valuesWant != nullptr) valuesWant->values.assign(want.values.size(), 0.0);
  const int64_t length = c.shape.empty() ? 1 : c.shape[static_cast<size_t>(dim)];
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(dim) + 1; d < c.shape.size(); ++d) inner *= c.shape[d];
  const auto v = [&](int64_t at) { return values[static_cast<size_t>(at)].real(); };
  const auto put = [&](const std::vector<int64_t>& line, int64_t outLength, int64_t k, int64_t index) {
    const auto at = static_cast<size_t>(OutPosition(line[0], k, length, outLength, inner));
    want.values[at] = static_cast<double>(index);
    if (valuesWant != nullptr) valuesWant->values[at] = ConvertValue(v(line[static_cast<size_t>(index)]), c.values);
  };
  ForLines(c.shape, dim, [&](const std::vector<int64_t>& line) {
    const auto n = static_cast<int64_t>(line.size());
    if (Selects(c.op)) {
      // The stable ascending order (NaN largest); Median takes a line's first NaN, NanMedian counts numbers only.
      std::vector<int64_t> order(static_cast<size_t>(n));
      std::iota(order.begin(), order.end(), 0);
      const auto key = [&](int64_t k) { return v(line[static_cast<size_t>(k)]); };
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return Above(key(b), key(a)); });
      int64_t numbers = 0, firstNan = -1;
      for (int64_t k = 0; k < n; ++k) {
        if (!std::isnan(key(k))) {
          ++numbers;
        } else if (firstNan < 0) {
          firstNan = k;
        }
      }
      int64_t pick;
      if (c.op == Op::kKthvalue) {
        pick = order[static_cast<size_t>(c.k - 1)];
      } else if (firstNan >= 0 && (c.op == Op::kMedianDim || numbers == 0)) {
        pick = firstNan;
      } else {
        pick = order[static_cast<size_t>(((c.op == Op::kMedianDim ? n : numbers) - 1) / 2)];
      }
      put(line, 1, 0, pick);
    } else if (Reduces(c.op)) {
      const bool max = c.op == Op::kArgMax || c.op == Op::kMaxDim;
      int64_t best = 0;
      for (int64_t k = 1; k < n; ++k) {
        const double x = v(line[static_cast<size_t>(k)]), b = v(line[static_cast<size_t>(best)]);
        if (max ? Above(x, b) : Below(x, b)) best = k;
      }
      put(line, 1, 0, best);
    } else if (c.op == Op::kCummax || c.op == Op::kCummin) {
      const bool max = c.op == Op::kCummax;
      int64_t best = 0;
      for (int64_t k = 0; k < n; ++k) {
        const double x = v(line[static_cast<size_t>(k)]), b = v(line[static_cast<size_t>(best)]);
        // PyTorch's rule: a NaN, or (no NaN so far) an element at least as extreme, takes over.
        if (k == 0 || std::isnan(x) || (!std::isnan(b) && (max ? x >= b : x <= b))) best = k;
        put(line, n, k, best);
      }
    } else {  // Sort, Topk: stable, equal elements by position
      std::vector<int64_t> order(static_cast<size_t>(n));
      std::iota(order.begin(), order.end(), 0);
      const auto key = [&](int64_t k) { return v(line[static_cast<size_t>(k)]); };
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return c.flag ? Above(key(a), key(b)) : Above(key(b), key(a)); });
      const int64_t kept = c.op == Op::kTopk ? c.k : n;
      for (int64_t k = 0; k < kept; ++k) put(line, kept, k, order[static_cast<size_t>(k)]);
    }
  });
  want.tolerance.assign(want.values.size(), 0);
  if (valuesWant != nullptr) valuesWant->tolerance.assign(want.values.size(), 0);
  return want;
}

Expected Reference(const DimCase& c, const Values& values, Expected* valuesWant = nullptr) {
  const int64_t dim = Wrap(c.dim, c.shape.size());
  Expected want;
  if (c.op != Op::kCumsum && c.op != Op::kCumsumV2 && c.op != Op::kArgsort) {
    return PickReference(c, values, valuesWant);
  }
  want.values.assign(values.size(), 0.0);
  want.tolerance.assign(values.size(), 0.0);
  ForLines(c.shape, dim, [&](const std::vector<int64_t>& line) {
    const size_t n = line.size();
    if (c.op == Op::kArgsort) {
      std::vector<int64_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      const auto key = [&](int64_t k) { return values[static_cast<size_t>(line[static_cast<size_t>(k)])].real(); };
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return c.flag ? Above(key(a), key(b)) : Above(key(b), key(a)); });
      for (size_t k = 0; k < n; ++k) want.values[static_cast<size_t>(line[k])] = static_cast<double>(order[k]);
      return;
    }
    Value sum = 0;
    double magnitude = 0;
    int64_t integer = 0;
    for (size_t step = 0; step < n; ++step) {
      const size_t k = c.reverse ? n - 1 - step : step;
      const size_t at = static_cast<size_t>(line[k]);
      const Value v = ConvertValue(values[at], c.out);  // self is converted to out's dtype first
      const bool exclusive = c.op == Op::kCumsumV2 && c.flag;
      if (!exclusive) {
        sum += v;
        magnitude += std::abs(v);
        if (IsIntegral(c.out)) integer += static_cast<int64_t>(v.real());
      }
      want.values[at] =
          IsIntegral(c.out) ? ConvertValue(static_cast<double>(integer), c.out) : ConvertValue(sum, c.out);
      if (IsIntegral(c.out)) {
        // The int64 running sum wraps into out's dtype.
        switch (c.out) {
          case ACL_INT8:
            want.values[at] = static_cast<double>(static_cast<int8_t>(integer));
            break;
          case ACL_UINT8:
            want.values[at] = static_cast<double>(static_cast<uint8_t>(integer));
            break;
          case ACL_INT16:
            want.values[at] = static_cast<double>(static_cast<int16_t>(integer));
            break;
          case ACL_INT32:
            want.values[at] = static_cast<double>(static_cast<int32_t>(integer));
            break;
          default:
            break;
        }
      }
      want.tolerance[at] = IsIntegral(c.out) ? 0 : 2 * UnitRoundoff(c.out) * std::abs(sum) + 0x1p-45 * magnitude;
      if (exclusive) {
        sum += v;
        magnitude += std::abs(v);
        if (IsIntegral(c.out)) integer += static_cast<int64_t>(v.real());
      }
    }
  });
  return want;
}

// `out` is the indices (Cumsum: the sums); `valuesOut` the values output of the ops that have one.
OpRun RunDimOp(const DimCase& c, const DeviceTensor& self, const DeviceTensor& out,
               const DeviceTensor* valuesOut = nullptr) {
  const auto values = [&](OpArgs& a) { return valuesOut == nullptr ? nullptr : a.Tensor(*valuesOut); };
  switch (c.op) {
    case Op::kArgMin:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnArgMinGetWorkspaceSize(a.Tensor(self), c.dim, c.flag, a.Tensor(out), ws, e);
          },
          aclnnArgMin);
    case Op::kMaxDim:
    case Op::kMinDim:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return (c.op == Op::kMaxDim ? aclnnMaxDimGetWorkspaceSize : aclnnMinDimGetWorkspaceSize)(
                a.Tensor(self), c.dim, c.flag, values(a), a.Tensor(out), ws, e);
          },
          c.op == Op::kMaxDim ? aclnnMaxDim : aclnnMinDim);
    case Op::kCummax:
    case Op::kCummin:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return (c.op == Op::kCummax ? aclnnCummaxGetWorkspaceSize : aclnnCumminGetWorkspaceSize)(
                a.Tensor(self), c.dim, values(a), a.Tensor(out), ws, e);
          },
          c.op == Op::kCummax ? aclnnCummax : aclnnCummin);
    case Op::kSort:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnSortGetWorkspaceSize(a.Tensor(self), c.reverse, c.dim, c.flag, values(a), a.Tensor(out), ws, e);
          },
          aclnnSort);
    case Op::kTopk:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnTopkGetWorkspaceSize(a.Tensor(self), c.k, c.dim, c.flag, !c.reverse, values(a), a.Tensor(out),
                                             ws, e);
          },
          aclnnTopk);
    case Op::kKthvalue:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnKthvalueGetWorkspaceSize(a.Tensor(self), c.k, c.dim, c.flag, values(a), a.Tensor(out), ws, e);
          },
          aclnnKthvalue);
    case Op::kMedianDim:
    case Op::kNanMedianDim:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return (c.op == Op::kMedianDim ? aclnnMedianDimGetWorkspaceSize : aclnnNanMedianDimGetWorkspaceSize)(
                a.Tensor(self), c.dim, c.flag, values(a), a.Tensor(out), ws, e);
          },
          c.op == Op::kMedianDim ? aclnnMedianDim : aclnnNanMedianDim);
    case Op::kArgMax:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnArgMaxGetWorkspaceSize(a.Tensor(self), c.dim, c.flag, a.Tensor(out), ws, e);
          },
          aclnnArgMax);
    case Op::kCumsum:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnCumsumGetWorkspaceSize(a.Tensor(self), c.dim, c.out, a.Tensor(out), ws, e);
          },
          aclnnCumsum);
    case Op::kCumsumV2:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnCumsumV2GetWorkspaceSize(a.Tensor(self), c.dim, c.flag, c.reverse, a.Tensor(out), ws, e);
          },
          aclnnCumsumV2);
    case Op::kArgsort:
      return RunOp(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnArgsortGetWorkspaceSize(a.Tensor(self), c.dim, c.flag, a.Tensor(out), ws, e);
          },
          aclnnArgsort);
  }
  return {};
}

class DimOpTest : public ::testing::TestWithParam<DimCase> {};

TEST_P(DimOpTest, MatchesFloat64Reference) {
  const DimCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(c.self, c.shape, c.view);
  Range range = c.range;
  if (IsUnsigned(c.self)) range.lo = std::max(range.lo, 0.0);
  Values values = self.FillRandom(rng, range);
  DeviceTensor out(c.out, OutShape(c), c.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  std::optional<DeviceTensor> valuesOut;
  std::vector<uint8_t> valuesBefore;
  if (HasValues(c.op)) {
    valuesOut.emplace(c.values, OutShape(c), c.outView);
    valuesOut->Poison();
    valuesBefore = valuesOut->DownloadBytes();
  }
  const OpRun run = RunDimOp(c, self, out, valuesOut ? &*valuesOut : nullptr);
  ASSERT_TRUE(run.ok()) << Describe(run);
  if (self.numel() == 0) {
    ExpectOutsideViewUnchanged(out, before, "out storage");
    return;
  }
  Expected wantValues;
  ExpectNear(out.ReadView(), Reference(c, values, &wantValues), c.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
  if (valuesOut) {
    ExpectNear(valuesOut->ReadView(), wantValues, c.name + " values");
    ExpectOutsideViewUnchanged(*valuesOut, valuesBefore, "values storage");
  }
  ExpectExact(self.ReadView(), values, "self must not change");
}

std::vector<DimCase> DimCases() {
  std::vector<DimCase> cases;
  const View s = View::kStepped, t = View::kTransposed, r = View::kReversed, c = View::kContiguous;
  // ArgMax: every self dtype into int64, a few into int32.
  for (aclDataType dtype :
       {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
    for (aclDataType out : {ACL_INT64, ACL_INT32}) {
      const std::string n = std::string("argmax_") + Name(dtype) + "_to_" + Name(out) + "_";
      cases.push_back({n + "inner", Op::kArgMax, dtype, out, {3, 4, 9}, 2});
      cases.push_back({n + "outer_keepdim", Op::kArgMax, dtype, out, {9, 4, 3}, 0, true});
      cases.push_back({n + "middle_negative", Op::kArgMax, dtype, out, {3, 9, 4}, -2});
      if (out == ACL_INT32) continue;
      cases.push_back({n + "stepped", Op::kArgMax, dtype, out, {4, 6, 10}, 1, false, false, s, s});
      cases.push_back({n + "transposed", Op::kArgMax, dtype, out, {7, 9}, 0, true, false, t, r});
      cases.push_back({n + "ties", Op::kArgMax, dtype, out, {5, 40}, 1, false, false, c, c, Range{0, 2}});
      cases.push_back({n + "rank0", Op::kArgMax, dtype, out, {}, 0});
    }
  }
  cases.push_back({"argmax_f32_tiled_outer", Op::kArgMax, ACL_FLOAT, ACL_INT64, {3000, 7}, 0});
  cases.push_back({"argmax_f32_tiles", Op::kArgMax, ACL_FLOAT, ACL_INT64, {50, 2100}, 0});
  cases.push_back({"argmax_f32_long_lines", Op::kArgMax, ACL_FLOAT, ACL_INT64, {4, 30000}, 1});
  cases.push_back({"argmax_f32_empty", Op::kArgMax, ACL_FLOAT, ACL_INT64, {0, 4}, 1});
  // ggml: [ne3, ne2, ne1, ne0] over dim 3 into int32 [ne3, ne2, ne1].
  cases.push_back({"argmax_ggml", Op::kArgMax, ACL_FLOAT, ACL_INT32, {1, 2, 3, 50}, 3});

  // ArgMin as ArgMax; MaxDim / MinDim with their values; their dtypes, views and tiles.
  for (aclDataType dtype :
       {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
    const std::string n = std::string("argmin_") + Name(dtype) + "_";
    cases.push_back({n + "inner", Op::kArgMin, dtype, ACL_INT64, {3, 4, 9}, 2});
    cases.push_back({n + "outer_keepdim_s32", Op::kArgMin, dtype, ACL_INT32, {9, 4, 3}, 0, true});
    cases.push_back(
        {n + "transposed_ties", Op::kArgMin, dtype, ACL_INT64, {7, 9}, -2, false, false, t, r, Range{0, 2}});
  }
  cases.push_back({"argmin_f32_tiles", Op::kArgMin, ACL_FLOAT, ACL_INT64, {50, 2100}, 0});
  cases.push_back({"argmin_f32_rank0", Op::kArgMin, ACL_FLOAT, ACL_INT64, {}, -1});
  for (const Op op : {Op::kMaxDim, Op::kMinDim}) {
    const std::string name = op == Op::kMaxDim ? "maxdim_" : "mindim_";
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT64, ACL_BOOL}) {
      const std::string n = name + Name(dtype) + "_";
      const Range range = dtype == ACL_BOOL ? Range{0, 1} : Range{-3, 3};
      DimCase base{n, op, dtype, ACL_INT64, {3, 4, 9}, 2, false, false, c, c, range, dtype};
      const auto with = [&](std::string suffix, Shape shape, int64_t dim, bool keepdim, aclDataType indices, View in,
                            View out) {
        DimCase x = base;
        x.name += suffix;
        x.shape = std::move(shape);
        x.dim = dim;
        x.flag = keepdim;
        x.out = indices;
        x.view = in;
        x.outView = out;
        cases.push_back(x);
      };
      with("inner", {3, 4, 9}, 2, false, ACL_INT64, c, c);
      with("outer_keepdim_s32", {9, 4, 3}, 0, true, ACL_INT32, c, c);
      with("middle_negative_stepped", {4, 9, 5}, -2, false, ACL_INT64, s, s);
      with("transposed", {7, 9}, 0, true, ACL_INT32, t, r);
      with("rank0", {}, 0, false, ACL_INT64, c, c);
      with("empty", {0, 4}, 1, false, ACL_INT64, c, c);
      if (dtype == ACL_FLOAT) with("tiled_outer", {3000, 7}, 0, false, ACL_INT64, c, c);
    }
    // ggml's / PyTorch's max(dim) of a [B, S, V] logit tensor over V.
    cases.push_back({name + "f16_long_lines",
                     op,
                     ACL_FLOAT16,
                     ACL_INT64,
                     {2, 3, 5000},
                     -1,
                     false,
                     false,
                     c,
                     c,
                     Range{-3, 3},
                     ACL_FLOAT16});
  }

  // Cummax / Cummin: every dtype, ties (the latest index), views and tiles.
  for (const Op op : {Op::kCummax, Op::kCummin}) {
    const std::string name = op == Op::kCummax ? "cummax_" : "cummin_";
    for (aclDataType dtype : {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64,
                              ACL_BOOL, ACL_BF16}) {
      const std::string n = name + Name(dtype) + "_";
      const Range range = dtype == ACL_BOOL ? Range{0, 1} : Range{-3, 3};
      const Range ties = dtype == ACL_BOOL ? Range{0, 1} : Range{0, 2};
      cases.push_back({n + "inner", op, dtype, ACL_INT64, {3, 4, 9}, 2, false, false, c, c, range, dtype});
      cases.push_back({n + "outer_s32_ties", op, dtype, ACL_INT32, {9, 4, 3}, 0, false, false, c, c, ties, dtype});
      cases.push_back({n + "stepped", op, dtype, ACL_INT64, {4, 9, 5}, -2, false, false, s, s, range, dtype});
      cases.push_back({n + "transposed", op, dtype, ACL_INT64, {7, 9}, 1, false, false, t, r, range, dtype});
    }
    cases.push_back({name + "f32_rank0", op, ACL_FLOAT, ACL_INT64, {}, 0, false, false, c, c, Range{-3, 3}, ACL_FLOAT});
    cases.push_back(
        {name + "f32_empty", op, ACL_FLOAT, ACL_INT64, {0, 4}, 1, false, false, c, c, Range{-3, 3}, ACL_FLOAT});
    cases.push_back({name + "f32_tiled_outer",
                     op,
                     ACL_FLOAT,
                     ACL_INT64,
                     {3000, 7},
                     0,
                     false,
                     false,
                     c,
                     c,
                     Range{-3, 3},
                     ACL_FLOAT});
  }
  cases.push_back({"cummax_s32_into_f64",
                   Op::kCummax,
                   ACL_INT32,
                   ACL_INT64,
                   {5, 8},
                   1,
                   false,
                   false,
                   c,
                   c,
                   Range{-3, 3},
                   ACL_DOUBLE});

  // Cumsum: every dtype into itself; conversions; V2's exclusive / reverse.
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64,
                            ACL_UINT8, ACL_COMPLEX64, ACL_COMPLEX128}) {
    const std::string n = std::string("cumsum_") + Name(dtype) + "_";
    cases.push_back({n + "inner", Op::kCumsum, dtype, dtype, {3, 4, 9}, 2});
    cases.push_back({n + "outer", Op::kCumsum, dtype, dtype, {9, 4, 3}, 0});
    cases.push_back({n + "rank0", Op::kCumsum, dtype, dtype, {}, -1});
    if (IsComplex(dtype)) continue;
    cases.push_back({n + "middle_negative_stepped", Op::kCumsum, dtype, dtype, {4, 6, 10}, -2, false, false, s, s});
    cases.push_back({n + "transposed", Op::kCumsum, dtype, dtype, {7, 9}, 0, false, false, t, r});
    for (const bool exclusive : {false, true}) {
      for (const bool reverse : {false, true}) {
        cases.push_back({n + "v2" + (exclusive ? "_exclusive" : "") + (reverse ? "_reverse" : ""),
                         Op::kCumsumV2,
                         dtype,
                         dtype,
                         {5, 12},
                         1,
                         exclusive,
                         reverse});
      }
    }
    cases.push_back({n + "v2_outer_exclusive_reverse", Op::kCumsumV2, dtype, dtype, {12, 5}, 0, true, true});
  }
  cases.push_back({"cumsum_s32_to_f32", Op::kCumsum, ACL_INT32, ACL_FLOAT, {4, 10}, 1});
  cases.push_back({"cumsum_f32_to_s32", Op::kCumsum, ACL_FLOAT, ACL_INT32, {4, 10}, 1});       // truncated first
  cases.push_back({"cumsum_c64_to_f64", Op::kCumsum, ACL_COMPLEX64, ACL_DOUBLE, {4, 10}, 1});  // the real part
  cases.push_back({"cumsum_f16_to_f32", Op::kCumsum, ACL_FLOAT16, ACL_FLOAT, {4, 10}, 0});
  cases.push_back({"cumsum_f32_to_f16", Op::kCumsum, ACL_FLOAT, ACL_FLOAT16, {4, 10}, 1, false, false, s, s});
  cases.push_back({"cumsum_s8_wraps", Op::kCumsum, ACL_INT8, ACL_INT8, {3, 40}, 1, false, false, c, c, Range{60, 120}});
  cases.push_back({"cumsum_f32_tiled_outer", Op::kCumsum, ACL_FLOAT, ACL_FLOAT, {3000, 7}, 0});
  cases.push_back({"cumsum_f32_long_lines", Op::kCumsum, ACL_FLOAT, ACL_FLOAT, {3, 30000}, 1});
  cases.push_back({"cumsum_f32_empty", Op::kCumsum, ACL_FLOAT, ACL_FLOAT, {0, 4}, 1});
  // ggml: over dim 3 of [ne3, ne2, ne1, ne0] in dst's dtype.
  cases.push_back({"cumsum_ggml", Op::kCumsum, ACL_FLOAT, ACL_FLOAT, {1, 2, 3, 64}, 3});

  // Argsort: every dtype, both orders, ties keep their order.
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
    for (const bool descending : {false, true}) {
      const std::string n = std::string("argsort_") + Name(dtype) + (descending ? "_descending_" : "_ascending_");
      cases.push_back({n + "inner", Op::kArgsort, dtype, ACL_INT64, {3, 4, 30}, -1, descending});
      cases.push_back(
          {n + "outer_ties", Op::kArgsort, dtype, ACL_INT64, {30, 4, 3}, 0, descending, false, c, c, Range{0, 3}});
      cases.push_back({n + "stepped", Op::kArgsort, dtype, ACL_INT64, {4, 6, 10}, 1, descending, false, s, s});
      cases.push_back({n + "transposed", Op::kArgsort, dtype, ACL_INT64, {7, 9}, 0, descending, false, t, r});
    }
  }
  cases.push_back({"argsort_f32_long_lines", Op::kArgsort, ACL_FLOAT, ACL_INT64, {3, 20000}, 1, true});
  cases.push_back({"argsort_f32_rank0", Op::kArgsort, ACL_FLOAT, ACL_INT64, {}, 0});
  cases.push_back({"argsort_f32_empty", Op::kArgsort, ACL_FLOAT, ACL_INT64, {4, 0}, 1});
  // ggml: dim -1 of [ne3, ne2, ne1, ne0], into an int64 temporary.
  cases.push_back({"argsort_ggml_descending", Op::kArgsort, ACL_FLOAT, ACL_INT64, {1, 2, 3, 50}, -1, true});
  cases.push_back({"argsort_ggml_ascending", Op::kArgsort, ACL_FLOAT, ACL_INT64, {1, 2, 3, 50}, -1, false});

  // Sort (values and indices; `reverse` carries `stable`) and Topk (`reverse` carries !sorted: false here).
  for (aclDataType dtype :
       {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL}) {
    for (const bool descending : {false, true}) {
      const std::string n = std::string("sort_") + Name(dtype) + (descending ? "_descending_" : "_ascending_");
      const Range range = dtype == ACL_BOOL ? Range{0, 1} : Range{-3, 3};
      const Range ties = dtype == ACL_BOOL ? Range{0, 1} : Range{0, 3};
      cases.push_back({n + "inner", Op::kSort, dtype, ACL_INT64, {3, 4, 30}, -1, descending, true, c, c, range, dtype});
      cases.push_back(
          {n + "outer_ties", Op::kSort, dtype, ACL_INT64, {30, 4, 3}, 0, descending, false, c, c, ties, dtype});
      cases.push_back({n + "transposed", Op::kSort, dtype, ACL_INT64, {7, 9}, 0, descending, true, t, r, range, dtype});
    }
  }
  cases.push_back(
      {"sort_s32_into_f64", Op::kSort, ACL_INT32, ACL_INT64, {4, 9}, 1, false, true, c, c, Range{-9, 9}, ACL_DOUBLE});
  cases.push_back({"sort_f32_long_lines",
                   Op::kSort,
                   ACL_FLOAT,
                   ACL_INT64,
                   {3, 20000},
                   1,
                   true,
                   true,
                   c,
                   c,
                   Range{-3, 3},
                   ACL_FLOAT});
  cases.push_back(
      {"sort_f32_rank0", Op::kSort, ACL_FLOAT, ACL_INT64, {}, 0, false, true, c, c, Range{-3, 3}, ACL_FLOAT});
  cases.push_back(
      {"sort_f32_empty", Op::kSort, ACL_FLOAT, ACL_INT64, {4, 0}, 1, false, true, c, c, Range{-3, 3}, ACL_FLOAT});
  for (aclDataType dtype :
       {ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16}) {
    for (const bool largest : {true, false}) {
      const std::string n = std::string("topk_") + Name(dtype) + (largest ? "_largest_" : "_smallest_");
      DimCase x{n + "inner", Op::kTopk, dtype, ACL_INT64, {3, 4, 30}, -1, largest, false, c, c, Range{-3, 3}, dtype, 5};
      cases.push_back(x);
      x.name = n + "outer_ties_stepped";
      x.shape = {30, 4, 3};
      x.dim = 0;
      x.range = Range{0, 3};
      x.view = x.outView = s;
      x.k = 30;
      cases.push_back(x);
      x.name = n + "transposed_k0";
      x.shape = {7, 9};
      x.dim = 1;
      x.view = t;
      x.outView = c;
      x.k = 0;
      cases.push_back(x);
    }
  }
  // Sampling: the top 40 of a [1, 32000] vocabulary row.
  cases.push_back({"topk_f32_vocabulary",
                   Op::kTopk,
                   ACL_FLOAT,
                   ACL_INT64,
                   {2, 32000},
                   1,
                   true,
                   false,
                   c,
                   c,
                   Range{-10, 10},
                   ACL_FLOAT,
                   40});
  cases.push_back(
      {"topk_f32_rank0", Op::kTopk, ACL_FLOAT, ACL_INT64, {}, 0, true, false, c, c, Range{-3, 3}, ACL_FLOAT, 1});
  // sorted false (CANN's host code passes it on): the k kept in any order; Canopy's are in order anyway.
  cases.push_back({"topk_f32_unsorted",
                   Op::kTopk,
                   ACL_FLOAT,
                   ACL_INT64,
                   {3, 4, 30},
                   -1,
                   true,
                   true,
                   c,
                   c,
                   Range{-3, 3},
                   ACL_FLOAT,
                   5});
  // Kthvalue, MedianDim, NanMedianDim: every documented dtype, ties (the stable order's pick), inner / outer /
  // middle and negative dims, keepdim, views, k at both ends, long lines, rank 0 and empty kept dims.
  for (const Op op : {Op::kKthvalue, Op::kMedianDim, Op::kNanMedianDim}) {
    const std::string name = op == Op::kKthvalue ? "kthvalue_" : op == Op::kMedianDim ? "mediandim_" : "nanmediandim_";
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
      const std::string n = name + Name(dtype) + "_";
      DimCase x{n + "inner", op, dtype, ACL_INT64, {3, 4, 9}, 2, false, false, c, c, Range{-3, 3}, dtype, 4};
      cases.push_back(x);
      x = {n + "outer_keepdim_ties", op, dtype, ACL_INT64, {10, 4, 3}, 0, true, false, c, c, Range{0, 3}, dtype, 10};
      cases.push_back(x);
      x = {n + "middle_negative_stepped",
           op,
           dtype,
           ACL_INT64,
           {3, 9, 4},
           -2,
           false,
           false,
           s,
           s,
           Range{-3, 3},
           dtype,
           1};
      cases.push_back(x);
      x = {n + "transposed", op, dtype, ACL_INT64, {7, 8}, 0, true, false, t, r, Range{-3, 3}, dtype, 5};
      cases.push_back(x);
    }
    cases.push_back({name + "f32_long_lines",
                     op,
                     ACL_FLOAT,
                     ACL_INT64,
                     {3, 20001},
                     1,
                     false,
                     false,
                     c,
                     c,
                     Range{-9, 9},
                     ACL_FLOAT,
                     777});
    cases.push_back(
        {name + "f32_rank0", op, ACL_FLOAT, ACL_INT64, {}, 0, false, false, c, c, Range{-3, 3}, ACL_FLOAT, 1});
    cases.push_back(
        {name + "f32_empty_kept", op, ACL_FLOAT, ACL_INT64, {0, 4}, 1, false, false, c, c, Range{-3, 3}, ACL_FLOAT, 2});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, DimOpTest, ::testing::ValuesIn(DimCases()),
                         [](const ::testing::TestParamInfo<DimCase>& info) { return SanitizeName(info.param.name); });

// NaN: ArgMax picks the first NaN; Argsort puts NaNs last ascending, first descending.
TEST(DimOps, NanRanksAboveNumbers) {
  Values values = {1.0, std::nan(""), 3.0, std::nan(""), -2.0, 3.0};
  DeviceTensor self(ACL_FLOAT, {6});
  self.WriteView(values);
  {
    DeviceTensor out(ACL_INT64, Shape{});
    const DimCase c{"argmax_nan", Op::kArgMax, ACL_FLOAT, ACL_INT64, {6}, 0};
    ASSERT_TRUE(RunDimOp(c, self, out).ok());
    ExpectExact(out.ReadView(), {1.0}, "first NaN");
  }
  for (const bool descending : {false, true}) {
    DeviceTensor out(ACL_INT64, {6});
    const DimCase c{"argsort_nan", Op::kArgsort, ACL_FLOAT, ACL_INT64, {6}, 0, descending};
    ASSERT_TRUE(RunDimOp(c, self, out).ok());
    const Values want = descending ? Values{1.0, 3.0, 2.0, 5.0, 0.0, 4.0} : Values{4.0, 0.0, 2.0, 5.0, 1.0, 3.0};
    ExpectExact(out.ReadView(), want, descending ? "descending" : "ascending");
  }
}

// NaN in the ops with values: MaxDim / MinDim take the first NaN (it
// propagates), Cummax / Cummin switch to each new NaN and stay there, Sort and
// Topk put NaN first descending / largest.
TEST(DimOps, NanInValueOps) {
  const Values values = {1.0, std::nan(""), 3.0, std::nan(""), -2.0, 3.0};
  DeviceTensor self(ACL_FLOAT, {6});
  self.WriteView(values);
  for (const Op op : {Op::kMaxDim, Op::kMinDim}) {
    DeviceTensor index(ACL_INT64, Shape{}), value(ACL_FLOAT, Shape{});
    const DimCase c{"nan", op,    ACL_FLOAT,         ACL_INT64,         {6},     0,
                    false, false, View::kContiguous, View::kContiguous, Range{}, ACL_FLOAT};
    ASSERT_TRUE(RunDimOp(c, self, index, &value).ok());
    ExpectExact(index.ReadView(), {1.0}, "first NaN");
    EXPECT_TRUE(std::isnan(value.ReadView()[0].real()));
  }
  for (const Op op : {Op::kCummax, Op::kCummin}) {
    DeviceTensor index(ACL_INT64, {6}), value(ACL_FLOAT, {6});
    const DimCase c{"nan", op,    ACL_FLOAT,         ACL_INT64,         {6},     0,
                    false, false, View::kContiguous, View::kContiguous, Range{}, ACL_FLOAT};
    ASSERT_TRUE(RunDimOp(c, self, index, &value).ok());
    ExpectExact(index.ReadView(), {0.0, 1.0, 1.0, 3.0, 3.0, 3.0}, "NaN takes over, the latest one");
  }
  DeviceTensor index(ACL_INT64, {2}), value(ACL_FLOAT, {2});
  const DimCase c{"nan", Op::kTopk,         ACL_FLOAT,         ACL_INT64, {6},       0, true,
                  false, View::kContiguous, View::kContiguous, Range{},   ACL_FLOAT, 2};
  ASSERT_TRUE(RunDimOp(c, self, index, &value).ok());
  ExpectExact(index.ReadView(), {1.0, 3.0}, "NaNs are the largest");
}

// Kthvalue takes NaN as the largest element; MedianDim propagates a line's first
// NaN; NanMedianDim leaves NaN out (a line of NaN only: its first NaN), as in
// NanMedianDim's document examples.
TEST(DimOps, NanInSelections) {
  const View k = View::kContiguous;
  const Values values = {1.0, std::nan(""), 3.0, std::nan(""), -2.0, 3.0};
  DeviceTensor self(ACL_FLOAT, {6});
  self.WriteView(values);
  const auto select = [&](Op op, int64_t kth, double index, bool nan) {
    DeviceTensor indices(ACL_INT64, Shape{}), value(ACL_FLOAT, Shape{});
    const DimCase c{"nan", op, ACL_FLOAT, ACL_INT64, {6}, 0, false, false, k, k, Range{}, ACL_FLOAT, kth};
    ASSERT_TRUE(RunDimOp(c, self, indices, &value).ok());
    ExpectExact(indices.ReadView(), {index}, "index");
    if (nan) {
      EXPECT_TRUE(std::isnan(value.ReadView()[0].real()));
    } else {
      ExpectExact(value.ReadView(), {values[static_cast<size_t>(index)]}, "value");
    }
  };
  select(Op::kKthvalue, 3, 2, false);  // -2, 1, 3 (the first 3)
  select(Op::kKthvalue, 4, 5, false);  // the second 3: stable order
  select(Op::kKthvalue, 5, 1, true);   // the first NaN
  select(Op::kMedianDim, 0, 1, true);
  select(Op::kNanMedianDim, 0, 0, false);  // -2, 1, 3, 3: position 1
  // NanMedianDim's examples 2 and 4: [[1, nan, 3, 2], [-1, nan, 3, 2]].
  DeviceTensor pair(ACL_FLOAT, {2, 4});
  pair.WriteView({1, std::nan(""), 3, 2, -1, std::nan(""), 3, 2});
  {
    DeviceTensor indices(ACL_INT64, {1, 4}), value(ACL_FLOAT, {1, 4});
    const DimCase c{"example2", Op::kNanMedianDim, ACL_FLOAT, ACL_INT64, {2, 4}, 0, true, false, k,
                    k,          Range{},           ACL_FLOAT};
    ASSERT_TRUE(RunDimOp(c, pair, indices, &value).ok());
    ExpectExact(indices.ReadView(), {1, 0, 0, 0}, "example 2 indices");
    const Values got = value.ReadView();
    EXPECT_EQ(got[0].real(), -1);
    EXPECT_TRUE(std::isnan(got[1].real()));
    EXPECT_EQ(got[2].real(), 3);
    EXPECT_EQ(got[3].real(), 2);
  }
  {
    DeviceTensor indices(ACL_INT64, {2}), value(ACL_FLOAT, {2});
    const DimCase c{"example4", Op::kNanMedianDim, ACL_FLOAT, ACL_INT64, {2, 4}, 1, false, false, k,
                    k,          Range{},           ACL_FLOAT};
    ASSERT_TRUE(RunDimOp(c, pair, indices, &value).ok());
    ExpectExact(indices.ReadView(), {3, 3}, "example 4 indices");
    ExpectExact(value.ReadView(), {2, 2}, "example 4 values");
  }
  // Median and NanMedian of every element: NaN propagates / is left out (NanMedian's example: 2).
  DeviceTensor row(ACL_FLOAT, {4}), out(ACL_FLOAT, Shape{1});
  row.WriteView({1, std::nan(""), 3, 2});
  for (const bool nanMedian : {false, true}) {
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
          return (nanMedian ? aclnnNanMedianGetWorkspaceSize : aclnnMedianGetWorkspaceSize)(a.Tensor(row),
                                                                                            a.Tensor(out), ws, e);
        },
        nanMedian ? aclnnNanMedian : aclnnMedian);
    ASSERT_TRUE(run.ok()) << Describe(run);
    if (nanMedian) {
      ExpectExact(out.ReadView(), {2}, "nanmedian");
    } else {
      EXPECT_TRUE(std::isnan(out.ReadView()[0].real()));
    }
  }
}

// Cumprod's example program (INT64 [1, 2, 3] along dim 0 -> 1, 2, 6), in place too, and a float64 one with a
// zero and a NaN: every product after them is 0, then NaN.
TEST(DimOps, CumprodExampleAndSpecialValues) {
  DeviceTensor self(ACL_INT64, {3}), out(ACL_INT64, {3});
  self.WriteView({1, 2, 3});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnCumprodGetWorkspaceSize(a.Tensor(self), a.Scalar(ACL_INT32, 0), ACL_INT64, a.Tensor(out), ws, e);
      },
      aclnnCumprod);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), {1, 2, 6}, "cumprod");
  const OpRun inplace = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnInplaceCumprodGetWorkspaceSize(a.Tensor(self), a.Scalar(ACL_INT32, 0), ws, e);
      },
      aclnnInplaceCumprod);
  ASSERT_TRUE(inplace.ok()) << Describe(inplace);
  ExpectExact(self.ReadView(), {1, 2, 6}, "in place");
  DeviceTensor special(ACL_DOUBLE, {5}), specialOut(ACL_DOUBLE, {5});
  special.WriteView({2, std::numeric_limits<double>::infinity(), 0, std::nan(""), 3});
  const OpRun specialRun = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnCumprodGetWorkspaceSize(a.Tensor(special), a.Scalar(ACL_INT64, -1), ACL_DT_UNDEFINED,
                                            a.Tensor(specialOut), ws, e);
      },
      aclnnCumprod);
  ASSERT_TRUE(specialRun.ok()) << Describe(specialRun);
  const Values got = specialOut.ReadView();
  EXPECT_EQ(got[0].real(), 2);
  EXPECT_TRUE(std::isinf(got[1].real()));
  for (size_t i = 2; i < got.size(); ++i) EXPECT_TRUE(std::isnan(got[i].real())) << i;  // inf * 0, then NaN
}

// The rejections of Cumprod, Median and NanMedian with CANN's code.
TEST(DimOps, CumprodAndMedianRejections) {
  DeviceTensor f32(ACL_FLOAT, {2, 3}), f64(ACL_DOUBLE, {2, 3}), f16(ACL_FLOAT16, {2, 3}), boolean(ACL_BOOL, {2, 3}),
      c64(ACL_COMPLEX64, {2, 3}), f32Row(ACL_FLOAT, {3}), f32One(ACL_FLOAT, {1}), f64One(ACL_DOUBLE, {1}),
      bf16Column(ACL_BF16, {3, 1}), bf16One(ACL_BF16, {1}), f32Pair(ACL_FLOAT, {2});
  struct Bad {
    const char* name;
    std::function<aclnnStatus(OpArgs&, uint64_t*, aclOpExecutor**)> phase1;
    const char* keyword;
  };
  const auto cumprod = [](const DeviceTensor& in, aclDataType dimType, int64_t dim, aclDataType dtype,
                          const DeviceTensor& out) {
    return [&in, &out, dimType, dim, dtype](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
      return aclnnCumprodGetWorkspaceSize(a.Tensor(in), a.Scalar(dimType, static_cast<double>(dim)), dtype,
                                          a.Tensor(out), ws, e);
    };
  };
  const auto median = [](bool nan, const DeviceTensor& in, const DeviceTensor& out) {
    return [nan, &in, &out](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
      return (nan ? aclnnNanMedianGetWorkspaceSize : aclnnMedianGetWorkspaceSize)(a.Tensor(in), a.Tensor(out), ws, e);
    };
  };
  const Bad cases[] = {
      {"cumprod bool input", cumprod(boolean, ACL_INT32, 1, ACL_DT_UNDEFINED, boolean), "input"},
      {"cumprod complex input", cumprod(c64, ACL_INT32, 1, ACL_DT_UNDEFINED, c64), "input"},
      {"cumprod float dim", cumprod(f32, ACL_FLOAT, 1, ACL_DT_UNDEFINED, f32), "dim"},
      {"cumprod dim above", cumprod(f32, ACL_INT32, 2, ACL_DT_UNDEFINED, f32), "dim"},
      {"cumprod dim below", cumprod(f32, ACL_INT64, -3, ACL_DT_UNDEFINED, f32), "dim"},
      {"cumprod out shape", cumprod(f32, ACL_INT32, 1, ACL_DT_UNDEFINED, f32Row), "out"},
      {"cumprod dtype not out's", cumprod(f32, ACL_INT32, 1, ACL_DOUBLE, f32), "dtype"},
      // 63 is no dtype but lies in aclDataType's value range (-64..63): a larger
      // value held in a C++ aclDataType is undefined behaviour in the test itself.
      {"cumprod dtype not a dtype", cumprod(f32, ACL_INT32, 1, static_cast<aclDataType>(63), f32), "dtype"},
      {"cumprod bool out", cumprod(f32, ACL_INT32, 1, ACL_BOOL, boolean), "out"},
      {"inplace cumprod dim",
       [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
         return aclnnInplaceCumprodGetWorkspaceSize(a.Tensor(f32), a.Scalar(ACL_INT32, 5), ws, e);
       },
       "dim"},
      {"median f64 self", median(false, f64, f64One), "self"},
      {"median out dtype", median(false, f32, f64One), "valuesOut"},
      {"median out shape", median(false, f32, f32Pair), "valuesOut"},
      {"median bf16 last dim of 1", median(false, bf16Column, bf16One), "BFLOAT16"},
      {"nanmedian bool self", median(true, boolean, f32One), "self"},
      {"nanmedian out dtype", median(true, f16, f32One), "out"},
      {"nanmedian out shape", median(true, f32, f32Row), "out"},
  };
  for (const Bad& bad : cases) {
    const OpRun run = RunOp(bad.phase1, aclnnCumprod);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

// CANN's example programs (ops-math math/*/docs) with their results.
TEST(DimOps, CannExamplePrograms) {
  const View k = View::kContiguous;
  {  // ArgMin: INT32 [4, 2], dim 0, keepdim.
    DeviceTensor self(ACL_INT32, {4, 2}), out(ACL_INT32, {1, 2});
    self.WriteView({3, 3, 2, 3, 4, 2, 6, 7});
    ASSERT_TRUE(RunDimOp({"argmin", Op::kArgMin, ACL_INT32, ACL_INT32, {4, 2}, 0, true}, self, out).ok());
    ExpectExact(out.ReadView(), {1.0, 2.0}, "ArgMin");
  }
  for (const Op op : {Op::kMaxDim, Op::kMinDim}) {  // f32 [4, 2] of 0..7, dim 0, int32 indices.
    DeviceTensor self(ACL_FLOAT, {4, 2}), index(ACL_INT32, {2}), value(ACL_FLOAT, {2});
    self.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
    const DimCase c{"example", op, ACL_FLOAT, ACL_INT32, {4, 2}, 0, false, false, k, k, Range{}, ACL_FLOAT};
    ASSERT_TRUE(RunDimOp(c, self, index, &value).ok());
    const bool max = op == Op::kMaxDim;
    ExpectExact(index.ReadView(), max ? Values{3, 3} : Values{0, 0}, "indices");
    ExpectExact(value.ReadView(), max ? Values{6, 7} : Values{0, 1}, "values");
  }
  for (const Op op : {Op::kCummax, Op::kCummin}) {  // f32 [2, 4], dim 0, int64 indices.
    DeviceTensor self(ACL_FLOAT, {2, 4}), index(ACL_INT64, {2, 4}), value(ACL_FLOAT, {2, 4});
    self.WriteView({3, 3, 2, 1, 4, 2, 6, 7});
    const DimCase c{"example", op, ACL_FLOAT, ACL_INT64, {2, 4}, 0, false, false, k, k, Range{}, ACL_FLOAT};
    ASSERT_TRUE(RunDimOp(c, self, index, &value).ok());
    const bool max = op == Op::kCummax;
    ExpectExact(value.ReadView(), max ? Values{3, 3, 2, 1, 4, 3, 6, 7} : Values{3, 3, 2, 1, 3, 2, 2, 1}, "values");
    ExpectExact(index.ReadView(), max ? Values{0, 0, 0, 0, 1, 0, 1, 1} : Values{0, 0, 0, 0, 0, 1, 0, 0}, "indices");
  }
  {  // Sort: INT64 [3, 4], stable false, dim 0, ascending, INT64 values.
    DeviceTensor self(ACL_INT64, {3, 4}), index(ACL_INT64, {3, 4}), value(ACL_INT64, {3, 4});
    self.WriteView({7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6});
    const DimCase c{"example", Op::kSort, ACL_INT64, ACL_INT64, {3, 4}, 0, false, false, k, k, Range{}, ACL_INT64};
    ASSERT_TRUE(RunDimOp(c, self, index, &value).ok());
    ExpectExact(value.ReadView(), {3, 4, 1, 2, 7, 8, 5, 6, 11, 12, 9, 10}, "values");
    ExpectExact(index.ReadView(), {2, 2, 1, 1, 0, 0, 2, 2, 1, 1, 0, 0}, "indices");
  }
  {  // Topk: f32 [2, 4], k 2, dim 1, largest, sorted.
    DeviceTensor self(ACL_FLOAT, {2, 4}), index(ACL_INT64, {2, 2}), value(ACL_FLOAT, {2, 2});
    self.WriteView({0, 1, 2.5, 3, 4, 5.5, 6, 7});
    const DimCase c{"example", Op::kTopk, ACL_FLOAT, ACL_INT64, {2, 4}, 1, true, false, k, k, Range{}, ACL_FLOAT, 2};
    ASSERT_TRUE(RunDimOp(c, self, index, &value).ok());
    ExpectExact(value.ReadView(), {3, 2.5, 7, 6}, "values");
    ExpectExact(index.ReadView(), {3, 2, 3, 2}, "indices");
  }
}

// The rejections of the ops with values (every tensor given), with CANN's code.
TEST(DimOps, ValueOpRejections) {
  struct Bad {
    const char* name;
    Op op;
    aclDataType self, indices, values;
    Shape shape, outShape;
    int64_t dim;
    int64_t k;
    bool sorted;
    const char* keyword;
  };
  const aclDataType f32 = ACL_FLOAT, s64 = ACL_INT64, s32 = ACL_INT32;
  const Bad cases[] = {
      {"maxdim s32 self", Op::kMaxDim, s32, s64, s32, {2, 3}, {2}, 1, 0, true, "self"},
      {"maxdim values dtype", Op::kMaxDim, f32, s64, ACL_FLOAT16, {2, 3}, {2}, 1, 0, true, "out"},
      {"mindim f32 indices", Op::kMinDim, f32, f32, f32, {2, 3}, {2}, 1, 0, true, "indices"},
      {"mindim dim", Op::kMinDim, f32, s64, f32, {2, 3}, {2}, 2, 0, true, "dim"},
      {"maxdim out shape", Op::kMaxDim, f32, s64, f32, {2, 3}, {3}, 1, 0, true, "out"},
      {"cummax c64 self", Op::kCummax, ACL_COMPLEX64, s64, ACL_COMPLEX64, {2, 3}, {2, 3}, 1, 0, true, "self"},
      {"cummax float into int", Op::kCummax, f32, s64, s32, {2, 3}, {2, 3}, 1, 0, true, "valuesOut"},
      {"cummin values dtype", Op::kCummin, s32, s64, ACL_INT64, {2, 3}, {2, 3}, 1, 0, true, "valuesOut"},
      {"cummin u8 indices", Op::kCummin, f32, ACL_UINT8, f32, {2, 3}, {2, 3}, 1, 0, true, "indicesOut"},
      {"cummin shape", Op::kCummin, f32, s64, f32, {2, 3}, {3, 2}, 1, 0, true, "valuesOut"},
      {"sort f64 self", Op::kSort, ACL_DOUBLE, s64, ACL_DOUBLE, {2, 3}, {2, 3}, 1, 0, true, "self"},
      {"sort s32 indices", Op::kSort, f32, s32, f32, {2, 3}, {2, 3}, 1, 0, true, "indicesOut"},
      {"sort float into int", Op::kSort, f32, s64, s32, {2, 3}, {2, 3}, 1, 0, true, "valuesOut"},
      {"sort bf16 dim of 1", Op::kSort, ACL_BF16, s64, ACL_BF16, {2, 1}, {2, 1}, 1, 0, true, "BFLOAT16"},
      {"sort dim", Op::kSort, f32, s64, f32, {2, 3}, {2, 3}, -3, 0, true, "dim"},
      {"topk bool self", Op::kTopk, ACL_BOOL, s64, ACL_BOOL, {2, 3}, {2, 2}, 1, 2, true, "self"},
      {"topk values dtype", Op::kTopk, f32, s64, ACL_DOUBLE, {2, 3}, {2, 2}, 1, 2, true, "valuesOut"},
      {"topk k above extent", Op::kTopk, f32, s64, f32, {2, 3}, {2, 4}, 1, 4, true, "'k'"},
      {"topk negative k", Op::kTopk, f32, s64, f32, {2, 3}, {2, 0}, 1, -1, true, "'k'"},
      {"topk out shape", Op::kTopk, f32, s64, f32, {2, 3}, {2, 3}, 1, 2, true, "valuesOut"},
      {"kthvalue k 0", Op::kKthvalue, f32, s64, f32, {2, 3}, {2}, 1, 0, true, "'k'"},
      {"kthvalue k above extent", Op::kKthvalue, f32, s64, f32, {2, 3}, {2}, 1, 4, true, "'k'"},
      {"kthvalue empty dim", Op::kKthvalue, f32, s64, f32, {2, 0}, {2}, 1, 1, true, "'k'"},
      {"kthvalue bool self", Op::kKthvalue, ACL_BOOL, s64, ACL_BOOL, {2, 3}, {2}, 1, 1, true, "self"},
      {"kthvalue values dtype", Op::kKthvalue, f32, s64, ACL_FLOAT16, {2, 3}, {2}, 1, 1, true, "valuesOut"},
      {"kthvalue s32 indices", Op::kKthvalue, f32, s32, f32, {2, 3}, {2}, 1, 1, true, "indicesOut"},
      {"kthvalue dim", Op::kKthvalue, f32, s64, f32, {2, 3}, {2}, 2, 1, true, "dim"},
      {"kthvalue out shape", Op::kKthvalue, f32, s64, f32, {2, 3}, {3}, 1, 1, true, "valuesOut"},
      {"mediandim f64 self", Op::kMedianDim, ACL_DOUBLE, s64, ACL_DOUBLE, {2, 3}, {2}, 1, 0, true, "self"},
      {"mediandim values dtype", Op::kMedianDim, s32, s64, ACL_INT64, {2, 3}, {2}, 1, 0, true, "valuesOut"},
      {"mediandim s32 indices", Op::kMedianDim, f32, s32, f32, {2, 3}, {2}, 1, 0, true, "indicesOut"},
      {"mediandim dim", Op::kMedianDim, f32, s64, f32, {2, 3}, {2}, -3, 0, true, "dim"},
      {"mediandim out shape", Op::kMedianDim, f32, s64, f32, {2, 3}, {2, 1}, 1, 0, true, "valuesOut"},
      {"mediandim bf16 dim of 1", Op::kMedianDim, ACL_BF16, s64, ACL_BF16, {2, 1}, {2}, 1, 0, true, "BFLOAT16"},
      {"nanmediandim bool self", Op::kNanMedianDim, ACL_BOOL, s64, ACL_BOOL, {2, 3}, {2}, 1, 0, true, "self"},
      {"nanmediandim empty dim", Op::kNanMedianDim, f32, s64, f32, {0, 3}, {3}, 0, 0, true, "extent 0"},
      {"nanmediandim bf16 dim of 1", Op::kNanMedianDim, ACL_BF16, s64, ACL_BF16, {1, 3}, {3}, 0, 0, true, "BFLOAT16"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor self(bad.self, bad.shape), indices(bad.indices, bad.outShape), values(bad.values, bad.outShape);
    DimCase c{bad.name, bad.op, bad.self, bad.indices, bad.shape, bad.dim};
    c.values = bad.values;
    c.k = bad.k;
    c.reverse = !bad.sorted;  // Topk's `sorted` is !reverse
    const OpRun run = RunDimOp(c, self, indices, &values);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
  // ArgMin of nothing along dim (CANN's constraint).
  DeviceTensor empty(ACL_FLOAT, {0, 3}), out(ACL_INT64, {3});
  const OpRun run = RunDimOp({"argmin empty", Op::kArgMin, ACL_FLOAT, ACL_INT64, {0, 3}, 0}, empty, out);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find("extent 0"), std::string::npos) << run.message;
}

// Cumsum in place (out is self): each sum uses self's values before the op.
TEST(Cumsum, InPlace) {
  Rng rng = Rng::ForCurrentTest();
  for (const int64_t dim : {0, 1}) {
    DeviceTensor self(ACL_FLOAT, {6, 7});
    const Values values = self.FillRandom(rng, Range{-3, 3});
    const DimCase c{"inplace", Op::kCumsum, ACL_FLOAT, ACL_FLOAT, {6, 7}, dim};
    ASSERT_TRUE(RunDimOp(c, self, self).ok());
    ExpectNear(self.ReadView(), Reference(c, values), "dim " + std::to_string(dim));
  }
}

TEST(DimOps, Rejections) {
  struct Bad {
    const char* name;
    Op op;
    aclDataType self, out;
    Shape shape, outShape;
    int64_t dim;
    const char* keyword;
  };
  const Bad cases[] = {
      {"argmax bool self", Op::kArgMax, ACL_BOOL, ACL_INT64, {2, 3}, {2}, 1, "self"},
      {"argmax f32 out", Op::kArgMax, ACL_FLOAT, ACL_FLOAT, {2, 3}, {2}, 1, "out"},
      {"argmax dim", Op::kArgMax, ACL_FLOAT, ACL_INT64, {2, 3}, {2}, 2, "dim"},
      {"argmax dim below", Op::kArgMax, ACL_FLOAT, ACL_INT64, {2, 3}, {2}, -3, "dim"},
      {"argmax rank0 dim 1", Op::kArgMax, ACL_FLOAT, ACL_INT64, {}, {}, 1, "dim"},
      {"argmax out shape", Op::kArgMax, ACL_FLOAT, ACL_INT64, {2, 3}, {3}, 1, "out"},
      {"cumsum bool self", Op::kCumsum, ACL_BOOL, ACL_FLOAT, {2, 3}, {2, 3}, 1, "self"},
      {"cumsum dim", Op::kCumsum, ACL_FLOAT, ACL_FLOAT, {2, 3}, {2, 3}, -3, "dim"},
      {"cumsum out shape", Op::kCumsum, ACL_FLOAT, ACL_FLOAT, {2, 3}, {3, 2}, 1, "out"},
      {"cumsum bool out", Op::kCumsum, ACL_FLOAT, ACL_BOOL, {2, 3}, {2, 3}, 1, "out"},
      {"cumsumv2 dtype differs", Op::kCumsumV2, ACL_FLOAT, ACL_DOUBLE, {2, 3}, {2, 3}, 1, "out"},
      {"argsort f64", Op::kArgsort, ACL_DOUBLE, ACL_INT64, {2, 3}, {2, 3}, 1, "self"},
      {"argsort s32 out", Op::kArgsort, ACL_FLOAT, ACL_INT32, {2, 3}, {2, 3}, 1, "out"},
      {"argsort dim", Op::kArgsort, ACL_FLOAT, ACL_INT64, {2, 3}, {2, 3}, 2, "dim"},
      {"argsort bf16 dim of 1", Op::kArgsort, ACL_BF16, ACL_INT64, {2, 1}, {2, 1}, 1, "BFLOAT16"},
      {"argsort out shape", Op::kArgsort, ACL_FLOAT, ACL_INT64, {2, 3}, {3, 2}, 1, "out"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor self(bad.self, bad.shape), out(bad.out, bad.outShape);
    const DimCase c{bad.name, bad.op, bad.self, bad.out, bad.shape, bad.dim};
    const OpRun run = RunDimOp(c, self, out);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
  // Cumsum's dtype argument must be out's.
  DeviceTensor self(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnCumsumGetWorkspaceSize(a.Tensor(self), 1, ACL_DOUBLE, a.Tensor(out), ws, e);
      },
      aclnnCumsum);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find("dtype"), std::string::npos) << run.message;
}

}  // namespace
}  // namespace canopy_test
