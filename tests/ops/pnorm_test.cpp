// aclnnNorm (the p-norm over dims, on the reduction engine) through the public
// C API against a float64 reference: p 0, 1, 2, 3, 0.5, +-inf, every dtype pair,
// inner / outer / middle / all dims, strided inputs, long rows and columns,
// empty inputs, NaN, ggml's l2_norm pattern, and the rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_norm.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct PNormCase {
  std::string name;
  aclDataType self, out;
  Shape shape;
  std::vector<int64_t> dims;
  bool keepdim = false;
  double p = 2;
  View view = View::kContiguous;
};

void PrintTo(const PNormCase& c, std::ostream* os) { *os << c.name; }

Shape OutShape(const Shape& shape, const std::vector<bool>& reduced, bool keepdim) {
  Shape out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) {
      out.push_back(shape[d]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

std::vector<bool> Reduced(const std::vector<int64_t>& dims, size_t rank) {
  std::vector<bool> reduced(rank, dims.empty());
  for (int64_t d : dims) reduced[static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(rank) : d)] = true;
  return reduced;
}

// The float64 p-norm of each output's group of elements.
Expected Reference(const Values& values, const Shape& shape, const std::vector<bool>& reduced, double p,
                   aclDataType out) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  Shape kept;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[static_cast<size_t>(d)]) kept.push_back(shape[static_cast<size_t>(d)]);
  }
  const size_t outputs = static_cast<size_t>(NumElements(kept));
  std::vector<double> acc(outputs, std::isinf(p) ? (p > 0 ? 0.0 : INFINITY) : 0.0);
  for (int64_t i = 0; i < NumElements(shape); ++i) {
    int64_t rest = i, o = 0, scale = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      const int64_t index = rest % shape[static_cast<size_t>(d)];
      rest /= shape[static_cast<size_t>(d)];
      if (!reduced[static_cast<size_t>(d)]) {
        o += index * scale;
        scale *= shape[static_cast<size_t>(d)];
      }
    }
    const double a = std::abs(values[static_cast<size_t>(i)].real());
    double& s = acc[static_cast<size_t>(o)];
    if (std::isnan(a)) {
      s = p == 0 ? s + 1 : a;
    } else if (std::isnan(s)) {
      continue;
    } else if (p == INFINITY) {
      s = std::max(s, a);
    } else if (p == -INFINITY) {
      s = std::min(s, a);
    } else if (p == 0) {
      s += a != 0 ? 1 : 0;
    } else {
      s += std::pow(a, p);
    }
  }
  Expected want;
  for (double s : acc) {
    const double v = std::isinf(p) || p == 0 || p == 1 ? s : std::pow(s, 1 / p);
    want.values.push_back(ConvertValue(v, out));
    want.tolerance.push_back(std::abs(v) * (2 * UnitRoundoff(out) + 0x1p-18));
  }
  return want;
}

OpRun RunNorm(const DeviceTensor& self, double p, const std::vector<int64_t>& dims, bool keepdim,
              const DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnNormGetWorkspaceSize(a.Tensor(self), a.Scalar(ACL_FLOAT, p), a.IntArray(dims), keepdim,
                                         a.Tensor(out), ws, e);
      },
      aclnnNorm);
}

class PNormTest : public ::testing::TestWithParam<PNormCase> {};

TEST_P(PNormTest, MatchesFloat64Reference) {
  const PNormCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(c.self, c.shape, c.view);
  const Values values = self.FillRandom(rng, Range{-2, 2, 0, 7});  // every 7th element 0 (p = 0 counts the rest)
  const std::vector<bool> reduced = Reduced(c.dims, c.shape.size());
  DeviceTensor out(c.out, OutShape(c.shape, reduced, c.keepdim));
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunNorm(self, c.p, c.dims, c.keepdim, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected want = Reference(values, c.shape, reduced, c.p, c.out);
  if (self.numel() == 0) want.values.assign(want.values.size(), 0.0);  // the norm of nothing is 0 (CANN fills out)
  ExpectNear(out.ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

std::vector<PNormCase> PNormCases() {
  std::vector<PNormCase> cases;
  const std::vector<std::pair<aclDataType, aclDataType>> pairs = {{ACL_FLOAT, ACL_FLOAT}, {ACL_FLOAT16, ACL_FLOAT16},
                                                                  {ACL_BF16, ACL_BF16},   {ACL_FLOAT16, ACL_FLOAT},
                                                                  {ACL_BF16, ACL_FLOAT},  {ACL_FLOAT, ACL_FLOAT16}};
  const std::vector<std::pair<std::string, double>> orders = {
      {"p0", 0}, {"p1", 1}, {"p2", 2}, {"p3", 3}, {"p0_5", 0.5}, {"inf", INFINITY}, {"ninf", -INFINITY}};
  for (const auto& [self, out] : pairs) {
    for (const auto& [pname, p] : orders) {
      const std::string n = std::string(Name(self)) + "_to_" + Name(out) + "_" + pname + "_";
      cases.push_back({n + "inner", self, out, {3, 4, 50}, {2}, false, p});
      cases.push_back({n + "outer_keepdim", self, out, {30, 4, 5}, {0}, true, p});
      cases.push_back({n + "middle_negative", self, out, {3, 40, 5}, {-2}, false, p});
      cases.push_back({n + "all", self, out, {6, 7}, {}, false, p});
      cases.push_back({n + "stepped", self, out, {4, 6, 10}, {0, 2}, false, p, View::kStepped});
      cases.push_back({n + "transposed", self, out, {9, 11}, {0}, true, p, View::kTransposed});
    }
  }
  for (const auto& [pname, p] : orders) {
    cases.push_back({"f32_long_row_" + pname, ACL_FLOAT, ACL_FLOAT, {3, 70000}, {1}, false, p});
    cases.push_back({"f32_long_column_" + pname, ACL_FLOAT, ACL_FLOAT, {5000, 5}, {0}, false, p});
    cases.push_back({"f32_empty_" + pname, ACL_FLOAT, ACL_FLOAT, {0, 5}, {0}, false, p});
  }
  // ggml's l2_norm: [ne3, ne2, ne1, ne0] over dim 3 with keepdim, p = 2, into f32.
  cases.push_back({"ggml_l2_f32", ACL_FLOAT, ACL_FLOAT, {2, 3, 4, 64}, {3}, true, 2});
  cases.push_back({"rank0", ACL_FLOAT, ACL_FLOAT, {}, {}, false, 2});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, PNormTest, ::testing::ValuesIn(PNormCases()),
                         [](const ::testing::TestParamInfo<PNormCase>& info) { return SanitizeName(info.param.name); });

// A NaN makes its norm NaN (p 0 counts it as non-zero).
TEST(Norm, NanPropagates) {
  for (const double p : {1.0, 2.0, 3.0, double{INFINITY}, -double{INFINITY}}) {
    DeviceTensor self(ACL_FLOAT, {4, 30});
    Values values(4 * 30, 1.5);
    values[2 * 30 + 7] = std::numeric_limits<double>::quiet_NaN();
    self.WriteView(values);
    DeviceTensor out(ACL_FLOAT, {4});
    ASSERT_TRUE(RunNorm(self, p, {1}, false, out).ok());
    const Values got = out.ReadView();
    EXPECT_TRUE(std::isnan(got[2].real())) << "p " << p;
    EXPECT_FALSE(std::isnan(got[1].real())) << "p " << p;
  }
}

TEST(Norm, Rejections) {
  struct Bad {
    const char* name;
    aclDataType self, out;
    Shape shape, outShape;
    std::vector<int64_t> dims;
    const char* keyword;
  };
  const Bad cases[] = {
      {"f64 self", ACL_DOUBLE, ACL_FLOAT, {2, 3}, {2}, {1}, "self"},
      {"s32 out", ACL_FLOAT, ACL_INT32, {2, 3}, {2}, {1}, "out"},
      {"dim past rank", ACL_FLOAT, ACL_FLOAT, {2, 3}, {2}, {2}, "dim"},
      {"duplicate dim", ACL_FLOAT, ACL_FLOAT, {2, 3}, {}, {1, -1}, "dim"},
      {"out shape", ACL_FLOAT, ACL_FLOAT, {2, 3}, {3}, {1}, "out"},
      {"empty self out shape", ACL_FLOAT, ACL_FLOAT, {0, 3}, {2}, {0}, "out"},
  };
  for (const Bad& bad : cases) {
    DeviceTensor self(bad.self, bad.shape), out(bad.out, bad.outShape);
    const OpRun run = RunNorm(self, 2, bad.dims, false, out);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
  }
}

}  // namespace
}  // namespace canopy_test
