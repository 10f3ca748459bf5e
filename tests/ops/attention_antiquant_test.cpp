// KV antiquantisation in IncreFlashAttention (V3, V4) and
// FusedInferAttentionScore (V1, V2, V4): an INT8 key / value cache with an
// f16 / bf16 query, dequantised as key = (int8 + offset) * scale. Against a
// float64 reference (dequantise, then naive softmax attention) on fresh random
// data: the combined parameters ([2, ...], key then value) per channel in each
// of their shapes, per tensor and (FIA antiquantMode 1) per token; the
// separate key / value parameters (FIA V2+) per channel, per token, per tensor
// and head, per token and head, and key per channel with value per token;
// with and without offsets, GQA 1 and 4, lengths off the kernel's 64-key block,
// empty batch rows, the BNSD / BSND / BSH layouts, strided key / value views
// and paged caches of both forms. Each case also checks that it can fail: the
// reference with the offset left out, the scale left out, the parameters of
// another head, channel, token or batch, or key and value swapped, must lie
// far outside the tolerance. Then every rejection with its status.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <string>

#include "aclnnop/aclnn_fused_infer_attention_score.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v4.h"
#include "aclnnop/aclnn_incre_flash_attention_v3.h"
#include "aclnnop/aclnn_incre_flash_attention_v4.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr aclnnStatus kNotSupported = ACLNN_ERR_INNER_FIND_KERNEL_ERROR;

enum class Api { kIfaV3, kIfaV4, kFiaV1, kFiaV2, kFiaV4 };
// kPerChannel (mode 0; per tensor when channel_shape is 4), kPerToken (1),
// kPerTensorHead (2, separate only), kPerTokenHead (3, separate only),
// kMixed (separate: key mode 0 per channel, value mode 1 per token).
enum class Form { kPerChannel, kPerToken, kPerTensorHead, kPerTokenHead, kMixed };
// What a wrong kernel might do, applied to the reference to show the test can fail.
enum class Fault { kNone, kNoOffset, kNoScale, kOtherHead, kOtherChannel, kOtherToken, kOtherBatch, kSwapKv };

struct Spec {
  Api api = Api::kFiaV2;
  bool separate = false;  // keyAntiquantScale / valueAntiquantScale (FIA V2+)
  Form form = Form::kPerChannel;
  // Per channel: 0 [num, N, 1, D], 1 [num, 1, N, D], 2 [num, N, D], 3 [num, H], 4 per tensor [num].
  int channel_shape = 0;
  bool token_rank2 = false;  // separate per token: [B, S] instead of [1, B, S]
  bool offset = true;
  aclDataType dtype = ACL_FLOAT16;
  std::string layout = "BNSD";
  int64_t heads = 4, kv_heads = 4, head_dim = 64;
  std::vector<int64_t> kv_lens;
  int64_t storage = 0;   // the unpaged cache's S (at least the longest length)
  bool strided = false;  // BNSD key / value rows padded in storage
  int cache_rank = 0;    // paged: 3 (blocks, blockSize, H) or 4 (blocks, N, blockSize, D)
  int64_t block_size = 32;
  std::string name;
};

void PrintTo(const Spec& s, std::ostream* os) { *os << s.name; }

// The mode each side's parameters are in.
int64_t ModeOf(const Spec& s, int side) {
  switch (s.form) {
    case Form::kPerChannel:
      return 0;
    case Form::kPerToken:
      return 1;
    case Form::kPerTensorHead:
      return 2;
    case Form::kPerTokenHead:
      return 3;
    case Form::kMixed:
      return side == 0 ? 0 : 1;
  }
  return 0;
}

// One parameter tensor (a scale or an offset) on the host: shape, dtype, values and where (side, b, n, j, e) reads.
struct Param {
  Shape shape;
  aclDataType dtype = ACL_FLOAT16;
  Values values;
  std::function<size_t(int side, int64_t b, int64_t n, int64_t j, int64_t e)> index;
};

// The parameter tensor of `side` (separate) or of both (combined, side ignored) in the spec's form.
Param MakeParam(const Spec& s, int side, int64_t tokens, Rng& rng, bool is_offset) {
  const int64_t num = s.separate ? 1 : 2, n2 = s.kv_heads, d = s.head_dim;
  const auto batch = static_cast<int64_t>(s.kv_lens.size());
  const int64_t mode = ModeOf(s, side);
  const bool combined = !s.separate;
  Param p;
  p.dtype = mode == 1 || mode == 3 ? ACL_FLOAT : s.dtype;
  const auto w_of = [combined](int w) { return combined ? static_cast<int64_t>(w) : 0; };
  if (mode == 0 && s.channel_shape == 4) {
    p.shape = {num};
    p.index = [=](int w, int64_t, int64_t, int64_t, int64_t) { return static_cast<size_t>(w_of(w)); };
  } else if (mode == 0) {
    const Shape shapes[] = {{num, n2, 1, d}, {num, 1, n2, d}, {num, n2, d}, {num, n2 * d}};
    p.shape = shapes[s.channel_shape];
    p.index = [=](int w, int64_t, int64_t n, int64_t, int64_t e) {
      return static_cast<size_t>((w_of(w) * n2 + n) * d + e);
    };
  } else if (mode == 1) {
    p.shape = s.separate && s.token_rank2 ? Shape{batch, tokens} : Shape{num, batch, tokens};
    p.index = [=](int w, int64_t b, int64_t, int64_t j, int64_t) {
      return static_cast<size_t>((w_of(w) * batch + b) * tokens + j);
    };
  } else if (mode == 2) {
    p.shape = {n2};
    p.index = [](int, int64_t, int64_t n, int64_t, int64_t) { return static_cast<size_t>(n); };
  } else {
    p.shape = {batch, n2, tokens};
    p.index = [=](int, int64_t b, int64_t n, int64_t j, int64_t) {
      return static_cast<size_t>((b * n2 + n) * tokens + j);
    };
  }
  // Scales spread over a decade (so that a wrong head, channel or token shows), offsets of either sign.
  for (int64_t i = 0; i < NumElements(p.shape); ++i) {
    // Offsets of 20-40 either way, so that leaving one out moves a row well past the tolerance.
    const double x = is_offset ? (rng.Uniform(0, 1) < 0.5 ? -1 : 1) * rng.Uniform(20, 40)
                               : 0.003 * std::pow(10.0, rng.Uniform(0, 1));
    p.values.push_back(ConvertValue(x, p.dtype));
  }
  return p;
}

struct Problem {
  Values q;                            // [B, N, D] (query row 0)
  std::vector<std::vector<int>> k, v;  // per batch: [N_kv][S][D] int8, row-major
  Param scale[2], offset[2];           // per side (combined: both the same tensor)
  int64_t tokens = 0;                  // the per-token parameters' S
};

// float64 attention of the dequantised cache; `fault` alters how the parameters are read.
Values Reference(const Spec& s, const Problem& p, Fault fault) {
  const int64_t n1 = s.heads, n2 = s.kv_heads, d = s.head_dim, g = n1 / n2;
  const auto batch = static_cast<int64_t>(s.kv_lens.size());
  const double scale_value = 1.0 / std::sqrt(static_cast<double>(d));
  const auto dequant = [&](int side, int64_t b, int64_t n, int64_t j, int64_t e, int q) {
    int w = side;
    if (fault == Fault::kSwapKv) w = 1 - side;
    if (fault == Fault::kOtherHead) n = (n + 1) % n2;
    if (fault == Fault::kOtherChannel) e = d - 1 - e;
    if (fault == Fault::kOtherToken) j = (j + 1) % p.tokens;
    if (fault == Fault::kOtherBatch) b = (b + 1) % batch;
    const Param& sc = p.scale[w];
    const Param& of = p.offset[w];
    const double scale = fault == Fault::kNoScale ? 1.0 : sc.values[sc.index(w, b, n, j, e)].real();
    const double offset =
        fault == Fault::kNoOffset || of.values.empty() ? 0.0 : of.values[of.index(w, b, n, j, e)].real();
    return (q + offset) * scale;
  };
  Values out(static_cast<size_t>(batch * n1 * d), 0.0);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t len = s.kv_lens[static_cast<size_t>(b)];
    if (len == 0) continue;  // no key: zeros
    const auto& kb = p.k[static_cast<size_t>(b)];
    const auto& vb = p.v[static_cast<size_t>(b)];
    const int64_t rows = static_cast<int64_t>(kb.size()) / (n2 * d);
    for (int64_t n = 0; n < n1; ++n) {
      const int64_t h = n / g;
      std::vector<double> score(static_cast<size_t>(len));
      double max = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < len; ++j) {
        double dot = 0;
        for (int64_t e = 0; e < d; ++e) {
          const int q = kb[static_cast<size_t>((h * rows + j) * d + e)];
          dot += p.q[static_cast<size_t>((b * n1 + n) * d + e)].real() * dequant(0, b, h, j, e, q);
        }
        score[static_cast<size_t>(j)] = dot * scale_value;
        max = std::max(max, dot * scale_value);
      }
      double sum = 0;
      for (double& x : score) sum += (x = std::exp(x - max));
      for (int64_t e = 0; e < d; ++e) {
        double acc = 0;
        for (int64_t j = 0; j < len; ++j) {
          acc +=
              score[static_cast<size_t>(j)] * dequant(1, b, h, j, e, vb[static_cast<size_t>((h * rows + j) * d + e)]);
        }
        out[static_cast<size_t>((b * n1 + n) * d + e)] = acc / sum;
      }
    }
  }
  return out;
}

// (b, n, j, e) of a tensor in the layout: BNSD [B, N, S, D], BSND [B, S, N, D], BSH [B, S, N * D].
Shape LayoutShape(const std::string& layout, int64_t b, int64_t n, int64_t s, int64_t d) {
  if (layout == "BNSD") return {b, n, s, d};
  if (layout == "BSND") return {b, s, n, d};
  return {b, s, n * d};
}
size_t LayoutIndex(const std::string& layout, int64_t n_all, int64_t s_all, int64_t d, int64_t b, int64_t n, int64_t j,
                   int64_t e) {
  if (layout == "BNSD") return static_cast<size_t>(((b * n_all + n) * s_all + j) * d + e);
  return static_cast<size_t>(((b * s_all + j) * n_all + n) * d + e);
}

// strided: every other element along the last dim (a stepped view of a buffer twice as long, the rest poison).
std::unique_ptr<DeviceTensor> UploadParam(const Param& p, bool strided) {
  if (!strided) return Upload(p.dtype, p.shape, p.values);
  Layout layout = MakeLayout(p.shape, View::kContiguous);
  for (int64_t& stride : layout.strides) stride *= 2;
  layout.storageShape = p.shape;
  layout.storageShape.back() *= 2;
  auto t = std::make_unique<DeviceTensor>(p.dtype, layout);
  t->Poison();
  t->WriteView(p.values);
  return t;
}

struct Devices {
  std::unique_ptr<DeviceTensor> query, key, value, table, out;
  std::unique_ptr<DeviceTensor> scale[2], offset[2];
};

// Phase 1 of the spec's API with the devices' tensors.
aclnnStatus Call(const Spec& s, const Devices& t, OpArgs& a, uint64_t* w, aclOpExecutor** e) {
  char layout[8];
  std::snprintf(layout, sizeof layout, "%s", s.layout.c_str());
  const double scale = 1.0 / std::sqrt(static_cast<double>(s.head_dim));
  aclTensor* q = a.Tensor(*t.query);
  aclTensorList* k = a.TensorList({a.Tensor(*t.key)});
  aclTensorList* v = a.TensorList({a.Tensor(*t.value)});
  aclIntArray* lens = a.IntArray(s.kv_lens);
  aclTensor* table = t.table ? a.Tensor(*t.table) : nullptr;
  const int64_t block = t.table ? s.block_size : 0;
  const auto opt = [&](const std::unique_ptr<DeviceTensor>& x) { return x ? a.Tensor(*x) : nullptr; };
  aclTensor* out = a.Tensor(*t.out);
  aclTensor *cs = nullptr, *co = nullptr, *ks = nullptr, *ko = nullptr, *vs = nullptr, *vo = nullptr;
  if (s.separate) {
    ks = opt(t.scale[0]), ko = opt(t.offset[0]), vs = opt(t.scale[1]), vo = opt(t.offset[1]);
  } else {
    cs = opt(t.scale[0]), co = opt(t.offset[0]);
  }
  const int64_t mode = ModeOf(s, 0), value_mode = ModeOf(s, 1);
  switch (s.api) {
    case Api::kIfaV3:
      return aclnnIncreFlashAttentionV3GetWorkspaceSize(q, k, v, nullptr, nullptr, lens, nullptr, nullptr, nullptr,
                                                        nullptr, nullptr, cs, co, table, s.heads, scale, layout,
                                                        s.kv_heads, block, 1, out, w, e);
    case Api::kIfaV4:
      return aclnnIncreFlashAttentionV4GetWorkspaceSize(q, k, v, nullptr, nullptr, lens, nullptr, nullptr, nullptr,
                                                        nullptr, nullptr, cs, co, table, nullptr, s.heads, scale,
                                                        layout, s.kv_heads, block, 0, out, w, e);
    case Api::kFiaV1:
      return aclnnFusedInferAttentionScoreGetWorkspaceSize(
          q, k, v, nullptr, nullptr, nullptr, lens, nullptr, nullptr, nullptr, nullptr, nullptr, cs, co, table, nullptr,
          nullptr, s.heads, scale, 65535, 65535, layout, s.kv_heads, 0, 0, block, mode, false, out, nullptr, w, e);
    case Api::kFiaV2:
      return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
          q, k, v, nullptr, nullptr, nullptr, lens, nullptr, nullptr, nullptr, nullptr, nullptr, cs, co, table, nullptr,
          nullptr, ks, ko, vs, vo, nullptr, nullptr, nullptr, s.heads, scale, 65535, 65535, layout, s.kv_heads, 0, 0,
          block, s.separate ? 0 : mode, false, s.separate ? mode : 0, s.separate ? value_mode : 0, out, nullptr, w, e);
    case Api::kFiaV4:
      return aclnnFusedInferAttentionScoreV4GetWorkspaceSize(
          q, k, v, nullptr, nullptr, nullptr, lens, nullptr, nullptr, nullptr, nullptr, nullptr, cs, co, table, nullptr,
          nullptr, ks, ko, vs, vo, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, s.heads,
          scale, 65535, 65535, layout, s.kv_heads, 0, 0, block, s.separate ? 0 : mode, false, s.separate ? mode : 0,
          s.separate ? value_mode : 0, 0, out, nullptr, w, e);
  }
  return ACLNN_ERR_INNER;
}

Phase2 Phase2Of(Api api) {
  switch (api) {
    case Api::kIfaV3:
      return aclnnIncreFlashAttentionV3;
    case Api::kIfaV4:
      return aclnnIncreFlashAttentionV4;
    case Api::kFiaV1:
      return aclnnFusedInferAttentionScore;
    case Api::kFiaV2:
      return aclnnFusedInferAttentionScoreV2;
    case Api::kFiaV4:
      return aclnnFusedInferAttentionScoreV4;
  }
  return nullptr;
}

// Random data for the spec and its device tensors.
void Make(const Spec& s, Rng& rng, Problem& p, Devices& t) {
  const int64_t n1 = s.heads, n2 = s.kv_heads, d = s.head_dim;
  const auto batch = static_cast<int64_t>(s.kv_lens.size());
  const int64_t longest = MaxOf(s.kv_lens);
  const int64_t storage = std::max(s.storage, longest);
  const bool paged = s.cache_rank != 0;
  p.tokens = paged ? longest + 3 : storage;
  t.query = std::make_unique<DeviceTensor>(s.dtype, LayoutShape(s.layout, batch, n1, 1, d));
  const Values qv = t.query->FillRandom(rng, Range{-1, 1});
  p.q.assign(static_cast<size_t>(batch * n1 * d), 0.0);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t n = 0; n < n1; ++n) {
      for (int64_t e = 0; e < d; ++e) {
        p.q[static_cast<size_t>((b * n1 + n) * d + e)] = qv[LayoutIndex(s.layout, n1, 1, d, b, n, 0, e)];
      }
    }
  }
  // The cache as [N_kv][S][D] int8 per batch (S = storage, or the longest length when paged).
  const int64_t rows = paged ? longest : storage;
  for (int64_t b = 0; b < batch; ++b) {
    for (auto* cache : {&p.k, &p.v}) {
      std::vector<int> x(static_cast<size_t>(n2 * rows * d));
      for (int& y : x) y = static_cast<int>(std::floor(rng.Uniform(-128, 128)));
      cache->push_back(std::move(x));
    }
  }
  if (!paged) {
    const Shape shape = LayoutShape(s.layout, batch, n2, storage, d);
    Layout layout = MakeLayout(shape, View::kContiguous);
    if (s.strided) {  // BNSD rows padded by 16 elements
      const int64_t row = d + 16;
      layout.strides = {n2 * storage * row, storage * row, row, 1};
      layout.storageShape = {batch, n2, storage, row};
    }
    for (int side = 0; side < 2; ++side) {
      auto& dev = side == 0 ? t.key : t.value;
      const auto& src = side == 0 ? p.k : p.v;
      Values host(static_cast<size_t>(NumElements(shape)));
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t n = 0; n < n2; ++n) {
          for (int64_t j = 0; j < storage; ++j) {
            for (int64_t e = 0; e < d; ++e) {
              host[LayoutIndex(s.layout, n2, storage, d, b, n, j, e)] =
                  src[static_cast<size_t>(b)][static_cast<size_t>((n * rows + j) * d + e)];
            }
          }
        }
      }
      dev = std::make_unique<DeviceTensor>(ACL_INT8, layout);
      dev->Poison();
      dev->WriteView(host);
    }
  } else {
    // Each batch's keys in blockSize-row blocks at shuffled cache positions (two spare blocks); slots no key
    // fills hold 127, which must not leak.
    const int64_t bs = s.block_size;
    int64_t blocks = 2, most = 0;
    for (const int64_t length : s.kv_lens) {
      blocks += (length + bs - 1) / bs;
      most = std::max(most, (length + bs - 1) / bs);
    }
    std::vector<int64_t> position(static_cast<size_t>(blocks));
    std::iota(position.begin(), position.end(), 0);
    for (int64_t i = blocks - 1; i > 0; --i) {
      std::swap(position[static_cast<size_t>(i)],
                position[static_cast<size_t>(rng.Uniform(0, 1) * static_cast<double>(i + 1)) % (i + 1)]);
    }
    const Shape shape = s.cache_rank == 3 ? Shape{blocks, bs, n2 * d} : Shape{blocks, n2, bs, d};
    Values kc(static_cast<size_t>(NumElements(shape)), 127.0), vc = kc;
    const int64_t columns = most + 1;
    std::vector<int64_t> entries(static_cast<size_t>(batch * columns), 0);
    int64_t next = 0;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t length = s.kv_lens[static_cast<size_t>(b)];
      int64_t* row_entries = entries.data() + b * columns;
      for (int64_t c = 0; c * bs < length; ++c) row_entries[c] = position[static_cast<size_t>(next++)];
      for (int64_t j = 0; j < length; ++j) {
        const int64_t block = row_entries[j / bs], row = j % bs;
        for (int64_t n = 0; n < n2; ++n) {
          for (int64_t e = 0; e < d; ++e) {
            const auto at = static_cast<size_t>(s.cache_rank == 3 ? (block * bs + row) * n2 * d + n * d + e
                                                                  : ((block * n2 + n) * bs + row) * d + e);
            const auto from = static_cast<size_t>((n * rows + j) * d + e);
            kc[at] = p.k[static_cast<size_t>(b)][from];
            vc[at] = p.v[static_cast<size_t>(b)][from];
          }
        }
      }
    }
    t.key = Upload(ACL_INT8, shape, kc);
    t.value = Upload(ACL_INT8, shape, vc);
    t.table = Upload(ACL_INT32, {batch, columns}, Values(entries.begin(), entries.end()));
  }
  for (int side = 0; side < 2; ++side) {
    if (!s.separate && side == 1) {  // the combined tensors serve both sides
      p.scale[1] = p.scale[0];
      p.offset[1] = p.offset[0];
      break;
    }
    p.scale[side] = MakeParam(s, side, p.tokens, rng, false);
    t.scale[side] = UploadParam(p.scale[side], s.strided);
    if (s.offset) {
      p.offset[side] = MakeParam(s, side, p.tokens, rng, true);
      t.offset[side] = UploadParam(p.offset[side], s.strided);
    }
  }
  t.out = std::make_unique<DeviceTensor>(s.dtype, LayoutShape(s.layout, batch, n1, 1, d));
  t.out->Poison();
}

void RunSpec(const Spec& s) {
  SCOPED_TRACE(s.name);
  Rng rng = Rng::ForCurrentTest();
  Problem p;
  Devices t;
  Make(s, rng, p, t);
  const OpRun run =
      RunOp([&](OpArgs& a, uint64_t* w, aclOpExecutor** e) { return Call(s, t, a, w, e); }, Phase2Of(s.api));
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values want = Reference(s, p, Fault::kNone);
  double vmax = 0;
  for (const Value& x : want) vmax = std::max(vmax, std::abs(x.real()));
  // f32 throughout, one rounding to the dtype at the end: 2 roundoffs of the largest output.
  const Expected tolerance = RelativeTolerance(want, s.dtype, 2, std::vector<double>(want.size(), vmax));
  // The output as [B, N, D].
  const int64_t n1 = s.heads, d = s.head_dim;
  const auto batch = static_cast<int64_t>(s.kv_lens.size());
  const Values got_layout = t.out->ReadView();
  Values got(want.size());
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t n = 0; n < n1; ++n) {
      for (int64_t e = 0; e < d; ++e) {
        got[static_cast<size_t>((b * n1 + n) * d + e)] = got_layout[LayoutIndex(s.layout, n1, 1, d, b, n, 0, e)];
      }
    }
  }
  ExpectNear(got, tolerance, "attentionOut");
  // The test can fail: each fault that changes what the spec's parameters say moves the result far off.
  std::vector<Fault> faults = {Fault::kNoScale};
  if (s.offset) faults.push_back(Fault::kNoOffset);
  const int64_t m0 = ModeOf(s, 0), m1 = ModeOf(s, 1);
  const bool channels = m0 == 0 && s.channel_shape != 4;
  if (channels) faults.push_back(Fault::kOtherChannel);
  if (s.kv_heads > 1 && (channels || m0 == 2 || m0 == 3)) faults.push_back(Fault::kOtherHead);
  if (m0 == 1 || m0 == 3 || m1 == 1) faults.push_back(Fault::kOtherToken);
  if ((m0 == 1 || m0 == 3 || m1 == 1) && batch > 1) faults.push_back(Fault::kOtherBatch);
  if (m0 == m1) faults.push_back(Fault::kSwapKv);
  for (const Fault fault : faults) {
    const Values wrong = Reference(s, p, fault);
    double worst = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      worst = std::max(worst, std::abs(want[i].real() - wrong[i].real()) / tolerance.tolerance[i]);
    }
    EXPECT_GT(worst, 5.0) << "fault " << static_cast<int>(fault) << " hardly moves the reference";
  }
}

class AntiquantTest : public ::testing::TestWithParam<Spec> {};

TEST_P(AntiquantTest, MatchesTheFloat64Reference) { RunSpec(GetParam()); }

std::vector<Spec> Specs() {
  std::vector<Spec> specs;
  const auto add = [&](Spec s) { specs.push_back(std::move(s)); };
  // IFA V3 / V4: combined per channel in each shape, per tensor; f16 and bf16; GQA 1 and 4; the layouts.
  add({.api = Api::kIfaV3, .kv_lens = {70, 9, 0, 130}, .storage = 131, .name = "ifa_v3_channel_bnsd_f16"});
  add({.api = Api::kIfaV4,
       .channel_shape = 1,
       .dtype = ACL_BF16,
       .layout = "BSND",
       .heads = 8,
       .kv_heads = 2,
       .kv_lens = {65, 3},
       .storage = 80,
       .name = "ifa_v4_channel_1n_bsnd_bf16_gqa4"});
  add({.api = Api::kIfaV3,
       .channel_shape = 2,
       .layout = "BSH",
       .heads = 8,
       .kv_heads = 2,
       .head_dim = 32,
       .kv_lens = {1, 100},
       .storage = 100,
       .name = "ifa_v3_channel_nd_bsh_gqa4"});
  add({.api = Api::kIfaV4,
       .channel_shape = 3,
       .offset = false,
       .dtype = ACL_BF16,
       .kv_lens = {64, 129},
       .storage = 129,
       .name = "ifa_v4_channel_h_no_offset_bf16"});
  add({.api = Api::kIfaV3, .channel_shape = 4, .kv_lens = {33, 0, 7}, .storage = 40, .name = "ifa_v3_per_tensor"});
  add({.api = Api::kIfaV4,
       .heads = 8,
       .kv_heads = 2,
       .kv_lens = {70, 5},
       .strided = true,
       .name = "ifa_v4_channel_strided_gqa4"});
  add({.api = Api::kIfaV3,
       .dtype = ACL_BF16,
       .heads = 8,
       .kv_heads = 2,
       .kv_lens = {70, 0, 33},
       .cache_rank = 4,
       .name = "ifa_v3_paged_nbsd_gqa4"});
  add({.api = Api::kIfaV4,
       .layout = "BSH",
       .kv_lens = {100, 31},
       .cache_rank = 3,
       .block_size = 64,
       .name = "ifa_v4_paged_bsh"});
  // FIA V1 / V2 / V4 with the combined parameters: per channel, per tensor and (antiquantMode 1) per token.
  add({.api = Api::kFiaV1, .kv_lens = {70, 9}, .storage = 75, .name = "fia_v1_channel"});
  add({.api = Api::kFiaV2,
       .form = Form::kPerToken,
       .heads = 8,
       .kv_heads = 2,
       .kv_lens = {70, 0, 129},
       .storage = 130,
       .name = "fia_v2_per_token_gqa4"});
  add({.api = Api::kFiaV4,
       .form = Form::kPerToken,
       .dtype = ACL_BF16,
       .layout = "BSND",
       .kv_lens = {40, 65},
       .cache_rank = 3,
       .name = "fia_v4_per_token_paged_bf16"});
  add({.api = Api::kFiaV1,
       .form = Form::kPerToken,
       .offset = false,
       .layout = "BSH",
       .kv_lens = {17, 66},
       .storage = 70,
       .name = "fia_v1_per_token_no_offset_bsh"});
  add({.api = Api::kFiaV4,
       .channel_shape = 4,
       .dtype = ACL_BF16,
       .kv_lens = {50, 1},
       .storage = 50,
       .name = "fia_v4_per_tensor_bf16"});
  // FIA V2 / V4 with the separate key / value parameters.
  add({.api = Api::kFiaV2,
       .separate = true,
       .heads = 8,
       .kv_heads = 2,
       .kv_lens = {70, 3},
       .storage = 70,
       .name = "fia_v2_separate_channel_gqa4"});
  add({.api = Api::kFiaV4,
       .separate = true,
       .channel_shape = 2,
       .dtype = ACL_BF16,
       .layout = "BSND",
       .kv_lens = {64, 0, 65},
       .storage = 65,
       .name = "fia_v4_separate_channel_nd_bf16"});
  add({.api = Api::kFiaV2,
       .separate = true,
       .channel_shape = 4,
       .kv_lens = {20, 90},
       .storage = 90,
       .name = "fia_v2_separate_per_tensor"});
  add({.api = Api::kFiaV2,
       .separate = true,
       .form = Form::kPerToken,
       .token_rank2 = true,
       .heads = 8,
       .kv_heads = 2,
       .kv_lens = {70, 33},
       .storage = 72,
       .name = "fia_v2_separate_per_token_bs"});
  add({.api = Api::kFiaV4,
       .separate = true,
       .form = Form::kPerToken,
       .kv_lens = {45, 80},
       .cache_rank = 4,
       .name = "fia_v4_separate_per_token_paged"});
  add({.api = Api::kFiaV2,
       .separate = true,
       .form = Form::kPerTensorHead,
       .dtype = ACL_BF16,
       .heads = 8,
       .kv_heads = 4,
       .kv_lens = {70, 1},
       .storage = 70,
       .name = "fia_v2_separate_per_tensor_head_bf16"});
  add({.api = Api::kFiaV4,
       .separate = true,
       .form = Form::kPerTokenHead,
       .layout = "BSH",
       .heads = 8,
       .kv_heads = 2,
       .kv_lens = {70, 0, 20},
       .storage = 70,
       .name = "fia_v4_separate_per_token_head_bsh"});
  add({.api = Api::kFiaV2,
       .separate = true,
       .form = Form::kMixed,
       .heads = 8,
       .kv_heads = 2,
       .kv_lens = {70, 12},
       .storage = 70,
       .strided = true,
       .name = "fia_v2_key_channel_value_token_strided"});
  // Strided key / value rows with stepped parameter views of other forms.
  add({.api = Api::kIfaV3,
       .channel_shape = 3,
       .kv_lens = {66, 2},
       .strided = true,
       .name = "ifa_v3_channel_h_strided"});
  add({.api = Api::kFiaV4,
       .separate = true,
       .form = Form::kPerTokenHead,
       .heads = 8,
       .kv_heads = 2,
       .kv_lens = {40, 70},
       .storage = 70,
       .strided = true,
       .name = "fia_v4_separate_per_token_head_strided"});
  add({.api = Api::kFiaV1,
       .form = Form::kPerToken,
       .kv_lens = {9, 64},
       .strided = true,
       .name = "fia_v1_per_token_strided"});
  return specs;
}

INSTANTIATE_TEST_SUITE_P(Antiquant, AntiquantTest, ::testing::ValuesIn(Specs()),
                         [](const ::testing::TestParamInfo<Spec>& info) { return info.param.name; });

// ---- rejections: one valid FIA V2 call (combined per channel, BNSD, B 2, N 4, S 16, D 64), then one change each.
OpRun RunReject(const Spec& s, const std::function<void(Devices&)>& edit) {
  Rng rng = Rng::ForCurrentTest();
  Problem p;
  Devices t;
  Make(s, rng, p, t);
  if (edit) edit(t);
  return RunOp([&](OpArgs& a, uint64_t* w, aclOpExecutor** e) { return Call(s, t, a, w, e); }, Phase2Of(s.api));
}

Spec Base() { return Spec{.api = Api::kFiaV2, .kv_lens = {16, 5}, .storage = 16, .name = "base"}; }

TEST(AntiquantRejects, TheValidCallsRun) {
  EXPECT_TRUE(RunReject(Base(), nullptr).ok());
  Spec separate = Base();
  separate.separate = true;
  EXPECT_TRUE(RunReject(separate, nullptr).ok());
}

TEST(AntiquantRejects, ModesAndPresence) {
  // No scale with an INT8 cache.
  ExpectRejectedWith(RunReject(Base(), [](Devices& t) { t.scale[0].reset(); }), kTiling, {"antiquantScale"});
  // Separate parameters: both scales or neither, both offsets or neither, no offset without a scale.
  Spec sep = Base();
  sep.separate = true;
  ExpectRejectedWith(RunReject(sep, [](Devices& t) { t.scale[1].reset(); }), kTiling,
                     {"keyAntiquantScaleOptional", "valueAntiquantScaleOptional"});
  ExpectRejectedWith(RunReject(sep, [](Devices& t) { t.offset[0].reset(); }), kTiling,
                     {"valueAntiquantOffsetOptional", "keyAntiquantOffsetOptional"});
  ExpectRejectedWith(RunReject(sep,
                               [](Devices& t) {
                                 t.scale[0].reset();
                                 t.scale[1].reset();
                               }),
                     kTiling, {"keyAntiquantOffsetOptional", "keyAntiquantScaleOptional"});
  // Modes: combined 0 or 1 (2 not supported by Canopy); separate equal or 0 / 1, at most 5 (4, 5 not supported).
  const auto fia_v2_modes = [](int64_t mode, int64_t key_mode, int64_t value_mode, bool separate) {
    Spec s = Base();
    s.separate = separate;
    Rng rng = Rng::ForCurrentTest();
    Problem p;
    Devices t;
    Make(s, rng, p, t);
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          char layout[] = "BNSD";
          const auto opt = [&](const std::unique_ptr<DeviceTensor>& x) { return x ? a.Tensor(*x) : nullptr; };
          aclTensor *cs = nullptr, *co = nullptr, *ks = nullptr, *ko = nullptr, *vs = nullptr, *vo = nullptr;
          if (separate) {
            ks = opt(t.scale[0]), ko = opt(t.offset[0]), vs = opt(t.scale[1]), vo = opt(t.offset[1]);
          } else {
            cs = opt(t.scale[0]), co = opt(t.offset[0]);
          }
          return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
              a.Tensor(*t.query), a.TensorList({a.Tensor(*t.key)}), a.TensorList({a.Tensor(*t.value)}), nullptr,
              nullptr, nullptr, a.IntArray(s.kv_lens), nullptr, nullptr, nullptr, nullptr, nullptr, cs, co, nullptr,
              nullptr, nullptr, ks, ko, vs, vo, nullptr, nullptr, nullptr, s.heads, 0.125, 65535, 65535, layout,
              s.kv_heads, 0, 0, 0, mode, false, key_mode, value_mode, a.Tensor(*t.out), nullptr, w, e);
        },
        aclnnFusedInferAttentionScoreV2);
  };
  ExpectRejectedWith(fia_v2_modes(2, 0, 0, false), kNotSupported, {"'antiquantMode'", "not supported by Canopy"});
  ExpectRejectedWith(fia_v2_modes(3, 0, 0, false), kTiling, {"'antiquantMode'"});
  ExpectRejectedWith(fia_v2_modes(-1, 0, 0, false), kTiling, {"'antiquantMode'"});
  ExpectRejectedWith(fia_v2_modes(0, 1, 0, true), kTiling, {"'keyAntiquantMode'", "'valueAntiquantMode'"});
  ExpectRejectedWith(fia_v2_modes(0, 2, 3, true), kTiling, {"'keyAntiquantMode'"});
  ExpectRejectedWith(fia_v2_modes(0, 6, 6, true), kTiling, {"'keyAntiquantMode'", "[0, 5]"});
  ExpectRejectedWith(fia_v2_modes(0, 4, 4, true), kNotSupported, {"'keyAntiquantMode'", "not supported by Canopy"});
  ExpectRejectedWith(fia_v2_modes(0, 5, 5, true), kNotSupported, {"'keyAntiquantMode'"});
  // With the separate parameters given the combined mode is not read.
  EXPECT_TRUE(fia_v2_modes(7, 0, 0, true).ok());
  // Per-channel parameters under mode 1 have the wrong shape.
  ExpectRejectedWith(fia_v2_modes(1, 0, 0, false), kTiling, {"antiquantScaleOptional", "per token"});
  // Key per channel with value per token takes an f16 query only.
  Spec mixed = Base();
  mixed.separate = true;
  mixed.form = Form::kMixed;
  EXPECT_TRUE(RunReject(mixed, nullptr).ok());
  mixed.dtype = ACL_BF16;
  ExpectRejectedWith(RunReject(mixed, nullptr), kTiling, {"FLOAT16"});
}

TEST(AntiquantRejects, ShapesAndDtypes) {
  const auto with = [](const std::function<void(Devices&)>& edit, Spec s = Base()) { return RunReject(s, edit); };
  const auto replace = [](std::unique_ptr<DeviceTensor>& x, aclDataType dtype, const Shape& shape) {
    x = std::make_unique<DeviceTensor>(dtype, shape);
    if (dtype != ACL_INT4) x->WriteView(Values(static_cast<size_t>(NumElements(shape)), 0.01));  // never read
  };
  // Per channel: [2, N, 1, D], [2, 1, N, D], [2, N, D], [2, H] or [2]; N is numKeyValueHeads, D the head dim.
  for (const Shape& bad : std::vector<Shape>{
           {2, 4, 64}, {1, 4, 1, 64}, {2, 3, 1, 64}, {2, 4, 2, 64}, {2, 4, 32}, {2, 255}, {3}, {4, 64}}) {
    SCOPED_TRACE(ShapeString(bad));
    if (bad == Shape{2, 4, 64}) continue;  // valid
    ExpectRejectedWith(with([&](Devices& t) {
                         replace(t.scale[0], ACL_FLOAT16, bad);
                         t.offset[0].reset();
                       }),
                       kTiling, {"antiquantScaleOptional", "shape"});
  }
  // Offset: same rank and dtype as the scale, of a valid shape itself.
  ExpectRejectedWith(with([&](Devices& t) {
                       replace(t.offset[0], ACL_FLOAT16, {2, 4, 64});
                     }),
                     kTiling, {"antiquantOffsetOptional", "ranks"});
  ExpectRejectedWith(with([&](Devices& t) {
                       replace(t.offset[0], ACL_BF16, {2, 4, 1, 64});
                     }),
                     kTiling, {"antiquantOffsetOptional", "BF16"});
  ExpectRejectedWith(with([&](Devices& t) {
                       replace(t.offset[0], ACL_FLOAT16, {2, 1, 4, 32});
                     }),
                     kTiling, {"antiquantOffsetOptional", "shape"});
  // Per channel in the query's dtype; per token FLOAT32.
  ExpectRejectedWith(with([&](Devices& t) {
                       replace(t.scale[0], ACL_FLOAT, {2, 4, 1, 64});
                       t.offset[0].reset();
                     }),
                     kTiling, {"antiquantScaleOptional", "FLOAT"});
  Spec token = Base();
  token.form = Form::kPerToken;
  ExpectRejectedWith(with(
                         [&](Devices& t) {
                           replace(t.scale[0], ACL_FLOAT16, {2, 2, 16});
                           t.offset[0].reset();
                         },
                         token),
                     kTiling, {"antiquantScaleOptional", "FLOAT"});
  // Per token: [2, B, >= S].
  ExpectRejectedWith(with(
                         [&](Devices& t) {
                           replace(t.scale[0], ACL_FLOAT, {2, 2, 15});
                           t.offset[0].reset();
                         },
                         token),
                     kTiling, {"antiquantScaleOptional", "per token"});
  ExpectRejectedWith(with(
                         [&](Devices& t) {
                           replace(t.scale[0], ACL_FLOAT, {2, 3, 16});
                           t.offset[0].reset();
                         },
                         token),
                     kTiling, {"antiquantScaleOptional"});
  EXPECT_TRUE(with(
                  [&](Devices& t) {
                    replace(t.scale[0], ACL_FLOAT, {2, 2, 20});
                    t.offset[0].reset();
                  },
                  token)
                  .ok());
  // Separate parameters: key and value of one shape.
  Spec sep = Base();
  sep.separate = true;
  ExpectRejectedWith(with(
                         [&](Devices& t) {
                           replace(t.scale[1], ACL_FLOAT16, {1, 4, 64});
                         },
                         sep),
                     kTiling, {"keyAntiquantScaleOptional", "valueAntiquantScaleOptional", "same shape"});
  ExpectRejectedWith(with(
                         [&](Devices& t) {
                           replace(t.offset[1], ACL_FLOAT16, {1, 4, 64});
                         },
                         sep),
                     kTiling, {"keyAntiquantOffsetOptional", "same shape"});
  // Antiquantisation parameters without an INT8 cache.
  ExpectRejectedWith(with([&](Devices& t) {
                       replace(t.key, ACL_FLOAT16, {2, 4, 16, 64});
                       replace(t.value, ACL_FLOAT16, {2, 4, 16, 64});
                     }),
                     kTiling, {"antiquantScaleOptional", "not INT8"});
  // Key and value both INT8.
  ExpectRejectedWith(with([&](Devices& t) {
                       replace(t.value, ACL_FLOAT16, {2, 4, 16, 64});
                     }),
                     kInvalid, {"'value'", "INT8"});
  // INT4 caches are not supported by Canopy.
  ExpectRejectedWith(with([&](Devices& t) {
                       replace(t.key, ACL_INT4, {2, 4, 16, 64});
                       replace(t.value, ACL_INT4, {2, 4, 16, 64});
                     }),
                     kNotSupported, {"'key'", "not supported by Canopy"});
}

TEST(AntiquantRejects, FormsCanopyLacks) {
  // More than one query row (FIA): not supported by Canopy.
  Spec s = Base();
  Rng rng = Rng::ForCurrentTest();
  Problem p;
  Devices t;
  Make(s, rng, p, t);
  DeviceTensor q(ACL_FLOAT16, {2, 4, 3, 64}), out(ACL_FLOAT16, {2, 4, 3, 64});
  q.FillRandom(rng, Range{-1, 1});
  const OpRun prefill = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        char layout[] = "BNSD";
        return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
            a.Tensor(q), a.TensorList({a.Tensor(*t.key)}), a.TensorList({a.Tensor(*t.value)}), nullptr, nullptr,
            nullptr, a.IntArray(s.kv_lens), nullptr, nullptr, nullptr, nullptr, nullptr, a.Tensor(*t.scale[0]),
            a.Tensor(*t.offset[0]), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, 4, 0.125, 65535, 65535, layout, 4, 0, 0, 0, 0, false, 0, 0, a.Tensor(out), nullptr, w, e);
      },
      aclnnFusedInferAttentionScoreV2);
  ExpectRejectedWith(prefill, kNotSupported, {"'key'", "more than one query row"});
  // A paged INT8 cache takes a blockSize that is a multiple of 32.
  Spec paged = Base();
  paged.cache_rank = 4;
  paged.block_size = 16;
  ExpectRejectedWith(RunReject(paged, nullptr), kTiling, {"'blockSize'", "32"});
}

}  // namespace
}  // namespace canopy_test
