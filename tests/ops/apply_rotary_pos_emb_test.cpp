// aclnnApplyRotaryPosEmb and aclnnApplyRotaryPosEmbV2 against the float64
// RoPE reference: query and key rotated in place (half, and V2's interleave
// and quarter), cos/sin [B, S, 1, 128] broadcast over the heads, every
// dtype, strided query, key and tables, different head counts, the doc's
// example shape and every rejection.
#include <gtest/gtest.h>

#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "llm_test_support.h"
#include "rope_reference.h"

namespace canopy_test {
namespace {

constexpr int64_t kD = 128;

struct Case {
  aclDataType dtype = ACL_FLOAT;
  const char* mode = nullptr;  // V2's rotaryMode; null: V1
  int64_t b = 1, s = 2, nq = 2, nk = 1;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

int64_t ModeNumber(const char* mode) {
  if (mode == nullptr || std::string(mode) == "half") return 0;
  return std::string(mode) == "interleave" ? 1 : 2;
}

OpRun RunApply(const char* mode, const DeviceTensor& q, const DeviceTensor& k, const DeviceTensor& cos,
               const DeviceTensor& sin, int64_t layout = 1) {
  if (mode == nullptr) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnApplyRotaryPosEmbGetWorkspaceSize(a.Tensor(q), a.Tensor(k), a.Tensor(cos), a.Tensor(sin), layout,
                                                        w, e);
        },
        aclnnApplyRotaryPosEmb);
  }
  std::string text = mode;
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnApplyRotaryPosEmbV2GetWorkspaceSize(a.Tensor(q), a.Tensor(k), a.Tensor(cos), a.Tensor(sin), layout,
                                                        text.data(), w, e);
      },
      aclnnApplyRotaryPosEmbV2);
}

class ApplyRotaryPosEmbTest : public ::testing::TestWithParam<Case> {};

TEST_P(ApplyRotaryPosEmbTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const Shape qs = {c.b, c.s, c.nq, kD}, ks = {c.b, c.s, c.nk, kD}, cs = {c.b, c.s, 1, kD};
  DeviceTensor q(c.dtype, qs, c.view), k(c.dtype, ks, c.view), cos(c.dtype, cs, c.view), sin(c.dtype, cs);
  const Values qv = q.FillRandom(rng, Range{-2, 2});
  const Values kv = k.FillRandom(rng, Range{-2, 2});
  const Values cv = cos.FillRandom(rng, Range{-1, 1});
  const Values sv = sin.FillRandom(rng, Range{-1, 1});
  const OpRun run = RunApply(c.mode, q, k, cos, sin);
  ASSERT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0u) << "queryRef and keyRef are rotated in place, not staged";
  const int64_t mode = ModeNumber(c.mode);
  ExpectNear(q.ReadView(), RelativeTolerance(ReferenceRope(mode, qv, qs, cv, sv, cs), c.dtype, 4, Magnitudes(qv, qs)),
             "queryRef");
  ExpectNear(k.ReadView(), RelativeTolerance(ReferenceRope(mode, kv, ks, cv, sv, cs), c.dtype, 4, Magnitudes(kv, ks)),
             "keyRef");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : HalfAndSingle()) {
    const std::string t = Name(dtype);
    cases.push_back({.dtype = dtype, .name = t + "_v1"});
    cases.push_back({.dtype = dtype, .b = 2, .s = 3, .nq = 4, .nk = 2, .name = t + "_v1_gqa"});
    cases.push_back(
        {.dtype = dtype, .b = 2, .s = 3, .nq = 2, .nk = 2, .view = View::kStepped, .name = t + "_v1_stepped"});
    for (const char* mode : {"half", "interleave", "quarter"}) {
      cases.push_back({.dtype = dtype, .mode = mode, .b = 2, .s = 2, .nq = 3, .nk = 1, .name = t + "_v2_" + mode});
    }
    cases.push_back({.dtype = dtype,
                     .mode = "interleave",
                     .b = 1,
                     .s = 4,
                     .nq = 2,
                     .nk = 2,
                     .view = View::kTransposed,
                     .name = t + "_v2_interleave_transposed"});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, ApplyRotaryPosEmbTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example shape: query and key [1, 1, 1, 128] with tables of the same shape.
TEST(ApplyRotaryPosEmb, DocExampleShape) {
  Rng rng = Rng::ForCurrentTest();
  const Shape shape = {1, 1, 1, kD};
  DeviceTensor q(ACL_FLOAT16, shape), k(ACL_FLOAT16, shape), cos(ACL_FLOAT16, shape), sin(ACL_FLOAT16, shape);
  const Values qv = q.FillRandom(rng, Range{-2, 2}), kv = k.FillRandom(rng, Range{-2, 2});
  const Values cv = cos.FillRandom(rng, Range{-1, 1}), sv = sin.FillRandom(rng, Range{-1, 1});
  const OpRun run = RunApply(nullptr, q, k, cos, sin);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(q.ReadView(),
             RelativeTolerance(ReferenceRope(0, qv, shape, cv, sv, shape), ACL_FLOAT16, 4, Magnitudes(qv, shape)),
             "queryRef");
  ExpectNear(k.ReadView(),
             RelativeTolerance(ReferenceRope(0, kv, shape, cv, sv, shape), ACL_FLOAT16, 4, Magnitudes(kv, shape)),
             "keyRef");
}

struct Call {
  aclDataType q = ACL_FLOAT16, k = ACL_FLOAT16, cos = ACL_FLOAT16, sin = ACL_FLOAT16;
  Shape qs = {2, 3, 4, kD}, ks = {2, 3, 1, kD}, cs = {2, 3, 1, kD}, ss = {2, 3, 1, kD};
  int64_t layout = 1;
  const char* mode = nullptr;
  bool null_mode = false;
};

OpRun RunCall(const Call& c) {
  if (c.mode == nullptr && !c.null_mode) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnApplyRotaryPosEmbGetWorkspaceSize(a.NewTensor(c.q, c.qs), a.NewTensor(c.k, c.ks),
                                                        a.NewTensor(c.cos, c.cs), a.NewTensor(c.sin, c.ss), c.layout, w,
                                                        e);
        },
        aclnnApplyRotaryPosEmb);
  }
  std::string text = c.mode == nullptr ? "" : c.mode;
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnApplyRotaryPosEmbV2GetWorkspaceSize(a.NewTensor(c.q, c.qs), a.NewTensor(c.k, c.ks),
                                                        a.NewTensor(c.cos, c.cs), a.NewTensor(c.sin, c.ss), c.layout,
                                                        c.null_mode ? nullptr : text.data(), w, e);
      },
      aclnnApplyRotaryPosEmbV2);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(ApplyRotaryPosEmbRejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  EXPECT_TRUE(RunCall(Call{}).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) { c.mode = "quarter"; })).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.q = ACL_INT32; })), kInvalid, {"'queryRef'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.sin = ACL_DOUBLE; })), kInvalid, {"'sin'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.k = ACL_FLOAT; })), kTiling, {"'keyRef'", "match"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.cos = c.sin = ACL_BF16; })), kTiling, {"'cos'", "match"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.qs = {6, 4, kD}; })), kTiling, {"'queryRef'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ss = {2, 3, 1, 64}; })), kTiling, {"'sin'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ks = {2, 3, 0, kD}; })), kTiling, {"'keyRef'", "empty"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.layout = 2; })), kTiling, {"'layout'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ks = {1, 3, 1, kD}; })), kTiling, {"'keyRef'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.cs = c.ss = {2, 2, 1, kD}; })), kTiling, {"'cos'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.qs = {2, 3, 4, 64}, c.ks = {2, 3, 1, 64}, c.cs = c.ss = {2, 3, 1, 64};
                     })),
                     kTiling, {"128"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.cs = c.ss = {2, 3, 4, kD}; })), kTiling, {"cos", "(N)"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.mode = "rotate"; })), kInvalid, {"'rotaryMode'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.null_mode = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'rotaryMode'"});
}

}  // namespace
}  // namespace canopy_test
