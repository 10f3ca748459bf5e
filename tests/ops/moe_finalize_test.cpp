// aclnnMoeFinalizeRouting and aclnnMoeFinalizeRoutingV2 (every dropPadMode: both
// index orders, drop and pad with dropped slots, FLOAT scales with BFLOAT16) against a
// float64 reference: out = x1 + x2 + sum_k scales * (expandedX[rowIdx[i + k * rows]]
// + bias[expertIdx]), every float dtype, optional terms, strided views, empty
// rows, index values out of range (507015 on the stream), and every rejection.
// Then the permutation they undo, aclnnMoeInitRouting and aclnnMoeInitRoutingV2
// (drop-less, active, drop/pad, the token counts) against a stable sort by
// expert, and the round trip init -> finalize; aclnnMoeInitRoutingQuant as V1
// with the gathered rows quantised as CANN's A2 kernel does (x, scale, offset,
// the product and the sum each rounded to half, then rounded half to even and
// saturated to INT8), against the same sort and that exact reference; aclnnMoeTokenPermute against
// the same sort, and aclnnMoeTokenUnpermute against a float64 weighted gather
// and as permute's inverse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_moe_finalize_routing.h"
#include "aclnnop/aclnn_moe_finalize_routing_v2.h"
#include "aclnnop/aclnn_moe_init_routing.h"
#include "aclnnop/aclnn_moe_init_routing_quant.h"
#include "aclnnop/aclnn_moe_init_routing_v2.h"
#include "aclnnop/aclnn_moe_token_permute.h"
#include "aclnnop/aclnn_moe_token_unpermute.h"
#include "llm_test_support.h"
#include "moe_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  bool v2 = false;
  aclDataType dtype = ACL_FLOAT;
  int64_t rows = 5, k = 2, h = 24, experts = 4;
  bool x1 = true, x2 = true, bias = true, scales = true;
  View view = View::kContiguous;
  std::string name;
  // V2: dropPadMode (0, 2: expandedX [rows * K, H]; 1, 3: [E, C, H] with dropped slots), FLOAT scales.
  int64_t mode = 0;
  bool float_scales = false;
  bool DropPad() const { return mode == 1 || mode == 3; }
  bool TokenMajor() const { return mode >= 2; }
  int64_t Capacity() const { return (rows * k + experts - 1) / experts + 1; }
  // Slot (i, kk)'s position in expandedRowIdx.
  int64_t Slot(int64_t i, int64_t kk) const { return TokenMajor() ? i * k + kk : i + kk * rows; }
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
  const int64_t expanded_rows = c.DropPad() ? c.experts * c.Capacity() : slots;
  in.expanded = std::make_unique<DeviceTensor>(
      c.dtype, c.DropPad() ? Shape{c.experts, c.Capacity(), c.h} : Shape{slots, c.h}, c.view);
  in.ev = in.expanded->FillRandom(rng, Range{-2, 2});
  // A permutation of the expanded rows, as MoeInitRouting produces; drop and pad: distinct rows of E * C,
  // every third slot dropped (-1).
  std::vector<int> perm(static_cast<size_t>(expanded_rows));
  std::iota(perm.begin(), perm.end(), 0);
  for (size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[static_cast<size_t>(rng.Uniform(0, i))]);
  perm.resize(static_cast<size_t>(slots));
  if (c.DropPad()) {
    for (size_t t = 0; t < perm.size(); t += 3) perm[t] = -1;
  }
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
    in.scales = std::make_unique<DeviceTensor>(c.float_scales ? ACL_FLOAT : c.dtype, Shape{c.rows, c.k});
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
                                                           t(a, in.expert_index), c.mode, t(a, in.out), w, e);
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
        const int64_t src = in.rows[static_cast<size_t>(c.Slot(i, kk))];
        double term = src < 0 ? 0.0 : in.ev[static_cast<size_t>(src * c.h + j)].real();
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
  bare.k = 1;  // no scales: K is 1
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
  // dropPadMode 2 (MoeInitRoutingV2's token-major order: what vLLM-style clients pass), 1 and 3 (drop and pad).
  for (int64_t mode : {1, 2, 3}) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
      Case m;
      m.v2 = true;
      m.mode = mode;
      m.dtype = dtype;
      m.name = "v2_mode" + std::to_string(mode) + "_" + Name(dtype);
      cases.push_back(m);
    }
  }
  Case strided_pad;
  strided_pad.v2 = true;
  strided_pad.mode = 3;
  strided_pad.view = View::kTransposed;
  strided_pad.x2 = false;
  strided_pad.name = "v2_mode3_strided";
  cases.push_back(strided_pad);
  Case mixed;
  mixed.v2 = true;
  mixed.mode = 2;
  mixed.dtype = ACL_BF16;
  mixed.float_scales = true;
  mixed.name = "v2_bf16_with_float_scales";
  cases.push_back(mixed);
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
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
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
  expect(v2, [](Inputs& in) { in.expert_index.reset(); }, kTiling, {"'expertIdxOptional'"});
  // V2's tiling (561002): x2 needs x1, E at least K, out's rows expandedRowIdx's / K (K 1 without scales).
  expect(v2, [](Inputs& in) { in.x1.reset(); }, kTiling, {"'x2Optional'", "'x1Optional'"});
  expect(v2,
         [](Inputs& in) {
           in.bias = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{1, 24});
         },
         kTiling, {"'biasOptional'", "K = 2"});
  expect(v2, [](Inputs& in) { in.scales.reset(); }, kTiling, {"'x1Optional'", "[10,24]"});
  expect(v2,
         [](Inputs& in) {
           in.scales = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{4, 2});
         },
         kTiling, {"'scalesOptional'"});
  expect(v2,
         [](Inputs& in) {
           in.scales = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{5, 2});
         },
         kInvalid, {"'scalesOptional'", "mixed precision"});
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
  // V2's drop-pad modes take expandedX as [E, C, H], the others as [rows * K, H]; a bias matches drop-pad's E.
  Rng rng(2);
  Inputs in = Make(v2, rng);
  for (int64_t mode : {1, 3}) {
    ExpectRejectedWith(RunOp(
                           [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                             return aclnnMoeFinalizeRoutingV2GetWorkspaceSize(
                                 a.Tensor(*in.expanded), a.Tensor(*in.row_index), nullptr, nullptr, nullptr,
                                 a.Tensor(*in.scales), nullptr, mode, a.Tensor(*in.out), w, e);
                           },
                           aclnnMoeFinalizeRoutingV2),
                       kTiling, {"'expandedX'", "[E, C, H]"});
  }
  Case pad = v2;
  pad.mode = 1;
  expect(pad,
         [](Inputs& in) {
           in.bias = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{5, 24});
         },
         kTiling, {"'biasOptional'", "E"});
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

// ---- MoeInitRouting / MoeInitRoutingV2 -----------------------------------------------------------

namespace canopy_test {
namespace {

struct InitCase {
  bool v2 = false;
  aclDataType dtype = ACL_FLOAT;
  int64_t rows = 7, k = 3, h = 20, experts = 5;
  int64_t active = 7;  // V1: rows kept; V2: 0 drop-less, > 0 active
  bool drop_pad = false;
  int64_t capacity = 0;
  int64_t count_flag = 0;  // V2: 1 running sum, 2 counts
  bool before_capacity = false;
  bool quant = false;  // MoeInitRoutingQuant (V1's form, INT8 rows)
  double scale = 21.7, offset = 1.25;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const InitCase& c, std::ostream* os) { *os << c.name; }

double InHalf(double v) { return HalfToDouble(DoubleToHalf(v)); }

// MoeInitRoutingQuant's element: half(half(half(x) * half(scale)) + half(offset)) (the attributes read as
// float), rounded half to even, saturated to INT8.
double Quantised(double x, const InitCase& c) {
  const double scale = InHalf(static_cast<float>(c.scale)), offset = InHalf(static_cast<float>(c.offset));
  return std::clamp(std::nearbyint(InHalf(InHalf(InHalf(x) * scale) + offset)), -128.0, 127.0);
}

struct InitData {
  std::unique_ptr<DeviceTensor> x, row_idx, expert_idx, expanded_x, expanded_row, expanded_expert, tokens;
  Values xv;
  std::vector<int64_t> experts, row_values;
};

int64_t ExpandedRows(const InitCase& c) {
  if (!c.v2) return std::min(c.rows, c.active) * c.k;
  return c.active > 0 ? std::min(c.active, c.rows * c.k) : c.rows * c.k;
}

InitData MakeInit(const InitCase& c, Rng& rng) {
  InitData d;
  const int64_t slots = c.rows * c.k;
  d.x = std::make_unique<DeviceTensor>(c.dtype, Shape{c.rows, c.h}, c.view);
  d.xv = d.x->FillRandom(rng, Range{-3, 3});
  for (int64_t t = 0; t < slots; ++t) d.experts.push_back(static_cast<int64_t>(rng.Uniform(0, c.experts)));
  d.expert_idx = std::make_unique<DeviceTensor>(ACL_INT32, Shape{c.rows, c.k}, c.view);
  d.expert_idx->WriteView(Values(d.experts.begin(), d.experts.end()));
  if (!c.v2) {  // MoeGatingTopKSoftmax's row numbers: slot (i, j) is j * rows + i
    for (int64_t i = 0; i < c.rows; ++i) {
      for (int64_t j = 0; j < c.k; ++j) d.row_values.push_back(j * c.rows + i);
    }
    d.row_idx = std::make_unique<DeviceTensor>(ACL_INT32, Shape{c.rows, c.k});
    d.row_idx->WriteView(Values(d.row_values.begin(), d.row_values.end()));
    d.expanded_expert = std::make_unique<DeviceTensor>(ACL_INT32, Shape{slots});
    d.expanded_expert->Poison();
  }
  const Shape expanded = c.drop_pad ? Shape{c.experts, c.capacity, c.h} : Shape{ExpandedRows(c), c.h};
  d.expanded_x =
      std::make_unique<DeviceTensor>(c.quant ? ACL_INT8 : c.dtype, expanded, c.drop_pad ? View::kContiguous : c.view);
  d.expanded_x->Poison();
  d.expanded_row = std::make_unique<DeviceTensor>(ACL_INT32, Shape{slots});
  d.expanded_row->Poison();
  if (c.count_flag > 0 || c.before_capacity) {
    d.tokens = std::make_unique<DeviceTensor>(ACL_INT32, Shape{c.experts});
    d.tokens->Poison();
  }
  return d;
}

OpRun RunInit(const InitCase& c, InitData& d) {
  const auto t = [](OpArgs& a, const std::unique_ptr<DeviceTensor>& p) { return p ? a.Tensor(*p) : nullptr; };
  if (c.v2) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnMoeInitRoutingV2GetWorkspaceSize(
              t(a, d.x), t(a, d.expert_idx), c.active, c.capacity, c.experts, c.drop_pad ? 1 : 0, c.count_flag,
              c.before_capacity, t(a, d.expanded_x), t(a, d.expanded_row), c.count_flag > 0 ? t(a, d.tokens) : nullptr,
              c.before_capacity ? t(a, d.tokens) : nullptr, w, e);
        },
        aclnnMoeInitRoutingV2);
  }
  if (c.quant) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnMoeInitRoutingQuantGetWorkspaceSize(t(a, d.x), t(a, d.row_idx), t(a, d.expert_idx), c.active,
                                                          c.scale, c.offset, t(a, d.expanded_x), t(a, d.expanded_row),
                                                          t(a, d.expanded_expert), w, e);
        },
        aclnnMoeInitRoutingQuant);
  }
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeInitRoutingGetWorkspaceSize(t(a, d.x), t(a, d.row_idx), t(a, d.expert_idx), c.active,
                                                   t(a, d.expanded_x), t(a, d.expanded_row), t(a, d.expanded_expert), w,
                                                   e);
      },
      aclnnMoeInitRouting);
}

// The reference: the slots sorted by expert, equal experts in their [rows, k] order.
void CheckInit(const InitCase& c, const InitData& d) {
  const auto x_row = [&](Values& out, int64_t row) {
    for (int64_t j = 0; j < c.h; ++j) {
      const Value v = row < 0 ? Value(0.0) : d.xv[static_cast<size_t>(row * c.h + j)];
      out.push_back(c.quant ? Value(Quantised(v.real(), c)) : v);
    }
  };
  const MoeRouting r = RouteMoeV2(d.experts, c.k, ExpandedRows(c), c.drop_pad, c.capacity, c.experts);
  Values want_x, want_row = r.row_index;
  if (!c.v2) {  // V1: rowIdx names each slot's expanded row and x row
    Values want_expert;
    for (size_t p = 0; p < r.order.size(); ++p) {
      const int64_t s = r.order[p], row = d.row_values[static_cast<size_t>(s)];
      want_expert.push_back(static_cast<double>(d.experts[static_cast<size_t>(s)]));
      want_row[static_cast<size_t>(row)] = static_cast<double>(p);
      if (static_cast<int64_t>(p) < ExpandedRows(c)) x_row(want_x, row % c.rows);
    }
    ExpectExact(d.expanded_expert->ReadView(), want_expert, "expandedExpertIdxOut");
  } else {
    for (int64_t row : r.source) x_row(want_x, row);
  }
  ExpectExact(d.expanded_x->ReadView(), want_x, "expandedXOut");
  ExpectExact(d.expanded_row->ReadView(), want_row, "expandedRowIdxOut");
  if (d.tokens) ExpectExact(d.tokens->ReadView(), MoeTokenCounts(r, c.count_flag), "expert tokens");
}

std::vector<InitCase> InitCases() {
  std::vector<InitCase> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    InitCase v1;
    v1.dtype = dtype;
    v1.name = std::string("v1_") + Name(dtype);
    cases.push_back(v1);
    InitCase v2 = v1;
    v2.v2 = true;
    v2.active = 0;
    v2.count_flag = 1;
    v2.name = std::string("v2_dropless_cumsum_") + Name(dtype);
    cases.push_back(v2);
    InitCase drop = v2;
    drop.drop_pad = true;
    drop.capacity = 3;
    drop.count_flag = 0;
    drop.before_capacity = true;
    drop.name = std::string("v2_drop_pad_") + Name(dtype);
    cases.push_back(drop);
  }
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    InitCase q;
    q.quant = true;
    q.dtype = dtype;
    q.name = std::string("quant_") + Name(dtype);
    cases.push_back(q);
    q.view = View::kTransposed;
    q.active = 3;
    q.name = std::string("quant_active3_strided_") + Name(dtype);
    cases.push_back(q);
    q.view = View::kContiguous;
    q.active = 7;
    q.scale = 70.3;  // |x * scale| up to 211: saturates both ways
    q.offset = -2.5;
    q.name = std::string("quant_saturating_") + Name(dtype);
    cases.push_back(q);
  }
  InitCase ties;
  ties.quant = true;
  ties.rows = 33;
  ties.k = 4;
  ties.h = 300;
  ties.experts = 16;
  ties.active = 40;
  ties.scale = 0.5;
  ties.offset = 0.5;  // x * 0.5 + 0.5 often lands halfway between integers
  ties.name = "quant_wide_ties";
  cases.push_back(ties);
  InitCase v1_active;
  v1_active.active = 3;
  v1_active.view = View::kTransposed;
  v1_active.name = "v1_active3_strided";
  cases.push_back(v1_active);
  InitCase v1_none;
  v1_none.active = 0;
  v1_none.name = "v1_active0";
  cases.push_back(v1_none);
  InitCase counts;
  counts.v2 = true;
  counts.active = 0;
  counts.count_flag = 2;
  counts.k = 4;
  counts.experts = 9;
  counts.view = View::kTransposed;
  counts.name = "v2_dropless_counts_strided";
  cases.push_back(counts);
  InitCase active;
  active.v2 = true;
  active.active = 10;
  active.name = "v2_active10";
  cases.push_back(active);
  InitCase drop1;
  drop1.v2 = true;
  drop1.active = 0;
  drop1.drop_pad = true;
  drop1.capacity = 1;
  drop1.experts = 8;
  drop1.rows = 9;
  drop1.k = 2;
  drop1.name = "v2_drop_pad_capacity1";
  cases.push_back(drop1);
  return cases;
}

class MoeInitRoutingTest : public ::testing::TestWithParam<InitCase> {};
TEST_P(MoeInitRoutingTest, MatchesReference) {
  const InitCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  InitData d = MakeInit(c, rng);
  const OpRun run = RunInit(c, d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  CheckInit(c, d);
}
INSTANTIATE_TEST_SUITE_P(All, MoeInitRoutingTest, ::testing::ValuesIn(InitCases()),
                         [](const ::testing::TestParamInfo<InitCase>& info) { return SanitizeName(info.param.name); });

// The doc's example for V1: 3 rows, k 2, experts [[1, 2], [0, 1], [0, 2]].
TEST(MoeInitRouting, DocExample) {
  InitCase c;
  c.rows = 3;
  c.k = 2;
  c.h = 4;
  c.active = 3;
  Rng rng = Rng::ForCurrentTest();
  InitData d = MakeInit(c, rng);
  d.experts = {1, 2, 0, 1, 0, 2};
  d.expert_idx->WriteView(Values(d.experts.begin(), d.experts.end()));
  ASSERT_TRUE(RunInit(c, d).ok());
  ExpectExact(d.expanded_row->ReadView(), Values{2, 0, 1, 4, 3, 5}, "expandedRowIdxOut");
  ExpectExact(d.expanded_expert->ReadView(), Values{0, 0, 1, 1, 2, 2}, "expandedExpertIdxOut");
  CheckInit(c, d);
}

// MoeInitRoutingQuant's example: x rows 0.1, 0.2, 0.3, the same experts and rowIdx, scale 1, offset 1.
TEST(MoeInitRoutingQuant, DocExample) {
  InitCase c;
  c.quant = true;
  c.rows = 3;
  c.k = 2;
  c.h = 4;
  c.active = 3;
  c.scale = 1;
  c.offset = 1;
  Rng rng = Rng::ForCurrentTest();
  InitData d = MakeInit(c, rng);
  d.x->WriteView(Values{0.1, 0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 0.2, 0.3, 0.3, 0.3, 0.3});
  d.xv = d.x->ReadView();
  d.experts = {1, 2, 0, 1, 0, 2};
  d.expert_idx->WriteView(Values(d.experts.begin(), d.experts.end()));
  d.row_values = {0, 3, 1, 4, 2, 5};
  d.row_idx->WriteView(Values(d.row_values.begin(), d.row_values.end()));
  ASSERT_TRUE(RunInit(c, d).ok());
  ExpectExact(d.expanded_row->ReadView(), Values{2, 0, 1, 4, 3, 5}, "expandedRowIdxOut");
  ExpectExact(d.expanded_expert->ReadView(), Values{0, 0, 1, 1, 2, 2}, "expandedExpertIdxOut");
  ExpectExact(d.expanded_x->ReadView(), Values(24, 1.0), "expandedXOut");
  CheckInit(c, d);
}

// Init routing then finalize routing (scales 1, nothing else) gives k * x back.
TEST(MoeInitRouting, RoundTripThroughFinalize) {
  InitCase c;
  c.k = 2;
  Rng rng = Rng::ForCurrentTest();
  InitData d = MakeInit(c, rng);
  ASSERT_TRUE(RunInit(c, d).ok());
  DeviceTensor out(ACL_FLOAT, Shape{c.rows, c.h}), ones(ACL_FLOAT, Shape{c.rows, c.k});
  ones.WriteView(Values(static_cast<size_t>(c.rows * c.k), Value(1.0)));  // K comes from the scales (1 without)
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeFinalizeRoutingV2GetWorkspaceSize(a.Tensor(*d.expanded_x), a.Tensor(*d.expanded_row), nullptr,
                                                         nullptr, nullptr, a.Tensor(ones), nullptr, 0, a.Tensor(out), w,
                                                         e);
      },
      aclnnMoeFinalizeRoutingV2);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  for (const Value& v : d.xv) want.push_back(2.0 * v.real());
  ExpectNear(out.ReadView(), RelativeTolerance(want, ACL_FLOAT, 2), "out");
}

TEST(MoeInitRouting, EmptyInputs) {
  for (bool v2 : {false, true}) {
    InitCase c;
    c.v2 = v2;
    c.rows = 0;
    c.active = 0;
    c.count_flag = v2 ? 2 : 0;
    Rng rng = Rng::ForCurrentTest();
    InitData d = MakeInit(c, rng);
    ASSERT_TRUE(RunInit(c, d).ok());
    if (v2) ExpectExact(d.tokens->ReadView(), Values(5, 0.0), "expertTokensCountOrCumsumOut");
  }
  InitCase quant;  // MoeInitRoutingQuant with no rows, then with no columns
  quant.quant = true;
  quant.rows = 0;
  quant.active = 0;
  Rng rng = Rng::ForCurrentTest();
  InitData d = MakeInit(quant, rng);
  ASSERT_TRUE(RunInit(quant, d).ok());
  quant.rows = 7;
  quant.active = 7;
  quant.h = 0;
  d = MakeInit(quant, rng);
  ASSERT_TRUE(RunInit(quant, d).ok());
  CheckInit(quant, d);
}

// Index values out of range fail the run on the stream.
TEST(MoeInitRouting, IndexOutOfRangeFailsTheRun) {
  const auto expect_failure = [](const InitCase& c, const std::function<void(InitData&)>& edit) {
    Rng rng = Rng::ForCurrentTest();
    InitData d = MakeInit(c, rng);
    edit(d);
    const OpRun run = RunInit(c, d);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_NE(run.sync == ACL_SUCCESS && run.phase2 == ACLNN_SUCCESS, true) << Describe(run);
  };
  InitCase v1;
  expect_failure(v1, [&](InitData& d) {
    Values v(d.row_values.begin(), d.row_values.end());
    v[4] = static_cast<double>(v1.rows * v1.k);
    d.row_idx->WriteView(v);
  });
  InitCase quant;
  quant.quant = true;
  expect_failure(quant, [&](InitData& d) {
    Values v(d.row_values.begin(), d.row_values.end());
    v[2] = -1;
    d.row_idx->WriteView(v);
  });
  InitCase v2;
  v2.v2 = true;
  v2.active = 0;
  expect_failure(v2, [](InitData& d) {
    d.experts[2] = -1;
    d.expert_idx->WriteView(Values(d.experts.begin(), d.experts.end()));
  });
  InitCase counted = v2;
  counted.count_flag = 2;
  expect_failure(counted, [&](InitData& d) {
    d.experts[6] = counted.experts;
    d.expert_idx->WriteView(Values(d.experts.begin(), d.experts.end()));
  });
  // Without counts or drop/pad an expert number past expertNum is fine.
  Rng rng = Rng::ForCurrentTest();
  InitData d = MakeInit(v2, rng);
  d.experts[6] = 1000;
  d.expert_idx->WriteView(Values(d.experts.begin(), d.experts.end()));
  ASSERT_TRUE(RunInit(v2, d).ok());
  CheckInit(v2, d);
}

TEST(MoeInitRoutingRejects, EachCase) {
  const auto expect = [](InitCase c, const std::function<void(InitCase&, InitData&)>& edit, aclnnStatus status,
                         std::vector<std::string> words) {
    Rng rng(3);
    InitData d = MakeInit(c, rng);
    edit(c, d);
    ExpectRejectedWith(RunInit(c, d), status, words);
  };
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  constexpr aclnnStatus kV2Shape = ACLNN_ERR_INNER_NULLPTR;
  InitCase v1;
  InitCase v2;
  v2.v2 = true;
  v2.active = 0;
  // V1
  expect(v1,
         [](InitCase&, InitData& d) {
           d.x = std::make_unique<DeviceTensor>(ACL_INT32, Shape{7, 20});
         },
         kInvalid, {"'x'"});
  expect(v1,
         [](InitCase&, InitData& d) {
           d.row_idx = std::make_unique<DeviceTensor>(ACL_INT64, Shape{7, 3});
         },
         kInvalid, {"'rowIdx'"});
  expect(v1,
         [](InitCase&, InitData& d) {
           d.expanded_x = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{21, 20});
         },
         kInvalid, {"'expandedXOut'", "match"});
  expect(v1, [](InitCase&, InitData& d) { d.x = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{140}); }, kTiling,
         {"2-D"});
  expect(v1,
         [](InitCase&, InitData& d) {
           d.row_idx = std::make_unique<DeviceTensor>(ACL_INT32, Shape{3, 7});
         },
         kTiling, {"'rowIdx'"});
  expect(v1, [](InitCase& c, InitData&) { c.active = -1; }, kTiling, {"'activeNum'"});
  expect(v1,
         [](InitCase&, InitData& d) {
           d.expanded_x = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{20, 20});
         },
         kTiling, {"'expandedXOut'"});
  expect(v1, [](InitCase&, InitData& d) { d.expanded_row = std::make_unique<DeviceTensor>(ACL_INT32, Shape{20}); },
         kTiling, {"'expandedRowIdxOut'"});
  expect(v1, [](InitCase&, InitData& d) { d.expanded_expert = std::make_unique<DeviceTensor>(ACL_INT32, Shape{22}); },
         kTiling, {"'expandedExpertIdxOut'"});
  // Quant: V1's checks with an INT8 expandedXOut (x's rank is the tiling's check too)
  InitCase quant;
  quant.quant = true;
  expect(quant,
         [](InitCase&, InitData& d) {
           d.x = std::make_unique<DeviceTensor>(ACL_INT8, Shape{7, 20});
         },
         kInvalid, {"'x'"});
  expect(quant,
         [](InitCase&, InitData& d) {
           d.expert_idx = std::make_unique<DeviceTensor>(ACL_INT64, Shape{7, 3});
         },
         kInvalid, {"'expertIdx'"});
  expect(quant,
         [](InitCase&, InitData& d) {
           d.expanded_x = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{21, 20});
         },
         kInvalid, {"'expandedXOut'"});
  expect(quant, [](InitCase&, InitData& d) { d.expanded_row = std::make_unique<DeviceTensor>(ACL_INT64, Shape{21}); },
         kInvalid, {"'expandedRowIdxOut'"});
  expect(quant,
         [](InitCase&, InitData& d) {
           d.x = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{7, 20, 1});
         },
         kTiling, {"2-D"});
  expect(quant, [](InitCase& c, InitData&) { c.active = -1; }, kTiling, {"'activeNum'"});
  expect(quant,
         [](InitCase&, InitData& d) {
           d.expanded_x = std::make_unique<DeviceTensor>(ACL_INT8, Shape{21, 21});
         },
         kTiling, {"'expandedXOut'"});
  expect(quant,
         [](InitCase&, InitData& d) {
           d.expanded_expert = std::make_unique<DeviceTensor>(ACL_INT32, Shape{21, 1});
         },
         kTiling, {"'expandedExpertIdxOut'"});
  // V2
  expect(v2,
         [](InitCase&, InitData& d) {
           d.expert_idx = std::make_unique<DeviceTensor>(ACL_INT64, Shape{7, 3});
         },
         kInvalid, {"'expertIdx'"});
  expect(v2,
         [](InitCase&, InitData& d) {
           d.expert_idx = std::make_unique<DeviceTensor>(ACL_INT32, Shape{6, 3});
         },
         kV2Shape, {"same rows"});
  expect(v2, [](InitCase& c, InitData&) { c.experts = -1; }, kV2Shape, {"'expertNum'"});
  expect(v2, [](InitCase& c, InitData&) { c.active = -2; }, kV2Shape, {"'activeNum'"});
  expect(v2, [](InitCase& c, InitData&) { c.count_flag = 3; }, kV2Shape, {"'expertTokensCountOrCumsumFlag'"});
  expect(v2,
         [](InitCase& c, InitData& d) {
           c.count_flag = 1;
           c.experts = 0;
           d.tokens = std::make_unique<DeviceTensor>(ACL_INT32, Shape{0});
         },
         kV2Shape, {"expertNum"});
  expect(v2, [](InitCase& c, InitData&) { c.count_flag = 1; }, ACLNN_ERR_PARAM_NULLPTR,
         {"'expertTokensCountOrCumsumOut'"});
  expect(v2,
         [](InitCase& c, InitData& d) {
           c.count_flag = 1;
           d.tokens = std::make_unique<DeviceTensor>(ACL_INT32, Shape{4});
         },
         kV2Shape, {"'expertTokensCountOrCumsumOut'"});
  expect(v2,
         [](InitCase&, InitData& d) {
           d.expanded_x = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{20, 20});
         },
         kV2Shape, {"'expandedXOut'"});
  InitCase drop = v2;
  drop.drop_pad = true;
  drop.capacity = 2;
  for (int64_t capacity : {0, 8}) {
    expect(drop, [capacity](InitCase& c, InitData&) { c.capacity = capacity; }, kV2Shape, {"expertCapacity"});
  }
  expect(drop,
         [](InitCase&, InitData& d) {
           d.expanded_x = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{10, 20});
         },
         kV2Shape, {"'expandedXOut'"});
  // dropPadMode 2 (the drop/pad flag is a bool in the case, so call directly).
  Rng rng(4);
  InitData d = MakeInit(v2, rng);
  ExpectRejectedWith(RunOp(
                         [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                           return aclnnMoeInitRoutingV2GetWorkspaceSize(
                               a.Tensor(*d.x), a.Tensor(*d.expert_idx), 0, 0, 5, 2, 0, false, a.Tensor(*d.expanded_x),
                               a.Tensor(*d.expanded_row), nullptr, nullptr, w, e);
                         },
                         aclnnMoeInitRoutingV2),
                     kV2Shape, {"'dropPadMode'"});
}

}  // namespace
}  // namespace canopy_test

// ---- MoeTokenPermute ------------------------------------------------------------------------------

namespace canopy_test {
namespace {

struct PermuteCase {
  aclDataType dtype = ACL_FLOAT, index_dtype = ACL_INT32;
  Shape tokens = {7, 12}, out_row = {12};  // out_row: permuteTokensOut's dims after the first
  int64_t k = 3;                           // 0: 1-D indices (topK 1)
  int64_t num_out = 0;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const PermuteCase& c, std::ostream* os) { *os << c.name; }

int64_t PermuteRows(const PermuteCase& c) {
  const int64_t slots = c.tokens[0] * std::max<int64_t>(c.k, 1);
  if (c.num_out == 0) return slots;
  return c.num_out > 0 ? std::min(slots, c.num_out) : std::max<int64_t>(0, slots + c.num_out);
}

struct PermuteData {
  std::unique_ptr<DeviceTensor> tokens, indices, out, sorted;
  Values tv;
  std::vector<int64_t> experts;
};

PermuteData MakePermute(const PermuteCase& c, Rng& rng) {
  PermuteData d;
  const int64_t k = std::max<int64_t>(c.k, 1), slots = c.tokens[0] * k;
  d.tokens = std::make_unique<DeviceTensor>(c.dtype, c.tokens, c.view);
  d.tv = d.tokens->FillRandom(rng, Range{-3, 3});
  for (int64_t t = 0; t < slots; ++t) d.experts.push_back(static_cast<int64_t>(rng.Uniform(0, 6)));
  d.indices = std::make_unique<DeviceTensor>(c.index_dtype, c.k == 0 ? Shape{c.tokens[0]} : Shape{c.tokens[0], c.k});
  d.indices->WriteView(Values(d.experts.begin(), d.experts.end()));
  Shape out = {PermuteRows(c)};
  out.insert(out.end(), c.out_row.begin(), c.out_row.end());
  d.out = std::make_unique<DeviceTensor>(c.dtype, out);
  d.out->Poison();
  d.sorted = std::make_unique<DeviceTensor>(ACL_INT32, Shape{slots});
  d.sorted->Poison();
  return d;
}

OpRun RunPermute(const PermuteCase& c, PermuteData& d, bool padded = false) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenPermuteGetWorkspaceSize(a.Tensor(*d.tokens), a.Tensor(*d.indices), c.num_out, padded,
                                                    a.Tensor(*d.out), a.Tensor(*d.sorted), w, e);
      },
      aclnnMoeTokenPermute);
}

class MoeTokenPermuteTest : public ::testing::TestWithParam<PermuteCase> {};
TEST_P(MoeTokenPermuteTest, MatchesReference) {
  const PermuteCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  PermuteData d = MakePermute(c, rng);
  const OpRun run = RunPermute(c, d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const int64_t k = std::max<int64_t>(c.k, 1), slots = c.tokens[0] * k, h = d.tokens->numel() / c.tokens[0];
  std::vector<int64_t> order(static_cast<size_t>(slots));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return d.experts[static_cast<size_t>(a)] < d.experts[static_cast<size_t>(b)];
  });
  Values want_sorted(static_cast<size_t>(slots)), want_out;
  for (int64_t p = 0; p < slots; ++p) {
    const int64_t src = order[static_cast<size_t>(p)];
    want_sorted[static_cast<size_t>(src)] = static_cast<double>(p);
    for (int64_t j = 0; j < h && p < PermuteRows(c); ++j)
      want_out.push_back(d.tv[static_cast<size_t>(src / k * h + j)]);
  }
  ExpectExact(d.sorted->ReadView(), want_sorted, "sortedIndicesOut");
  ExpectExact(d.out->ReadView(), want_out, "permuteTokensOut");
}

std::vector<PermuteCase> PermuteCases() {
  std::vector<PermuteCase> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    PermuteCase c;
    c.dtype = dtype;
    c.name = std::string(Name(dtype)) + "_topk3";
    cases.push_back(c);
  }
  PermuteCase i64;
  i64.index_dtype = ACL_INT64;
  i64.k = 0;
  i64.name = "int64_indices_1d";
  cases.push_back(i64);
  PermuteCase first;
  first.num_out = 5;
  first.name = "num_out_5";
  cases.push_back(first);
  PermuteCase negative;
  negative.num_out = -4;
  negative.name = "num_out_minus_4";
  cases.push_back(negative);
  PermuteCase rank3;
  rank3.tokens = {7, 2, 5};
  rank3.out_row = {10};
  rank3.k = 2;
  rank3.view = View::kTransposed;
  rank3.name = "rank3_tokens_strided";
  cases.push_back(rank3);
  PermuteCase strided;
  strided.view = View::kStepped;
  strided.dtype = ACL_FLOAT16;
  strided.name = "stepped_tokens";
  cases.push_back(strided);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, MoeTokenPermuteTest, ::testing::ValuesIn(PermuteCases()),
                         [](const ::testing::TestParamInfo<PermuteCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// The doc's example: experts [[1, 2], [0, 1], [0, 2]].
TEST(MoeTokenPermute, DocExample) {
  PermuteCase c;
  c.tokens = {3, 4};
  c.out_row = {4};
  c.k = 2;
  Rng rng = Rng::ForCurrentTest();
  PermuteData d = MakePermute(c, rng);
  d.indices->WriteView(Values{1, 2, 0, 1, 0, 2});
  ASSERT_TRUE(RunPermute(c, d).ok());
  ExpectExact(d.sorted->ReadView(), Values{2, 4, 0, 3, 1, 5}, "sortedIndicesOut");
}

TEST(MoeTokenPermute, IndexOutOfRangeFailsTheRun) {
  for (double bad : {-1.0, 16777215.0}) {
    PermuteCase c;
    c.index_dtype = ACL_INT64;
    Rng rng = Rng::ForCurrentTest();
    PermuteData d = MakePermute(c, rng);
    Values v(d.experts.begin(), d.experts.end());
    v[4] = bad;
    d.indices->WriteView(v);
    const OpRun run = RunPermute(c, d);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_FALSE(run.ok()) << Describe(run);
    EXPECT_NE(run.message.find("'indices'"), std::string::npos) << run.message;
  }
}

TEST(MoeTokenPermuteRejects, EachCase) {
  const auto expect = [](PermuteCase c, const std::function<void(PermuteData&)>& edit, aclnnStatus status,
                         std::vector<std::string> words, bool padded = false) {
    Rng rng(7);
    PermuteData d = MakePermute(c, rng);
    edit(d);
    ExpectRejectedWith(RunPermute(c, d, padded), status, words);
  };
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const PermuteCase c;
  const auto keep = [](PermuteData&) {};
  expect(c,
         [](PermuteData& d) {
           d.tokens = std::make_unique<DeviceTensor>(ACL_INT8, Shape{7, 12});
         },
         kInvalid, {"'tokens'"});
  expect(c,
         [](PermuteData& d) {
           d.indices = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{7, 3});
         },
         kInvalid, {"'indices'"});
  expect(c,
         [](PermuteData& d) {
           d.out = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{21, 12});
         },
         kInvalid, {"'permuteTokensOut'", "match"});
  expect(c, [](PermuteData& d) { d.sorted = std::make_unique<DeviceTensor>(ACL_INT64, Shape{21}); }, kInvalid,
         {"'sortedIndicesOut'"});
  expect(c, [](PermuteData& d) { d.tokens = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{7}); }, kTiling,
         {"'tokens'", "rank"});
  expect(c,
         [](PermuteData& d) {
           d.indices = std::make_unique<DeviceTensor>(ACL_INT32, Shape{6, 3});
         },
         kTiling, {"'indices'"});
  expect(c,
         [](PermuteData& d) {
           d.indices = std::make_unique<DeviceTensor>(ACL_INT32, Shape{7, 3, 1});
         },
         kTiling, {"'indices'"});
  expect(c, keep, kTiling, {"'paddedMode'"}, true);
  expect(c,
         [](PermuteData& d) {
           d.out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{20, 12});
         },
         kTiling, {"'permuteTokensOut'"});
  expect(c,
         [](PermuteData& d) {
           d.out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{21, 11});
         },
         kTiling, {"'permuteTokensOut'"});
  expect(c, [](PermuteData& d) { d.sorted = std::make_unique<DeviceTensor>(ACL_INT32, Shape{20}); }, kTiling,
         {"'sortedIndicesOut'"});
}

}  // namespace
}  // namespace canopy_test

// ---- MoeTokenUnpermute ----------------------------------------------------------------------------

namespace canopy_test {
namespace {

struct UnpermuteCase {
  aclDataType dtype = ACL_FLOAT, probs_dtype = ACL_FLOAT;
  int64_t tokens = 6, k = 3, h = 20;
  bool probs = true;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const UnpermuteCase& c, std::ostream* os) { *os << c.name; }

struct UnpermuteData {
  std::unique_ptr<DeviceTensor> permuted, indices, probs, out;
  Values pv, probv;
  std::vector<int64_t> perm;
};

UnpermuteData MakeUnpermute(const UnpermuteCase& c, Rng& rng) {
  UnpermuteData d;
  const int64_t k = c.probs ? c.k : 1, slots = c.tokens * k;
  d.permuted = std::make_unique<DeviceTensor>(c.dtype, Shape{slots, c.h}, c.view);
  d.pv = d.permuted->FillRandom(rng, Range{-2, 2});
  d.perm.resize(static_cast<size_t>(slots));
  std::iota(d.perm.begin(), d.perm.end(), 0);
  for (size_t i = d.perm.size(); i > 1; --i) std::swap(d.perm[i - 1], d.perm[static_cast<size_t>(rng.Uniform(0, i))]);
  d.indices = std::make_unique<DeviceTensor>(ACL_INT32, Shape{slots});
  d.indices->WriteView(Values(d.perm.begin(), d.perm.end()));
  if (c.probs) {
    d.probs = std::make_unique<DeviceTensor>(c.probs_dtype, Shape{c.tokens, c.k}, c.view);
    d.probv = d.probs->FillRandom(rng, Range{0, 1});
  }
  d.out = std::make_unique<DeviceTensor>(c.dtype, Shape{c.tokens, c.h}, c.view);
  d.out->Poison();
  return d;
}

OpRun RunUnpermute(UnpermuteData& d, bool padded = false) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMoeTokenUnpermuteGetWorkspaceSize(a.Tensor(*d.permuted), a.Tensor(*d.indices),
                                                      d.probs ? a.Tensor(*d.probs) : nullptr, padded, nullptr,
                                                      a.Tensor(*d.out), w, e);
      },
      aclnnMoeTokenUnpermute);
}

class MoeTokenUnpermuteTest : public ::testing::TestWithParam<UnpermuteCase> {};
TEST_P(MoeTokenUnpermuteTest, MatchesReference) {
  const UnpermuteCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  UnpermuteData d = MakeUnpermute(c, rng);
  const OpRun run = RunUnpermute(d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const int64_t k = c.probs ? c.k : 1;
  Values want;
  std::vector<double> magnitude;
  for (int64_t i = 0; i < c.tokens; ++i) {
    for (int64_t j = 0; j < c.h; ++j) {
      double v = 0, m = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        const int64_t src = d.perm[static_cast<size_t>(i * k + kk)];
        const double p = c.probs ? d.probv[static_cast<size_t>(i * k + kk)].real() : 1.0;
        v += p * d.pv[static_cast<size_t>(src * c.h + j)].real();
        m += std::abs(p * d.pv[static_cast<size_t>(src * c.h + j)].real());
      }
      want.push_back(v);
      magnitude.push_back(m + 1);
    }
  }
  ExpectNear(d.out->ReadView(), RelativeTolerance(want, c.dtype, 4, magnitude), "out");
}

std::vector<UnpermuteCase> UnpermuteCases() {
  std::vector<UnpermuteCase> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    UnpermuteCase c;
    c.dtype = c.probs_dtype = dtype;
    c.name = std::string(Name(dtype)) + "_topk3";
    cases.push_back(c);
  }
  UnpermuteCase mixed;
  mixed.dtype = ACL_BF16;
  mixed.probs_dtype = ACL_FLOAT;
  mixed.name = "bf16_tokens_f32_probs";
  cases.push_back(mixed);
  UnpermuteCase no_probs;
  no_probs.probs = false;
  no_probs.name = "no_probs_topk1";
  cases.push_back(no_probs);
  UnpermuteCase strided;
  strided.view = View::kTransposed;
  strided.k = 8;
  strided.name = "strided_topk8";
  cases.push_back(strided);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, MoeTokenUnpermuteTest, ::testing::ValuesIn(UnpermuteCases()),
                         [](const ::testing::TestParamInfo<UnpermuteCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// Permute then unpermute with probs: each token comes back scaled by the sum of its probs.
TEST(MoeTokenUnpermute, UndoesMoeTokenPermute) {
  PermuteCase pc;
  pc.tokens = {5, 8};
  pc.out_row = {8};
  pc.k = 2;
  Rng rng = Rng::ForCurrentTest();
  PermuteData pd = MakePermute(pc, rng);
  ASSERT_TRUE(RunPermute(pc, pd).ok());
  UnpermuteData d;
  d.permuted = std::move(pd.out);
  d.indices = std::move(pd.sorted);
  d.probs = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{5, 2});
  d.probv = d.probs->FillRandom(rng, Range{0, 1});
  d.out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{5, 8});
  ASSERT_TRUE(RunUnpermute(d).ok());
  Values want;
  for (int64_t i = 0; i < 5; ++i) {
    const double weight = d.probv[static_cast<size_t>(2 * i)].real() + d.probv[static_cast<size_t>(2 * i + 1)].real();
    for (int64_t j = 0; j < 8; ++j) want.push_back(weight * pd.tv[static_cast<size_t>(i * 8 + j)].real());
  }
  ExpectNear(d.out->ReadView(), RelativeTolerance(want, ACL_FLOAT, 4, std::vector<double>(want.size(), 8.0)), "out");
}

TEST(MoeTokenUnpermute, IndexOutOfRangeFailsTheRun) {
  for (double bad : {-1.0, 18.0}) {
    UnpermuteCase c;
    Rng rng = Rng::ForCurrentTest();
    UnpermuteData d = MakeUnpermute(c, rng);
    Values v(d.perm.begin(), d.perm.end());
    v[7] = bad;
    d.indices->WriteView(v);
    const OpRun run = RunUnpermute(d);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_FALSE(run.ok()) << Describe(run);
    EXPECT_NE(run.message.find("'sortedIndices'"), std::string::npos) << run.message;
  }
}

TEST(MoeTokenUnpermuteRejects, EachCase) {
  const auto expect = [](const std::function<void(UnpermuteData&)>& edit, aclnnStatus status,
                         std::vector<std::string> words, bool padded = false) {
    Rng rng(8);
    UnpermuteData d = MakeUnpermute(UnpermuteCase{}, rng);
    edit(d);
    ExpectRejectedWith(RunUnpermute(d, padded), status, words);
  };
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const auto make = [](aclDataType dtype, Shape shape) { return std::make_unique<DeviceTensor>(dtype, shape); };
  expect([&](UnpermuteData& d) { d.permuted = make(ACL_INT32, {18, 20}); }, kInvalid, {"'permutedTokens'"});
  expect([&](UnpermuteData& d) { d.indices = make(ACL_INT64, {18}); }, kInvalid, {"'sortedIndices'"});
  expect([&](UnpermuteData& d) { d.probs = make(ACL_INT32, {6, 3}); }, kInvalid, {"'probsOptional'"});
  expect([&](UnpermuteData& d) { d.out = make(ACL_FLOAT16, {6, 20}); }, kInvalid, {"'out'", "match"});
  expect([](UnpermuteData&) {}, kInvalid, {"'paddedMode'"}, true);
  expect([&](UnpermuteData& d) { d.indices = make(ACL_INT32, {18, 1}); }, kTiling, {"1-D"});
  expect([&](UnpermuteData& d) { d.indices = make(ACL_INT32, {17}); }, kTiling, {"do not match"});
  expect([&](UnpermuteData& d) { d.probs = make(ACL_FLOAT, {5, 3}); }, kTiling, {"do not match"});
  expect([&](UnpermuteData& d) { d.out = make(ACL_FLOAT, {6, 21}); }, kTiling, {"do not match"});
  expect(
      [&](UnpermuteData& d) {
        d.permuted = make(ACL_FLOAT, {513, 4});
        d.indices = make(ACL_INT32, {513});
        d.probs = make(ACL_FLOAT, {1, 513});
        d.out = make(ACL_FLOAT, {1, 4});
      },
      kTiling, {"topK <= 512"});
}

}  // namespace
}  // namespace canopy_test
