// aclnnMoeFinalizeRouting and aclnnMoeFinalizeRoutingV2 (drop-less) against a
// float64 reference: out = x1 + x2 + sum_k scales * (expandedX[rowIdx[i + k * rows]]
// + bias[expertIdx]), every float dtype, optional terms, strided views, empty
// rows, index values out of range (507015 on the stream), and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_moe_finalize_routing.h"
#include "aclnnop/aclnn_moe_finalize_routing_v2.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  bool v2 = false;
  aclDataType dtype = ACL_FLOAT;
  int64_t rows = 5, k = 2, h = 24, experts = 4;
  bool x1 = true, x2 = true, bias = true, scales = true;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

struct Inputs {
  std::unique_ptr<DeviceTensor> expanded, row_index, x1, x2, bias, scales, expert_index, out;
  Values ev, x1v, x2v, bv, sv;
  std::vector<int> rows, experts;
};

Inputs Make(const Case& c, Rng& rng) {
  Inputs in;
  const int64_t slots = c.rows * c.k;
  in.expanded = std::make_unique<DeviceTensor>(c.dtype, Shape{slots, c.h}, c.view);
  in.ev = in.expanded->FillRandom(rng, Range{-2, 2});
  // A permutation of the expanded rows, as MoeInitRouting produces.
  std::vector<int> perm(static_cast<size_t>(slots));
  std::iota(perm.begin(), perm.end(), 0);
  for (size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[static_cast<size_t>(rng.Uniform(0, i))]);
  in.rows = perm;
  in.row_index = std::make_unique<DeviceTensor>(ACL_INT32, Shape{slots});
  in.row_index->WriteView(Values(perm.begin(), perm.end()));
  if (c.x1) {
    in.x1 = std::make_unique<DeviceTensor>(c.dtype, Shape{c.rows, c.h}, c.view);
    in.x1v = in.x1->FillRandom(rng, Range{-1, 1});
  }
  if (c.x2) {
    in.x2 = std::make_unique<DeviceTensor>(c.dtype, Shape{c.rows, c.h});
    in.x2v = in.x2->FillRandom(rng, Range{-1, 1});
  }
  if (c.bias) {
    in.bias = std::make_unique<DeviceTensor>(c.dtype, Shape{c.experts, c.h});
    in.bv = in.bias->FillRandom(rng, Range{-1, 1});
    in.expert_index = std::make_unique<DeviceTensor>(ACL_INT32, Shape{c.rows, c.k});
    for (int64_t t = 0; t < slots; ++t) in.experts.push_back(static_cast<int>(rng.Uniform(0, c.experts)));
    in.expert_index->WriteView(Values(in.experts.begin(), in.experts.end()));
  }
  if (c.scales) {
    in.scales = std::make_unique<DeviceTensor>(c.dtype, Shape{c.rows, c.k});
    in.sv = in.scales->FillRandom(rng, Range{0, 1});
  }
  in.out = std::make_unique<DeviceTensor>(c.dtype, Shape{c.rows, c.h}, c.view);
  in.out->Poison();
  return in;
}

OpRun RunFinalize(const Case& c, Inputs& in) {
  const auto t = [](OpArgs& a, const std::unique_ptr<DeviceTensor>& d) { return d ? a.Tensor(*d) : nullptr; };
  if (c.v2) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnMoeFinalizeRoutingV2GetWorkspaceSize(t(a, in.expanded), t(a, in.row_index), t(a, in.x1),
                                                           t(a, in.x2), t(a, in.bias), t(a, in.scales),
                                                           t(a, in.expert_index), 0, t(a, in.out), w, e);
        },
        aclnnMoeFinalizeRoutingV2);
  }
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeFinalizeRoutingGetWorkspaceSize(t(a, in.expanded), t(a, in.x1), t(a, in.x2), t(a, in.bias),
                                                       t(a, in.scales), t(a, in.row_index), t(a, in.expert_index),
                                                       t(a, in.out), w, e);
      },
      aclnnMoeFinalizeRouting);
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  Inputs in = Make(c, rng);
  const OpRun run = RunFinalize(c, in);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  std::vector<double> magnitude;
  for (int64_t i = 0; i < c.rows; ++i) {
    for (int64_t j = 0; j < c.h; ++j) {
      double v = 0, m = 0;
      if (c.x1) v += in.x1v[static_cast<size_t>(i * c.h + j)].real();
      if (c.x2) v += in.x2v[static_cast<size_t>(i * c.h + j)].real();
      m = std::abs(v);
      for (int64_t kk = 0; kk < c.k; ++kk) {
        const int64_t src = in.rows[static_cast<size_t>(i + kk * c.rows)];
        double term = in.ev[static_cast<size_t>(src * c.h + j)].real();
        if (c.bias) term += in.bv[static_cast<size_t>(in.experts[static_cast<size_t>(i * c.k + kk)] * c.h + j)].real();
        const double s = c.scales ? in.sv[static_cast<size_t>(i * c.k + kk)].real() : 1.0;
        v += s * term;
        m += std::abs(s * term);
      }
      want.push_back(v);
      magnitude.push_back(m + 1);
    }
  }
  ExpectNear(in.out->ReadView(), RelativeTolerance(want, c.dtype, 4, magnitude), "out");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (bool v2 : {false, true}) {
      Case c;
      c.v2 = v2;
      c.dtype = dtype;
      c.name = std::string(v2 ? "v2_" : "v1_") + Name(dtype);
      cases.push_back(c);
    }
  }
  Case no_x2;
  no_x2.x2 = false;
  no_x2.k = 4;
  no_x2.experts = 8;
  no_x2.name = "v1_no_x2_k4";
  cases.push_back(no_x2);
  Case bare;
  bare.v2 = true;
  bare.x1 = bare.x2 = bare.bias = bare.scales = false;
  bare.name = "v2_expanded_only";
  cases.push_back(bare);
  Case scales_only = bare;
  scales_only.scales = true;
  scales_only.k = 8;
  scales_only.name = "v2_scales_only_k8";
  cases.push_back(scales_only);
  Case strided;
  strided.view = View::kTransposed;
  strided.name = "v1_strided_views";
  cases.push_back(strided);
  Case k1;
  k1.v2 = true;
  k1.k = 1;
  k1.rows = 17;
  k1.name = "v2_k1";
  cases.push_back(k1);
  return cases;
}

class MoeFinalizeRoutingTest : public ::testing::TestWithParam<Case> {};
TEST_P(MoeFinalizeRoutingTest, MatchesReference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(All, MoeFinalizeRoutingTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

TEST(MoeFinalizeRouting, EmptyRowsSucceed) {
  Case c;
  c.rows = 0;
  Rng rng = Rng::ForCurrentTest();
  Inputs in = Make(c, rng);
  EXPECT_TRUE(RunFinalize(c, in).ok());
}

// An index value outside its range fails the run on the stream (507015), out untouched.
TEST(MoeFinalizeRouting, IndexOutOfRangeFailsTheRun) {
  for (bool expert : {false, true}) {
    Case c;
    Rng rng = Rng::ForCurrentTest();
    Inputs in = Make(c, rng);
    if (expert) {
      Values v(in.experts.begin(), in.experts.end());
      v[3] = static_cast<double>(c.experts);
      in.expert_index->WriteView(v);
    } else {
      Values v(in.rows.begin(), in.rows.end());
      v[5] = -1;
      in.row_index->WriteView(v);
    }
    const OpRun run = RunFinalize(c, in);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS);
    EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
  }
}

// The doc's example (V1 and V2 take the same data): 3 rows, K 2, H 4, 2 experts, f32.
TEST(MoeFinalizeRouting, DocExample) {
  const Values ex = {0.1, 1.1, 2.1, 3.1, 4.1, 5.1, 6.1, 7.1, 8.1, 9.1, 10.1, 11.1,
                     0.1, 1.1, 2.1, 3.1, 4.1, 5.1, 6.1, 7.1, 8.1, 9.1, 10.1, 11.1};
  const Values x = {0.2, 1.2, 2.2, 3.2, 4.2, 5.2, 6.2, 7.2, 8.2, 9.2, 10.2, 11.2};
  const Values bias = {0.2, 0.4, 0.2, 0.4, 0.2, 0.4, 0.2, 0.4};
  const Values scales = {1.3, 1.6, 1.2, 1.8, 1.2, 2.3};
  const std::vector<size_t> experts = {0, 1, 0, 1, 0, 1}, rows = {2, 1, 4, 3, 0, 5};
  Values want;
  for (size_t i = 0; i < 3; ++i) {
    for (size_t j = 0; j < 4; ++j) {
      double v = 2 * x[i * 4 + j].real();
      for (size_t k = 0; k < 2; ++k) {
        v += scales[i * 2 + k].real() * (ex[rows[i + k * 3] * 4 + j].real() + bias[experts[i * 2 + k] * 4 + j].real());
      }
      want.push_back(v);
    }
  }
  for (bool v2 : {false, true}) {
    Case c;
    c.v2 = v2;
    Inputs in;
    in.expanded = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{6, 4});
    in.expanded->WriteView(ex);
    in.x1 = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{3, 4});
    in.x1->WriteView(x);
    in.x2 = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{3, 4});
    in.x2->WriteView(x);
    in.bias = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{2, 4});
    in.bias->WriteView(bias);
    in.scales = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{3, 2});
    in.scales->WriteView(scales);
    in.expert_index = std::make_unique<DeviceTensor>(ACL_INT32, Shape{3, 2});
    in.expert_index->WriteView(Values(experts.begin(), experts.end()));
    in.row_index = std::make_unique<DeviceTensor>(ACL_INT32, Shape{6});
    in.row_index->WriteView(Values(rows.begin(), rows.end()));
    in.out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{3, 4});
    const OpRun run = RunFinalize(c, in);
    ASSERT_TRUE(run.ok()) << Describe(run);
    ExpectNear(in.out->ReadView(), RelativeTolerance(want, ACL_FLOAT, 8), v2 ? "out (V2)" : "out (V1)");
  }
}

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

TEST(MoeFinalizeRoutingRejects, EachCase) {
  const auto expect = [](Case c, const std::function<void(Inputs&)>& edit, aclnnStatus status,
                         std::vector<std::string> words) {
    Rng rng(1);
    Inputs in = Make(c, rng);
    edit(in);
    ExpectRejectedWith(RunFinalize(c, in), status, words);
  };
  Case v1;
  Case v2;
  v2.v2 = true;
  expect(v1, [](Inputs& in) { in.bias.reset(); }, ACLNN_ERR_PARAM_NULLPTR, {"'bias'"});
  expect(v1, [](Inputs& in) { in.x1.reset(); }, ACLNN_ERR_PARAM_NULLPTR, {"'x1'"});
  expect(v2, [](Inputs& in) { in.expert_index.reset(); }, ACLNN_ERR_PARAM_NULLPTR, {"'expertIdxOptional'"});
  expect(v1,
         [](Inputs& in) {
           in.x1 = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{5, 24});
         },
         kInvalid, {"'x1'", "match"});
  expect(v1,
         [](Inputs& in) {
           in.expanded = std::make_unique<DeviceTensor>(ACL_INT32, Shape{10, 24});
         },
         kInvalid, {"'expandedX'"});
  expect(v1, [](Inputs& in) { in.row_index = std::make_unique<DeviceTensor>(ACL_INT64, Shape{10}); }, kInvalid,
         {"'expandedRowIdx'"});
  expect(v1,
         [](Inputs& in) {
           in.expert_index = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{5, 2});
         },
         kInvalid, {"'expandedExpertIdx'"});
  expect(v1, [](Inputs& in) { in.row_index = std::make_unique<DeviceTensor>(ACL_INT32, Shape{11}); }, kInvalid,
         {"'expandedRowIdx'"});
  expect(v1,
         [](Inputs& in) {
           in.row_index = std::make_unique<DeviceTensor>(ACL_INT32, Shape{5, 2});
         },
         kInvalid, {"'expandedRowIdx'", "1-D"});
  expect(v1,
         [](Inputs& in) {
           in.expanded = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{10, 23});
         },
         kInvalid, {"'expandedX'"});
  expect(v1,
         [](Inputs& in) {
           in.out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{5, 24, 1});
         },
         kInvalid, {"'out'", "rank"});
  expect(v1, [](Inputs& in) { in.expanded = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{240}); }, kInvalid,
         {"2-D"});
  expect(v1,
         [](Inputs& in) {
           in.x2 = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{5, 23});
         },
         kInvalid, {"'x2Optional'"});
  expect(v1,
         [](Inputs& in) {
           in.scales = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{5, 3});
         },
         kInvalid, {"'scales'"});
  expect(v1,
         [](Inputs& in) {
           in.bias = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{4, 23});
         },
         kInvalid, {"'bias'"});
  expect(v1,
         [](Inputs& in) {
           in.expert_index = std::make_unique<DeviceTensor>(ACL_INT32, Shape{2, 5});
         },
         kInvalid, {"'expandedExpertIdx'"});
  // V2's drop-pad modes.
  Rng rng(2);
  Inputs in = Make(v2, rng);
  for (int64_t mode : {1, 2, 3}) {
    ExpectRejectedWith(RunOp(
                           [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                             return aclnnMoeFinalizeRoutingV2GetWorkspaceSize(
                                 a.Tensor(*in.expanded), a.Tensor(*in.row_index), nullptr, nullptr, nullptr, nullptr,
                                 nullptr, mode, a.Tensor(*in.out), w, e);
                           },
                           aclnnMoeFinalizeRoutingV2),
                       ACLNN_ERR_INNER_FIND_KERNEL_ERROR, {"'dropPadMode'", "not supported"});
  }
  ExpectRejectedWith(RunOp(
                         [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                           return aclnnMoeFinalizeRoutingV2GetWorkspaceSize(
                               a.Tensor(*in.expanded), a.Tensor(*in.row_index), nullptr, nullptr, nullptr, nullptr,
                               nullptr, 4, a.Tensor(*in.out), w, e);
                         },
                         aclnnMoeFinalizeRoutingV2),
                     kInvalid, {"'dropPadMode'"});
}

}  // namespace
}  // namespace canopy_test
