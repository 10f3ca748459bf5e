// aclnnRopeWithSinCosCache against a float64 reference: the cache rows at
// each token's position, NeoX (halves) and GPT-J (pairs) rotation of the
// first rotaryDim columns of every head, the rest copied, multimodal RoPE's
// three position sets; every dtype, INT32 and INT64 positions, strided
// inputs and outputs, no tokens, the doc's example shape, an out-of-range
// position failing the run, and every rejection.
#include <gtest/gtest.h>

#include <limits>

#include <cmath>

#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT;
  aclDataType position_dtype = ACL_INT64;
  int64_t tokens = 5, head = 32, rotary = 32, nq = 2, nk = 1, cache_rows = 16;
  bool neox = true;
  std::vector<int64_t> mrope = {};  // empty: positions [tokens]
  View view = View::kContiguous;
  std::string name = {};
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// One [tokens, heads * head] tensor rotated as the op does, in float64.
Values Reference(const Case& c, const Values& x, int64_t heads, const Values& positions, const Values& cache) {
  Values y = x;
  const int64_t half = c.rotary / 2, width = heads * c.head;
  for (int64_t t = 0; t < c.tokens; ++t) {
    std::vector<double> cos(static_cast<size_t>(half)), sin(static_cast<size_t>(half));
    for (int64_t i = 0; i < half; ++i) {
      int64_t set = 0;
      if (!c.mrope.empty()) set = i < c.mrope[0] ? 0 : i < c.mrope[0] + c.mrope[1] ? 1 : 2;
      const auto p = static_cast<int64_t>(positions[static_cast<size_t>(set * c.tokens + t)].real());
      cos[static_cast<size_t>(i)] = cache[static_cast<size_t>(p * c.rotary + i)].real();
      sin[static_cast<size_t>(i)] = cache[static_cast<size_t>(p * c.rotary + half + i)].real();
    }
    for (int64_t h = 0; h < heads; ++h) {
      const int64_t base = t * width + h * c.head;
      for (int64_t i = 0; i < half; ++i) {
        const int64_t a = base + (c.neox ? i : 2 * i), b = base + (c.neox ? i + half : 2 * i + 1);
        const double x1 = x[static_cast<size_t>(a)].real(), x2 = x[static_cast<size_t>(b)].real();
        y[static_cast<size_t>(a)] = x1 * cos[static_cast<size_t>(i)] - x2 * sin[static_cast<size_t>(i)];
        y[static_cast<size_t>(b)] = x2 * cos[static_cast<size_t>(i)] + x1 * sin[static_cast<size_t>(i)];
      }
    }
  }
  return y;
}

std::vector<double> Magnitudes(const Values& x) {
  std::vector<double> m;
  for (const Value& v : x) m.push_back(2 * std::max(1.0, std::abs(v.real())));
  return m;
}

OpRun RunRope(const Case& c, const DeviceTensor& positions, const DeviceTensor& q, const DeviceTensor& k,
              const DeviceTensor& cache, const DeviceTensor& q_out, const DeviceTensor& k_out) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRopeWithSinCosCacheGetWorkspaceSize(a.Tensor(positions), a.Tensor(q), a.Tensor(k), a.Tensor(cache),
                                                        c.mrope.empty() ? nullptr : a.IntArray(c.mrope), c.head, c.neox,
                                                        a.Tensor(q_out), a.Tensor(k_out), w, e);
      },
      aclnnRopeWithSinCosCache);
}

class RopeWithSinCosCacheTest : public ::testing::TestWithParam<Case> {};

TEST_P(RopeWithSinCosCacheTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const Shape position_shape = c.mrope.empty() ? Shape{c.tokens} : Shape{3, c.tokens};
  DeviceTensor positions(c.position_dtype, position_shape, c.view);
  const Values pv = positions.FillRandom(rng, Range{0, double(c.cache_rows - 1), 0, 0, true});
  DeviceTensor q(c.dtype, {c.tokens, c.nq * c.head}, c.view), k(c.dtype, {c.tokens, c.nk * c.head}, c.view);
  DeviceTensor cache(c.dtype, {c.cache_rows, c.rotary}, c.view);
  const Values qv = q.FillRandom(rng, Range{-2, 2}), kv = k.FillRandom(rng, Range{-2, 2});
  const Values cv = cache.FillRandom(rng, Range{-1, 1});
  DeviceTensor q_out(c.dtype, {c.tokens, c.nq * c.head}, c.view), k_out(c.dtype, {c.tokens, c.nk * c.head}, c.view);
  q_out.Poison();
  k_out.Poison();
  const OpRun run = RunRope(c, positions, q, k, cache, q_out, k_out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(q_out.ReadView(), RelativeTolerance(Reference(c, qv, c.nq, pv, cv), c.dtype, 4, Magnitudes(qv)),
             "queryOut");
  ExpectNear(k_out.ReadView(), RelativeTolerance(Reference(c, kv, c.nk, pv, cv), c.dtype, 4, Magnitudes(kv)), "keyOut");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : HalfAndSingle()) {
    const std::string t = Name(dtype);
    cases.push_back({.dtype = dtype, .name = t + "_neox"});
    cases.push_back({.dtype = dtype, .neox = false, .name = t + "_gptj"});
    cases.push_back({.dtype = dtype,
                     .position_dtype = ACL_INT32,
                     .tokens = 7,
                     .head = 64,
                     .rotary = 32,
                     .nq = 4,
                     .nk = 2,
                     .name = t + "_partial_rotary_int32_positions"});
    cases.push_back({.dtype = dtype,
                     .tokens = 6,
                     .head = 128,
                     .rotary = 128,
                     .nq = 2,
                     .nk = 2,
                     .neox = false,
                     .view = View::kStepped,
                     .name = t + "_gptj_stepped"});
    cases.push_back({.dtype = dtype,
                     .tokens = 4,
                     .head = 32,
                     .rotary = 32,
                     .nq = 3,
                     .nk = 1,
                     .mrope = {4, 6, 6},
                     .name = t + "_mrope"});
    cases.push_back({.dtype = dtype,
                     .tokens = 3,
                     .head = 64,
                     .rotary = 48,
                     .nq = 1,
                     .nk = 1,
                     .neox = false,
                     .mrope = {8, 0, 16},
                     .view = View::kTransposed,
                     .name = t + "_mrope_gptj_transposed"});
  }
  cases.push_back({.tokens = 0, .name = "no_tokens"});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, RopeWithSinCosCacheTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example: positions {0, 1} INT64, query and key [2, 64] bf16 (two heads of 32), cache [2, 32], NeoX.
TEST(RopeWithSinCosCache, DocExampleShape) {
  const Case c{.dtype = ACL_BF16, .tokens = 2, .head = 32, .rotary = 32, .nq = 2, .nk = 2, .cache_rows = 2};
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor positions(ACL_INT64, {2}), q(ACL_BF16, {2, 64}), k(ACL_BF16, {2, 64}), cache(ACL_BF16, {2, 32});
  DeviceTensor q_out(ACL_BF16, {2, 64}), k_out(ACL_BF16, {2, 64});
  positions.WriteView({0, 1});
  const Values qv = q.FillRandom(rng, Range{-2, 2}), kv = k.FillRandom(rng, Range{-2, 2});
  const Values cv = cache.FillRandom(rng, Range{-1, 1});
  const OpRun run = RunRope(c, positions, q, k, cache, q_out, k_out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(q_out.ReadView(), RelativeTolerance(Reference(c, qv, 2, {0.0, 1.0}, cv), ACL_BF16, 4, Magnitudes(qv)),
             "queryOut");
  ExpectNear(k_out.ReadView(), RelativeTolerance(Reference(c, kv, 2, {0.0, 1.0}, cv), ACL_BF16, 4, Magnitudes(kv)),
             "keyOut");
}

// A position outside the cache fails the run on the stream.
TEST(RopeWithSinCosCache, PositionOutsideTheCacheFailsTheRun) {
  for (double bad : {-1.0, 16.0}) {
    const Case c;
    DeviceTensor positions(ACL_INT64, {5}), q(ACL_FLOAT, {5, 64}), k(ACL_FLOAT, {5, 32}), cache(ACL_FLOAT, {16, 32});
    DeviceTensor q_out(ACL_FLOAT, {5, 64}), k_out(ACL_FLOAT, {5, 32});
    positions.WriteView({0, 1, bad, 3, 4});
    const OpRun run = RunRope(c, positions, q, k, cache, q_out, k_out);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS);
    EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
  }
}

struct Call {
  aclDataType positions = ACL_INT64, q = ACL_FLOAT16, k = ACL_FLOAT16, cache = ACL_FLOAT16, q_out = ACL_FLOAT16,
              k_out = ACL_FLOAT16;
  Shape ps = {4}, qs = {4, 64}, ks = {4, 32}, cs = {8, 32}, qos = {4, 64}, kos = {4, 32};
  int64_t head = 32;
  std::vector<int64_t> mrope;
};

OpRun RunCall(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRopeWithSinCosCacheGetWorkspaceSize(
            a.NewTensorIn(Range{0, 7, 0, 0, true}, c.positions, c.ps), a.NewTensor(c.q, c.qs), a.NewTensor(c.k, c.ks),
            a.NewTensor(c.cache, c.cs), c.mrope.empty() ? nullptr : a.IntArray(c.mrope), c.head, true,
            a.NewTensor(c.q_out, c.qos), a.NewTensor(c.k_out, c.kos), w, e);
      },
      aclnnRopeWithSinCosCache);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(RopeWithSinCosCacheRejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  EXPECT_TRUE(RunCall(Call{}).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.positions = ACL_FLOAT; })), kInvalid, {"'positions'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.q = c.k = c.cache = c.q_out = c.k_out = ACL_INT32; })), kInvalid,
                     {"'queryIn'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.k = ACL_FLOAT; })), kInvalid, {"'keyIn'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.cache = ACL_BF16; })), kInvalid, {"'cosSinCache'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.k_out = ACL_FLOAT; })), kInvalid, {"'keyOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.qs = c.qos = {4, 2, 32}; })), kInvalid, {"'queryIn'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.cs = {8, 4, 8}; })), kInvalid, {"'cosSinCache'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ks = c.kos = {3, 32}; })), kInvalid, {"keyIn", "rows"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.qos = {4, 32}; })), kInvalid, {"'queryOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.kos = {4, 64}; })), kInvalid, {"'keyOut'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.head = 0; })), kInvalid, {"'headSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.head = 16; })), kInvalid, {"rotaryDim"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.cs = {8, 31}; })), kInvalid, {"rotaryDim"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ps = {5}; })), kInvalid, {"'positions'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ps = {2, 4}; })), kInvalid, {"'positions'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ps = {3, 4}; })), kInvalid, {"'mropeSection'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.ps = {3, 4};
                       c.mrope = {8, 4, 2};
                     })),
                     kInvalid, {"'mropeSection'", "16"});
  // Widths checked one by one: these wrap to 16 when summed (an adversarial pass: accepted).
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       constexpr int64_t kTop = std::numeric_limits<int64_t>::max();
                       c.ps = {3, 4};
                       c.mrope = {kTop, kTop, 18};
                     })),
                     kInvalid, {"'mropeSection'"});
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.ps = {3, 4};
                c.mrope = {8, 4, 4};
              })).ok());
  // mropeSection with [tokens] positions: plain RoPE.
  EXPECT_TRUE(RunCall(With([](Call& c) { c.mrope = {8, 4, 4}; })).ok());
}

}  // namespace
}  // namespace canopy_test
