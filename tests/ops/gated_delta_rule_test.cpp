// aclnnRecurrentGatedDeltaRule against a float64 recurrence: packed
// variable-length sequences, GQA (Nv a multiple of Nk), with and without the
// gate g and numAcceptedTokens, strided views, slots not written kept, the
// run-time checks of the device-side lengths and indices, and the phase-1
// rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_recurrent_gated_delta_rule.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct GdrSpec {
  std::vector<int32_t> lengths;
  int64_t key_heads = 2, value_heads = 4, key_dim = 16, value_dim = 8, slots = 20;
  bool gate = true;
  std::vector<int32_t> accepted;  // empty: null
  View view = View::kContiguous;  // of query and value
  std::string name;
};

void PrintTo(const GdrSpec& s, std::ostream* os) { *os << s.name; }

struct GdrData {
  int64_t tokens = 0;
  Values q, k, v, beta, g, state;  // row-major (T,Nk,Dk), (T,Nk,Dk), (T,Nv,Dv), (T,Nv), (T,Nv), (slots,Nv,Dv,Dk)
  std::vector<int32_t> indices;
};

// out (T,Nv,Dv) and the state after the op, in float64, with the magnitude each
// output's rounding error scales with (sum |S| |q|).
void Reference(const GdrSpec& s, const GdrData& d, double scale, Values& out, std::vector<double>& out_scale,
               Values& state) {
  const int64_t dk = s.key_dim, dv = s.value_dim, nv = s.value_heads, nk = s.key_heads;
  out.assign(static_cast<size_t>(d.tokens * nv * dv), 0.0);
  out_scale.assign(out.size(), 0.0);
  state = d.state;
  int64_t first = 0;
  for (size_t b = 0; b < s.lengths.size(); ++b) {
    const int64_t length = s.lengths[b];
    if (length == 0) continue;
    const int64_t start = d.indices[static_cast<size_t>(first + (s.accepted.empty() ? 0 : s.accepted[b] - 1))];
    for (int64_t h = 0; h < nv; ++h) {
      const int64_t kh = h / (nv / nk);
      std::vector<double> S(static_cast<size_t>(dv * dk));
      for (int64_t i = 0; i < dv * dk; ++i)
        S[static_cast<size_t>(i)] = d.state[static_cast<size_t>((start * nv + h) * dv * dk + i)].real();
      for (int64_t t = first; t < first + length; ++t) {
        const double alpha = s.gate ? std::exp(d.g[static_cast<size_t>(t * nv + h)].real()) : 1.0;
        const double beta = d.beta[static_cast<size_t>(t * nv + h)].real();
        for (int64_t r = 0; r < dv; ++r) {
          double projected = 0;
          for (int64_t c = 0; c < dk; ++c) {
            S[static_cast<size_t>(r * dk + c)] *= alpha;
            projected += S[static_cast<size_t>(r * dk + c)] * d.k[static_cast<size_t>((t * nk + kh) * dk + c)].real();
          }
          const double delta = (d.v[static_cast<size_t>((t * nv + h) * dv + r)].real() - projected) * beta;
          double dot = 0, magnitude = 0;
          for (int64_t c = 0; c < dk; ++c) {
            double& x = S[static_cast<size_t>(r * dk + c)];
            x += delta * d.k[static_cast<size_t>((t * nk + kh) * dk + c)].real();
            const double q = d.q[static_cast<size_t>((t * nk + kh) * dk + c)].real() * scale;
            dot += x * q;
            magnitude += std::abs(x * q);
          }
          out[static_cast<size_t>((t * nv + h) * dv + r)] = dot;
          out_scale[static_cast<size_t>((t * nv + h) * dv + r)] = magnitude;
        }
        const int64_t slot = d.indices[static_cast<size_t>(t)];
        for (int64_t i = 0; i < dv * dk; ++i)
          state[static_cast<size_t>((slot * nv + h) * dv * dk + i)] = S[static_cast<size_t>(i)];
      }
    }
    first += length;
  }
}

// Unit-length keys (as the models feed them: L2-normalised), rounded to bf16.
Values UnitRows(Rng& rng, int64_t rows, int64_t dim) {
  Values x = RandomValues(rng, ACL_FLOAT, rows * dim, Range{-1, 1});
  for (int64_t r = 0; r < rows; ++r) {
    double norm = 0;
    for (int64_t c = 0; c < dim; ++c) norm += std::norm(x[static_cast<size_t>(r * dim + c)]);
    for (int64_t c = 0; c < dim; ++c) {
      x[static_cast<size_t>(r * dim + c)] =
          ConvertValue(x[static_cast<size_t>(r * dim + c)] / std::sqrt(norm), ACL_BF16);
    }
  }
  return x;
}

struct GdrRun {
  OpRun run;
  Values out, state;
};

GdrRun RunGdr(const GdrSpec& s, GdrData& d, double scale, Rng& rng) {
  d.tokens = std::accumulate(s.lengths.begin(), s.lengths.end(), int64_t{0});
  const int64_t t = d.tokens, nk = s.key_heads, nv = s.value_heads, dk = s.key_dim, dv = s.value_dim;
  DeviceTensor query(ACL_BF16, {t, nk, dk}, s.view), key(ACL_BF16, {t, nk, dk}), value(ACL_BF16, {t, nv, dv}, s.view);
  DeviceTensor beta(ACL_BF16, {t, nv}), g(ACL_FLOAT, {t, nv}), state(ACL_BF16, {s.slots, nv, dv, dk});
  DeviceTensor lengths(ACL_INT32, {static_cast<int64_t>(s.lengths.size())}), indices(ACL_INT32, {t});
  DeviceTensor accepted(ACL_INT32, {static_cast<int64_t>(s.lengths.size())});
  DeviceTensor out(ACL_BF16, {t, nv, dv});
  d.q = query.FillRandom(rng, Range{-1, 1});
  d.k = UnitRows(rng, t * nk, dk);
  key.WriteView(d.k);
  d.v = value.FillRandom(rng, Range{-1, 1});
  d.beta = beta.FillRandom(rng, Range{0.05, 1});
  d.g = g.FillRandom(rng, Range{-1, -0.01});
  d.state = state.FillRandom(rng, Range{-0.5, 0.5});
  Values lv, iv, av;
  for (int32_t l : s.lengths) lv.push_back(l);
  lengths.WriteView(lv);
  if (d.indices.empty()) {  // distinct slots, in a scrambled order
    for (int64_t i = 0; i < t; ++i) d.indices.push_back(static_cast<int32_t>((i * 7 + 3) % s.slots));
  }
  for (int32_t i : d.indices) iv.push_back(i);
  indices.WriteView(iv);
  for (int32_t a : s.accepted) av.push_back(a);
  if (!s.accepted.empty()) accepted.WriteView(av);
  out.Poison();
  GdrRun result;
  result.run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRecurrentGatedDeltaRuleGetWorkspaceSize(
            a.Tensor(query), a.Tensor(key), a.Tensor(value), a.Tensor(beta), a.Tensor(state), a.Tensor(lengths),
            a.Tensor(indices), s.gate ? a.Tensor(g) : nullptr, nullptr,
            s.accepted.empty() ? nullptr : a.Tensor(accepted), static_cast<float>(scale), a.Tensor(out), w, e);
      },
      aclnnRecurrentGatedDeltaRule);
  result.out = out.ReadView();
  result.state = state.ReadView();
  return result;
}

GdrSpec Sequences(std::vector<int32_t> lengths, std::string name) {
  GdrSpec s;
  s.lengths = std::move(lengths);
  s.name = std::move(name);
  return s;
}

std::vector<GdrSpec> Specs() {
  std::vector<GdrSpec> specs;
  specs.push_back(Sequences({1, 3, 8}, "mixed_lengths_gqa2"));
  GdrSpec accepted = Sequences({2, 4, 5}, "accepted_tokens");
  accepted.accepted = {1, 2, 5};
  specs.push_back(accepted);
  GdrSpec no_gate = Sequences({3, 2}, "no_gate");
  no_gate.gate = false;
  specs.push_back(no_gate);
  GdrSpec decode = Sequences({1, 1, 1, 1}, "decode_d32");
  decode.key_heads = decode.value_heads = 4;
  decode.key_dim = decode.value_dim = 32;
  specs.push_back(decode);
  GdrSpec gqa8 = Sequences({4, 0, 2}, "empty_sequence_gqa8");
  gqa8.key_heads = 1;
  gqa8.value_heads = 8;
  specs.push_back(gqa8);
  GdrSpec strided = Sequences({3, 3}, "strided_query_value");
  strided.view = View::kStepped;
  specs.push_back(strided);
  return specs;
}

class GatedDeltaRuleTest : public ::testing::TestWithParam<GdrSpec> {};

TEST_P(GatedDeltaRuleTest, MatchesFloat64Recurrence) {
  const GdrSpec& s = GetParam();
  Rng rng = Rng::ForCurrentTest();
  GdrData d;
  const double scale = 1.0 / std::sqrt(static_cast<double>(s.key_dim));
  const GdrRun got = RunGdr(s, d, scale, rng);
  ASSERT_TRUE(got.run.ok()) << Describe(got.run);
  Values out, state;
  std::vector<double> out_scale;
  Reference(s, d, scale, out, out_scale, state);
  // bf16 results of an f32 recurrence: a few bf16 roundoffs of the terms' magnitude.
  ExpectNear(got.out, RelativeTolerance(out, ACL_BF16, 4, out_scale), "out");
  std::vector<double> state_scale(state.size());
  for (size_t i = 0; i < state.size(); ++i) state_scale[i] = std::abs(state[i].real()) + 0.05;
  ExpectNear(got.state, RelativeTolerance(state, ACL_BF16, 4, state_scale), "stateRef");  // untouched slots exactly
}

INSTANTIATE_TEST_SUITE_P(Gdr, GatedDeltaRuleTest, ::testing::ValuesIn(Specs()),
                         [](const ::testing::TestParamInfo<GdrSpec>& info) { return info.param.name; });

// The lengths and slots live on the device: a bad one fails the task when it runs, and nothing is written.
TEST(GatedDeltaRuleRuntime, BadLengthsAndIndicesFailTheTask) {
  struct Bad {
    GdrSpec spec;
    std::vector<int32_t> indices;
    const char* keyword;
  };
  const auto bad = [](std::vector<int32_t> lengths, std::vector<int32_t> indices, std::vector<int32_t> accepted,
                      const char* keyword) {
    Bad b{Sequences(std::move(lengths), keyword), std::move(indices), keyword};
    b.spec.slots = 4;
    b.spec.accepted = std::move(accepted);
    return b;
  };
  const std::vector<Bad> cases = {
      bad({9}, {0, 1, 2, 3, 0, 1, 2, 3, 0}, {}, "actualSeqLengths"),  // longer than 8
      bad({2, -1, 3}, {0, 1, 2, 3}, {}, "actualSeqLengths"),
      bad({2, 2}, {0, 1, 2, 4}, {}, "ssmStateIndices"),
      bad({2, 2}, {0, -1, 2, 3}, {}, "ssmStateIndices"),
      bad({2, 2}, {0, 1, 2, 3}, {0, 1}, "numAcceptedTokens"),
      bad({2, 2}, {0, 1, 2, 3}, {1, 3}, "numAcceptedTokens"),
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.spec.name);
    Rng rng = Rng::ForCurrentTest();
    GdrData d;
    d.indices = c.indices;
    const GdrRun got = RunGdr(c.spec, d, 0.25, rng);
    EXPECT_EQ(got.run.phase1, ACLNN_SUCCESS) << Describe(got.run);
    EXPECT_EQ(got.run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(got.run);
    EXPECT_NE(got.run.message.find(c.keyword), std::string::npos) << got.run.message;
    ExpectExact(got.state, d.state, "stateRef (nothing written)");
  }
}

// ---- phase-1 rejections ----------------------------------------------------------------------------

struct Args {
  aclDataType q = ACL_BF16, state = ACL_BF16, lengths = ACL_INT32, g = ACL_FLOAT, out = ACL_BF16;
  Shape q_shape = {4, 2, 8}, k_shape = {4, 2, 8}, v_shape = {4, 4, 8}, beta_shape = {4, 4}, state_shape = {6, 4, 8, 8};
  Shape out_shape = {4, 4, 8}, g_shape = {4, 4}, indices_shape = {4}, accepted_shape = {2};
  bool gk = false, null_query = false, null_lengths = false;
};

OpRun RunArgs(const Args& x) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRecurrentGatedDeltaRuleGetWorkspaceSize(
            x.null_query ? nullptr : a.NewTensor(x.q, x.q_shape), a.NewTensor(x.q, x.k_shape),
            a.NewTensor(x.q, x.v_shape), a.NewTensor(ACL_BF16, x.beta_shape), a.NewTensor(x.state, x.state_shape),
            x.null_lengths ? nullptr : a.NewTensorIn(Range{2, 2}, x.lengths, {2}),
            a.NewTensorIn(Range{0, 5, 0, 0, true}, ACL_INT32, x.indices_shape), a.NewTensor(x.g, x.g_shape),
            x.gk ? a.NewTensor(ACL_FLOAT, {4, 4, 8}) : nullptr, a.NewTensorIn(Range{1, 2}, ACL_INT32, x.accepted_shape),
            0.35f, a.NewTensor(x.out, x.out_shape), w, e);
      },
      aclnnRecurrentGatedDeltaRule);
}

template <typename Edit>
Args With(Edit edit) {
  Args x;
  edit(x);
  return x;
}

TEST(GatedDeltaRuleRejects, Arguments) {
  EXPECT_TRUE(RunArgs(Args{}).ok()) << Describe(RunArgs(Args{}));
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.q = ACL_FLOAT16; })), kInvalid,
                     {"aclnnRecurrentGatedDeltaRule", "'query'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.state = ACL_FLOAT; })), kInvalid, {"'stateRef'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.out = ACL_FLOAT; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.lengths = ACL_INT64; })), kInvalid, {"'actualSeqLengths'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.g = ACL_BF16; })), kInvalid, {"'g'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.gk = true; })), kInvalid, {"'gk'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.k_shape = {4, 2, 4}; })), kInvalid, {"'key'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.beta_shape = {4, 2}; })), kInvalid, {"'beta'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.state_shape = {6, 4, 8, 4}; })), kInvalid, {"'stateRef'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.g_shape = {4, 2}; })), kInvalid, {"'g'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.indices_shape = {3}; })), kInvalid, {"'ssmStateIndices'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.accepted_shape = {3}; })), kInvalid, {"'numAcceptedTokens'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.out_shape = {4, 4, 4}; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.q_shape = {4, 8}; })), kInvalid, {"'query'", "rank"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.q_shape = x.k_shape = {4, 3, 8}; })), kInvalid, {"multiple"});
  ExpectRejectedWith(RunArgs(With([](Args& x) {
                       x.v_shape = x.out_shape = {4, 4, 257};
                       x.state_shape = {6, 4, 257, 8};
                     })),
                     kInvalid, {"at most 256"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.state_shape = {0, 4, 8, 8}; })), kInvalid, {"empty"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.null_query = true; })), ACLNN_ERR_PARAM_NULLPTR, {"'query'"});
  ExpectRejectedWith(RunArgs(With([](Args& x) { x.null_lengths = true; })), ACLNN_ERR_PARAM_NULLPTR,
                     {"'actualSeqLengths'"});
}

}  // namespace
}  // namespace canopy_test
