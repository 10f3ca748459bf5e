// aclnnFFN, FFNV2 and FFNV3 against a float64 reference written out below:
// y = act(x @ W1 + b1) @ W2 + b2 with the hidden activation rounded where the
// kernels store it (f16 after the first product on the high-performance and f16
// weight-quantised paths, x's dtype after the activation), the gated forms
// (L * act(R)), experts (counts, cumulative ends, a device tensor, empty
// experts), weight quantisation (INT8 per channel, INT4 per group), full
// quantisation (deqScale UINT64 / INT64 / FLOAT / BFLOAT16, per-tensor and
// per-channel scale), views, empty x, and the rejections with CANN's codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_ffn.h"
#include "aclnnop/aclnn_ffn_v2.h"
#include "aclnnop/aclnn_ffn_v3.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr int kOptionals = 10;  // bias1 .. antiquantOffset2, in prototype order
enum Optional { kBias1, kBias2, kScale, kOffset, kDeq1, kDeq2, kAntiScale1, kAntiScale2, kAntiOffset1, kAntiOffset2 };

bool Gated(const std::string& name) {
  const std::string a = LowerCase(name);
  return a == "geglu" || a == "swiglu" || a == "reglu";
}

double Activate(const std::string& name, double v) {
  const std::string a = LowerCase(name);
  if (a == "relu" || a == "reglu") return v > 0 ? v : 0.0;
  if (a == "silu" || a == "swiglu") return v / (1.0 + std::exp(-v));
  if (a == "fastgelu") return v / (1.0 + std::exp(-1.702 * v));
  const double inner = std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v);  // gelu, geglu: the tanh form
  return 0.5 * v * (1.0 + std::tanh(inner));
}

double Round(double v, aclDataType dtype) { return ConvertValue(Value(v), dtype).real(); }

// A 64-bit deqScale word: the f32 in the low half, a flag above it as TransQuantParam sets one.
double PackedScale(float scale) {
  uint32_t low = 0;
  std::memcpy(&low, &scale, sizeof low);
  return static_cast<double>((uint64_t{1} << 46) + low);
}

struct FfnCase {
  std::string name;
  int version = 1;
  std::string activation = "relu";
  aclDataType x = ACL_FLOAT16, w = ACL_FLOAT16, y = ACL_FLOAT16;
  int64_t innerPrecise = 1;
  Shape lead = {5};  // x's leading extents; M is their product
  int64_t k1 = 24, n1 = 16;
  std::vector<int64_t> experts;  // rows per expert; empty: no experts
  bool tokensIndex = false;      // V2 / V3: pass cumulative row ends
  bool bias = true;
  int64_t groups = 0;  // weight quantisation per group of K rows (INT4); 0: per channel
  aclDataType deq = ACL_UINT64;
  bool perChannelScale = false;
  View xView = View::kContiguous, yView = View::kContiguous;
};
void PrintTo(const FfnCase& c, std::ostream* os) { *os << c.name; }

// A weight or parameter held on the host for the reference, [E][rows][cols] flattened.
struct HostTensor {
  std::unique_ptr<DeviceTensor> device;
  std::vector<double> values;  // what the op reads, decoded (deqScale words: their f32)
};

struct Built {
  HostTensor x, w1, w2, tokens;
  HostTensor opt[kOptionals];
};

HostTensor Random(Rng& rng, aclDataType dtype, const Shape& shape, const Range& range, View view = View::kContiguous) {
  HostTensor t;
  t.device = std::make_unique<DeviceTensor>(dtype, shape, view);
  for (const Value& v : t.device->FillRandom(rng, range)) t.values.push_back(v.real());
  return t;
}

// INT4 values two a byte, the even element in the low nibble, contiguous.
HostTensor RandomInt4(Rng& rng, const Shape& shape) {
  HostTensor t;
  t.device = std::make_unique<DeviceTensor>(ACL_INT4, shape);
  const int64_t count = NumElements(shape);
  std::vector<uint8_t> packed(static_cast<size_t>((count + 1) / 2), 0);
  for (int64_t i = 0; i < count; ++i) {
    const auto v = static_cast<int>(std::floor(rng.Uniform(-8.0, 8.0)));
    t.values.push_back(std::min(v, 7));
    const auto nibble = static_cast<uint8_t>(std::min(v, 7) & 0xF);
    packed[static_cast<size_t>(i / 2)] |= static_cast<uint8_t>(i % 2 == 0 ? nibble : nibble << 4);
  }
  t.device->UploadBytes(packed);
  return t;
}

HostTensor Scales(Rng& rng, aclDataType dtype, const Shape& shape, double lo, double hi) {
  if (dtype != ACL_UINT64 && dtype != ACL_INT64) return Random(rng, dtype, shape, Range{lo, hi});
  HostTensor t;
  t.device = std::make_unique<DeviceTensor>(dtype, shape);
  Values words;
  for (int64_t i = 0; i < NumElements(shape); ++i) {
    const auto f = static_cast<float>(rng.Uniform(lo, hi));
    t.values.push_back(f);
    words.push_back(PackedScale(f));
  }
  t.device->WriteView(words);
  return t;
}

void RunCase(const FfnCase& c) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const bool quant = c.x == ACL_INT8;
  const bool anti = !quant && (c.w == ACL_INT8 || c.w == ACL_INT4);
  const bool gated = Gated(c.activation);
  const int64_t e_count = c.experts.empty() ? 1 : static_cast<int64_t>(c.experts.size());
  const bool experts = !c.experts.empty();
  const int64_t k2 = gated ? c.n1 / 2 : c.n1, n2 = c.k1;
  const int64_t m = NumElements(c.lead);
  Shape x_shape = c.lead;
  x_shape.push_back(c.k1);
  const auto per_expert = [&](Shape rest) {
    if (experts) rest.insert(rest.begin(), e_count);
    return rest;
  };

  Built b;
  b.x = Random(rng, c.x, x_shape, quant ? Range{-20, 20} : Range{-1, 1}, c.xView);
  const int64_t ks[2] = {c.k1, k2}, ns[2] = {c.n1, n2};
  HostTensor* ws[2] = {&b.w1, &b.w2};
  for (int i = 0; i < 2; ++i) {
    const Shape shape = per_expert({ks[i], ns[i]});
    if (c.w == ACL_INT4) {
      *ws[i] = RandomInt4(rng, shape);
    } else {
      *ws[i] = Random(rng, c.w, shape, quant || anti ? Range{-20, 20} : Range{-0.5, 0.5});
    }
  }
  const aclDataType bias_dtype = quant ? ACL_INT32 : (c.x == ACL_BF16 ? ACL_FLOAT : ACL_FLOAT16);
  if (c.bias) {
    b.opt[kBias1] = Random(rng, bias_dtype, per_expert({c.n1}), quant ? Range{-200, 200} : Range{-0.5, 0.5});
    b.opt[kBias2] = Random(rng, bias_dtype, per_expert({n2}), quant ? Range{-200, 200} : Range{-0.5, 0.5});
  }
  if (anti) {
    for (int i = 0; i < 2; ++i) {
      const Shape shape = per_expert(c.groups > 0 ? Shape{c.groups, ns[i]} : Shape{ns[i]});
      b.opt[kAntiScale1 + i] = Random(rng, c.x, shape, Range{0.01, 0.05});
      b.opt[kAntiOffset1 + i] = Random(rng, c.x, shape, Range{-2, 2});
    }
  }
  if (quant) {
    b.opt[kDeq1] = Scales(rng, c.deq, per_expert({c.n1}), 1e-3, 3e-3);
    b.opt[kDeq2] = Scales(rng, c.deq, per_expert({n2}), 1e-4, 2e-4);
    b.opt[kScale] = Random(rng, ACL_FLOAT, c.perChannelScale ? per_expert({c.n1}) : Shape{e_count}, Range{20, 40});
    b.opt[kOffset] = Random(rng, ACL_FLOAT, Shape{e_count}, Range{-3, 3});
  }
  std::vector<int64_t> tokens = c.experts;
  if (c.tokensIndex) {
    for (size_t i = 1; i < tokens.size(); ++i) tokens[i] += tokens[i - 1];
  }
  if (c.version == 3 && experts) {
    Values v(tokens.begin(), tokens.end());
    b.tokens.device = Upload(ACL_INT64, {e_count}, v);
  }

  DeviceTensor y(c.y, x_shape, c.yView);
  y.Poison();
  const auto optional = [&](OpArgs& a, int i) { return b.opt[i].device ? a.Tensor(*b.opt[i].device) : nullptr; };
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws_size, aclOpExecutor** ex) {
        aclTensor* o[kOptionals];
        for (int i = 0; i < kOptionals; ++i) o[i] = optional(a, i);
        aclTensor* xt = a.Tensor(*b.x.device);
        aclTensor* w1 = a.Tensor(*b.w1.device);
        aclTensor* w2 = a.Tensor(*b.w2.device);
        aclIntArray* arr = experts ? a.IntArray(tokens) : nullptr;
        const char* act = c.activation.c_str();
        if (c.version == 1) {
          return aclnnFFNGetWorkspaceSize(xt, w1, w2, arr, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9],
                                          act, c.innerPrecise, a.Tensor(y), ws_size, ex);
        }
        if (c.version == 2) {
          return aclnnFFNV2GetWorkspaceSize(xt, w1, w2, arr, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9],
                                            act, c.innerPrecise, c.tokensIndex, a.Tensor(y), ws_size, ex);
        }
        aclTensor* tt = b.tokens.device ? a.Tensor(*b.tokens.device) : nullptr;
        return aclnnFFNV3GetWorkspaceSize(xt, w1, w2, tt, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9],
                                          act, c.innerPrecise, c.tokensIndex, a.Tensor(y), ws_size, ex);
      },
      c.version == 1 ? aclnnFFN : (c.version == 2 ? aclnnFFNV2 : aclnnFFNV3));
  ASSERT_TRUE(run.ok()) << Describe(run);
  if (m == 0) {
    EXPECT_EQ(run.workspaceSize, 0u);
    return;
  }

  // The reference. Rows of expert e: [starts[e], starts[e] + counts[e]).
  std::vector<int64_t> owner(static_cast<size_t>(m), 0);
  int64_t row = 0;
  for (int64_t e = 0; e < static_cast<int64_t>(c.experts.size()); ++e) {
    for (int64_t r = 0; r < c.experts[static_cast<size_t>(e)]; ++r) owner[static_cast<size_t>(row++)] = e;
  }
  const auto at = [](const HostTensor& t, int64_t i) { return t.values[static_cast<size_t>(i)]; };
  // Weight i's element (e, k, n), dequantised and rounded to x's dtype where quantised.
  const auto weight = [&](int i, int64_t e, int64_t k, int64_t n) {
    const double q = at(*ws[i], (e * ks[i] + k) * ns[i] + n);
    if (!anti) return q;
    const int64_t groups = c.groups > 0 ? c.groups : 1;
    const int64_t p = (e * groups + k / (ks[i] / groups)) * ns[i] + n;
    return Round((q + at(b.opt[kAntiOffset1 + i], p)) * at(b.opt[kAntiScale1 + i], p), c.x);
  };
  const bool f16_hidden = c.x == ACL_FLOAT16 && (anti || c.innerPrecise == 1);
  const aclDataType act_dtype = quant ? (c.y == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT) : c.x;
  Values want;
  std::vector<double> magnitude, slack;
  for (int64_t i = 0; i < m; ++i) {
    const int64_t e = owner[static_cast<size_t>(i)];
    std::vector<double> hidden(static_cast<size_t>(c.n1));
    for (int64_t j = 0; j < c.n1; ++j) {
      double h = c.bias ? at(b.opt[kBias1], e * c.n1 + j) : 0.0;
      for (int64_t k = 0; k < c.k1; ++k) h += at(b.x, i * c.k1 + k) * weight(0, e, k, j);
      if (quant) h = Round(h * at(b.opt[kDeq1], e * c.n1 + j), act_dtype);
      hidden[static_cast<size_t>(j)] = f16_hidden ? Round(h, ACL_FLOAT16) : h;
    }
    std::vector<double> a(static_cast<size_t>(k2));
    for (int64_t j = 0; j < k2; ++j) {
      const double v = hidden[static_cast<size_t>(j)];
      a[static_cast<size_t>(j)] =
          Round(gated ? v * Activate(c.activation, hidden[static_cast<size_t>(j + k2)]) : Activate(c.activation, v),
                act_dtype);
      if (quant) {
        const double s = at(b.opt[kScale], c.perChannelScale ? e * c.n1 + j : e);
        const double o = at(b.opt[kOffset], e);
        const bool half = c.y == ACL_FLOAT16 || c.perChannelScale;
        const double t =
            half ? Round(Round(Round(a[static_cast<size_t>(j)], ACL_FLOAT16) * Round(s, ACL_FLOAT16), ACL_FLOAT16) +
                             Round(o, ACL_FLOAT16),
                         ACL_FLOAT16)
                 : Round(a[static_cast<size_t>(j)] * s + o, ACL_FLOAT16);
        a[static_cast<size_t>(j)] = std::clamp(std::nearbyint(t), -128.0, 127.0);
      }
    }
    for (int64_t j = 0; j < n2; ++j) {
      double sum = c.bias ? at(b.opt[kBias2], e * n2 + j) : 0.0;
      double mag = std::fabs(sum), widest = 0;
      for (int64_t k = 0; k < k2; ++k) {
        const double term = a[static_cast<size_t>(k)] * weight(1, e, k, j);
        sum += term;
        mag += std::fabs(term);
        widest = std::max(widest, std::fabs(weight(1, e, k, j)));
      }
      const double deq = quant ? at(b.opt[kDeq2], e * n2 + j) : 1.0;
      want.push_back(Value(sum * deq));
      magnitude.push_back(mag * deq);
      slack.push_back(quant ? 2.0 * widest * deq : 0.0);  // a quantised value one step off at a tie
    }
  }
  Expected expected = RelativeTolerance(want, c.y, 8, magnitude);
  for (size_t i = 0; i < slack.size(); ++i) expected.tolerance[i] += slack[i];
  ExpectNear(y.ReadView(), expected, "y");
}

std::vector<FfnCase> FfnCases() {
  std::vector<FfnCase> cases;
  const auto add = [&](const std::string& name, auto edit) {
    FfnCase c;
    c.name = name;
    edit(c);
    cases.push_back(c);
  };
  for (const char* act : {"relu", "gelu", "fastgelu", "silu"}) {
    for (int64_t precise : {0, 1}) {
      add(std::string("f16_") + act + (precise == 1 ? "_performance" : "_precision"), [&](FfnCase& c) {
        c.activation = act;
        c.innerPrecise = precise;
      });
    }
    add(std::string("bf16_") + act, [&](FfnCase& c) {
      c.activation = act;
      c.x = c.w = c.y = ACL_BF16;
      c.innerPrecise = 0;
    });
  }
  add("f16_rank4_no_bias_FastGeLU_case", [](FfnCase& c) {
    c.activation = "FastGeLU";
    c.lead = {2, 1, 3};
    c.bias = false;
  });
  add("f16_strided_x_and_y", [](FfnCase& c) {
    c.xView = View::kTransposed;
    c.yView = View::kStepped;
  });
  for (const char* act : {"geglu", "swiglu", "reglu"}) {
    add(std::string("f16_") + act, [&](FfnCase& c) {
      c.activation = act;
      c.n1 = 32;
    });
  }
  add("v1_experts_counts", [](FfnCase& c) {
    c.lead = {9};
    c.experts = {4, 0, 5};
  });
  add("v2_experts_row_ends_silu", [](FfnCase& c) {
    c.version = 2;
    c.lead = {3, 3};
    c.experts = {2, 3, 0, 4};
    c.tokensIndex = true;
    c.activation = "silu";
  });
  add("v3_experts_tensor_counts_bf16", [](FfnCase& c) {
    c.version = 3;
    c.lead = {10};
    c.experts = {0, 6, 4};
    c.x = c.w = c.y = ACL_BF16;
    c.innerPrecise = 0;
  });
  add("v3_experts_tensor_row_ends_precision", [](FfnCase& c) {
    c.version = 3;
    c.lead = {7};
    c.experts = {3, 4};
    c.tokensIndex = true;
    c.innerPrecise = 0;
    c.activation = "gelu";
  });
  add("v3_no_experts_example", [](FfnCase& c) { c.version = 3; });
  add("empty_x", [](FfnCase& c) { c.lead = {0}; });
  add("empty_x_experts", [](FfnCase& c) {
    c.version = 2;
    c.lead = {0, 4};
    c.experts = {0, 0};
  });
  add("n1_zero_bias_only", [](FfnCase& c) { c.n1 = 0; });
  // Weight quantisation.
  add("antiquant_f16_int8", [](FfnCase& c) { c.w = ACL_INT8; });
  add("antiquant_bf16_int8_experts", [](FfnCase& c) {
    c.x = c.y = ACL_BF16;
    c.w = ACL_INT8;
    c.lead = {6};
    c.experts = {2, 4};
    c.activation = "fastgelu";
  });
  add("antiquant_f16_int4_per_group", [](FfnCase& c) {
    c.w = ACL_INT4;
    c.groups = 4;
    c.activation = "silu";
  });
  add("antiquant_bf16_int4_channel_experts_v3", [](FfnCase& c) {
    c.version = 3;
    c.x = c.y = ACL_BF16;
    c.w = ACL_INT4;
    c.lead = {5};
    c.experts = {5, 0};
    c.innerPrecise = 0;
  });
  // Full quantisation.
  for (aclDataType deq : {ACL_UINT64, ACL_INT64, ACL_FLOAT}) {
    add(std::string("quant_f16_deq_") + Name(deq), [&](FfnCase& c) {
      c.x = c.w = ACL_INT8;
      c.deq = deq;
      c.activation = deq == ACL_FLOAT ? "gelu" : "relu";
    });
  }
  add("quant_f16_per_channel_experts_v2", [](FfnCase& c) {
    c.version = 2;
    c.x = c.w = ACL_INT8;
    c.perChannelScale = true;
    c.lead = {8};
    c.experts = {3, 0, 5};
    c.tokensIndex = true;
    c.activation = "silu";
  });
  add("quant_f16_experts_tensor_v3", [](FfnCase& c) {
    c.version = 3;
    c.x = c.w = ACL_INT8;
    c.deq = ACL_INT64;
    c.lead = {2, 4};
    c.experts = {0, 5, 3};
    c.activation = "gelu";
  });
  add("quant_bf16", [](FfnCase& c) {
    c.x = c.w = ACL_INT8;
    c.y = ACL_BF16;
    c.deq = ACL_BF16;
    c.activation = "fastgelu";
  });
  add("quant_bf16_per_channel_experts", [](FfnCase& c) {
    c.x = c.w = ACL_INT8;
    c.y = ACL_BF16;
    c.deq = ACL_BF16;
    c.perChannelScale = true;
    c.lead = {7};
    c.experts = {4, 3};
  });
  return cases;
}

class FfnTest : public ::testing::TestWithParam<FfnCase> {};
TEST_P(FfnTest, MatchesReference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, FfnTest, ::testing::ValuesIn(FfnCases()),
                         [](const ::testing::TestParamInfo<FfnCase>& info) { return SanitizeName(info.param.name); });

// Where the f16 kernels store the first product shows through a curved activation:
// h_k = 2 + d_k with d_k (m + 9/16) * 2^-9 for even k (f16 rounds h up) and (m + 7/16) * 2^-9
// for odd k (down), summed with alternating signs: high performance (gelu of the f16 h) and high
// precision (gelu of the f32 h) drift apart by about a thousandth a term, far more than the
// roundoff the comparison allows.
TEST(FfnHiddenRounding, FollowsInnerPrecise) {
  constexpr int64_t kHidden = 64;
  Values w1(2 * kHidden), w2(kHidden * 2, 0.0);
  std::vector<double> h(kHidden);
  for (int64_t k = 0; k < kHidden; ++k) {
    const double d = std::ldexp(static_cast<double>(k % 8) + (k % 2 == 0 ? 9.0 : 7.0) / 16.0, -9);
    w1[static_cast<size_t>(k)] = 2.0;
    w1[static_cast<size_t>(kHidden + k)] = d;
    w2[static_cast<size_t>(2 * k)] = k % 2 == 0 ? 1.0 : -1.0;
    h[static_cast<size_t>(k)] = 2.0 + d;
  }
  const auto model = [&](bool f16_hidden) {
    double sum = 0;
    for (int64_t k = 0; k < kHidden; ++k) {
      const double hk = f16_hidden ? Round(h[static_cast<size_t>(k)], ACL_FLOAT16) : h[static_cast<size_t>(k)];
      sum += (k % 2 == 0 ? 1.0 : -1.0) * Round(Activate("gelu", hk), ACL_FLOAT16);
    }
    return sum;
  };
  ASSERT_GT(std::fabs(model(true) - model(false)), 0.03);
  const auto x = Upload(ACL_FLOAT16, {1, 2}, {1.0, 1.0});
  const auto weight1 = Upload(ACL_FLOAT16, {2, kHidden}, w1);
  const auto weight2 = Upload(ACL_FLOAT16, {kHidden, 2}, w2);
  for (int64_t precise : {0, 1}) {
    SCOPED_TRACE("innerPrecise " + std::to_string(precise));
    const auto y = Poisoned(ACL_FLOAT16, {1, 2});
    ExpectRuns(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnFFNGetWorkspaceSize(a.Tensor(*x), a.Tensor(*weight1), a.Tensor(*weight2), nullptr, nullptr,
                                          nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                          nullptr, "gelu", precise, a.Tensor(*y), ws, ex);
        },
        aclnnFFN);
    // A few activations may round the other way where f32 and float64 gelu straddle a tie.
    ExpectNear(y->ReadView(), Expected{{model(precise == 1), 0.0}, {0.004, 0.0}}, "y");
  }
}

// ---- Rejections

struct Spec {
  aclDataType dtype = ACL_DT_UNDEFINED;  // undefined: null
  Shape shape;
};

struct Call {
  int version = 1;
  Spec x{ACL_FLOAT16, {4, 8}}, w1{ACL_FLOAT16, {8, 6}}, w2{ACL_FLOAT16, {6, 8}}, y{ACL_FLOAT16, {4, 8}};
  std::vector<int64_t> tokens;
  Spec tokensTensor;
  Spec opt[kOptionals];
  std::string activation = "relu";
  int64_t innerPrecise = 1;
  bool tokensIndex = false;
};

OpRun RunCall(const Call& c) {
  std::vector<std::unique_ptr<DeviceTensor>> int4;  // the suite draws no INT4 values: left as allocated
  return RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        const auto make = [&](const Spec& s) -> aclTensor* {
          if (s.dtype == ACL_INT4)
            return a.Tensor(*int4.emplace_back(std::make_unique<DeviceTensor>(s.dtype, s.shape)));
          return s.dtype == ACL_DT_UNDEFINED ? nullptr : a.NewTensorIn(Range{0, 1}, s.dtype, s.shape);
        };
        aclTensor* o[kOptionals];
        for (int i = 0; i < kOptionals; ++i) o[i] = make(c.opt[i]);
        aclIntArray* arr = c.tokens.empty() ? nullptr : a.IntArray(c.tokens);
        const char* act = c.activation.c_str();
        if (c.version == 1) {
          return aclnnFFNGetWorkspaceSize(make(c.x), make(c.w1), make(c.w2), arr, o[0], o[1], o[2], o[3], o[4], o[5],
                                          o[6], o[7], o[8], o[9], act, c.innerPrecise, make(c.y), ws, ex);
        }
        if (c.version == 2) {
          return aclnnFFNV2GetWorkspaceSize(make(c.x), make(c.w1), make(c.w2), arr, o[0], o[1], o[2], o[3], o[4], o[5],
                                            o[6], o[7], o[8], o[9], act, c.innerPrecise, c.tokensIndex, make(c.y), ws,
                                            ex);
        }
        return aclnnFFNV3GetWorkspaceSize(make(c.x), make(c.w1), make(c.w2), make(c.tokensTensor), o[0], o[1], o[2],
                                          o[3], o[4], o[5], o[6], o[7], o[8], o[9], act, c.innerPrecise, c.tokensIndex,
                                          make(c.y), ws, ex);
      },
      c.version == 1 ? aclnnFFN : (c.version == 2 ? aclnnFFNV2 : aclnnFFNV3));
}

Call With(void (*edit)(Call&)) {
  Call c;
  edit(c);
  return c;
}

// A valid quantised call (no experts) to edit.
void Quantised(Call& c) {
  c.x.dtype = c.w1.dtype = c.w2.dtype = ACL_INT8;
  c.opt[kScale] = {ACL_FLOAT, {1}};
  c.opt[kOffset] = {ACL_FLOAT, {1}};
  c.opt[kDeq1] = {ACL_UINT64, {6}};
  c.opt[kDeq2] = {ACL_UINT64, {8}};
}

// A valid weight-quantised call to edit.
void WeightQuantised(Call& c) {
  c.w1.dtype = c.w2.dtype = ACL_INT8;
  c.opt[kAntiScale1] = c.opt[kAntiOffset1] = {ACL_FLOAT16, {6}};
  c.opt[kAntiScale2] = c.opt[kAntiOffset2] = {ACL_FLOAT16, {8}};
}

TEST(FfnRejects, WithCannCodes) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  EXPECT_TRUE(RunCall(Call{}).ok()) << Describe(RunCall(Call{}));
  EXPECT_TRUE(RunCall(With(Quantised)).ok()) << Describe(RunCall(With(Quantised)));
  EXPECT_TRUE(RunCall(With(WeightQuantised)).ok()) << Describe(RunCall(With(WeightQuantised)));
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x.dtype = ACL_DT_UNDEFINED; })), ACLNN_ERR_PARAM_NULLPTR, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.activation = "tanh"; })), kInvalid, {"'activation'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y.shape = {32}; })), kInvalid, {"'y'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y.shape = {4, 9}; })), kInvalid, {"'y'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x.shape = c.y.shape = {8}; })), kInvalid, {"'x'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.w1.shape = {1, 8, 6}; })), kInvalid, {"'weight1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.w1.shape = {7, 6}; })), kInvalid, {"weight1"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.w2.shape = {6, 7}; })), kInvalid, {"weight2"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.w2.shape = {5, 8}; })), kInvalid, {"weight2"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.opt[kBias1] = {ACL_FLOAT16, {8}}; })), kInvalid, {"'bias1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.opt[kBias2] = {ACL_FLOAT, {8}}; })), kInvalid, {"'bias2'"});
  // Experts.
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.tokens = {1, 2};
                       c.w1.shape = {2, 8, 6};
                       c.w2.shape = {2, 6, 8};
                     })),
                     kInvalid, {"'expertTokens'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.tokens = {5, -1};
                       c.w1.shape = {2, 8, 6};
                       c.w2.shape = {2, 6, 8};
                     })),
                     kInvalid, {"'expertTokens'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.version = 2;
                       c.tokensIndex = true;
                       c.tokens = {3, 2, 4};
                       c.w1.shape = {3, 8, 6};
                       c.w2.shape = {3, 6, 8};
                     })),
                     kInvalid, {"'expertTokens'", "decrease"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.tokens = {2, 2};
                       c.w1.shape = {3, 8, 6};
                       c.w2.shape = {3, 6, 8};
                     })),
                     kInvalid, {"expert"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.version = 3;
                       c.tokensTensor = {ACL_INT32, {2}};
                       c.w1.shape = {2, 8, 6};
                       c.w2.shape = {2, 6, 8};
                     })),
                     kInvalid, {"'expertTokensOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.version = 3;
                       c.tokensTensor = {ACL_INT64, {257}};
                       c.w1.shape = {257, 8, 6};
                       c.w2.shape = {257, 6, 8};
                     })),
                     ACLNN_ERR_INNER_TILING_ERROR, {"257"});
  // Gated forms: f16, high performance, no experts, N1 = 2 K2.
  const auto gated = [](Call& c) {
    c.activation = "swiglu";
    c.w1.shape = {8, 12};
  };
  EXPECT_TRUE(RunCall(With(gated)).ok()) << Describe(RunCall(With(gated)));
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.activation = "geglu";
                       c.w1.shape = {8, 10};
                     })),
                     kInvalid, {"gated"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.activation = "swiglu";
                       c.w1.shape = {8, 12};
                       c.w2.shape = {6, 6};
                     })),
                     kInvalid, {"weight2"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.activation = "reglu";
                       c.w1.shape = {8, 12};
                       c.innerPrecise = 0;
                     })),
                     kInvalid, {"innerPrecise"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.activation = "swiglu";
                       c.w1.shape = {8, 12};
                       c.x.dtype = c.w1.dtype = c.w2.dtype = c.y.dtype = ACL_BF16;
                     })),
                     kInvalid, {"'x'"});
  // Dtype paths.
  ExpectRejectedWith(RunCall(With([](Call& c) { c.x.dtype = ACL_FLOAT; })), kInvalid, {"'x'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.w2.dtype = ACL_BF16; })), kInvalid, {"'weight2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.y.dtype = ACL_BF16; })), kInvalid, {"'y'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x.dtype = c.w1.dtype = c.w2.dtype = c.y.dtype = ACL_BF16;
                       c.innerPrecise = 1;
                     })),
                     kInvalid, {"innerPrecise"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.x.dtype = c.w1.dtype = c.w2.dtype = c.y.dtype = ACL_BF16;
                       c.innerPrecise = 0;
                       c.opt[kBias1] = {ACL_FLOAT16, {6}};
                     })),
                     kInvalid, {"'bias1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.opt[kScale] = {ACL_FLOAT, {1}}; })), kInvalid, {"'scale'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.innerPrecise = 2; })), ACLNN_ERR_INNER_TILING_ERROR,
                     {"innerPrecise"});
  // Quantisation.
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       Quantised(c);
                       c.opt[kOffset] = {};
                     })),
                     kInvalid, {"'offset'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       Quantised(c);
                       c.opt[kDeq2] = {ACL_FLOAT, {8}};
                     })),
                     kInvalid, {"'deqScale2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       Quantised(c);
                       c.y.dtype = ACL_BF16;
                     })),
                     kInvalid, {"'deqScale1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       Quantised(c);
                       c.opt[kBias1] = {ACL_FLOAT16, {6}};
                     })),
                     kInvalid, {"'bias1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       Quantised(c);
                       c.opt[kScale] = {ACL_FLOAT, {6}};
                       c.opt[kDeq1] = {ACL_FLOAT, {6}};
                       c.opt[kDeq2] = {ACL_FLOAT, {8}};
                     })),
                     kInvalid, {"per-channel"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       Quantised(c);
                       c.opt[kAntiScale1] = {ACL_FLOAT16, {6}};
                     })),
                     kInvalid, {"'antiquantScale1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       Quantised(c);
                       c.opt[kDeq1] = {ACL_UINT64, {5}};
                     })),
                     kInvalid, {"'deqScale1'"});
  // Weight quantisation.
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       WeightQuantised(c);
                       c.opt[kAntiOffset2] = {};
                     })),
                     kInvalid, {"'antiquantOffset2'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       WeightQuantised(c);
                       c.opt[kAntiScale1] = {ACL_BF16, {6}};
                     })),
                     kInvalid, {"'antiquantScale1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       WeightQuantised(c);
                       c.opt[kAntiScale1] = c.opt[kAntiOffset1] = {ACL_FLOAT16, {2, 6}};
                       c.opt[kAntiScale2] = c.opt[kAntiOffset2] = {ACL_FLOAT16, {2, 8}};
                     })),
                     kInvalid, {"INT4"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       WeightQuantised(c);
                       c.w1.dtype = c.w2.dtype = ACL_INT4;
                       c.opt[kAntiScale1] = c.opt[kAntiOffset1] = {ACL_FLOAT16, {3, 6}};
                       c.opt[kAntiScale2] = c.opt[kAntiOffset2] = {ACL_FLOAT16, {3, 8}};
                     })),
                     kInvalid, {"groups"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       WeightQuantised(c);
                       c.opt[kAntiOffset1] = {ACL_FLOAT16, {5}};
                     })),
                     kInvalid, {"'antiquantOffset1'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       WeightQuantised(c);
                       c.opt[kDeq1] = {ACL_UINT64, {6}};
                     })),
                     kInvalid, {"'deqScale1'"});
}

}  // namespace
}  // namespace canopy_test
