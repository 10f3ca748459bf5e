// aclnnDequantRopeQuantKvcache (CANN's posembedding/dequant_rope_quant_kvcache, A2 kernel). x's rows
// ([B, S, H] or [B, H], H = (Nq + 2 Nkv) * D) split by sizeSplits into q, k, v; an INT32 x is first
// dequantised in f32: (x + bias) * weightScale * activationScale for an INT32 bias, else
// x * weightScale * activationScale + bias. q and k are rotated (rotate-half: y = x * cos + rot(x) * sin,
// rot(x) = [-x2, x1]) in the compute type: f16 with every product and sum rounded to f16 when cos is
// f16 (a dequantised q or k rounded to f16 first), f32 when cos is bf16 (outputs rounded to bf16).
// k after RoPE and v are quantised, rint(value / scale + offset) half to even saturated to INT8, and
// written to the caches: contiguous mode row b * C2 + indices[b] + s of the caches seen as
// [C1 * C2, Nkv * D], page mode row indices[token] (negative: skipped). qOut always, kOut and vOut
// where kvOutput. CANN generates the entry points from the op definition (its dtype table: 161002)
// and checks shapes while tiling (561002); quantModeOptional and layoutOptional are not read. What
// the tiling leaves to the kernel Canopy checks too (561002): D > 0, the dequant tensors long enough,
// outputs of the element counts written. An index outside the cache fails the run before anything
// is written.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_dequant_rope_quant_kvcache.h"
#include "common/half.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kXDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT32};
constexpr DtypeSet kCosDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kBiasDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_FLOAT};
constexpr int64_t kSplits = 3;
constexpr int64_t kHeadDimAlign = 16;  // the tiling: D a multiple of 16
constexpr int64_t kCacheRank = 4;
constexpr int64_t kTokenGrain = 4;
constexpr float kInt8Min = -128.0F, kInt8Max = 127.0F;
// A failed cache-index check: the status a kernel that faults on the NPU reports at synchronisation.
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;  // CANN's tiling failures
constexpr aclnnStatus kIndexFault = ACL_ERROR_RT_AICORE_EXCEPTION;

// The tiling's unified-buffer budget on Atlas A2 (192 KiB a vector core): H too large for one
// token's working set is rejected.
constexpr int64_t kUbBytes = 192 * 1024;
constexpr int64_t kUbBlock = 32;
constexpr int64_t kUbIndicesBytes = 512;

int64_t AlignUp(int64_t value, int64_t to) { return (value + to - 1) / to * to; }

struct Desc {
  aclDataType x_dtype = ACL_FLOAT16, cos_dtype = ACL_FLOAT16, bias_dtype = ACL_FLOAT;
  int64_t batch = 0, seq = 0, tokens = 0;  // tokens = batch * seq
  int64_t heads_q = 0, heads_kv = 0, dim = 0;
  int64_t cache_rows = 0, cache_seq = 0;  // C1 * C2, C2
  bool page = false, dequant = false, offsets = false, bias = false, activation = false;
  int64_t H() const { return (heads_q + 2 * heads_kv) * dim; }
};

// Where the compute step leaves its results in one workspace temporary: each token's cache row
// (int64, -1 skipped), q, k, v in cos's dtype, then quantised k and v.
struct Layout {
  int64_t rows = 0, q = 0, k = 0, v = 0, kq = 0, vq = 0, bytes = 0;
  explicit Layout(const Desc& d) {
    const auto es = static_cast<int64_t>(DtypeSize(d.cos_dtype));
    const int64_t q_elements = d.tokens * d.heads_q * d.dim, kv_elements = d.tokens * d.heads_kv * d.dim;
    q = d.tokens * static_cast<int64_t>(sizeof(int64_t));
    k = q + q_elements * es;
    v = k + kv_elements * es;
    kq = v + kv_elements * es;
    vq = kq + kv_elements;
    bytes = vq + kv_elements;
  }
};

TensorRef Region(const TensorRef& base, int64_t byte_offset, aclDataType dtype, const Shape& shape) {
  TensorRef r;
  r.buffer = base.buffer;
  r.buffer.byte_offset += byte_offset;
  r.dtype = dtype;
  r.shape = shape;
  r.strides.assign(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) r.strides[i - 1] = r.strides[i] * std::max<int64_t>(shape[i], 1);
  return r;
}

float ReadFloat(const char* base, aclDataType dtype, int64_t i) {
  switch (dtype) {
    case ACL_FLOAT16: {
      uint16_t bits;
      std::memcpy(&bits, base + i * 2, sizeof bits);
      return HalfToFloat(bits);
    }
    case ACL_BF16: {
      uint16_t bits;
      std::memcpy(&bits, base + i * 2, sizeof bits);
      return Bf16ToFloat(bits);
    }
    case ACL_INT32: {
      int32_t v;
      std::memcpy(&v, base + i * 4, sizeof v);
      return static_cast<float>(v);
    }
    default: {
      float v;
      std::memcpy(&v, base + i * 4, sizeof v);
      return v;
    }
  }
}

// The value rounded to the compute type's or an output's dtype (f16 or bf16, half to even).
float RoundTo(aclDataType dtype, float v) {
  return dtype == ACL_FLOAT16 ? HalfToFloat(FloatToHalf(v)) : Bf16ToFloat(FloatToBf16(v));
}

void Store(char* base, aclDataType dtype, int64_t i, float v) {
  const uint16_t bits = dtype == ACL_FLOAT16 ? FloatToHalf(v) : FloatToBf16(v);
  std::memcpy(base + i * 2, &bits, sizeof bits);
}

int8_t Quantise(float v, float scale, float offset) {
  const float q = std::nearbyint(v / scale + offset);
  if (std::isnan(q)) return 0;
  return static_cast<int8_t>(std::clamp(q, kInt8Min, kInt8Max));
}

struct Operands {
  BufferRef x, cos, sin, indices, scale_k, scale_v, offset_k, offset_v, weight, activation, bias, work;
};

class DequantRopeQuantKvcacheStep final : public Step {
 public:
  DequantRopeQuantKvcacheStep(const Desc& desc, const Operands& operands) : d_(desc), o_(operands) {}

  aclnnStatus Run(const RunContext& context) const override {
    char* work = context.Resolve(o_.work);
    auto* rows = reinterpret_cast<int64_t*>(work);
    CANOPY_CHECK(CacheRows(context, rows));
    const Layout layout(d_);
    kernels::ParallelFor(d_.tokens, kTokenGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> row(static_cast<size_t>(d_.H())), table(static_cast<size_t>(2 * d_.dim)),
          rotated(static_cast<size_t>(d_.dim));
      for (int64_t t = begin; t < end; ++t) Token(context, work, layout, t, row, table, rotated);
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("dequant rope quant kvcache ") + DtypeName(d_.x_dtype) + " tokens " + std::to_string(d_.tokens) +
           " heads " + std::to_string(d_.heads_q) + "/" + std::to_string(d_.heads_kv) + " D " + std::to_string(d_.dim) +
           (d_.page ? " page" : " contiguous");
  }

 private:
  // Each token's cache row, every index checked before anything is written.
  aclnnStatus CacheRows(const RunContext& context, int64_t* rows) const {
    const auto* indices = reinterpret_cast<const int32_t*>(context.Resolve(o_.indices));
    if (d_.page) {
      for (int64_t t = 0; t < d_.tokens; ++t) {
        const int64_t index = indices[t];
        if (index >= d_.cache_rows) {
          SetErrorMessage(
              "aclnnDequantRopeQuantKvcache: indices[%lld] is %lld, outside the %lld cache slots (page mode)",
              static_cast<long long>(t), static_cast<long long>(index), static_cast<long long>(d_.cache_rows));
          return kIndexFault;
        }
        rows[t] = index < 0 ? -1 : index;
      }
      return ACLNN_SUCCESS;
    }
    for (int64_t b = 0; b < d_.batch; ++b) {
      const int64_t index = indices[b];
      if (index < 0 || index > d_.cache_seq - d_.seq) {
        SetErrorMessage(
            "aclnnDequantRopeQuantKvcache: indices[%lld] is %lld; with %lld tokens a batch it must be in [0, %lld] "
            "(the caches' dim 1 is %lld)",
            static_cast<long long>(b), static_cast<long long>(index), static_cast<long long>(d_.seq),
            static_cast<long long>(d_.cache_seq - d_.seq), static_cast<long long>(d_.cache_seq));
        return kIndexFault;
      }
      for (int64_t s = 0; s < d_.seq; ++s) rows[b * d_.seq + s] = b * d_.cache_seq + index + s;
    }
    return ACLNN_SUCCESS;
  }

  // One token: `row` (H values), `table` (2 D) and `rotated` (D) are the caller's scratch.
  void Token(const RunContext& context, char* work, const Layout& layout, int64_t t, std::vector<float>& row,
             std::vector<float>& table, std::vector<float>& rotated) const {
    const int64_t h = d_.H();
    const char* x = context.Resolve(o_.x);
    for (int64_t j = 0; j < h; ++j) row[static_cast<size_t>(j)] = ReadFloat(x, d_.x_dtype, t * h + j);
    const bool half = d_.cos_dtype == ACL_FLOAT16;  // the kernel's compute type: f16, else f32
    if (d_.dequant) Dequantise(context, x, t, row);
    const int64_t q_width = d_.heads_q * d_.dim, kv_width = d_.heads_kv * d_.dim;
    if (d_.dequant && half) {
      for (int64_t j = 0; j < q_width + kv_width; ++j) {
        row[static_cast<size_t>(j)] = RoundTo(ACL_FLOAT16, row[static_cast<size_t>(j)]);
      }
    }
    const char* cos = context.Resolve(o_.cos);
    const char* sin = context.Resolve(o_.sin);
    const int64_t d = d_.dim;
    for (int64_t i = 0; i < d; ++i) {
      const float s = ReadFloat(sin, d_.cos_dtype, t * d + i);
      table[static_cast<size_t>(i)] = ReadFloat(cos, d_.cos_dtype, t * d + i);
      table[static_cast<size_t>(d + i)] = i < d / 2 ? -s : s;
    }
    Rotate(row.data(), d_.heads_q, table, half, rotated);
    Rotate(row.data() + q_width, d_.heads_kv, table, half, rotated);
    char* q_out = work + layout.q;
    for (int64_t j = 0; j < q_width; ++j) Store(q_out, d_.cos_dtype, t * q_width + j, row[static_cast<size_t>(j)]);
    const auto* scale_k = reinterpret_cast<const float*>(context.Resolve(o_.scale_k));
    const auto* scale_v = reinterpret_cast<const float*>(context.Resolve(o_.scale_v));
    const float* offset_k = d_.offsets ? reinterpret_cast<const float*>(context.Resolve(o_.offset_k)) : nullptr;
    const float* offset_v = d_.offsets ? reinterpret_cast<const float*>(context.Resolve(o_.offset_v)) : nullptr;
    auto* kq = reinterpret_cast<int8_t*>(work + layout.kq);
    auto* vq = reinterpret_cast<int8_t*>(work + layout.vq);
    for (int64_t j = 0; j < kv_width; ++j) {
      const float k = row[static_cast<size_t>(q_width + j)], v = row[static_cast<size_t>(q_width + kv_width + j)];
      Store(work + layout.k, d_.cos_dtype, t * kv_width + j, k);
      Store(work + layout.v, d_.cos_dtype, t * kv_width + j, v);
      kq[t * kv_width + j] = Quantise(k, scale_k[j], offset_k != nullptr ? offset_k[j] : 0.0F);
      vq[t * kv_width + j] = Quantise(v, scale_v[j], offset_v != nullptr ? offset_v[j] : 0.0F);
    }
  }

  void Dequantise(const RunContext& context, const char* x, int64_t t, std::vector<float>& row) const {
    const int64_t h = d_.H();
    const auto* weight = reinterpret_cast<const float*>(context.Resolve(o_.weight));
    const float activation = d_.activation ? reinterpret_cast<const float*>(context.Resolve(o_.activation))[t] : 1.0F;
    const char* bias = d_.bias ? context.Resolve(o_.bias) : nullptr;
    for (int64_t j = 0; j < h; ++j) {
      float& v = row[static_cast<size_t>(j)];
      if (bias != nullptr && d_.bias_dtype == ACL_INT32) {
        int32_t xi, bi;
        std::memcpy(&xi, x + (t * h + j) * 4, sizeof xi);
        std::memcpy(&bi, bias + j * 4, sizeof bi);
        // The kernel's INT32 add wraps.
        const auto sum = static_cast<int32_t>(static_cast<uint32_t>(xi) + static_cast<uint32_t>(bi));
        v = static_cast<float>(sum);
      }
      v *= weight[j];
      if (d_.activation) v *= activation;
      if (bias != nullptr && d_.bias_dtype != ACL_INT32) v += ReadFloat(bias, d_.bias_dtype, j);
    }
  }

  // Rotate-half RoPE of `heads` rows of D values in place, with the token's cos and sin (sin's
  // first half negated, as the kernel does) in `table` [cos, sin]; in f16 every product and the sum
  // are rounded to f16.
  void Rotate(float* values, int64_t heads, const std::vector<float>& table, bool half,
              std::vector<float>& rotated) const {
    const int64_t d = d_.dim, m = d / 2;
    const auto round = [half](float v) { return half ? RoundTo(ACL_FLOAT16, v) : v; };
    for (int64_t n = 0; n < heads; ++n) {
      float* x = values + n * d;
      for (int64_t i = 0; i < d; ++i) {
        const auto iu = static_cast<size_t>(i);
        const float rot = round((i < m ? x[i + m] : x[i - m]) * table[iu + static_cast<size_t>(d)]);
        rotated[iu] = round(rot + round(x[i] * table[iu]));
      }
      std::copy(rotated.begin(), rotated.begin() + d, x);
    }
  }

  Desc d_;
  Operands o_;
};

// Writes each token's quantised row (Nkv * D values) to its cache row; rows of -1 are skipped.
class CacheWriteStep final : public Step {
 public:
  CacheWriteStep(const TensorRef& cache, const TensorRef& rows, const TensorRef& values, int64_t cache_seq)
      : cache_(cache), rows_(rows), values_(values), cache_seq_(cache_seq) {}

  aclnnStatus Run(const RunContext& context) const override {
    auto* cache = reinterpret_cast<int8_t*>(context.Resolve(cache_.buffer));
    const auto* rows = reinterpret_cast<const int64_t*>(context.Resolve(rows_.buffer));
    const auto* values = reinterpret_cast<const int8_t*>(context.Resolve(values_.buffer));
    const int64_t heads = cache_.shape[2], dim = cache_.shape[3];
    // In token order, so that of two tokens naming one slot the later wins.
    for (int64_t t = 0; t < rows_.shape[0]; ++t) {
      if (rows[t] < 0) continue;
      const int64_t at = rows[t] / cache_seq_ * cache_.strides[0] + rows[t] % cache_seq_ * cache_.strides[1];
      const int8_t* src = values + t * heads * dim;
      for (int64_t n = 0; n < heads; ++n) {
        for (int64_t i = 0; i < dim; ++i) cache[at + n * cache_.strides[2] + i * cache_.strides[3]] = src[n * dim + i];
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "kv cache write of " + std::to_string(rows_.shape[0]) + " rows into " + ShapeToString(cache_.shape);
  }

 private:
  TensorRef cache_, rows_, values_;
  int64_t cache_seq_;
};

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* x, const aclTensor* cos, const aclTensor* sin,
                        const aclTensor* k_cache, const aclTensor* v_cache, const aclTensor* indices,
                        const std::vector<std::pair<const char*, const aclTensor*>>& floats, const aclTensor* bias,
                        const std::vector<std::pair<const char*, const aclTensor*>>& outs) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kXDtypes));
  CANOPY_CHECK(plan.CheckDtype("cos", cos->dtype, kCosDtypes));
  if (x->dtype != ACL_INT32 && x->dtype != cos->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'cos' is %s, but x is %s: they must match unless x is INT32",
                       DtypeName(cos->dtype), DtypeName(x->dtype));
  }
  std::vector<std::pair<const char*, const aclTensor*>> like_cos = {{"sin", sin}};
  like_cos.insert(like_cos.end(), outs.begin(), outs.end());
  for (const auto& [name, t] : like_cos) {
    if (t->dtype != cos->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but cos is %s: they must match", name,
                         DtypeName(t->dtype), DtypeName(cos->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("kCacheRef", k_cache->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("vCacheRef", v_cache->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, {ACL_INT32}));
  for (const auto& [name, t] : floats) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {ACL_FLOAT}));
  }
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("biasOptional", bias->dtype, kBiasDtypes));
  return ACLNN_SUCCESS;
}

aclnnStatus CheckShapeIs(Plan& plan, const char* name, const aclTensor* t, const Shape& want) {
  if (t->view_shape == want) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument '%s' has shape %s; it must be %s", name,
                     ShapeToString(t->view_shape).c_str(), ShapeToString(want).c_str());
}

aclnnStatus CheckCount(Plan& plan, const char* name, const aclTensor* t, int64_t want, bool at_least) {
  const int64_t n = t->NumElements();
  if (at_least ? n >= want : n == want) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument '%s' has %lld elements; it needs %s%lld", name,
                     static_cast<long long>(n), at_least ? "at least " : "", static_cast<long long>(want));
}

// The tiling's working-set bound: at least one token's rows must fit the unified buffer.
aclnnStatus CheckWorkingSet(Plan& plan, const Desc& d, bool has_bias, bool has_activation) {
  const int64_t in_bytes = d.dequant || d.cos_dtype == ACL_BF16 ? 4 : 2;
  const int64_t in_row = AlignUp(d.dim * in_bytes, kUbBlock), f32_row = AlignUp(d.dim * 4, kUbBlock);
  const int64_t int8_row = AlignUp(d.dim, kUbBlock);
  const int64_t per_token = d.heads_kv * int8_row * 2 + d.heads_q * in_row + (2 * d.heads_kv + d.heads_q + 2) * in_row +
                            4 + d.heads_kv * f32_row + (has_activation ? 4 : 0);
  const int64_t fixed = kUbBlock + kUbIndicesBytes + 2 * d.heads_kv * f32_row * (d.offsets ? 2 : 1) +
                        (has_bias ? d.H() * 4 : 0) + (d.dequant ? d.H() * 4 : 0);
  if (kUbBytes - fixed <= 0 || (kUbBytes - fixed) / per_token == 0) {
    return plan.Reject(kTiling,
                       "x's last dim %lld (D %lld) is too large: one token's rows do not fit the kernel's buffer",
                       static_cast<long long>(d.H()), static_cast<long long>(d.dim));
  }
  return ACLNN_SUCCESS;
}

bool IsPageMode(const char* mode) {
  if (mode == nullptr) return false;
  std::string lower(mode);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower == "page";
}

aclnnStatus CheckShapes(Plan& plan, Desc& d, const aclTensor* x, const aclTensor* cos, const aclTensor* sin,
                        const aclTensor* k_cache, const aclTensor* v_cache, const aclTensor* indices,
                        const aclTensor* scale_k, const aclTensor* scale_v, const aclIntArray* splits) {
  if (static_cast<int64_t>(splits->values.size()) != kSplits) {
    return plan.Reject(kTiling, "argument 'sizeSplits' has %lld values; it must have 3",
                       static_cast<long long>(splits->values.size()));
  }
  const int64_t q = splits->values[0], k = splits->values[1], v = splits->values[2];
  if (k != v)
    return plan.Reject(kTiling, "argument 'sizeSplits': k's width %lld and v's %lld must be equal",
                       static_cast<long long>(k), static_cast<long long>(v));
  if (q < 0 || k < 0)
    return plan.Reject(kTiling, "argument 'sizeSplits': q's width %lld and k's %lld must not be negative",
                       static_cast<long long>(q), static_cast<long long>(k));
  if (x->rank() != 2 && x->rank() != 3) {
    return plan.Reject(kTiling, "argument 'x' has rank %lld; it must be 2 or 3", static_cast<long long>(x->rank()));
  }
  const Shape& xs = x->view_shape;
  const int64_t width = q + k + v;
  if (xs.back() != width) {
    return plan.Reject(kTiling, "argument 'x' has last dim %lld; sizeSplits sum to %lld",
                       static_cast<long long>(xs.back()), static_cast<long long>(width));
  }
  if (k_cache->rank() != kCacheRank) {
    return plan.Reject(kTiling, "argument 'kCacheRef' has rank %lld; it must be 4",
                       static_cast<long long>(k_cache->rank()));
  }
  const Shape& cs = k_cache->view_shape;
  d.heads_kv = cs[2];
  d.dim = cs[3];
  const int64_t kv_width = d.heads_kv * d.dim;
  if (kv_width != k) {
    return plan.Reject(kTiling, "argument 'kCacheRef': dims 2 and 3 give %lld values a token; sizeSplits[1] is %lld",
                       static_cast<long long>(kv_width), static_cast<long long>(k));
  }
  // D 0 passes CANN's check but divides by zero on the host: Canopy rejects it.
  if (d.dim <= 0 || d.dim % kHeadDimAlign != 0) {
    return plan.Reject(kTiling, "argument 'kCacheRef' has head size (dim 3) %lld; it must be a positive multiple of 16",
                       static_cast<long long>(d.dim));
  }
  if (q % d.dim != 0 || v % d.dim != 0) {
    return plan.Reject(kTiling, "argument 'sizeSplits': q's width %lld and v's %lld must be multiples of D",
                       static_cast<long long>(q), static_cast<long long>(v));
  }
  d.heads_q = q / d.dim;
  d.batch = xs[0];
  d.seq = x->rank() == 3 ? xs[1] : 1;
  d.cache_seq = cs[1];
  d.cache_rows = cs[0] * cs[1];
  d.tokens = d.batch * d.seq;
  const Shape table = x->rank() == 3 ? Shape{d.batch, d.seq, 1, d.dim} : Shape{d.batch, d.dim};
  CANOPY_CHECK(CheckShapeIs(plan, "cos", cos, table));
  CANOPY_CHECK(CheckShapeIs(plan, "sin", sin, table));
  CANOPY_CHECK(CheckShapeIs(plan, "indices", indices, {d.page ? d.tokens : d.batch}));
  if (v_cache->view_shape != cs) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'vCacheRef' has shape %s; kCacheRef has %s",
                       ShapeToString(v_cache->view_shape).c_str(), ShapeToString(cs).c_str());
  }
  CANOPY_CHECK(CheckCount(plan, "scaleK", scale_k, k, false));
  CANOPY_CHECK(CheckCount(plan, "scaleV", scale_v, k, false));
  if (!d.page && cs[0] < d.batch) {
    return plan.Reject(kTiling, "argument 'vCacheRef' has dim 0 %lld; it must be at least x's dim 0 %lld",
                       static_cast<long long>(cs[0]), static_cast<long long>(d.batch));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDequantRopeQuantKvcache(Plan& plan, const aclTensor* x, const aclTensor* cos, const aclTensor* sin,
                                        const aclTensor* kCacheRef, const aclTensor* vCacheRef,
                                        const aclTensor* indices, const aclTensor* scaleK, const aclTensor* scaleV,
                                        const aclTensor* offsetKOptional, const aclTensor* offsetVOptional,
                                        const aclTensor* weightScaleOptional, const aclTensor* activationScaleOptional,
                                        const aclTensor* biasOptional, const aclIntArray* sizeSplits,
                                        const char* /*quantModeOptional*/, const char* /*layoutOptional*/,
                                        bool kvOutput, const char* cacheModeOptional, const aclTensor* qOut,
                                        const aclTensor* kOut, const aclTensor* vOut) {
  CANOPY_CHECK(CheckDtypes(plan, x, cos, sin, kCacheRef, vCacheRef, indices,
                           {{"scaleK", scaleK},
                            {"scaleV", scaleV},
                            {"offsetKOptional", offsetKOptional},
                            {"offsetVOptional", offsetVOptional},
                            {"weightScaleOptional", weightScaleOptional},
                            {"activationScaleOptional", activationScaleOptional}},
                           biasOptional, {{"qOut", qOut}, {"kOut", kOut}, {"vOut", vOut}}));
  Desc d;
  d.x_dtype = x->dtype;
  d.cos_dtype = cos->dtype;
  d.page = IsPageMode(cacheModeOptional);
  CANOPY_CHECK(CheckShapes(plan, d, x, cos, sin, kCacheRef, vCacheRef, indices, scaleK, scaleV, sizeSplits));
  // The kernel applies offsets only when both are given.
  d.offsets = offsetKOptional != nullptr && offsetVOptional != nullptr;
  if (d.offsets) {
    CANOPY_CHECK(CheckCount(plan, "offsetKOptional", offsetKOptional, d.heads_kv * d.dim, false));
    CANOPY_CHECK(CheckCount(plan, "offsetVOptional", offsetVOptional, d.heads_kv * d.dim, false));
  }
  d.dequant = x->dtype == ACL_INT32;
  if (d.dequant && weightScaleOptional == nullptr) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'weightScaleOptional' is required when x is INT32");
  }
  CANOPY_CHECK(CheckWorkingSet(plan, d, biasOptional != nullptr, activationScaleOptional != nullptr));
  if (d.dequant) {
    d.bias = biasOptional != nullptr;
    d.activation = activationScaleOptional != nullptr;
    d.bias_dtype = d.bias ? biasOptional->dtype : ACL_FLOAT;
    // The kernel reads H weights and biases and one activation scale a token.
    CANOPY_CHECK(CheckCount(plan, "weightScaleOptional", weightScaleOptional, d.H(), true));
    if (d.bias) CANOPY_CHECK(CheckCount(plan, "biasOptional", biasOptional, d.H(), true));
    if (d.activation)
      CANOPY_CHECK(CheckCount(plan, "activationScaleOptional", activationScaleOptional, d.tokens, true));
  }
  CANOPY_CHECK(CheckCount(plan, "qOut", qOut, d.tokens * d.heads_q * d.dim, false));
  if (kvOutput) {
    CANOPY_CHECK(CheckCount(plan, "kOut", kOut, d.tokens * d.heads_kv * d.dim, false));
    CANOPY_CHECK(CheckCount(plan, "vOut", vOut, d.tokens * d.heads_kv * d.dim, false));
  }

  const TensorRef x_ref = plan.Input(x, "x");
  const TensorRef cos_ref = plan.Input(cos, "cos");
  const TensorRef sin_ref = plan.Input(sin, "sin");
  plan.Input(kCacheRef, "kCacheRef");  // written, never read
  plan.Input(vCacheRef, "vCacheRef");
  const TensorRef indices_ref = plan.Input(indices, "indices");
  const TensorRef scale_k_ref = plan.Input(scaleK, "scaleK");
  const TensorRef scale_v_ref = plan.Input(scaleV, "scaleV");
  std::vector<TensorRef> reads = {x_ref, cos_ref, sin_ref, indices_ref, scale_k_ref, scale_v_ref};
  const auto optional_input = [&](const aclTensor* t, const char* name, bool used) -> std::optional<TensorRef> {
    if (t == nullptr) {
      plan.SkipInput();
      return std::nullopt;
    }
    const TensorRef ref = plan.Input(t, name);
    if (!used) return std::nullopt;
    reads.push_back(ref);
    return ref;
  };
  const auto offset_k = optional_input(offsetKOptional, "offsetKOptional", d.offsets);
  const auto offset_v = optional_input(offsetVOptional, "offsetVOptional", d.offsets);
  const auto weight = optional_input(weightScaleOptional, "weightScaleOptional", d.dequant);
  const auto activation = optional_input(activationScaleOptional, "activationScaleOptional", d.activation);
  const auto bias = optional_input(biasOptional, "biasOptional", d.bias);
  const TensorRef q_out = plan.Output(qOut, "qOut");
  const TensorRef k_out = plan.Output(kOut, "kOut");
  const TensorRef v_out = plan.Output(vOut, "vOut");
  const TensorRef k_cache = plan.Output(kCacheRef, "kCacheRef");
  const TensorRef v_cache = plan.Output(vCacheRef, "vCacheRef");
  if (d.tokens == 0) return ACLNN_SUCCESS;

  const auto dense = [&](const std::optional<TensorRef>& t) {
    return t ? plan.Contiguous(*t, t->dtype).buffer : BufferRef{};
  };
  Operands o;
  o.x = plan.Contiguous(x_ref, x_ref.dtype).buffer;
  o.cos = plan.Contiguous(cos_ref, cos_ref.dtype).buffer;
  o.sin = plan.Contiguous(sin_ref, sin_ref.dtype).buffer;
  o.indices = plan.Contiguous(indices_ref, ACL_INT32).buffer;
  o.scale_k = plan.Contiguous(scale_k_ref, ACL_FLOAT).buffer;
  o.scale_v = plan.Contiguous(scale_v_ref, ACL_FLOAT).buffer;
  o.offset_k = dense(offset_k);
  o.offset_v = dense(offset_v);
  o.weight = dense(weight);
  o.activation = dense(activation);
  o.bias = dense(bias);
  const Layout layout(d);
  const TensorRef work = plan.Temporary(ACL_INT8, {layout.bytes});
  o.work = work.buffer;
  plan.AddStep(std::make_unique<DequantRopeQuantKvcacheStep>(d, o), reads, work);

  plan.Copy(Region(work, layout.q, d.cos_dtype, q_out.shape), q_out);
  if (kvOutput) {
    plan.Copy(Region(work, layout.k, d.cos_dtype, k_out.shape), k_out);
    plan.Copy(Region(work, layout.v, d.cos_dtype, v_out.shape), v_out);
  }
  const TensorRef rows = Region(work, 0, ACL_INT64, {d.tokens});
  const Shape quantised = {d.tokens, d.heads_kv * d.dim};
  plan.AddStep(
      std::make_unique<CacheWriteStep>(k_cache, rows, Region(work, layout.kq, ACL_INT8, quantised), d.cache_seq),
      {work}, k_cache);
  plan.AddStep(
      std::make_unique<CacheWriteStep>(v_cache, rows, Region(work, layout.vq, ACL_INT8, quantised), d.cache_seq),
      {work}, v_cache);
  return ACLNN_SUCCESS;
}

}  // namespace

// The registry's example is CANN's example with an f16 x: the generated checks drop each optional
// tensor in turn, and weightScaleOptional is required only for an INT32 x (tested on its own).
CANOPY_ACLNN_OP(DequantRopeQuantKvcache, PlanDequantRopeQuantKvcache,
                (OpTraits{.header = "aclnnop/aclnn_dequant_rope_quant_kvcache.h",
                          .dtypes = DtypeSet{ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_FLOAT, ACL_INT8},
                          .example = "f16[1,1,128] f16[1,1,1,32] f16[1,1,1,32] i8[1,128,1,32] i8[1,128,1,32] "
                                     "i32[1]{0:0} f32[32]{1:2} f32[32]{1:2} f32[32] f32[32] f32[128] f32[1] f32[128] "
                                     "ints[64,32,32] 'static' 'BSND' true 'contiguous' f16[1,1,2,32] f16[1,1,1,32] "
                                     "f16[1,1,1,32]"}),
                (const aclTensor*, x), (const aclTensor*, cos), (const aclTensor*, sin), (aclTensor*, kCacheRef),
                (aclTensor*, vCacheRef), (const aclTensor*, indices), (const aclTensor*, scaleK),
                (const aclTensor*, scaleV), (const aclTensor*, offsetKOptional, optional),
                (const aclTensor*, offsetVOptional, optional), (const aclTensor*, weightScaleOptional, optional),
                (const aclTensor*, activationScaleOptional, optional), (const aclTensor*, biasOptional, optional),
                (const aclIntArray*, sizeSplits), (const char*, quantModeOptional, optional),
                (const char*, layoutOptional, optional), (bool, kvOutput), (const char*, cacheModeOptional, optional),
                (const aclTensor*, qOut), (const aclTensor*, kOut), (const aclTensor*, vOut))
