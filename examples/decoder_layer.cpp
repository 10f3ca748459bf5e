// One Llama-style decoder layer run entirely through the public aclnn / acl API
// on one stream, as an inference client (llama.cpp's CANN backend, a vLLM-style
// server) runs it, checked against a float64 reference of the same layer and
// timed against the machine's roofline:
//
//   x -> RmsNorm -> QKV projection -> RoPE (q, k) -> k, v written into the KV
//   cache (InplaceScatterUpdate) -> FusedInferAttentionScoreV2 over the cache
//   (GQA, BSND) -> output projection -> AddRmsNorm (residual) -> gate+up
//   projection -> SwiGlu -> down projection -> Add (residual) -> out
//
// Activations are bf16. The projections run in two weight modes: bf16 weights
// through aclnnMm, and int4 weights with per-group bf16 scales (group 128)
// through aclnnWeightQuantBatchMatmulV2. Every weight is stored [out, in] (the
// input features contiguous, as ggml and PyTorch keep a linear layer's weight)
// and passed as its transposed view [in, out], as llama.cpp passes it; the int4
// weight is signed, two values a byte along the input features (the even one
// in the low nibble), its scales [out, in / 128] passed transposed likewise.
// On Canopy FRACTAL_NZ is the ND layout (see aclnn_trans_matmul_weight.h), so
// TransMatmulWeight would change nothing: the bf16 path is plain ND.
//
//   decoder_layer --check   the small configuration only (the ctest entry)
//   decoder_layer           the small check, the full-size check and the timings
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_scatter_update.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"

#define CHECK_ACL(expr)                                                                                     \
  do {                                                                                                      \
    const auto status_ = (expr);                                                                            \
    if (status_ != 0) {                                                                                     \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #expr, static_cast<int>(status_), aclGetRecentErrMsg()); \
      std::exit(1);                                                                                         \
    }                                                                                                       \
  } while (0)

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kEpsilon = 1e-6;
constexpr int64_t kGroupSize = 128;        // int4 scales: one per 128 input features
constexpr int64_t kRopeHalfMode = 0;       // rotate_half, as Llama's Hugging Face form
constexpr int64_t kCausalMaskSize = 2048;  // sparse mode 3 takes this compressed mask
constexpr int64_t kSparseNone = 0;         // decode: one query row sees every cached key
constexpr int64_t kSparseRightDownCausal = 3;
constexpr int64_t kAllTokens = 2147483647;  // preTokens / nextTokens: no window
constexpr double kRopeBase = 10000.0;
// bf16 keeps 8 significant bits (a relative step of 2^-8); each of the layer's
// ~13 roundings (the attention weights' among them, where the CPU multiplies
// them in bf16 as CANN does) can move an intermediate by one step in either
// program, so a final element may differ by a few steps of its row's scale:
// 5 steps allowed.
constexpr double kTolerance = 5.0 / 256;

// ---- bf16 on the host
uint16_t ToBf16(double value) {
  const auto f = static_cast<float>(value);
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof(bits));
  bits += 0x7fffu + ((bits >> 16) & 1u);  // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}
double FromBf16(uint16_t value) {
  const uint32_t bits = static_cast<uint32_t>(value) << 16;
  float f = 0;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}
double RoundBf16(double value) { return FromBf16(ToBf16(value)); }

// splitmix64: fast enough for the ~200 M weights of the full-size layer.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double Uniform(double low, double high) {
    return low + (high - low) * static_cast<double>(Next() >> 11) * (1.0 / 9007199254740992.0);
  }

 private:
  uint64_t state_;
};

std::vector<uint16_t> RandomBf16(Random& random, int64_t count, double low, double high) {
  std::vector<uint16_t> values(static_cast<size_t>(count));
  for (uint16_t& v : values) v = ToBf16(random.Uniform(low, high));
  return values;
}

// ---- device memory
void* DeviceAlloc(size_t bytes) {
  void* device = nullptr;
  CHECK_ACL(aclrtMalloc(&device, std::max<size_t>(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST));
  return device;
}
template <typename T>
void* DeviceCopyOf(const std::vector<T>& host) {
  const size_t bytes = host.size() * sizeof(T);
  void* device = DeviceAlloc(bytes);
  if (bytes > 0) CHECK_ACL(aclrtMemcpy(device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  return device;
}
std::vector<uint16_t> HostCopyOf(const void* device, int64_t count) {
  std::vector<uint16_t> host(static_cast<size_t>(count));
  const size_t bytes = host.size() * sizeof(uint16_t);
  CHECK_ACL(aclrtMemcpy(host.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  return host;
}

// ---- tensor descriptors
std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i > 1; --i) strides[i - 2] = strides[i - 1] * shape[i - 1];
  return strides;
}
// A view of `shape` with `strides` (elements) starting `offset` elements into storage of `storage` elements.
aclTensor* View(aclDataType dtype, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                int64_t offset, int64_t storage, void* data) {
  return aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), offset, ACL_FORMAT_ND, &storage, 1, data);
}
aclTensor* Dense(aclDataType dtype, const std::vector<int64_t>& shape, void* data) {
  return aclCreateTensor(shape.data(), shape.size(), dtype, RowMajorStrides(shape).data(), 0, ACL_FORMAT_ND,
                         shape.data(), shape.size(), data);
}

// One workspace for every op: the ops run in stream order on one stream, so
// they can share it; it grows (after draining the stream) only in warm-up.
class Workspace {
 public:
  void* Reserve(uint64_t bytes, aclrtStream stream) {
    if (bytes > size_) {
      CHECK_ACL(aclrtSynchronizeStream(stream));
      if (data_ != nullptr) CHECK_ACL(aclrtFree(data_));
      data_ = DeviceAlloc(bytes);
      size_ = bytes;
    }
    return bytes > 0 ? data_ : nullptr;
  }
  ~Workspace() {
    if (data_ != nullptr) aclrtFree(data_);
  }

 private:
  void* data_ = nullptr;
  uint64_t size_ = 0;
};

// Events after each op, for the per-op times the stream measured.
class OpTimer {
 public:
  explicit OpTimer(bool enabled) : enabled_(enabled) {}
  void Start(aclrtStream stream) {
    if (!enabled_) return;
    names_.clear();
    Record("", stream);
  }
  void Record(const char* name, aclrtStream stream) {
    if (!enabled_) return;
    if (used_ == events_.size()) {
      aclrtEvent event = nullptr;
      CHECK_ACL(aclrtCreateEvent(&event));
      events_.push_back(event);
    }
    CHECK_ACL(aclrtRecordEvent(events_[used_++], stream));
    names_.emplace_back(name);
  }
  // Milliseconds per op name, summed over the op's calls, after the stream is synchronised.
  std::vector<std::pair<std::string, double>> Collect() {
    std::vector<std::pair<std::string, double>> times;
    for (size_t i = 1; i < used_; ++i) {
      float ms = 0;
      CHECK_ACL(aclrtEventElapsedTime(&ms, events_[i - 1], events_[i]));
      auto it = std::find_if(times.begin(), times.end(), [&](const auto& t) { return t.first == names_[i]; });
      if (it == times.end()) {
        times.emplace_back(names_[i], ms);
      } else {
        it->second += ms;
      }
    }
    used_ = 0;
    return times;
  }
  ~OpTimer() {
    for (aclrtEvent event : events_) aclrtDestroyEvent(event);
  }

 private:
  bool enabled_;
  std::vector<aclrtEvent> events_;
  std::vector<std::string> names_;
  size_t used_ = 0;
};

// ---- the layer's shape and weights
struct Config {
  int64_t hidden;
  int64_t heads;
  int64_t kv_heads;
  int64_t head_dim;
  int64_t intermediate;
  int64_t tokens;    // new tokens this step (1: decode)
  int64_t past;      // tokens already in the cache
  int64_t capacity;  // the cache's length
  int64_t QDim() const { return heads * head_dim; }
  int64_t KvDim() const { return kv_heads * head_dim; }
  int64_t QkvDim() const { return QDim() + 2 * KvDim(); }
  int64_t KvLength() const { return past + tokens; }
};

enum class WeightMode { kBf16, kInt4 };
const char* ModeName(WeightMode mode) { return mode == WeightMode::kBf16 ? "bf16" : "int4"; }

// A linear layer y[., n] = x[., k] @ W^T with W stored [n, k].
struct Projection {
  int64_t k = 0;
  int64_t n = 0;
  WeightMode mode = WeightMode::kBf16;
  std::vector<uint16_t> bf16;    // [n, k]
  std::vector<uint8_t> packed;   // int4 [n, k / 2], signed, the even element in the low nibble
  std::vector<uint16_t> scales;  // bf16 [n, k / kGroupSize]
  void* weight_device = nullptr;
  void* scale_device = nullptr;
  // The reference's reading of an int4 weight: exact, or rounded to bf16 as
  // the NPU's antiquantisation makes it in the activations' dtype (CANN
  // allows both; Canopy keeps decode products exact and rounds prefill ones).
  bool round_dequantised = false;

  int64_t Groups() const { return k / kGroupSize; }
  // Row j of W (input features of output j) in float64.
  void Row(int64_t j, std::vector<double>& row) const {
    row.resize(static_cast<size_t>(k));
    for (int64_t i = 0; i < k; ++i) {
      if (mode == WeightMode::kBf16) {
        row[i] = FromBf16(bf16[j * k + i]);
      } else {
        const uint8_t byte = packed[(j * k + i) / 2];
        const int nibble = (i % 2 == 0) ? (byte & 0xf) : (byte >> 4);
        const double value = (nibble >= 8 ? nibble - 16 : nibble) * FromBf16(scales[j * Groups() + i / kGroupSize]);
        row[i] = round_dequantised ? RoundBf16(value) : value;
      }
    }
  }
  int64_t WeightBytes() const { return mode == WeightMode::kBf16 ? k * n * 2 : k * n / 2 + n * Groups() * 2; }
};

Projection MakeProjection(Random& random, int64_t k, int64_t n, WeightMode mode) {
  Projection p;
  p.k = k;
  p.n = n;
  p.mode = mode;
  const double bound = std::sqrt(3.0 / static_cast<double>(k));  // unit-variance outputs
  if (mode == WeightMode::kBf16) {
    p.bf16 = RandomBf16(random, k * n, -bound, bound);
    p.weight_device = DeviceCopyOf(p.bf16);
  } else {
    p.packed.resize(static_cast<size_t>(k * n / 2));
    for (uint8_t& byte : p.packed) byte = static_cast<uint8_t>(random.Next());
    const double nibble_rms = std::sqrt(21.5);  // of a uniform value in [-8, 7]
    p.scales = RandomBf16(random, n * p.Groups(), 0.5 * bound / nibble_rms, 1.5 * bound / nibble_rms);
    p.weight_device = DeviceCopyOf(p.packed);
    p.scale_device = DeviceCopyOf(p.scales);
  }
  return p;
}

struct LayerWeights {
  std::vector<uint16_t> attention_norm;  // [hidden]
  std::vector<uint16_t> ffn_norm;        // [hidden]
  void* attention_norm_device = nullptr;
  void* ffn_norm_device = nullptr;
  Projection qkv;      // hidden -> q | k | v
  Projection output;   // heads * head_dim -> hidden
  Projection gate_up;  // hidden -> gate | up (SwiGlu: swish(gate) * up)
  Projection down;     // intermediate -> hidden

  int64_t WeightBytes() const {
    return qkv.WeightBytes() + output.WeightBytes() + gate_up.WeightBytes() + down.WeightBytes() +
           4 * static_cast<int64_t>(attention_norm.size());
  }
};

LayerWeights MakeWeights(const Config& c, WeightMode mode, uint64_t seed) {
  Random random(seed);
  LayerWeights w;
  w.attention_norm = RandomBf16(random, c.hidden, 0.8, 1.2);
  w.ffn_norm = RandomBf16(random, c.hidden, 0.8, 1.2);
  w.attention_norm_device = DeviceCopyOf(w.attention_norm);
  w.ffn_norm_device = DeviceCopyOf(w.ffn_norm);
  w.qkv = MakeProjection(random, c.hidden, c.QkvDim(), mode);
  w.output = MakeProjection(random, c.QDim(), c.hidden, mode);
  w.gate_up = MakeProjection(random, c.hidden, 2 * c.intermediate, mode);
  w.down = MakeProjection(random, c.intermediate, c.hidden, mode);
  return w;
}

void FreeWeights(LayerWeights& w) {
  for (void* p : {w.attention_norm_device, w.ffn_norm_device, w.qkv.weight_device, w.qkv.scale_device,
                  w.output.weight_device, w.output.scale_device, w.gate_up.weight_device, w.gate_up.scale_device,
                  w.down.weight_device, w.down.scale_device}) {
    if (p != nullptr) CHECK_ACL(aclrtFree(p));
  }
}

// The step's inputs: new tokens' hidden states, the cache's earlier tokens, the rotary tables.
struct StepInputs {
  std::vector<uint16_t> x;       // [tokens, hidden]
  std::vector<uint16_t> k_past;  // [past, kv_heads, head_dim] (already rotated)
  std::vector<uint16_t> v_past;  // [past, kv_heads, head_dim]
  std::vector<uint16_t> cos;     // [tokens, head_dim]
  std::vector<uint16_t> sin;     // [tokens, head_dim]
};

StepInputs MakeInputs(const Config& c, uint64_t seed) {
  Random random(seed);
  StepInputs in;
  in.x = RandomBf16(random, c.tokens * c.hidden, -1, 1);
  in.k_past = RandomBf16(random, c.past * c.KvDim(), -1, 1);
  in.v_past = RandomBf16(random, c.past * c.KvDim(), -1, 1);
  const int64_t half = c.head_dim / 2;
  for (int64_t t = 0; t < c.tokens; ++t) {
    for (int64_t d = 0; d < c.head_dim; ++d) {
      const double frequency = std::pow(kRopeBase, -static_cast<double>(d % half) / static_cast<double>(half));
      const double angle = static_cast<double>(c.past + t) * frequency;
      in.cos.push_back(ToBf16(std::cos(angle)));
      in.sin.push_back(ToBf16(std::sin(angle)));
    }
  }
  return in;
}

// Device buffers of one step (bf16 unless said).
struct Buffers {
  void* x;
  void* normed;
  void* rstd;  // f32
  void* qkv;
  void* q;
  void* k;
  void* k_cache;  // [1, capacity, kv_heads, head_dim]
  void* v_cache;
  void* cache_position;  // int64 [1]
  void* cos;
  void* sin;
  void* mask;  // bool [2048, 2048], above the diagonal true (masked)
  void* attention;
  void* projected;
  void* residual;
  void* ffn_normed;
  void* gate_up;
  void* activated;
  void* down;
  void* out;
};

Buffers MakeBuffers(const Config& c, const StepInputs& in) {
  const int64_t s = c.tokens;
  Buffers b{};
  b.x = DeviceCopyOf(in.x);
  b.normed = DeviceAlloc(s * c.hidden * 2);
  b.rstd = DeviceAlloc(s * 4);
  b.qkv = DeviceAlloc(s * c.QkvDim() * 2);
  b.q = DeviceAlloc(s * c.QDim() * 2);
  b.k = DeviceAlloc(s * c.KvDim() * 2);
  std::vector<uint16_t> cache(static_cast<size_t>(c.capacity * c.KvDim()), 0);
  std::copy(in.k_past.begin(), in.k_past.end(), cache.begin());
  b.k_cache = DeviceCopyOf(cache);
  std::copy(in.v_past.begin(), in.v_past.end(), cache.begin());
  b.v_cache = DeviceCopyOf(cache);
  b.cache_position = DeviceCopyOf(std::vector<int64_t>{c.past});
  b.cos = DeviceCopyOf(in.cos);
  b.sin = DeviceCopyOf(in.sin);
  std::vector<uint8_t> mask(static_cast<size_t>(kCausalMaskSize * kCausalMaskSize));
  for (int64_t i = 0; i < kCausalMaskSize; ++i) {
    for (int64_t j = 0; j < kCausalMaskSize; ++j) mask[i * kCausalMaskSize + j] = j > i ? 1 : 0;
  }
  b.mask = DeviceCopyOf(mask);
  b.attention = DeviceAlloc(s * c.QDim() * 2);
  b.projected = DeviceAlloc(s * c.hidden * 2);
  b.residual = DeviceAlloc(s * c.hidden * 2);
  b.ffn_normed = DeviceAlloc(s * c.hidden * 2);
  b.gate_up = DeviceAlloc(s * 2 * c.intermediate * 2);
  b.activated = DeviceAlloc(s * c.intermediate * 2);
  b.down = DeviceAlloc(s * c.hidden * 2);
  b.out = DeviceAlloc(s * c.hidden * 2);
  return b;
}

void FreeBuffers(Buffers& b) {
  for (void* p : {b.x,        b.normed,         b.rstd,    b.qkv,       b.q,    b.k,         b.k_cache,
                  b.v_cache,  b.cache_position, b.cos,     b.sin,       b.mask, b.attention, b.projected,
                  b.residual, b.ffn_normed,     b.gate_up, b.activated, b.down, b.out}) {
    CHECK_ACL(aclrtFree(p));
  }
}

// ---- one wrapper per op: phase 1, phase 2 on the stream, descriptors dropped
struct Launcher {
  aclrtStream stream;
  Workspace* workspace;
  OpTimer* timer;
  template <typename Phase1, typename Phase2>
  void Run(const char* name, Phase1 phase1, Phase2 phase2) const {
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_ACL(phase1(&workspace_size, &executor));
    CHECK_ACL(phase2(workspace->Reserve(workspace_size, stream), workspace_size, executor, stream));
    timer->Record(name, stream);
  }
};

void RmsNorm(const Launcher& l, aclTensor* x, void* gamma, int64_t hidden, aclTensor* y, aclTensor* rstd) {
  aclTensor* g = Dense(ACL_BF16, {hidden}, gamma);
  l.Run(
      "RmsNorm",
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnRmsNormGetWorkspaceSize(x, g, kEpsilon, y, rstd, size, executor);
      },
      aclnnRmsNorm);
  aclDestroyTensor(g);
}

// y[m, n] = x[m, k] @ W^T: W's [n, k] storage passed as the [k, n] transposed view.
void Project(const Launcher& l, const char* name, const Projection& p, int64_t m, void* x_data, void* y_data) {
  aclTensor* x = Dense(ACL_BF16, {m, p.k}, x_data);
  aclTensor* y = Dense(ACL_BF16, {m, p.n}, y_data);
  if (p.mode == WeightMode::kBf16) {
    aclTensor* w = View(ACL_BF16, {p.k, p.n}, {1, p.k}, 0, p.k * p.n, p.weight_device);
    l.Run(
        name,
        [&](uint64_t* size, aclOpExecutor** executor) {
          return aclnnMmGetWorkspaceSize(x, w, y, /*cubeMathType=*/0, size, executor);
        },
        aclnnMm);
    aclDestroyTensor(w);
  } else {
    aclTensor* w = View(ACL_INT4, {p.k, p.n}, {1, p.k}, 0, p.k * p.n, p.weight_device);
    aclTensor* scale = View(ACL_BF16, {p.Groups(), p.n}, {1, p.Groups()}, 0, p.Groups() * p.n, p.scale_device);
    l.Run(
        name,
        [&](uint64_t* size, aclOpExecutor** executor) {
          return aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(x, w, scale, nullptr, nullptr, nullptr, nullptr,
                                                               static_cast<int>(kGroupSize), y, size, executor);
        },
        aclnnWeightQuantBatchMatmulV2);
    aclDestroyTensor(w);
    aclDestroyTensor(scale);
  }
  aclDestroyTensor(x);
  aclDestroyTensor(y);
}

void Rope(const Launcher& l, const char* name, aclTensor* x, const Config& c, void* cos_data, void* sin_data,
          aclTensor* out) {
  aclTensor* cos = Dense(ACL_BF16, {1, c.tokens, 1, c.head_dim}, cos_data);
  aclTensor* sin = Dense(ACL_BF16, {1, c.tokens, 1, c.head_dim}, sin_data);
  l.Run(
      name,
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, cos, sin, kRopeHalfMode, out, size, executor);
      },
      aclnnRotaryPositionEmbedding);
  aclDestroyTensor(cos);
  aclDestroyTensor(sin);
}

// The new tokens' rows written into the cache at the position `position` holds.
void CacheWrite(const Launcher& l, const char* name, const Config& c, void* cache_data, void* position,
                aclTensor* updates) {
  aclTensor* cache = Dense(ACL_BF16, {1, c.capacity, c.kv_heads, c.head_dim}, cache_data);
  aclTensor* index = Dense(ACL_INT64, {1}, position);
  l.Run(
      name,
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnInplaceScatterUpdateGetWorkspaceSize(cache, index, updates, /*axis=*/1, size, executor);
      },
      aclnnInplaceScatterUpdate);
  aclDestroyTensor(cache);
  aclDestroyTensor(index);
}

void Attention(const Launcher& l, const Config& c, const Buffers& b) {
  aclTensor* q = Dense(ACL_BF16, {1, c.tokens, c.heads, c.head_dim}, b.q);
  aclTensor* k = Dense(ACL_BF16, {1, c.capacity, c.kv_heads, c.head_dim}, b.k_cache);
  aclTensor* v = Dense(ACL_BF16, {1, c.capacity, c.kv_heads, c.head_dim}, b.v_cache);
  aclTensorList* keys = aclCreateTensorList(&k, 1);
  aclTensorList* values = aclCreateTensorList(&v, 1);
  const int64_t kv_length = c.KvLength();
  aclIntArray* kv_lengths = aclCreateIntArray(&kv_length, 1);
  const bool prompt = c.tokens > 1;
  aclTensor* mask = prompt ? Dense(ACL_BOOL, {kCausalMaskSize, kCausalMaskSize}, b.mask) : nullptr;
  aclTensor* out = Dense(ACL_BF16, {1, c.tokens, c.heads, c.head_dim}, b.attention);
  char layout[] = "BSND";
  l.Run(
      "Attention",
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
            q, keys, values, nullptr, mask, nullptr, kv_lengths, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, c.heads,
            1.0 / std::sqrt(static_cast<double>(c.head_dim)), kAllTokens, prompt ? 0 : kAllTokens, layout, c.kv_heads,
            prompt ? kSparseRightDownCausal : kSparseNone, /*innerPrecise=*/0, /*blockSize=*/0,
            /*antiquantMode=*/0, /*softmaxLseFlag=*/false, /*keyAntiquantMode=*/0, /*valueAntiquantMode=*/0, out,
            nullptr, size, executor);
      },
      aclnnFusedInferAttentionScoreV2);
  aclDestroyTensorList(keys);  // destroys k and v
  aclDestroyTensorList(values);
  aclDestroyIntArray(kv_lengths);
  aclDestroyTensor(q);
  if (mask != nullptr) aclDestroyTensor(mask);
  aclDestroyTensor(out);
}

void AddRmsNorm(const Launcher& l, const Config& c, const LayerWeights& w, const Buffers& b) {
  aclTensor* x1 = Dense(ACL_BF16, {c.tokens, c.hidden}, b.x);
  aclTensor* x2 = Dense(ACL_BF16, {c.tokens, c.hidden}, b.projected);
  aclTensor* gamma = Dense(ACL_BF16, {c.hidden}, w.ffn_norm_device);
  aclTensor* y = Dense(ACL_BF16, {c.tokens, c.hidden}, b.ffn_normed);
  aclTensor* rstd = Dense(ACL_FLOAT, {c.tokens, 1}, b.rstd);
  aclTensor* sum = Dense(ACL_BF16, {c.tokens, c.hidden}, b.residual);
  l.Run(
      "AddRmsNorm",
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnAddRmsNormGetWorkspaceSize(x1, x2, gamma, kEpsilon, y, rstd, sum, size, executor);
      },
      aclnnAddRmsNorm);
  for (aclTensor* t : {x1, x2, gamma, y, rstd, sum}) aclDestroyTensor(t);
}

void SwiGlu(const Launcher& l, const Config& c, const Buffers& b) {
  aclTensor* x = Dense(ACL_BF16, {c.tokens, 2 * c.intermediate}, b.gate_up);
  aclTensor* out = Dense(ACL_BF16, {c.tokens, c.intermediate}, b.activated);
  l.Run(
      "SwiGlu",
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnSwiGluGetWorkspaceSize(x, /*dim=*/-1, out, size, executor);
      },
      aclnnSwiGlu);
  aclDestroyTensor(x);
  aclDestroyTensor(out);
}

void ResidualAdd(const Launcher& l, const Config& c, const Buffers& b) {
  aclTensor* residual = Dense(ACL_BF16, {c.tokens, c.hidden}, b.residual);
  aclTensor* down = Dense(ACL_BF16, {c.tokens, c.hidden}, b.down);
  aclTensor* out = Dense(ACL_BF16, {c.tokens, c.hidden}, b.out);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  l.Run(
      "Add",
      [&](uint64_t* size, aclOpExecutor** executor) {
        return aclnnAddGetWorkspaceSize(residual, down, alpha, out, size, executor);
      },
      aclnnAdd);
  for (aclTensor* t : {residual, down, out}) aclDestroyTensor(t);
  aclDestroyScalar(alpha);
}

// The whole layer, enqueued on the stream without waiting.
void EnqueueLayer(const Launcher& l, const Config& c, const LayerWeights& w, const Buffers& b) {
  const int64_t s = c.tokens;
  aclTensor* x = Dense(ACL_BF16, {s, c.hidden}, b.x);
  aclTensor* normed = Dense(ACL_BF16, {s, c.hidden}, b.normed);
  aclTensor* rstd = Dense(ACL_FLOAT, {s, 1}, b.rstd);
  RmsNorm(l, x, w.attention_norm_device, c.hidden, normed, rstd);
  for (aclTensor* t : {x, normed, rstd}) aclDestroyTensor(t);

  Project(l, "QKV projection", w.qkv, s, b.normed, b.qkv);

  // q, k and v are column ranges of the [s, q | k | v] product: strided BSND views.
  const int64_t row = c.QkvDim(), storage = s * row;
  const std::vector<int64_t> q_shape = {1, s, c.heads, c.head_dim}, kv_shape = {1, s, c.kv_heads, c.head_dim};
  const std::vector<int64_t> strides = {s * row, row, c.head_dim, 1};
  aclTensor* q_view = View(ACL_BF16, q_shape, strides, 0, storage, b.qkv);
  aclTensor* k_view = View(ACL_BF16, kv_shape, strides, c.QDim(), storage, b.qkv);
  aclTensor* v_view = View(ACL_BF16, kv_shape, strides, c.QDim() + c.KvDim(), storage, b.qkv);
  aclTensor* q = Dense(ACL_BF16, q_shape, b.q);
  aclTensor* k = Dense(ACL_BF16, kv_shape, b.k);
  Rope(l, "RoPE", q_view, c, b.cos, b.sin, q);
  Rope(l, "RoPE", k_view, c, b.cos, b.sin, k);
  CacheWrite(l, "KV cache write", c, b.k_cache, b.cache_position, k);
  CacheWrite(l, "KV cache write", c, b.v_cache, b.cache_position, v_view);
  for (aclTensor* t : {q_view, k_view, v_view, q, k}) aclDestroyTensor(t);

  Attention(l, c, b);
  Project(l, "Output projection", w.output, s, b.attention, b.projected);
  AddRmsNorm(l, c, w, b);
  Project(l, "Gate+up projection", w.gate_up, s, b.ffn_normed, b.gate_up);
  SwiGlu(l, c, b);
  Project(l, "Down projection", w.down, s, b.activated, b.down);
  ResidualAdd(l, c, b);
}

// ---- the float64 reference, rounding to bf16 where the program stores bf16
using Rows = std::vector<std::vector<double>>;

// y[r][j - begin] = bf16(x[r] . W[j]) for the output columns [begin, end).
Rows Linear(const Projection& p, const Rows& x, int64_t begin, int64_t end) {
  Rows y(x.size(), std::vector<double>(static_cast<size_t>(end - begin)));
  std::vector<double> w;
  for (int64_t j = begin; j < end; ++j) {
    p.Row(j, w);
    for (size_t r = 0; r < x.size(); ++r) {
      double sums[4] = {0, 0, 0, 0};
      int64_t i = 0;
      for (; i + 4 <= p.k; i += 4) {
        for (int u = 0; u < 4; ++u) sums[u] += x[r][i + u] * w[i + u];
      }
      for (; i < p.k; ++i) sums[0] += x[r][i] * w[i];
      y[r][j - begin] = RoundBf16(sums[0] + sums[1] + sums[2] + sums[3]);
    }
  }
  return y;
}

std::vector<double> NormRow(const std::vector<double>& x, const std::vector<uint16_t>& gamma) {
  double squares = 0;
  for (double v : x) squares += v * v;
  const double rstd = 1.0 / std::sqrt(squares / static_cast<double>(x.size()) + kEpsilon);
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = RoundBf16(x[i] * rstd * FromBf16(gamma[i]));
  return y;
}

// Rotates each head of row t (rotate_half): x * cos + cat(-x2, x1) * sin.
std::vector<double> RopeRow(const std::vector<double>& x, const Config& c, const StepInputs& in, int64_t t) {
  std::vector<double> y(x.size());
  const int64_t half = c.head_dim / 2;
  for (size_t h = 0; h < x.size() / static_cast<size_t>(c.head_dim); ++h) {
    const double* head = &x[h * c.head_dim];
    for (int64_t d = 0; d < c.head_dim; ++d) {
      const double rotated = d < half ? -head[d + half] : head[d - half];
      y[h * c.head_dim + d] =
          RoundBf16(head[d] * FromBf16(in.cos[t * c.head_dim + d]) + rotated * FromBf16(in.sin[t * c.head_dim + d]));
    }
  }
  return y;
}

// The layer's output rows `rows` (of the step's new tokens): every new token's
// k and v are computed (attention needs them), the rest only for those rows.
Rows ReferenceLayer(const Config& c, const LayerWeights& w, const StepInputs& in, const std::vector<int64_t>& rows) {
  const int64_t s = c.tokens;
  Rows x(static_cast<size_t>(s)), normed(static_cast<size_t>(s));
  for (int64_t t = 0; t < s; ++t) {
    x[t].assign(static_cast<size_t>(c.hidden), 0);
    for (int64_t i = 0; i < c.hidden; ++i) x[t][i] = FromBf16(in.x[t * c.hidden + i]);
    normed[t] = NormRow(x[t], w.attention_norm);
  }
  const Rows kv = Linear(w.qkv, normed, c.QDim(), c.QkvDim());  // [s, k | v]
  // The cache after the write: past rows, then the new rotated k / plain v.
  Rows keys(static_cast<size_t>(c.KvLength())), values(static_cast<size_t>(c.KvLength()));
  for (int64_t p = 0; p < c.past; ++p) {
    for (int64_t i = 0; i < c.KvDim(); ++i) {
      keys[p].push_back(FromBf16(in.k_past[p * c.KvDim() + i]));
      values[p].push_back(FromBf16(in.v_past[p * c.KvDim() + i]));
    }
  }
  for (int64_t t = 0; t < s; ++t) {
    keys[c.past + t] = RopeRow(std::vector<double>(kv[t].begin(), kv[t].begin() + c.KvDim()), c, in, t);
    values[c.past + t].assign(kv[t].begin() + c.KvDim(), kv[t].end());
  }

  Rows selected_normed, selected_x;
  for (int64_t t : rows) selected_normed.push_back(normed[t]);
  const Rows q_raw = Linear(w.qkv, selected_normed, 0, c.QDim());
  Rows attention(rows.size(), std::vector<double>(static_cast<size_t>(c.QDim())));
  const double scale = 1.0 / std::sqrt(static_cast<double>(c.head_dim));
  const int64_t group = c.heads / c.kv_heads;
  for (size_t r = 0; r < rows.size(); ++r) {
    const int64_t t = rows[r];
    const std::vector<double> q = RopeRow(q_raw[r], c, in, t);
    const int64_t visible = c.past + t + 1;  // causal: keys up to the token's own position
    std::vector<double> scores(static_cast<size_t>(visible));
    for (int64_t h = 0; h < c.heads; ++h) {
      const int64_t kv_offset = (h / group) * c.head_dim;
      double highest = -INFINITY;
      for (int64_t p = 0; p < visible; ++p) {
        double dot = 0;
        for (int64_t d = 0; d < c.head_dim; ++d) dot += q[h * c.head_dim + d] * keys[p][kv_offset + d];
        scores[p] = dot * scale;
        highest = std::max(highest, scores[p]);
      }
      double total = 0;
      for (double& score : scores) total += (score = std::exp(score - highest));
      for (int64_t d = 0; d < c.head_dim; ++d) {
        double sum = 0;
        // The weights multiply the values rounded to bf16, as CANN's kernel
        // rounds them to the inputs' dtype for its second product.
        for (int64_t p = 0; p < visible; ++p) sum += RoundBf16(scores[p]) * values[p][kv_offset + d];
        attention[r][h * c.head_dim + d] = RoundBf16(sum / total);
      }
    }
    selected_x.push_back(x[t]);
  }
  const Rows projected = Linear(w.output, attention, 0, c.hidden);
  Rows residual(rows.size()), ffn_normed(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    std::vector<double> sum(static_cast<size_t>(c.hidden));
    for (int64_t i = 0; i < c.hidden; ++i) sum[i] = selected_x[r][i] + projected[r][i];
    ffn_normed[r] = NormRow(sum, w.ffn_norm);  // AddRmsNorm normalises the unrounded sum
    for (double& v : sum) v = RoundBf16(v);
    residual[r] = sum;
  }
  const Rows gate_up = Linear(w.gate_up, ffn_normed, 0, 2 * c.intermediate);
  Rows activated(rows.size(), std::vector<double>(static_cast<size_t>(c.intermediate)));
  for (size_t r = 0; r < rows.size(); ++r) {
    for (int64_t i = 0; i < c.intermediate; ++i) {
      const double gate = gate_up[r][i], up = gate_up[r][c.intermediate + i];
      activated[r][i] = RoundBf16(gate / (1.0 + std::exp(-gate)) * up);
    }
  }
  const Rows down = Linear(w.down, activated, 0, c.hidden);
  Rows out(rows.size(), std::vector<double>(static_cast<size_t>(c.hidden)));
  for (size_t r = 0; r < rows.size(); ++r) {
    for (int64_t i = 0; i < c.hidden; ++i) out[r][i] = RoundBf16(residual[r][i] + down[r][i]);
  }
  return out;
}

// Runs one step and compares the rows `rows` with the reference: every element
// within kTolerance of the row's root-mean-square (plus its own size).
bool CheckLayer(const char* label, const Config& c, WeightMode mode, aclrtStream stream, std::vector<int64_t> rows) {
  if (rows.empty()) {
    for (int64_t t = 0; t < c.tokens; ++t) rows.push_back(t);
  }
  LayerWeights w = MakeWeights(c, mode, 17);
  const StepInputs in = MakeInputs(c, 29);
  Buffers b = MakeBuffers(c, in);
  Workspace workspace;
  OpTimer timer(false);
  EnqueueLayer(Launcher{stream, &workspace, &timer}, c, w, b);
  CHECK_ACL(aclrtSynchronizeStream(stream));
  const std::vector<uint16_t> out = HostCopyOf(b.out, c.tokens * c.hidden);
  const auto worst_against = [&](const Rows& expected) {
    double worst = 0;
    for (size_t r = 0; r < rows.size(); ++r) {
      double squares = 0;
      for (double v : expected[r]) squares += v * v;
      const double rms = std::sqrt(squares / static_cast<double>(c.hidden));
      for (int64_t i = 0; i < c.hidden; ++i) {
        const double got = FromBf16(out[rows[r] * c.hidden + i]);
        worst = std::max(worst, std::abs(got - expected[r][i]) / (rms + std::abs(expected[r][i])));
      }
    }
    return worst;
  };
  double worst = worst_against(ReferenceLayer(c, w, in, rows));
  if (worst > kTolerance && mode == WeightMode::kInt4) {  // the other reading of the int4 weights
    for (Projection* p : {&w.qkv, &w.output, &w.gate_up, &w.down}) p->round_dequantised = true;
    worst = std::min(worst, worst_against(ReferenceLayer(c, w, in, rows)));
  }
  const bool pass = worst <= kTolerance;
  std::printf(
      "  check %-7s %s: %lld token(s), KV %lld, %zu row(s) compared: max |out - ref| / (rms + |ref|) = "
      "%.2e (tolerance %.2e): %s\n",
      label, ModeName(mode), static_cast<long long>(c.tokens), static_cast<long long>(c.KvLength()), rows.size(), worst,
      kTolerance, pass ? "PASS" : "FAIL");
  FreeBuffers(b);
  FreeWeights(w);
  return pass;
}

// ---- the roofline's measurements
// Bytes a second of a streaming read (a sum over 1 GiB) on every hardware thread, best of 3.
double MeasureBandwidth() {
  const size_t words = (size_t{1} << 30) / sizeof(uint64_t);
  std::vector<uint64_t> data(words);
  for (size_t i = 0; i < words; ++i) data[i] = i;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  double best = 0;
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<uint64_t> sums(threads, 0);
    const auto start = Clock::now();
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        const size_t begin = words * t / threads, end = words * (t + 1) / threads;
        uint64_t sum = 0;
        for (size_t i = begin; i < end; ++i) sum += data[i];
        sums[t] = sum;
      });
    }
    for (std::thread& worker : workers) worker.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    uint64_t total = 0;
    for (uint64_t s : sums) total += s;
    if (total != (uint64_t{words} * (words - 1)) / 2) std::fprintf(stderr, "bandwidth sum is wrong\n");
    best = std::max(best, static_cast<double>(words * sizeof(uint64_t)) / seconds);
  }
  return best;
}

// FLOP/s of an n x n x n aclnnMatmul of `dtype`, best of 3 after a warm-up.
double MeasureMatmul(aclrtStream stream, aclDataType dtype, int64_t n) {
  const size_t bytes = static_cast<size_t>(n * n) * (dtype == ACL_FLOAT ? 4 : 2);
  std::vector<uint8_t> host(bytes);
  Random random(5);
  if (dtype == ACL_FLOAT) {
    for (size_t i = 0; i < bytes; i += 4) {
      const auto v = static_cast<float>(random.Uniform(-1, 1));
      std::memcpy(&host[i], &v, 4);
    }
  } else {
    for (size_t i = 0; i < bytes; i += 2) {
      const uint16_t v = ToBf16(random.Uniform(-1, 1));
      std::memcpy(&host[i], &v, 2);
    }
  }
  void* a = DeviceCopyOf(host);
  void* b = DeviceCopyOf(host);
  void* c = DeviceAlloc(bytes);
  aclTensor* ta = Dense(dtype, {n, n}, a);
  aclTensor* tb = Dense(dtype, {n, n}, b);
  aclTensor* tc = Dense(dtype, {n, n}, c);
  Workspace workspace;
  double best = 0;
  for (int trial = 0; trial < 4; ++trial) {
    const auto start = Clock::now();
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    CHECK_ACL(aclnnMatmulGetWorkspaceSize(ta, tb, tc, /*cubeMathType=*/0, &size, &executor));
    CHECK_ACL(aclnnMatmul(workspace.Reserve(size, stream), size, executor, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (trial > 0) best = std::max(best, 2.0 * static_cast<double>(n * n) * static_cast<double>(n) / seconds);
  }
  for (aclTensor* t : {ta, tb, tc}) aclDestroyTensor(t);
  for (void* p : {a, b, c}) CHECK_ACL(aclrtFree(p));
  return best;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct Machine {
  double bandwidth;  // bytes / s
  double bf16_peak;  // FLOP / s
  double f32_peak;
};

// Times the full-size step (one warm-up, then the median of `runs`) and prints its line and per-op times.
void TimeLayer(const char* phase, const Config& c, WeightMode mode, aclrtStream stream, const Machine& machine,
               int runs) {
  LayerWeights w = MakeWeights(c, mode, 17);
  const StepInputs in = MakeInputs(c, 29);
  Buffers b = MakeBuffers(c, in);
  Workspace workspace;
  OpTimer timer(true);
  const Launcher launcher{stream, &workspace, &timer};
  std::vector<double> seconds;
  std::vector<std::vector<std::pair<std::string, double>>> op_times;
  for (int run = 0; run <= runs; ++run) {
    const auto start = Clock::now();
    timer.Start(stream);
    EnqueueLayer(launcher, c, w, b);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    auto times = timer.Collect();
    if (run == 0) continue;  // warm-up
    seconds.push_back(elapsed);
    op_times.push_back(std::move(times));
  }
  const double median = Median(seconds);

  // Roofline: decode reads every weight and the cache's keys and values once;
  // prefill performs the projections' and the causal attention's FLOPs.
  double bound = 0;
  const char* bound_kind = nullptr;
  if (c.tokens == 1) {
    const double bytes = static_cast<double>(w.WeightBytes() + 2 * c.KvLength() * c.KvDim() * 2);
    bound = bytes / machine.bandwidth;
    bound_kind = "bandwidth";
  } else {
    const double s = static_cast<double>(c.tokens);
    const double projections = 2.0 * s *
                               static_cast<double>(c.hidden * c.QkvDim() + c.QDim() * c.hidden +
                                                   c.hidden * 2 * c.intermediate + c.intermediate * c.hidden);
    const double pairs = s * (s + 1) / 2 + s * static_cast<double>(c.past);  // causal (query, key) pairs
    const double attention = 4.0 * pairs * static_cast<double>(c.heads * c.head_dim);
    bound = (projections + attention) / machine.bf16_peak;
    bound_kind = "bf16 compute";
  }
  std::printf("  %-7s %s: median %.2f ms of %d runs = %.1f tokens/s; %s bound %.2f ms: achieved/bound = %.2f\n", phase,
              ModeName(mode), median * 1e3, runs, static_cast<double>(c.tokens) / median, bound_kind, bound * 1e3,
              bound / median);
  // Each op's median over the runs (the machine is shared: one run's split can be noisy).
  for (size_t op = 0; op < op_times[0].size(); ++op) {
    std::vector<double> ms;
    for (const auto& run : op_times) ms.push_back(run[op].second);
    const double op_median = Median(ms);
    std::printf("      %-20s %9.3f ms  %5.1f%%\n", op_times[0][op].first.c_str(), op_median,
                100.0 * op_median / (median * 1e3));
  }
  FreeBuffers(b);
  FreeWeights(w);
}

}  // namespace

int main(int argc, char** argv) {
  const bool check_only = argc > 1 && std::strcmp(argv[1], "--check") == 0;
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  std::printf("Llama-style decoder layer through aclnn on %s\n", aclrtGetSocName());

  // Small: every output element against the reference; KV lengths of 70 and 7
  // are multiples of no block size.
  bool pass = true;
  const Config small_decode{256, 4, 2, 64, 512, 1, 69, 96};
  const Config small_extend{256, 4, 2, 64, 512, 5, 65, 96};
  const Config small_prefill{256, 4, 2, 64, 512, 7, 0, 96};
  for (WeightMode mode : {WeightMode::kBf16, WeightMode::kInt4}) {
    pass = CheckLayer("decode", small_decode, mode, stream, {}) && pass;
    pass = CheckLayer("extend", small_extend, mode, stream, {}) && pass;
    pass = CheckLayer("prefill", small_prefill, mode, stream, {}) && pass;
  }

  if (!check_only) {
    // Llama-2 7B's layer: hidden 4096, 32 query heads and 8 KV heads of 128, intermediate 11008.
    const Config decode{4096, 32, 8, 128, 11008, 1, 4095, 4096};
    const Config prefill{4096, 32, 8, 128, 11008, 512, 0, 4096};
    for (WeightMode mode : {WeightMode::kBf16, WeightMode::kInt4}) {
      pass = CheckLayer("decode", decode, mode, stream, {}) && pass;
      pass = CheckLayer("prefill", prefill, mode, stream, {0, 1, 200, 511}) && pass;
    }

    Machine machine{};
    machine.bandwidth = MeasureBandwidth();
    machine.bf16_peak = MeasureMatmul(stream, ACL_BF16, 2048);
    machine.f32_peak = MeasureMatmul(stream, ACL_FLOAT, 2048);
    std::printf(
        "  machine: streaming read %.1f GB/s on %u threads; Matmul 2048^3 bf16 %.0f GFLOP/s, f32 %.0f "
        "GFLOP/s\n",
        machine.bandwidth * 1e-9, std::max(1u, std::thread::hardware_concurrency()), machine.bf16_peak * 1e-9,
        machine.f32_peak * 1e-9);
    for (WeightMode mode : {WeightMode::kBf16, WeightMode::kInt4}) {
      TimeLayer("decode", decode, mode, stream, machine, 7);
      TimeLayer("prefill", prefill, mode, stream, machine, 3);
    }
  }

  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
