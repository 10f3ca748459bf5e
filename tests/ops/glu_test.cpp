// aclnnSwiGlu, aclnnGeGlu, aclnnGeGluV3 against a float64 reference: every
// dtype, the split dim first, middle and last, strided input and output views,
// ggml's exact calls, empty tensors and each rejection with its status.
#include <gtest/gtest.h>

#include <cmath>

#include "../../src/kernels/unary_accuracy.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

enum class Act { kSwish, kGeluErf, kGeluTanh };

double Activate(Act act, double a) {
  switch (act) {
    case Act::kSwish:
      return a / (1.0 + std::exp(-a));
    case Act::kGeluErf:
      return 0.5 * a * (1.0 + std::erf(a / std::sqrt(2.0)));
    case Act::kGeluTanh:
      return 0.5 * a * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (a + 0.044715 * a * a * a)));
  }
  return 0;
}

// The activation's error as the unary engine's vector kernels declare it
// (unary_accuracy.h): ulps of f32 roundoff relative to |act(a)| + |a act'(a)|.
double GateBound(Act act, double a) {
  namespace accuracy = canopy::kernels::unary_accuracy;
  const double ulps = act == Act::kSwish     ? accuracy::kSwish
                      : act == Act::kGeluErf ? accuracy::kGeluErf
                                             : accuracy::kGeluTanh;
  constexpr double kStep = 0x1p-20;
  const double f = Activate(act, a);
  const double sensitivity = std::abs(Activate(act, a * (1 + kStep)) - f) / kStep;
  return ulps * 0x1p-24 * (std::abs(f) + sensitivity);
}

// Values and error bounds of an output: 4 units of roundoff of the dtype
// relative to the value, plus what the activation's own error carries into it.
struct GluExpected {
  Values values;
  std::vector<double> carried;
  Expected For(aclDataType dtype) const {
    Expected e = RelativeTolerance(values, dtype, 4);
    for (size_t i = 0; i < carried.size(); ++i) e.tolerance[i] += carried[i];
    return e;
  }
};

// out = act(A) * B (act_first) or A * act(B), A and B the halves of x along dim.
void ReferenceGlu(const Values& x, const Shape& shape, int64_t dim, Act act, bool act_first, GluExpected& out,
                  GluExpected& activated) {
  Shape half = shape;
  half[static_cast<size_t>(dim)] /= 2;
  const int64_t n = NumElements(half);
  for (GluExpected* e : {&out, &activated}) {
    e->values.assign(static_cast<size_t>(n), 0.0);
    e->carried.assign(static_cast<size_t>(n), 0.0);
  }
  for (int64_t i = 0; i < n; ++i) {
    Shape index = Unravel(i, half);
    const double a = x[static_cast<size_t>(Ravel(index, shape))].real();
    index[static_cast<size_t>(dim)] += half[static_cast<size_t>(dim)];
    const double b = x[static_cast<size_t>(Ravel(index, shape))].real();
    const double gate = Activate(act, act_first ? a : b);
    const double gate_bound = GateBound(act, act_first ? a : b);
    const double other = act_first ? b : a;
    const auto at = static_cast<size_t>(i);
    activated.values[at] = gate;
    activated.carried[at] = gate_bound;
    out.values[at] = gate * other;
    out.carried[at] = gate_bound * std::abs(other);
  }
}

Shape Halved(Shape shape, int64_t dim) {
  shape[static_cast<size_t>(dim)] /= 2;
  return shape;
}

struct GluCase {
  aclDataType dtype;
  Shape shape;
  int64_t dim;  // as passed (may be negative)
  View in_view = View::kContiguous;
  View out_view = View::kContiguous;
};

std::string CaseName(const GluCase& c) {
  return std::string(Name(c.dtype)) + "_" + ShapeString(c.shape) + "_dim" + std::to_string(c.dim) + "_" +
         ViewName(c.in_view) + "_" + ViewName(c.out_view);
}

void PrintTo(const GluCase& c, std::ostream* os) { *os << CaseName(c); }

std::vector<GluCase> Cases() {
  std::vector<GluCase> cases;
  for (aclDataType dtype : HalfAndSingle()) {
    cases.push_back({dtype, {3, 5, 2 * 70}, 2});    // ggml's SwiGlu view: [ne2*ne3, ne1, 2*ne0], dim 2
    cases.push_back({dtype, {2, 3, 4, 2 * 9}, 3});  // ggml's GeGlu: 4-D, dim 3
    cases.push_back({dtype, {6, 4, 3}, 0});         // the outermost dim
    cases.push_back({dtype, {2, 8, 5}, -2});        // a middle dim, negative
    cases.push_back({dtype, {4, 6}, -1, View::kTransposed, View::kStepped});  // strided input and output
    cases.push_back({dtype, {2, 4096 + 6}, 1});                               // halves longer than the kernel's run
  }
  return cases;
}

int64_t Wrap(int64_t dim, size_t rank) { return dim < 0 ? dim + static_cast<int64_t>(rank) : dim; }

class SwiGluTest : public ::testing::TestWithParam<GluCase> {};

TEST_P(SwiGluTest, MatchesReference) {
  const GluCase& c = GetParam();
  const int64_t dim = Wrap(c.dim, c.shape.size());
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(c.dtype, c.shape, c.in_view);
  const Values xv = x.FillRandom(rng, Range{-4, 4});
  DeviceTensor out(c.dtype, Halved(c.shape, dim), c.out_view);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run =
      RunOp([&](OpArgs& a, uint64_t* w,
                aclOpExecutor** e) { return aclnnSwiGluGetWorkspaceSize(a.Tensor(x), c.dim, a.Tensor(out), w, e); },
            aclnnSwiGlu);
  ASSERT_TRUE(run.ok()) << Describe(run);
  GluExpected want, activated;
  ReferenceGlu(xv, c.shape, dim, Act::kSwish, true, want, activated);
  ExpectNear(out.ReadView(), want.For(c.dtype), "out");
  ExpectOutsideViewUnchanged(out, before, "out");
}

INSTANTIATE_TEST_SUITE_P(Glu, SwiGluTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<GluCase>& info) {
                           return SanitizeName(CaseName(info.param));
                         });

struct GeGluCase {
  GluCase base;
  int64_t approximate;
  bool activate_left;
  bool v3;  // GeGluV3 (else GeGlu, which activates the right half)
};

void PrintTo(const GeGluCase& g, std::ostream* os) {
  *os << CaseName(g.base) << (g.v3 ? " V3" : " V1") << " approximate " << g.approximate
      << (g.activate_left ? " left" : " right");
}

std::vector<GeGluCase> GeGluCases() {
  std::vector<GeGluCase> cases;
  for (const GluCase& c : Cases()) {
    for (int64_t approximate : {0, 1}) {
      cases.push_back({c, approximate, true, true});
      cases.push_back({c, approximate, false, true});
      cases.push_back({c, approximate, false, false});
    }
  }
  return cases;
}

class GeGluTest : public ::testing::TestWithParam<GeGluCase> {};

TEST_P(GeGluTest, MatchesReference) {
  const GeGluCase& g = GetParam();
  const GluCase& c = g.base;
  const int64_t dim = Wrap(c.dim, c.shape.size());
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(c.dtype, c.shape, c.in_view);
  const Values xv = x.FillRandom(rng, Range{-4, 4});
  DeviceTensor out(c.dtype, Halved(c.shape, dim), c.out_view);
  DeviceTensor gelu(c.dtype, Halved(c.shape, dim));
  out.Poison();
  gelu.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        if (!g.v3)
          return aclnnGeGluGetWorkspaceSize(a.Tensor(x), c.dim, g.approximate, a.Tensor(out), a.Tensor(gelu), w, e);
        return aclnnGeGluV3GetWorkspaceSize(a.Tensor(x), c.dim, g.approximate, g.activate_left, a.Tensor(out),
                                            a.Tensor(gelu), w, e);
      },
      g.v3 ? aclnnGeGluV3 : aclnnGeGlu);
  ASSERT_TRUE(run.ok()) << Describe(run);
  GluExpected want, activated;
  ReferenceGlu(xv, c.shape, dim, g.approximate == 0 ? Act::kGeluErf : Act::kGeluTanh, g.activate_left, want, activated);
  ExpectNear(out.ReadView(), want.For(c.dtype), "out");
  ExpectNear(gelu.ReadView(), activated.For(c.dtype), "outGelu");
}

INSTANTIATE_TEST_SUITE_P(Glu, GeGluTest, ::testing::ValuesIn(GeGluCases()),
                         [](const ::testing::TestParamInfo<GeGluCase>& info) {
                           return SanitizeName(CaseName(info.param.base) + (info.param.v3 ? "_v3" : "_v1") + "_approx" +
                                               std::to_string(info.param.approximate) +
                                               (info.param.activate_left ? "_left" : "_right"));
                         });

// tanh and erf GELU differ by up to ~1e-3 near |a| = 2: approximate must pick the one CANN documents
// (0 erf, 1 tanh), not the other.
TEST(GluApproximate, ZeroIsErfAndOneIsTanh) {
  DeviceTensor x(ACL_FLOAT, {1, 2});
  x.WriteView({2.0, 1.0});
  for (int64_t approximate : {0, 1}) {
    DeviceTensor out(ACL_FLOAT, {1, 1});
    DeviceTensor gelu(ACL_FLOAT, {1, 1});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnGeGluV3GetWorkspaceSize(a.Tensor(x), -1, approximate, true, a.Tensor(out), a.Tensor(gelu), w, e);
        },
        aclnnGeGluV3);
    ASSERT_TRUE(run.ok()) << Describe(run);
    const double want = Activate(approximate == 0 ? Act::kGeluErf : Act::kGeluTanh, 2.0);
    EXPECT_NEAR(gelu.ReadView()[0].real(), want, 1e-6) << "approximate " << approximate;
  }
}

TEST(GluEmpty, EmptyInputWritesNothing) {
  DeviceTensor x(ACL_FLOAT16, {0, 8});
  DeviceTensor out(ACL_FLOAT16, {0, 4});
  const OpRun run =
      RunOp([&](OpArgs& a, uint64_t* w,
                aclOpExecutor** e) { return aclnnSwiGluGetWorkspaceSize(a.Tensor(x), -1, a.Tensor(out), w, e); },
            aclnnSwiGlu);
  EXPECT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0u);
}

// ---- rejections ---------------------------------------------------------------------------------

OpRun SwiGlu(aclDataType dtype, const Shape& x_shape, int64_t dim, aclDataType out_dtype, const Shape& out_shape) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSwiGluGetWorkspaceSize(a.NewTensor(dtype, x_shape), dim, a.NewTensor(out_dtype, out_shape), w, e);
      },
      aclnnSwiGlu);
}

OpRun GeGluV3(aclDataType dtype, const Shape& x_shape, int64_t dim, int64_t approximate, aclDataType out_dtype,
              const Shape& out_shape, const Shape& gelu_shape) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGeGluV3GetWorkspaceSize(a.NewTensor(dtype, x_shape), dim, approximate, true,
                                            a.NewTensor(out_dtype, out_shape), a.NewTensor(dtype, gelu_shape), w, e);
      },
      aclnnGeGluV3);
}

TEST(GluRejects, SwiGluArguments) {
  ExpectRejectedWith(SwiGlu(ACL_INT32, {2, 4}, -1, ACL_INT32, {2, 2}), ACLNN_ERR_PARAM_INVALID, {"aclnnSwiGlu", "'x'"});
  ExpectRejectedWith(SwiGlu(ACL_DOUBLE, {2, 4}, -1, ACL_DOUBLE, {2, 2}), ACLNN_ERR_PARAM_INVALID, {"'x'"});
  ExpectRejectedWith(SwiGlu(ACL_FLOAT, {2, 4}, -1, ACL_FLOAT16, {2, 2}), ACLNN_ERR_PARAM_INVALID, {"'out'", "match"});
  ExpectRejectedWith(SwiGlu(ACL_FLOAT, {2, 4}, 2, ACL_FLOAT, {2, 2}), ACLNN_ERR_PARAM_INVALID, {"'dim'"});
  ExpectRejectedWith(SwiGlu(ACL_FLOAT, {2, 4}, -3, ACL_FLOAT, {2, 2}), ACLNN_ERR_PARAM_INVALID, {"'dim'"});
  ExpectRejectedWith(SwiGlu(ACL_FLOAT, {2, 5}, -1, ACL_FLOAT, {2, 2}), ACLNN_ERR_PARAM_INVALID, {"not even"});
  ExpectRejectedWith(SwiGlu(ACL_FLOAT, {2, 4}, -1, ACL_FLOAT, {2, 4}), ACLNN_ERR_PARAM_INVALID, {"'out'"});
  ExpectRejectedWith(SwiGlu(ACL_FLOAT, {}, 0, ACL_FLOAT, {}), ACLNN_ERR_PARAM_INVALID, {"rank 0"});
  const OpRun null = RunOp(
      [](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSwiGluGetWorkspaceSize(nullptr, -1, a.NewTensor(ACL_FLOAT, {2, 2}), w, e);
      },
      aclnnSwiGlu);
  ExpectRejectedWith(null, ACLNN_ERR_PARAM_NULLPTR, {"'x'"});
}

TEST(GluRejects, GeGluArguments) {
  ExpectRejectedWith(GeGluV3(ACL_FLOAT, {2, 4}, -1, 2, ACL_FLOAT, {2, 2}, {2, 2}), ACLNN_ERR_PARAM_INVALID,
                     {"aclnnGeGluV3", "'approximate'"});
  ExpectRejectedWith(GeGluV3(ACL_FLOAT, {2, 4}, -1, -1, ACL_FLOAT, {2, 2}, {2, 2}), ACLNN_ERR_PARAM_INVALID,
                     {"'approximate'"});
  ExpectRejectedWith(GeGluV3(ACL_FLOAT, {2, 4}, -1, 0, ACL_BF16, {2, 2}, {2, 2}), ACLNN_ERR_PARAM_INVALID,
                     {"'out'", "match"});
  ExpectRejectedWith(GeGluV3(ACL_FLOAT, {2, 4}, -1, 0, ACL_FLOAT, {2, 2}, {2, 4}), ACLNN_ERR_PARAM_INVALID,
                     {"'outGelu'"});
  ExpectRejectedWith(GeGluV3(ACL_FLOAT, {2, 3}, -1, 0, ACL_FLOAT, {2, 1}, {2, 1}), ACLNN_ERR_PARAM_INVALID,
                     {"not even"});
  ExpectRejectedWith(GeGluV3(ACL_FLOAT, {2, 4}, 5, 0, ACL_FLOAT, {2, 2}, {2, 2}), ACLNN_ERR_PARAM_INVALID, {"'dim'"});
  ExpectRejectedWith(GeGluV3(ACL_INT8, {2, 4}, -1, 0, ACL_INT8, {2, 2}, {2, 2}), ACLNN_ERR_PARAM_INVALID, {"'self'"});
  const OpRun null = RunOp(
      [](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGeGluGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {2, 4}), -1, 0, a.NewTensor(ACL_FLOAT, {2, 2}),
                                          nullptr, w, e);
      },
      aclnnGeGlu);
  ExpectRejectedWith(null, ACLNN_ERR_PARAM_NULLPTR, {"'outGelu'"});
}

}  // namespace
}  // namespace canopy_test
