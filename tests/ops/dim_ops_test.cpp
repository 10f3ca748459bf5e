// ArgMax, Cumsum / CumsumV2 and Argsort (ops along one dim) through the public C
// API against a float64 reference: every documented dtype, inner / outer /
// middle and negative dims, keepdim, strided and transposed views, rank 0,
// empty tensors, lines long and many enough to tile, ties (first index,
// stable order), NaN, integer wrap-around, ggml's call patterns, and the
// rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_cumsum.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

enum class Op { kArgMax, kCumsum, kCumsumV2, kArgsort };

struct DimCase {
  std::string name;
  Op op;
  aclDataType self, out;
  Shape shape;
  int64_t dim = 0;
  bool flag = false;  // ArgMax keepdim, Argsort descending, CumsumV2 exclusive
  bool reverse = false;
  View view = View::kContiguous;
  View outView = View::kContiguous;
  Range range = Range{-3, 3};
};

void PrintTo(const DimCase& c, std::ostream* os) { *os << c.name; }

int64_t Wrap(int64_t dim, size_t rank) { return dim < 0 ? dim + static_cast<int64_t>(std::max<size_t>(rank, 1)) : dim; }

Shape OutShape(const DimCase& c) {
  if (c.op != Op::kArgMax || c.shape.empty()) return c.shape;
  Shape out = c.shape;
  const auto d = static_cast<size_t>(Wrap(c.dim, c.shape.size()));
  if (c.flag) {
    out[d] = 1;
  } else {
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(d));
  }
  return out;
}

// NaN ranks above every number, as in PyTorch's max and sort.
bool Above(double v, double b) { return (std::isnan(v) && !std::isnan(b)) || v > b; }

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

Expected Reference(const DimCase& c, const Values& values) {
  const int64_t dim = Wrap(c.dim, c.shape.size());
  Expected want;
  if (c.op == Op::kArgMax) {
    ForLines(c.shape, dim, [&](const std::vector<int64_t>& line) {
      size_t best = 0;
      for (size_t k = 1; k < line.size(); ++k) {
        if (Above(values[static_cast<size_t>(line[k])].real(), values[static_cast<size_t>(line[best])].real()))
          best = k;
      }
      want.values.push_back(static_cast<double>(best));
    });
    // Lines come out grouped by (outer, inner): the row-major order of out.
    want.tolerance.assign(want.values.size(), 0);
    return want;
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

OpRun RunDimOp(const DimCase& c, const DeviceTensor& self, const DeviceTensor& out) {
  switch (c.op) {
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
  const OpRun run = RunDimOp(c, self, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  if (self.numel() == 0) {
    ExpectOutsideViewUnchanged(out, before, "out storage");
    return;
  }
  ExpectNear(out.ReadView(), Reference(c, values), c.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
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
