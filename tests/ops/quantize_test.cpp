// aclnnQuantize against a float64 reference: out = clamp(round-half-even(x /
// scales + zeroPoints)) per tensor or per index of x's dim `axis`; every x,
// scales, zeroPoints and out dtype A2 takes, negative scales, saturation,
// strided views, rank 0, empty tensors, the doc's example and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aclnnop/aclnn_quantize.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType x = ACL_FLOAT, scales = ACL_FLOAT, zero = ACL_INT32, out = ACL_INT8;
  Shape shape = {6, 16};
  int32_t axis = 1;
  bool per_tensor = false, has_zero = true, negative_scales = false;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::pair<double, double> OutRange(aclDataType dtype) {
  if (dtype == ACL_UINT8) return {0, 255};
  if (dtype == ACL_INT32) return {-2147483648.0, 2147483647.0};
  return {-128, 127};
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(c.x, c.shape, c.view);
  const Values xv = x.FillRandom(rng, Range{-60, 60});
  const auto rank = static_cast<int64_t>(c.shape.size());
  const int64_t dim = c.axis < 0 ? c.axis + rank : c.axis;
  const int64_t count = c.per_tensor ? 1 : c.shape[static_cast<size_t>(dim)];
  DeviceTensor scales(c.scales, {count}), zero(c.zero, {count});
  const Values sv = scales.FillRandom(rng, c.negative_scales ? Range{-2, -0.25} : Range{0.25, 2});
  const Values zv = zero.FillRandom(rng, c.zero == ACL_UINT8 ? Range{0, 20} : Range{-20, 20});
  DeviceTensor out(c.out, c.shape, c.view);
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnQuantizeGetWorkspaceSize(a.Tensor(x), a.Tensor(scales), c.has_zero ? a.Tensor(zero) : nullptr,
                                             c.out, c.axis, a.Tensor(out), w, e);
      },
      aclnnQuantize);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values got = out.ReadView();
  const auto [lo, hi] = OutRange(c.out);
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < rank; ++d) inner *= c.shape[static_cast<size_t>(d)];
  int mismatches = 0;
  for (size_t e = 0; e < xv.size(); ++e) {
    const size_t p = c.per_tensor ? 0 : static_cast<size_t>(static_cast<int64_t>(e) / inner % count);
    const double exact = xv[e].real() / sv[p].real() + (c.has_zero ? zv[p].real() : 0.0);
    const double want = std::clamp(std::nearbyint(exact), lo, hi);
    // Within f32 rounding of a half-way point either neighbour is right.
    const bool near_half = std::abs(std::abs(exact - std::trunc(exact)) - 0.5) < 1e-4;
    const double g = got[e].real();
    if (g != want && !(near_half && std::abs(g - want) <= 1)) {
      if (++mismatches <= 5) ADD_FAILURE() << "out[" << e << "] = " << g << ", want " << want << " (" << exact << ")";
    }
  }
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType x : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType out : {ACL_INT8, ACL_UINT8, ACL_INT32}) {
      Case c;
      c.x = x;
      c.scales = x == ACL_FLOAT16 ? ACL_FLOAT : x;  // f16 x with f32 scales too
      c.zero = x == ACL_BF16 ? ACL_BF16 : ACL_INT32;
      c.out = out;
      c.name = std::string(Name(x)) + "_to_" + Name(out);
      cases.push_back(c);
    }
  }
  for (aclDataType zero : {ACL_INT8, ACL_UINT8}) {
    Case c;
    c.zero = zero;
    c.scales = ACL_FLOAT16;
    c.name = std::string("zero_points_") + Name(zero) + "_f16_scales";
    cases.push_back(c);
  }
  Case per_tensor;
  per_tensor.per_tensor = true;
  per_tensor.axis = 7;  // unused for one scale
  per_tensor.out = ACL_UINT8;
  per_tensor.name = "per_tensor_axis_unused";
  cases.push_back(per_tensor);
  Case no_zero;
  no_zero.has_zero = false;
  no_zero.negative_scales = true;
  no_zero.shape = {3, 5, 8};
  no_zero.axis = -2;
  no_zero.name = "no_zero_points_negative_scales_axis_minus2";
  cases.push_back(no_zero);
  Case axis0;
  axis0.shape = {4, 3, 10};
  axis0.axis = 0;
  axis0.view = View::kStepped;
  axis0.x = axis0.scales = axis0.zero = ACL_BF16;
  axis0.name = "axis0_bf16_stepped_views";
  cases.push_back(axis0);
  Case transposed;
  transposed.view = View::kTransposed;
  transposed.x = ACL_FLOAT16;
  transposed.axis = 0;
  transposed.name = "axis0_f16_transposed_views";
  cases.push_back(transposed);
  Case rank0;
  rank0.shape = {};
  rank0.per_tensor = true;
  rank0.axis = 0;
  rank0.name = "rank0";
  cases.push_back(rank0);
  return cases;
}

class QuantizeTest : public ::testing::TestWithParam<Case> {};
TEST_P(QuantizeTest, MatchesReference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(All, QuantizeTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example: x f32 [4, 2], scales [1, -3], zeroPoints INT32 [2, 10], INT32 out along axis 1.
TEST(Quantize, DocExampleAndEmpty) {
  DeviceTensor x(ACL_FLOAT, {4, 2}), scales(ACL_FLOAT, {2}), zero(ACL_INT32, {2}), out(ACL_INT32, {4, 2});
  x.WriteView({0.3382, -0.0919, 0.7564, 0.0234, 3.1024, 1.0761, 0.4228, 1.4621});
  scales.WriteView({1, -3});
  zero.WriteView({2, 10});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnQuantizeGetWorkspaceSize(a.Tensor(x), a.Tensor(scales), a.Tensor(zero), ACL_INT32, 1, a.Tensor(out),
                                             w, e);
      },
      aclnnQuantize);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(out.ReadView(), Expected{{2, 10, 3, 10, 5, 10, 2, 10}, std::vector<double>(8, 0.0)}, "out");
  DeviceTensor ex(ACL_FLOAT16, {0, 4}), es(ACL_FLOAT, {4}), eout(ACL_INT8, {0, 4});
  const OpRun empty = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnQuantizeGetWorkspaceSize(a.Tensor(ex), a.Tensor(es), nullptr, ACL_INT8, -1, a.Tensor(eout), w, e);
      },
      aclnnQuantize);
  EXPECT_TRUE(empty.ok()) << Describe(empty);
  EXPECT_EQ(empty.workspaceSize, 0U);
}

struct Call {
  aclDataType x = ACL_FLOAT16, scales = ACL_FLOAT16, zero = ACL_INT32, out = ACL_INT8, dtype = ACL_INT8;
  Shape x_shape = {4, 16}, scales_shape = {16}, zero_shape = {16}, out_shape = {4, 16};
  int32_t axis = -1;
  bool has_zero = true, x_null = false;
};

// The call of Call{} after `edit`.
template <typename Edit>
OpRun RunCall(Edit edit) {
  Call c;
  edit(c);
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnQuantizeGetWorkspaceSize(c.x_null ? nullptr : a.NewTensor(c.x, c.x_shape),
                                             a.NewTensor(c.scales, c.scales_shape),
                                             c.has_zero ? a.NewTensor(c.zero, c.zero_shape) : nullptr, c.dtype, c.axis,
                                             a.NewTensor(c.out, c.out_shape), w, e);
      },
      aclnnQuantize);
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

TEST(QuantizeRejects, EachCase) {
  EXPECT_TRUE(RunCall([](Call&) {}).ok());
  EXPECT_TRUE(RunCall(([](Call& c) { c.has_zero = false; })).ok());
  ExpectRejectedWith(RunCall(([](Call& c) { c.x_null = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'x'"});
  // Shapes (checked first).
  ExpectRejectedWith(RunCall(([](Call& c) { c.out_shape = {4, 8}; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunCall(([](Call& c) {
                       c.scales_shape = c.zero_shape = {1, 16};
                     })),
                     kInvalid, {"'scales'", "rank"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.zero_shape = {1, 16}; })), kInvalid, {"'zeroPoints'", "rank"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.zero_shape = {1}; })), kInvalid, {"'zeroPoints'"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.axis = 2; })), kInvalid, {"'axis'"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.axis = -3; })), kInvalid, {"'axis'"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.axis = 0; })), kInvalid, {"'scales'"});  // 16 values along 4
  EXPECT_TRUE(RunCall(([](Call& c) {
                c.scales_shape = c.zero_shape = {1};
                c.axis = 9;
              })).ok());
  // Dtypes.
  ExpectRejectedWith(RunCall(([](Call& c) { c.x = ACL_INT8; })), kInvalid, {"'x'"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.scales = ACL_DOUBLE; })), kInvalid, {"'scales'"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.zero = ACL_FLOAT; })), kInvalid, {"'zeroPoints'"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.dtype = c.out = ACL_FLOAT8_E4M3FN; })), kInvalid, {"'dtype'"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.out = ACL_INT16; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.out = ACL_UINT8; })), kInvalid, {"'out'", "dtype"});
  ExpectRejectedWith(RunCall(([](Call& c) { c.zero = ACL_BF16; })), kInvalid, {"'x'", "BFLOAT16"});
  ExpectRejectedWith(RunCall(([](Call& c) {
                       c.x = ACL_BF16;
                       c.zero = ACL_BF16;
                     })),
                     kInvalid, {"'scales'", "BFLOAT16"});
  ExpectRejectedWith(RunCall(([](Call& c) {
                       c.scales = ACL_BF16;
                       c.has_zero = false;
                     })),
                     kInvalid, {"'x'", "BFLOAT16"});
  EXPECT_TRUE(RunCall(([](Call& c) { c.x = c.scales = c.zero = ACL_BF16; })).ok());
}

}  // namespace
}  // namespace canopy_test
