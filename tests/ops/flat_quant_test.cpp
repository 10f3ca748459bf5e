// aclnnFlatQuant against a float64 reference: x'' = kroneckerP1 @ x[k] @ kroneckerP2 per matrix,
// quantScale[k] = max|x''[k]| * clipRatio / 7 and out = round(x'' / quantScale[k]) saturated to
// [-8, 7], as INT4 or as INT32 holding eight INT4; f16 and bf16, clip ratios, strided views of every
// operand, the doc's example and every rejection. The products round to x's dtype on the way (as
// CANN's kernel keeps them), so out may differ from the float64 value by one step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_flat_quant.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType x = ACL_FLOAT16, out = ACL_INT4;
  Shape shape = {3, 4, 16};
  double clip = 1.0;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

Shape OutShape(const Shape& x, aclDataType out) {
  Shape s = x;
  if (out == ACL_INT32) s.back() /= 8;
  return s;
}

// The INT4 values of out read through its view (INT32 words: eight nibbles each, low first).
std::vector<int> OutValues(const DeviceTensor& out, aclDataType dtype, int64_t count) {
  if (dtype == ACL_INT4) return QuantisedValues(out, dtype, count);
  std::vector<int> q;
  for (const Value& v : out.ReadView()) {
    const auto word = static_cast<uint32_t>(static_cast<int32_t>(v.real()));
    for (int n = 0; n < 8; ++n) {
      const int nibble = static_cast<int>((word >> (4 * n)) & 0xFU);
      q.push_back(nibble >= 8 ? nibble - 16 : nibble);
    }
  }
  return q;
}

OpRun RunFlatQuant(const DeviceTensor& x, const DeviceTensor& p1, const DeviceTensor& p2, double clip,
                   const DeviceTensor& out, const DeviceTensor& scale) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnFlatQuantGetWorkspaceSize(a.Tensor(x), a.Tensor(p1), a.Tensor(p2), clip, a.Tensor(out),
                                              a.Tensor(scale), w, e);
      },
      aclnnFlatQuant);
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t k = c.shape[0], n1 = c.shape[1], n2 = c.shape[2];
  DeviceTensor x(c.x, c.shape, c.view), p1(c.x, {n1, n1}, c.view), p2(c.x, {n2, n2}, c.view);
  const Values xv = x.FillRandom(rng, Range{-2, 2});
  const Values p1v = p1.FillRandom(rng, Range{-1, 1});
  const Values p2v = p2.FillRandom(rng, Range{-1, 1});
  const View out_view = c.out == ACL_INT4 ? View::kContiguous : c.view;
  DeviceTensor out(c.out, OutShape(c.shape, c.out), out_view), scale(ACL_FLOAT, {k}, c.view);
  out.Poison();
  scale.Poison();
  const OpRun run = RunFlatQuant(x, p1, p2, c.clip, out, scale);
  ASSERT_TRUE(run.ok()) << Describe(run);

  const std::vector<int> got = OutValues(out, c.out, NumElements(c.shape));
  Values want_scale;
  std::vector<double> want_scale_tolerance;
  int mismatches = 0;
  const auto at = [](const Values& v, int64_t i) { return v[static_cast<size_t>(i)].real(); };
  for (int64_t m = 0; m < k; ++m) {
    std::vector<double> right(static_cast<size_t>(n1 * n2), 0.0), both(static_cast<size_t>(n1 * n2), 0.0);
    for (int64_t i = 0; i < n1; ++i) {
      for (int64_t j = 0; j < n2; ++j) {
        double sum = 0;
        for (int64_t t = 0; t < n2; ++t) sum += at(xv, (m * n1 + i) * n2 + t) * at(p2v, t * n2 + j);
        right[static_cast<size_t>(i * n2 + j)] = sum;
      }
    }
    double max = 0;
    for (int64_t i = 0; i < n1; ++i) {
      for (int64_t j = 0; j < n2; ++j) {
        double sum = 0;
        for (int64_t t = 0; t < n1; ++t) sum += at(p1v, i * n1 + t) * right[static_cast<size_t>(t * n2 + j)];
        both[static_cast<size_t>(i * n2 + j)] = sum;
        max = std::max(max, std::abs(sum));
      }
    }
    want_scale.push_back(max * c.clip / 7);
    // Two products rounded to x's dtype: a few units of its roundoff, relative to the largest value.
    want_scale_tolerance.push_back(max * c.clip / 7 * 8 * UnitRoundoff(c.x));
    for (int64_t e = 0; e < n1 * n2; ++e) {
      const double exact = max > 0 ? both[static_cast<size_t>(e)] * 7 / (c.clip * max) : 0;
      const double want = std::clamp(std::nearbyint(exact), -8.0, 7.0);
      const int g = got[static_cast<size_t>(m * n1 * n2 + e)];
      if (std::abs(g - want) > 1 || (std::abs(g - exact) > 0.5 + 0.05 && std::abs(exact) < 7.5)) {
        if (++mismatches <= 5)
          ADD_FAILURE() << "out[" << m << "][" << e << "] = " << g << ", want " << want << " (" << exact << ")";
      }
    }
  }
  ExpectNear(scale.ReadView(), Expected{want_scale, want_scale_tolerance}, "quantScale");
}

Case MakeCase(aclDataType x, aclDataType out, Shape shape, double clip, View view, const std::string& name) {
  return Case{x,    out,  std::move(shape),
              clip, view, std::string(Name(x)) + (out == ACL_INT4 ? "_int4_" : "_int32_") + name};
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType x : {ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType out : {ACL_INT4, ACL_INT32}) {
      cases.push_back(MakeCase(x, out, {3, 4, 16}, 1.0, View::kContiguous, "typical"));
      cases.push_back(MakeCase(x, out, {2, 5, 24}, 0.5, View::kContiguous, "clip_half"));
      cases.push_back(MakeCase(x, out, {4, 3, 8}, 0.8, View::kTransposed, "transposed_views"));
      cases.push_back(MakeCase(x, out, {1, 6, 32}, 1.0, View::kStepped, "stepped_views"));
    }
  }
  return cases;
}

class FlatQuantTest : public ::testing::TestWithParam<Case> {};

TEST_P(FlatQuantTest, MatchesReference) { RunCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(All, FlatQuantTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example: every operand all ones (f16 [16, 16, 16], [16, 16], [16, 16]), clipRatio 1, INT32
// out: x'' is 256 everywhere, so quantScale is 256 / 7 and every INT4 is 7 (0x77777777 a word).
TEST(FlatQuant, DocExample) {
  DeviceTensor x(ACL_FLOAT16, {16, 16, 16}), p1(ACL_FLOAT16, {16, 16}), p2(ACL_FLOAT16, {16, 16});
  DeviceTensor out(ACL_INT32, {16, 16, 2}), scale(ACL_FLOAT, {16});
  x.WriteView(Values(16 * 16 * 16, 1.0));
  p1.WriteView(Values(16 * 16, 1.0));
  p2.WriteView(Values(16 * 16, 1.0));
  const OpRun run = RunFlatQuant(x, p1, p2, 1.0, out, scale);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), Values(16 * 16 * 2, static_cast<double>(0x77777777)), "out");
  ExpectNear(scale.ReadView(), RelativeTolerance(Values(16, 256.0 / 7), ACL_FLOAT, 2), "quantScale");
}

struct Call {
  aclDataType x = ACL_FLOAT16, p1 = ACL_FLOAT16, p2 = ACL_FLOAT16, out = ACL_INT4, scale = ACL_FLOAT;
  Shape x_shape = {2, 4, 16}, p1_shape = {4, 4}, p2_shape = {16, 16}, out_shape = {2, 4, 16}, scale_shape = {2};
  double clip = 1.0;
  bool p2_null = false;
  View out_view = View::kContiguous;
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnFlatQuantGetWorkspaceSize(a.NewTensor(c.x, c.x_shape), a.NewTensor(c.p1, c.p1_shape),
                                              c.p2_null ? nullptr : a.NewTensor(c.p2, c.p2_shape), c.clip,
                                              a.NewTensor(c.out, c.out_shape, c.out_view),
                                              a.NewTensor(c.scale, c.scale_shape), w, e);
      },
      aclnnFlatQuant);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

TEST(FlatQuantRejects, EachCase) {
  EXPECT_TRUE(RunCall(Call{}).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.out = ACL_INT32;
                c.out_shape = {2, 4, 2};
              })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p2_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'kroneckerP2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x = c.p1 = c.p2 = ACL_FLOAT; })), kInvalid, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p1 = ACL_BF16; })), kInvalid, {"'kroneckerP1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p2 = ACL_BF16; })), kInvalid, {"'kroneckerP2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = ACL_INT8; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = ACL_FLOAT4_E2M1; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale = ACL_FLOAT16; })), kInvalid, {"'quantScale'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {2, 1}; })), kInvalid, {"'quantScale'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p2_shape = {256}; })), kInvalid, {"'kroneckerP2'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p1_shape = {1, 4, 4}; })), kInvalid, {"'kroneckerP1'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = {8, 16};
                       c.out_shape = {8, 16};
                     })),
                     kInvalid, {"'x'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out_shape = {2, 64}; })), kInvalid, {"'out'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.out_shape = {0, 4, 16};
                       c.scale_shape = {0};
                     })),
                     kInvalid, {"'x'", "extents"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.out_shape = {2, 4, 258};
                       c.p2_shape = {258, 258};
                     })),
                     kInvalid, {"'x'", "extents"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x_shape = c.out_shape = {2, 4, 15};
                       c.p2_shape = {15, 15};
                     })),
                     kInvalid, {"multiple of 2"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.out = ACL_INT32;
                       c.x_shape = {2, 4, 12};
                       c.p2_shape = {12, 12};
                       c.out_shape = {2, 4, 1};
                     })),
                     kInvalid, {"multiple of 8"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p1_shape = {4, 5}; })), kInvalid, {"'kroneckerP1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.p2_shape = {8, 8}; })), kInvalid, {"'kroneckerP2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.scale_shape = {3}; })), kInvalid, {"'quantScale'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out_shape = {2, 4, 8}; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out = ACL_INT32; })), kInvalid, {"'out'"});  // needs [2, 4, 2]
  ExpectRejectedWith(RunCall(With([](Call& c) { c.clip = 0; })), kInvalid, {"'clipRatio'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.clip = 1.5; })), kInvalid, {"'clipRatio'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.out_view = View::kTransposed; })), kInvalid, {"contiguous"});
}

}  // namespace
}  // namespace canopy_test
