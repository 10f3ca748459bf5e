// The inference attention planner (see attention_plan.h).
#include "attention_plan.h"
#include "token_window.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string>

#include "common/shape.h"
#include "kernels/attention.h"

namespace canopy::ops {
namespace {

constexpr aclnnStatus kNotSupported = ACLNN_ERR_INNER_FIND_KERNEL_ERROR;
constexpr aclnnStatus kTilingError = ACLNN_ERR_INNER_TILING_ERROR;  // what CANN's tiling rejects
constexpr DtypeSet kAttentionDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kQuantisedDtypes = {ACL_INT8, ACL_INT4, ACL_INT32};  // the doc's INT8 / INT4 (INT32) storage
constexpr DtypeSet kMaskDtypes = {ACL_BOOL, ACL_INT8, ACL_UINT8};
constexpr int64_t kMaxBatch = 65536;
constexpr int64_t kMaxHeads = 256;
constexpr int64_t kMaxHeadDim = 512;
constexpr int64_t kHeadDimAlignment = 16;    // f16 / bf16 with more than one query row
constexpr int64_t kUnalignedMaxBatch = 128;  // PromptFlashAttention with D off the alignment
constexpr int64_t kMaxGroup = 64;            // numHeads / numKeyValueHeads
constexpr int64_t kLastSparseMode = 4;
constexpr int64_t kBandSparseMode = 4;
constexpr int64_t kCompressedMaskSize = 2048;
constexpr int64_t kMaxBlockSize =
    512;  // paged attention's tokens per cache block  // sparse modes 2-4 take an optimised 2048 x 2048 mask
// Larger pre/next token windows mean "everything"; clamping keeps the band arithmetic in range.
constexpr int64_t kTokenLimit = int64_t{1} << 40;
// TND / NTD_TND (CANN's A2 tiling, the PFA path): at most 1M tokens and 4096 sequences.
constexpr int64_t kMaxTokens = int64_t{1} << 20;
constexpr int64_t kMaxSequences = 4096;
constexpr int64_t kTndBlockAlignment = 128;  // a paged cache's blockSize with them: a multiple of 128
constexpr int64_t kTndMaxBlockSize = 1024;

// The longest of the batches' lengths, 0 for none (B = 0).
int64_t Longest(const std::vector<int64_t>& lengths) {
  return lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
}

enum class Layout { kBsh, kBsnd, kBnsd, kBnsdBsnd, kTnd, kNtdTnd };

bool ParseLayout(const char* text, Layout& layout) {
  if (std::strcmp(text, "BSH") == 0) {
    layout = Layout::kBsh;
  } else if (std::strcmp(text, "BSND") == 0) {
    layout = Layout::kBsnd;
  } else if (std::strcmp(text, "BNSD") == 0) {
    layout = Layout::kBnsd;
  } else if (std::strcmp(text, "BNSD_BSND") == 0) {
    layout = Layout::kBnsdBsnd;
  } else if (std::strcmp(text, "TND") == 0) {
    layout = Layout::kTnd;
  } else if (std::strcmp(text, "NTD_TND") == 0) {
    layout = Layout::kNtdTnd;
  } else {
    return false;
  }
  return true;
}

int64_t LayoutRank(Layout layout) { return layout == Layout::kBsh ? 3 : 4; }

// A tensor of the layout as (batch, heads, sequence, dim) extents and strides;
// `heads` splits BSH's H.
struct Bnsd {
  std::array<int64_t, 4> shape{}, strides{};
};

Bnsd AsBnsd(const TensorRef& t, Layout layout, int64_t heads) {
  Bnsd v;
  const Shape& s = t.shape;
  const Shape& st = t.strides;
  switch (layout) {
    case Layout::kBsh: {
      const int64_t d = heads > 0 ? s[2] / heads : 0;
      v.shape = {s[0], heads, s[1], d};
      v.strides = {st[0], st[2] * d, st[1], st[2]};
      break;
    }
    case Layout::kBsnd:
      v.shape = {s[0], s[2], s[1], s[3]};
      v.strides = {st[0], st[2], st[1], st[3]};
      break;
    case Layout::kBnsd:
    case Layout::kBnsdBsnd:
      v.shape = {s[0], s[1], s[2], s[3]};
      v.strides = {st[0], st[1], st[2], st[3]};
      break;
    case Layout::kTnd:  // one batch of all T tokens; the kernel finds each sequence's rows
      v.shape = {1, s[1], s[0], s[2]};
      v.strides = {0, st[1], st[0], st[2]};
      break;
    case Layout::kNtdTnd:
      v.shape = {1, s[0], s[1], s[2]};
      v.strides = {0, st[0], st[1], st[2]};
      break;
  }
  return v;
}

bool IsTndLike(Layout layout) { return layout == Layout::kTnd || layout == Layout::kNtdTnd; }

// The (batch, heads, sequence, dim) extents of an aclTensor in the layout.
std::array<int64_t, 4> ExtentsOf(const aclTensor* t, Layout layout, int64_t heads) {
  const Shape& s = t->view_shape;
  if (layout == Layout::kBsh) return {s[0], heads, s[1], heads > 0 ? s[2] / heads : 0};
  if (layout == Layout::kBsnd) return {s[0], s[2], s[1], s[3]};
  return {s[0], s[1], s[2], s[3]};
}

aclnnStatus RejectNotSupported(Plan& plan, const char* name, const char* what) {
  return plan.Reject(kNotSupported, "argument '%s': %s is not supported by Canopy", name, what);
}

aclnnStatus CheckAttentionDtype(Plan& plan, const char* name, aclDataType dtype, aclDataType query,
                                const char* quantised_feature) {
  if (dtype == query) return ACLNN_SUCCESS;
  if (kQuantisedDtypes.Contains(dtype)) return RejectNotSupported(plan, name, quantised_feature);
  CANOPY_CHECK(plan.CheckDtype(name, dtype, kAttentionDtypes));
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but query is %s: they must match", name,
                     DtypeName(dtype), DtypeName(query));
}

// actualSeqLengths(Kv): one length for every batch, or at least `batch` of them
// (the first `batch` used), each in [0, limit(b)]. An empty array is no lengths
// at all, as CANN's tilings read it: torch_npu passes one for a None.
template <typename Limit>
aclnnStatus ReadLengths(Plan& plan, const char* name, const aclIntArray* lengths, int64_t batch, Limit limit,
                        std::vector<int64_t>& out) {
  out.resize(static_cast<size_t>(batch));
  for (int64_t b = 0; b < batch; ++b) out[static_cast<size_t>(b)] = limit(b);
  if (lengths == nullptr || lengths->values.empty()) return ACLNN_SUCCESS;
  const auto& v = lengths->values;
  const auto count = static_cast<int64_t>(v.size());
  if (count != 1 && count < batch) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has %lld lengths; it needs 1 or at least %lld", name,
                       static_cast<long long>(count), static_cast<long long>(batch));
  }
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t length = v[static_cast<size_t>(count == 1 ? 0 : b)];
    if (length < 0 || length > limit(b)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' gives batch %lld a length of %lld, outside [0, %lld]",
                         name, static_cast<long long>(b), static_cast<long long>(length),
                         static_cast<long long>(limit(b)));
    }
    out[static_cast<size_t>(b)] = length;
  }
  return ACLNN_SUCCESS;
}

struct Problem {
  Layout layout = Layout::kBsh;
  int64_t batch = 0, heads = 0, kv_heads = 0, query_length = 0, head_dim = 0;
  int64_t max_kv_length = 0;
};

// ---- KV antiquantisation (an INT8 key / value cache), as CANN's IFA tiling
// checks it (incre_flash_attention_tiling.cpp ProcessAntiQuant and the checks
// it calls; each failure its tiling error, 561002). Modes: 0 per channel
// ([num, N, 1, D], [num, 1, N, D], [num, N, D], [num, H]) or per tensor
// ([num]), in the query's dtype; 1 per token ([num, B, >= S], separate also
// [B, >= S]), FLOAT32; separate parameters only: 2 per tensor and head ([N]),
// the query's dtype, and 3 per token and head ([B, N, >= S]), FLOAT32. num is
// 2 for the combined parameters (key, value), 1 for the separate ones.
struct AntiquantSide {
  const aclTensor* scale = nullptr;
  const aclTensor* offset = nullptr;
  const char* scale_name = "";
  const char* offset_name = "";
  int64_t mode = 0;
  int64_t num = 1;    // the leading extent of the combined parameters (2) or 1
  int64_t which = 0;  // the combined parameters' row: 0 key, 1 value
  int scale_input = -1, offset_input = -1;
};

bool Given(const aclTensor* t) { return t != nullptr && t->NumElements() != 0; }

bool IsPerTokenMode(int64_t mode) { return mode == 1 || mode == 3; }

aclnnStatus CheckAntiquantParam(Plan& plan, const char* name, const aclTensor* t, const AntiquantSide& side,
                                const Problem& p, int64_t tokens, aclDataType query_dtype) {
  const Shape& s = t->view_shape;
  const int64_t n = side.num, kv_n = p.kv_heads, d = p.head_dim;
  bool ok = false;
  const char* want = "";
  switch (side.mode) {
    case 0:
      ok = (s.size() == 1 && s[0] == n) || (s.size() == 4 && s == Shape{n, kv_n, 1, d}) ||
           (s.size() == 4 && s == Shape{n, 1, kv_n, d}) || (s.size() == 3 && s == Shape{n, kv_n, d}) ||
           (s.size() == 2 && s == Shape{n, kv_n * d});
      want = "per channel [num, N, 1, D], [num, 1, N, D], [num, N, D] or [num, H], or per tensor [num]";
      break;
    case 1:
      ok = (s.size() == 3 && s[0] == n && s[1] == p.batch && s[2] >= tokens) ||
           (n == 1 && s.size() == 2 && s[0] == p.batch && s[1] >= tokens);
      want = n == 1 ? "per token [1, B, >= S] or [B, >= S]" : "per token [num, B, >= S]";
      break;
    case 2:
      ok = s == Shape{kv_n};
      want = "per tensor and head [N]";
      break;
    default:  // 3
      ok = s.size() == 3 && s[0] == p.batch && s[1] == kv_n && s[2] >= tokens;
      want = "per token and head [B, N, >= S]";
      break;
  }
  if (!ok) {
    return plan.Reject(kTilingError,
                       "argument '%s' has shape %s; antiquant mode %lld takes %s (num %lld, N = numKeyValueHeads %lld, "
                       "D %lld, B %lld, S %lld)",
                       name, ShapeToString(s).c_str(), static_cast<long long>(side.mode), want,
                       static_cast<long long>(n), static_cast<long long>(kv_n), static_cast<long long>(d),
                       static_cast<long long>(p.batch), static_cast<long long>(tokens));
  }
  const aclDataType want_dtype = IsPerTokenMode(side.mode) ? ACL_FLOAT : query_dtype;
  if (t->dtype != want_dtype) {
    return plan.Reject(kTilingError, "argument '%s' is %s; antiquant mode %lld takes %s", name, DtypeName(t->dtype),
                       static_cast<long long>(side.mode), DtypeName(want_dtype));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckAntiquantSide(Plan& plan, const AntiquantSide& side, const Problem& p, int64_t tokens,
                               aclDataType query_dtype) {
  CANOPY_CHECK(CheckAntiquantParam(plan, side.scale_name, side.scale, side, p, tokens, query_dtype));
  if (side.offset == nullptr) return ACLNN_SUCCESS;
  if (side.offset->rank() != side.scale->rank()) {
    return plan.Reject(kTilingError, "arguments '%s' %s and '%s' %s have different ranks", side.scale_name,
                       ShapeToString(side.scale->view_shape).c_str(), side.offset_name,
                       ShapeToString(side.offset->view_shape).c_str());
  }
  if (side.offset->dtype != side.scale->dtype) {
    return plan.Reject(kTilingError, "argument '%s' is %s, but '%s' is %s: they must match", side.offset_name,
                       DtypeName(side.offset->dtype), side.scale_name, DtypeName(side.scale->dtype));
  }
  return CheckAntiquantParam(plan, side.offset_name, side.offset, side, p, tokens, query_dtype);
}

// Which parameters dequantise the key and the value, and in which modes: the
// separate ones when given, else the combined ones.
aclnnStatus ChooseAntiquant(Plan& plan, const AttentionCall& call, aclDataType query_dtype, AntiquantSide& key,
                            AntiquantSide& value) {
  const auto given = [](const AttentionCall::QuantArg& a) { return Given(a.tensor); };
  const auto& ks = call.key_antiquant_scale;
  const auto& ko = call.key_antiquant_offset;
  const auto& vs = call.value_antiquant_scale;
  const auto& vo = call.value_antiquant_offset;
  const auto pair_rule = [&](const AttentionCall::QuantArg& a, const AttentionCall::QuantArg& b) {
    return plan.Reject(kTilingError, "argument '%s' is given but '%s' is not: give both or neither", a.name, b.name);
  };
  if (given(ks) != given(vs)) return given(ks) ? pair_rule(ks, vs) : pair_rule(vs, ks);
  if (given(ko) != given(vo)) return given(ko) ? pair_rule(ko, vo) : pair_rule(vo, ko);
  if (!given(ks) && given(ko)) return pair_rule(ko, ks);
  const auto side = [](const AttentionCall::QuantArg& scale, const AttentionCall::QuantArg& offset, int64_t mode,
                       int64_t num, int64_t which) {
    AntiquantSide s;
    s.scale = scale.tensor;
    s.offset = Given(offset.tensor) ? offset.tensor : nullptr;
    s.scale_name = scale.name;
    s.offset_name = offset.name;
    s.mode = mode;
    s.num = num;
    s.which = which;
    s.scale_input = scale.input;
    s.offset_input = s.offset != nullptr ? offset.input : -1;
    return s;
  };
  if (given(ks)) {  // separate parameters
    const int64_t km = call.key_antiquant_mode, vm = call.value_antiquant_mode;
    const bool mixed = km == 0 && vm == 1;  // key per channel, value per token
    if (km != vm && !mixed) {
      return plan.Reject(
          kTilingError, "arguments 'keyAntiquantMode' (%lld) and 'valueAntiquantMode' (%lld) must be equal, or 0 and 1",
          static_cast<long long>(km), static_cast<long long>(vm));
    }
    if (km < 0 || km > 5) {
      return plan.Reject(kTilingError, "argument 'keyAntiquantMode' is %lld; it must be in [0, 5]",
                         static_cast<long long>(km));
    }
    if (km == 4 || km == 5) {
      return RejectNotSupported(plan, "keyAntiquantMode",
                                "modes 4 and 5 (per-token parameters managed by the block table)");
    }
    if (mixed && query_dtype != ACL_FLOAT16) {
      return plan.Reject(kTilingError,
                         "keyAntiquantMode 0 with valueAntiquantMode 1 and an INT8 key / value takes a FLOAT16 query "
                         "(query is %s)",
                         DtypeName(query_dtype));
    }
    if (!mixed) {
      const auto same_shape = [&](const aclTensor* a, const char* an, const aclTensor* b, const char* bn) {
        if (a == nullptr || a->view_shape == b->view_shape) return ACLNN_SUCCESS;
        return plan.Reject(kTilingError, "arguments '%s' %s and '%s' %s must have the same shape", an,
                           ShapeToString(a->view_shape).c_str(), bn, ShapeToString(b->view_shape).c_str());
      };
      CANOPY_CHECK(same_shape(ks.tensor, ks.name, vs.tensor, vs.name));
      if (given(ko)) CANOPY_CHECK(same_shape(ko.tensor, ko.name, vo.tensor, vo.name));
    }
    key = side(ks, ko, km, 1, 0);
    value = side(vs, vo, vm, 1, 0);
    return ACLNN_SUCCESS;
  }
  const int64_t mode = call.antiquant_mode;
  if (mode == 2) return RejectNotSupported(plan, "antiquantMode", "mode 2 with the combined antiquant parameters");
  if (mode != 0 && mode != 1) {
    return plan.Reject(kTilingError, "argument 'antiquantMode' is %lld; it must be 0 or 1",
                       static_cast<long long>(mode));
  }
  if (!given(call.antiquant_scale)) {
    return plan.Reject(kTilingError, "key and value are INT8 (KV antiquantisation), but '%s' is not given",
                       call.antiquant_scale.name);
  }
  key = side(call.antiquant_scale, call.antiquant_offset, mode, 2, 0);
  value = side(call.antiquant_scale, call.antiquant_offset, mode, 2, 1);
  return ACLNN_SUCCESS;
}

// The kernel's view of a checked parameter (see CheckAntiquantParam).
kernels::AttentionDequantParam DequantView(const TensorRef& t, const AntiquantSide& side, int64_t kv_heads,
                                           int64_t head_dim) {
  kernels::AttentionDequantParam v;
  v.data = t.buffer;
  const Shape& sh = t.shape;
  const Shape& st = t.strides;
  const auto size = static_cast<int64_t>(DtypeSize(t.dtype));
  const bool leading = side.mode == 0 || (side.mode == 1 && sh.size() == 3);  // [num, ...]
  if (leading) v.data.byte_offset += side.which * st[0] * size;
  switch (side.mode) {
    case 0:
      if (sh.size() == 4) {
        const bool heads_second = !(sh[1] == 1 && sh[2] == kv_heads && kv_heads != 1);  // [num, N, 1, D]
        v.head_stride = heads_second ? st[1] : st[2];
        v.dim_stride = st[3];
      } else if (sh.size() == 3) {
        v.head_stride = st[1];
        v.dim_stride = st[2];
      } else if (sh.size() == 2) {
        v.head_stride = st[1] * head_dim;
        v.dim_stride = st[1];
      }
      break;
    case 1:
      v.batch_stride = sh.size() == 3 ? st[1] : st[0];
      v.token_stride = sh.size() == 3 ? st[2] : st[1];
      break;
    case 2:
      v.head_stride = st[0];
      break;
    default:
      v.batch_stride = st[0];
      v.head_stride = st[1];
      v.token_stride = st[2];
      break;
  }
  return v;
}

// TND / NTD_TND: each batch's query rows, and its keys and values, are one
// segment of the token dim, actualSeqLengths(Kv) their cumulative ends. The
// rules are CANN's Atlas A2 tiling for these layouts without rope heads (its
// PFA path): bf16; query, key and value D equal, 64, 128 or 192 (192 neither
// with NTD_TND, grouped heads nor a paged cache); one key / value tensor; no
// pse or left padding; both length lists given, as long as each other, at
// most 4096, never decreasing, ending at the query's and the key's T (at most
// 1M); sparse mode 0 without a mask or 3 (bottom-right causal per sequence,
// each query no longer than its keys) with its 2048 x 2048 mask; learnable
// sinks [N] with D 64 or 128. Paged (a block table): actualSeqLengthsKv are
// each batch's lengths, not ends; blockSize a multiple of 128 up to 1024; the
// caches (blocks, blockSize, KV_N * D) or (blocks, KV_N, blockSize, D) with at
// least the blocks the lengths need; the table [B, >= the most blocks one batch
// needs]. Each failure is CANN's tiling error (561002). Sparse mode 4 is not
// supported by Canopy (561003).
aclnnStatus PlanVarLenAttention(Plan& plan, const AttentionCall& call, Layout layout,
                                const std::vector<const aclTensor*>& keys,
                                const std::vector<const aclTensor*>& values) {
  const aclTensor* query = call.query;
  const char* layout_name = call.layout;
  const bool paged = call.block_table != nullptr;
  if (call.query->dtype != ACL_BF16) {
    return plan.Reject(kTilingError, "argument 'query' is %s; layout %s takes BFLOAT16 only", DtypeName(query->dtype),
                       layout_name);
  }
  if (keys.size() != 1) {
    return plan.Reject(kTilingError, "arguments 'key' and 'value' hold %zu tensors; layout %s takes one each",
                       keys.size(), layout_name);
  }
  if (call.pse != nullptr) {
    return plan.Reject(kTilingError, "argument '%s' is given; layout %s takes no pse", call.pse_name, layout_name);
  }
  const aclTensor* key = keys[0];
  const aclTensor* value = values[0];
  const auto check_rank = [&](const char* name, const aclTensor* t, bool cache) {
    if (t->rank() == 3 || (cache && t->rank() == 4)) return ACLNN_SUCCESS;
    return plan.Reject(kTilingError, "argument '%s' has rank %lld; layout %s takes rank 3%s", name,
                       static_cast<long long>(t->rank()), layout_name, cache ? " (a paged cache 3 or 4)" : "");
  };
  CANOPY_CHECK(check_rank("query", query, false));
  CANOPY_CHECK(check_rank("key", key, paged));
  CANOPY_CHECK(check_rank("value", value, paged));
  CANOPY_CHECK(check_rank("attentionOut", call.out, false));
  // (tokens, heads, dim) of query, key and value; a paged cache's (rows it holds, heads, dim).
  const bool ntd = layout == Layout::kNtdTnd;
  const int64_t heads = call.num_heads;
  const int64_t kv_heads = call.num_kv_heads == 0 ? heads : call.num_kv_heads;
  const auto tnd = [&](const aclTensor* t) {
    const Shape& s = t->view_shape;
    if (paged && t != query) {
      if (s.size() == 4) return std::array<int64_t, 3>{s[0] * s[2], s[1], s[3]};
      return std::array<int64_t, 3>{s[0] * s[1], kv_heads, kv_heads > 0 ? s[2] / kv_heads : 0};
    }
    return ntd ? std::array<int64_t, 3>{s[1], s[0], s[2]} : std::array<int64_t, 3>{s[0], s[1], s[2]};
  };
  const auto q = tnd(query), k = tnd(key), v = tnd(value);
  if (heads <= 0 || heads > kMaxHeads || q[1] != heads) {
    return plan.Reject(kTilingError, "query has %lld heads, but numHeads is %lld (at most %lld)",
                       static_cast<long long>(q[1]), static_cast<long long>(heads), static_cast<long long>(kMaxHeads));
  }
  if (kv_heads <= 0 || heads % kv_heads != 0 || heads / kv_heads > kMaxGroup || k[1] != kv_heads || v[1] != kv_heads) {
    return plan.Reject(kTilingError,
                       "key has %lld heads and value %lld; numKeyValueHeads (%lld) must match them and divide "
                       "numHeads (%lld), at most %lld times",
                       static_cast<long long>(k[1]), static_cast<long long>(v[1]),
                       static_cast<long long>(call.num_kv_heads), static_cast<long long>(heads),
                       static_cast<long long>(kMaxGroup));
  }
  const int64_t d = q[2];
  if (d == 192 && k[2] == 192 && v[2] == 128) {  // CANN takes it; Canopy's kernel has one D for keys and values
    return RejectNotSupported(plan, "value", "a value D (128) other than the query's and key's (192)");
  }
  const bool d_ok =
      k[2] == d && v[2] == d && (d == 64 || d == 128 || (d == 192 && !ntd && !paged && heads == kv_heads));
  if (!d_ok) {
    return plan.Reject(kTilingError,
                       "query, key and value have D %lld, %lld and %lld; layout %s takes one D of 64, 128 or 192 "
                       "(192 only with TND, numKeyValueHeads = numHeads and no block table)",
                       static_cast<long long>(d), static_cast<long long>(k[2]), static_cast<long long>(v[2]),
                       layout_name);
  }
  if (call.sink != nullptr) {
    const Shape& s = call.sink->view_shape;
    if (s.size() != 1 || s[0] != heads || (d != 64 && d != 128)) {
      return plan.Reject(
          kTilingError, "argument '%s' has shape %s with D %lld; it must be [numHeads = %lld], D 64 or 128",
          call.sink_name, ShapeToString(s).c_str(), static_cast<long long>(d), static_cast<long long>(heads));
    }
  }
  // The cumulative ends (paged: the key / value lengths).
  if (call.query_lengths == nullptr || call.kv_lengths == nullptr || call.query_lengths->values.empty() ||
      call.kv_lengths->values.empty()) {
    return plan.Reject(kTilingError, "layout %s needs '%s' and '%s', neither null nor empty", layout_name,
                       call.query_lengths_name, call.kv_lengths_name);
  }
  const std::vector<int64_t>& q_ends = call.query_lengths->values;
  const std::vector<int64_t>& kv_given = call.kv_lengths->values;
  if (q_ends.size() != kv_given.size() || static_cast<int64_t>(q_ends.size()) > kMaxSequences) {
    return plan.Reject(kTilingError,
                       "arguments '%s' and '%s' hold %zu and %zu lengths; layout %s needs as many, at most %lld",
                       call.query_lengths_name, call.kv_lengths_name, q_ends.size(), kv_given.size(), layout_name,
                       static_cast<long long>(kMaxSequences));
  }
  const auto batch = static_cast<int64_t>(q_ends.size());
  std::vector<int64_t> kv_begin(static_cast<size_t>(batch)), kv_len(static_cast<size_t>(batch));
  for (int64_t b = 0; b < batch; ++b) {
    const auto i = static_cast<size_t>(b);
    const int64_t q_prev = b == 0 ? 0 : q_ends[i - 1];
    const int64_t kv_prev = b == 0 || paged ? 0 : kv_given[i - 1];
    if (q_ends[i] < q_prev || kv_given[i] < kv_prev) {
      return plan.Reject(kTilingError,
                         "arguments '%s' and '%s' at batch %lld are %lld and %lld, after %lld and %lld: with layout %s "
                         "the query's are cumulative ends, the keys' %s (never negative, never decreasing)",
                         call.query_lengths_name, call.kv_lengths_name, static_cast<long long>(b),
                         static_cast<long long>(q_ends[i]), static_cast<long long>(kv_given[i]),
                         static_cast<long long>(q_prev), static_cast<long long>(kv_prev), layout_name,
                         paged ? "lengths (paged)" : "too");
    }
    kv_begin[i] = paged ? 0 : kv_prev;
    kv_len[i] = kv_given[i] - kv_begin[i];
  }
  if (q_ends.back() != q[0] || q[0] > kMaxTokens ||
      (!paged && (kv_given.back() != k[0] || kv_given.back() != v[0] || k[0] > kMaxTokens))) {
    return plan.Reject(kTilingError,
                       "query has T = %lld and key / value %lld / %lld; the last of '%s' (%lld) and%s of '%s' (%lld) "
                       "must equal them, at most %lld",
                       static_cast<long long>(q[0]), static_cast<long long>(k[0]), static_cast<long long>(v[0]),
                       call.query_lengths_name, static_cast<long long>(q_ends.back()), paged ? " (unpaged)" : "",
                       call.kv_lengths_name, static_cast<long long>(kv_given.back()),
                       static_cast<long long>(kMaxTokens));
  }
  int64_t cache_blocks = 0;
  if (paged) {
    const int64_t bs = call.block_size;
    if (bs < kTndBlockAlignment || bs > kTndMaxBlockSize || bs % kTndBlockAlignment != 0) {
      return plan.Reject(kTilingError,
                         "argument 'blockSize' is %lld; with layout %s and a block table it must be a multiple of "
                         "%lld in [%lld, %lld]",
                         static_cast<long long>(bs), layout_name, static_cast<long long>(kTndBlockAlignment),
                         static_cast<long long>(kTndBlockAlignment), static_cast<long long>(kTndMaxBlockSize));
    }
    const Shape& ks = key->view_shape;
    int64_t needed = 0, most = 0;
    for (const int64_t length : kv_len) {
      // Without overflow for any length (INT64_MAX fills no cache): the sum saturates.
      const int64_t blocks = CeilDiv(length, bs);
      if (__builtin_add_overflow(needed, blocks, &needed)) needed = std::numeric_limits<int64_t>::max();
      most = std::max(most, blocks);
    }
    cache_blocks = ks[0];
    const bool cache_ok = value->view_shape == ks &&
                          (ks.size() == 3 ? ks[1] == bs && ks[2] == kv_heads * d : ks[2] == bs) && ks[0] >= needed;
    if (!cache_ok) {
      return plan.Reject(kTilingError,
                         "paged key %s and value %s: the caches must be (blocks, blockSize = %lld, KV_N * D) or "
                         "(blocks, KV_N, blockSize, D), the same for both, with at least %lld blocks",
                         ShapeToString(ks).c_str(), ShapeToString(value->view_shape).c_str(),
                         static_cast<long long>(bs), static_cast<long long>(needed));
    }
    const Shape& t = call.block_table->view_shape;
    if (t.size() != 2 || t[0] != batch || t[1] < most || most == 0) {
      return plan.Reject(kTilingError, "argument '%s' has shape %s; it must be [B = %lld, >= %lld], not empty",
                         call.block_table_name, ShapeToString(t).c_str(), static_cast<long long>(batch),
                         static_cast<long long>(std::max<int64_t>(most, 1)));
    }
  }
  const Shape want_out = {q[0], heads, d};
  if (call.out->view_shape != want_out) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'attentionOut' has shape %s; with layout %s it must be %s",
                       ShapeToString(call.out->view_shape).c_str(), layout_name, ShapeToString(want_out).c_str());
  }
  if (call.inner_precise < 0 || call.inner_precise > call.max_inner_precise) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'innerPrecise' is %lld; it must be in [0, %lld]",
                       static_cast<long long>(call.inner_precise), static_cast<long long>(call.max_inner_precise));
  }
  // Sparse modes: 0 without a mask, 3 with the compressed mask (4, band: not in Canopy).
  if (call.sparse_mode == kBandSparseMode) return RejectNotSupported(plan, "sparseMode", "sparse mode 4 (band)");
  if ((call.sparse_mode != 0 && call.sparse_mode != 3) || (call.sparse_mode == 0 && call.mask != nullptr)) {
    return plan.Reject(kTilingError, "argument 'sparseMode' is %lld%s; layout %s takes 0 without a mask, 3 or 4",
                       static_cast<long long>(call.sparse_mode), call.mask != nullptr ? " with a mask" : "",
                       layout_name);
  }
  const bool causal = call.sparse_mode == 3;
  if (causal) {
    const Shape& m = call.mask != nullptr ? call.mask->view_shape : Shape{};
    bool ok = m.size() >= 2 && m.size() <= 4 && m[m.size() - 1] == kCompressedMaskSize &&
              m[m.size() - 2] == kCompressedMaskSize;
    for (size_t i = 0; ok && i + 2 < m.size(); ++i) ok = m[i] == 1;
    if (!ok) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "sparse mode 3 needs a [2048, 2048] attention mask (got %s)",
                         call.mask != nullptr ? ShapeToString(m).c_str() : "none");
    }
    for (int64_t b = 0; b < batch; ++b) {
      const auto i = static_cast<size_t>(b);
      const int64_t q_len = q_ends[i] - (b == 0 ? 0 : q_ends[i - 1]);
      if (q_len > kv_len[i]) {
        return plan.Reject(kTilingError,
                           "with layout %s and sparse mode 3 batch %lld has %lld query rows and %lld keys: at most as "
                           "many rows as keys",
                           layout_name, static_cast<long long>(b), static_cast<long long>(q_len),
                           static_cast<long long>(kv_len[i]));
      }
    }
  }
  if (call.lse_flag) {
    if (call.lse == nullptr) return plan.CheckNotNull("softmaxLse", call.lse);
    CANOPY_CHECK(plan.CheckDtype("softmaxLse", call.lse->dtype, DtypeSet{ACL_FLOAT}));
    CANOPY_CHECK(plan.CheckShape("softmaxLse", call.lse, {q[0], heads, 1}));
  }

  // ---- operands, in the prototype's input order
  const TensorRef q_ref = plan.Input(query, "query");
  const std::vector<TensorRef> k_refs = plan.InputList(call.key_list, "key");
  const std::vector<TensorRef> v_refs = plan.InputList(call.value_list, "value");
  plan.SkipInput();  // pse
  TensorRef mask_ref;
  if (call.mask != nullptr) {
    mask_ref = plan.Input(call.mask, call.mask_name);  // checked, not read
  } else {
    plan.SkipInput();
  }
  TensorRef sink_ref, table_ref;
  for (int input = 0; input < call.inputs_after_mask; ++input) {
    if (call.sink != nullptr && input == call.sink_input) {
      sink_ref = plan.Input(call.sink, call.sink_name);
    } else if (paged && input == call.block_table_input) {
      table_ref = plan.Input(call.block_table, call.block_table_name);
    } else {
      plan.SkipInput();
    }
  }
  const TensorRef out_ref = plan.Output(call.out, "attentionOut");
  TensorRef lse_ref;
  if (call.lse_flag) {
    lse_ref = plan.Output(call.lse, "softmaxLse");
  } else if (call.has_lse_output) {
    plan.SkipOutput();
  }
  if (q[0] == 0) return ACLNN_SUCCESS;  // no query row

  kernels::AttentionDesc desc;
  desc.dtype = query->dtype;
  desc.batch = batch;
  desc.heads = heads;
  desc.kv_heads = kv_heads;
  desc.head_dim = d;
  desc.value_dim = d;
  desc.scale = static_cast<float>(call.scale);
  const Bnsd qv = AsBnsd(q_ref, layout, heads);
  const Bnsd ov = AsBnsd(out_ref, Layout::kTnd, heads);
  desc.query = q_ref.buffer;
  desc.out = out_ref.buffer;
  std::copy(qv.strides.begin(), qv.strides.end(), desc.query_strides);
  std::copy(ov.strides.begin(), ov.strides.end(), desc.out_strides);
  const auto element = static_cast<int64_t>(DtypeSize(query->dtype));
  if (paged) {
    desc.paged = true;
    desc.block_table = plan.Contiguous(table_ref, ACL_INT32).buffer;
    desc.table_columns = table_ref.shape[1];
    desc.block_size = call.block_size;
    desc.blocks = cache_blocks;
  }
  // Each batch's keys: (head, sequence, dim) strides; paged, (head, row within the block, dim) and the block stride.
  const auto kv_view = [&](const TensorRef& t, int64_t begin, BufferRef& buffer, int64_t* strides,
                           int64_t& block_stride) {
    buffer = t.buffer;
    const Shape& st = t.strides;
    if (paged) {
      block_stride = st[0];
      const bool heads_major = t.shape.size() == 4;
      strides[0] = heads_major ? st[1] : st[2] * d;
      strides[1] = heads_major ? st[2] : st[1];
      strides[2] = heads_major ? st[3] : st[2];
      return;
    }
    const Bnsd view = AsBnsd(t, layout, kv_heads);
    for (size_t j = 0; j < 3; ++j) strides[j] = view.strides[j + 1];
    buffer.byte_offset += begin * view.strides[2] * element;
  };
  desc.kv.resize(static_cast<size_t>(batch));
  desc.query_valid.resize(static_cast<size_t>(batch));
  desc.row_offsets.resize(static_cast<size_t>(batch));
  for (int64_t b = 0; b < batch; ++b) {
    const auto i = static_cast<size_t>(b);
    const int64_t q_begin = b == 0 ? 0 : q_ends[i - 1];
    desc.row_offsets[i] = q_begin;
    desc.query_valid[i] = q_ends[i] - q_begin;
    desc.query_length = std::max(desc.query_length, desc.query_valid[i]);
    kernels::AttentionKv& kv = desc.kv[i];
    kv_view(k_refs[0], kv_begin[i], kv.key, kv.key_strides, kv.key_block_stride);
    kv_view(v_refs[0], kv_begin[i], kv.value, kv.value_strides, kv.value_block_stride);
    kv.length = kv_len[i];
  }
  if (desc.query_length == 0) return ACLNN_SUCCESS;  // every sequence empty
  if (causal) {                                      // bottom-right aligned within each sequence
    desc.band = true;
    desc.pre_tokens = kTokenLimit;
    desc.next_tokens = 0;
    desc.right_down = true;
  }
  if (call.sink != nullptr) {
    desc.has_sink = true;
    desc.sink_dtype = sink_ref.dtype;
    desc.sink = sink_ref.buffer;
    desc.sink_stride = sink_ref.strides[0];
  }
  if (call.lse_flag) {  // [T, N, 1]: (batch, head, token) strides
    desc.has_lse = true;
    desc.lse = lse_ref.buffer;
    desc.lse_strides[0] = 0;
    desc.lse_strides[1] = lse_ref.strides[1];
    desc.lse_strides[2] = lse_ref.strides[0];
  }
  std::vector<TensorRef> reads = {q_ref, k_refs[0], v_refs[0]};
  if (call.mask != nullptr) reads.push_back(mask_ref);
  if (call.sink != nullptr) reads.push_back(sink_ref);
  if (paged) reads.push_back(table_ref);
  if (call.lse_flag) {
    plan.AddStep(kernels::MakeAttentionStep(std::move(desc)));  // two outputs
  } else {
    plan.AddStep(kernels::MakeAttentionStep(std::move(desc)), reads, out_ref);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus PlanAttention(Plan& plan, const AttentionCall& call) {
  const aclTensor* query = call.query;
  const aclTensor* pse_shift = call.pse;
  const aclTensor* atten_mask = call.mask;
  const aclIntArray* actual_seq_lengths = call.query_lengths;
  const aclIntArray* actual_seq_lengths_kv = call.kv_lengths;
  const aclTensor* attention_out = call.out;
  const aclTensor* softmax_lse = call.lse;
  const bool softmax_lse_flag = call.lse_flag;
  const int64_t num_heads = call.num_heads, num_key_value_heads = call.num_kv_heads;
  const int64_t sparse_mode = call.sparse_mode, inner_precise = call.inner_precise;
  const char* input_layout = call.layout;
  // The framework has checked the required arguments (query, key, value, out) for null.
  std::vector<const aclTensor*> keys, values;
  if (call.key_list != nullptr) {
    keys.assign(call.key_list->tensors.begin(), call.key_list->tensors.end());
    values.assign(call.value_list->tensors.begin(), call.value_list->tensors.end());
  } else {
    keys = {call.key};
    values = {call.value};
  }

  // ---- dtypes and formats (161002), quantised forms (not supported)
  if (query->dtype == ACL_INT8) return RejectNotSupported(plan, "query", "an INT8 query (full quantisation)");
  CANOPY_CHECK(plan.CheckDtype("query", query->dtype, kAttentionDtypes));
  if (keys.empty() || keys.size() != values.size()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "arguments 'key' and 'value' hold %zu and %zu tensors: they need the "
                       "same number, at least one",
                       keys.size(), values.size());
  }
  const char* const kAntiquant = "an INT4 key or value (KV antiquantisation)";
  // An INT8 key (and value): KV antiquantisation, dequantised in the kernel's block loads.
  const bool int8_kv = keys[0]->dtype == ACL_INT8;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (int8_kv) {
      for (const auto& [name, t] : {std::pair{"key", keys[i]}, std::pair{"value", values[i]}}) {
        if (t->dtype != ACL_INT8) {
          return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but key is INT8: they must match", name,
                             DtypeName(t->dtype));
        }
      }
      continue;
    }
    CANOPY_CHECK(CheckAttentionDtype(plan, "key", keys[i]->dtype, query->dtype, kAntiquant));
    CANOPY_CHECK(CheckAttentionDtype(plan, "value", values[i]->dtype, query->dtype, kAntiquant));
  }
  if (attention_out->dtype == ACL_INT8) {
    return RejectNotSupported(plan, "attentionOut", "an INT8 output (post-quantisation)");
  }
  CANOPY_CHECK(CheckAttentionDtype(plan, "attentionOut", attention_out->dtype, query->dtype, "a quantised output"));
  if (pse_shift != nullptr) {
    CANOPY_CHECK(plan.CheckDtype(call.pse_name, pse_shift->dtype, kAttentionDtypes));
    if (pse_shift->dtype != query->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but query is %s: they must match",
                         call.pse_name, DtypeName(pse_shift->dtype), DtypeName(query->dtype));
    }
  }
  if (atten_mask != nullptr) CANOPY_CHECK(plan.CheckDtype(call.mask_name, atten_mask->dtype, kMaskDtypes));
  if (call.sink != nullptr) CANOPY_CHECK(plan.CheckDtype(call.sink_name, call.sink->dtype, DtypeSet{ACL_BF16}));
  for (const auto& [name, argument] : call.unsupported) {
    if (argument != nullptr) {
      return RejectNotSupported(plan, name, "quantisation, left padding, shared prefixes and rope-split heads");
    }
  }
  if (!int8_kv) {  // CANN's tiling: antiquantisation parameters without an INT8 key / value
    for (const AttentionCall::QuantArg* a :
         {&call.antiquant_scale, &call.antiquant_offset, &call.key_antiquant_scale, &call.key_antiquant_offset,
          &call.value_antiquant_scale, &call.value_antiquant_offset}) {
      if (Given(a->tensor)) {
        return plan.Reject(kTilingError,
                           "argument '%s' is given, but key and value are %s, not INT8 (no KV antiquantisation)",
                           a->name, DtypeName(keys[0]->dtype));
      }
    }
  }

  const bool paged = call.block_table != nullptr;
  if (paged) {
    CANOPY_CHECK(plan.CheckDtype(call.block_table_name, call.block_table->dtype, DtypeSet{ACL_INT32}));
    const bool varlen = call.allow_tnd && (std::strcmp(input_layout, "TND") == 0 ||
                                           std::strcmp(input_layout, "NTD_TND") == 0);  // their own block sizes
    if (!varlen && (call.block_size <= 0 || call.block_size > kMaxBlockSize)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'blockSize' is %lld; with a block table it must be in [1, %lld]",
                         static_cast<long long>(call.block_size), static_cast<long long>(kMaxBlockSize));
    }
    if (keys.size() != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "arguments 'key' and 'value' hold %zu tensors; with a block table each is one cache tensor",
                         keys.size());
    }
    if (actual_seq_lengths_kv == nullptr || actual_seq_lengths_kv->values.empty()) {
      return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' is null or empty; paged attention (%s) needs it",
                         call.kv_lengths_name, call.block_table_name);
    }
  }

  // ---- layout, heads and shapes (161002)
  Problem p;
  if (!ParseLayout(input_layout, p.layout) || (p.layout == Layout::kBnsdBsnd && !call.allow_bnsd_bsnd) ||
      (IsTndLike(p.layout) && !call.allow_tnd)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'inputLayout' is \"%s\"; it must be %s", input_layout,
                       call.allow_tnd         ? "\"BSH\", \"BSND\", \"BNSD\", \"BNSD_BSND\", \"TND\" or \"NTD_TND\""
                       : call.allow_bnsd_bsnd ? "\"BSH\", \"BSND\", \"BNSD\" or \"BNSD_BSND\""
                                              : "\"BSH\", \"BSND\" or \"BNSD\"");
  }
  if (IsTndLike(p.layout)) {
    if (int8_kv) return RejectNotSupported(plan, "key", "an INT8 key / value with layout TND or NTD_TND");
    return PlanVarLenAttention(plan, call, p.layout, keys, values);
  }
  if (call.sink != nullptr) {
    return plan.Reject(kTilingError, "argument '%s': attention sinks need layout TND or NTD_TND (layout is %s)",
                       call.sink_name, input_layout);
  }
  const int64_t rank = LayoutRank(p.layout);
  const auto check_rank = [&](const char* name, const aclTensor* t) {
    if (t->rank() == rank) return ACLNN_SUCCESS;
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; layout %s takes rank %lld", name,
                       static_cast<long long>(t->rank()), input_layout, static_cast<long long>(rank));
  };
  CANOPY_CHECK(check_rank("query", query));
  CANOPY_CHECK(check_rank("attentionOut", attention_out));
  for (size_t i = 0; i < keys.size() && !paged; ++i) {
    CANOPY_CHECK(check_rank("key", keys[i]));
    CANOPY_CHECK(check_rank("value", values[i]));
  }
  if (num_heads <= 0 || num_heads > kMaxHeads) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'numHeads' is %lld; it must be in [1, %lld]",
                       static_cast<long long>(num_heads), static_cast<long long>(kMaxHeads));
  }
  p.heads = num_heads;
  p.kv_heads = num_key_value_heads == 0 ? num_heads : num_key_value_heads;
  if (p.kv_heads < 0 || num_heads % p.kv_heads != 0 || num_heads / p.kv_heads > kMaxGroup) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'numKeyValueHeads' is %lld: numHeads (%lld) must be a multiple of it, at most %lld "
                       "times it",
                       static_cast<long long>(num_key_value_heads), static_cast<long long>(num_heads),
                       static_cast<long long>(kMaxGroup));
  }
  if (p.layout == Layout::kBsh && query->view_shape[2] % num_heads != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "query's H (%lld) is not a multiple of numHeads (%lld)",
                       static_cast<long long>(query->view_shape[2]), static_cast<long long>(num_heads));
  }
  const auto q = ExtentsOf(query, p.layout, num_heads);
  if (q[1] != num_heads) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "query has %lld heads, but numHeads is %lld",
                       static_cast<long long>(q[1]), static_cast<long long>(num_heads));
  }
  p.batch = q[0];
  p.query_length = q[2];
  p.head_dim = q[3];
  if (call.decode_only && p.query_length != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "query has S = %lld; this op takes one query row (S = 1)",
                       static_cast<long long>(p.query_length));
  }
  if (int8_kv && p.query_length != 1) {
    return RejectNotSupported(plan, "key", "an INT8 key / value with more than one query row");
  }
  if (p.batch > kMaxBatch || p.head_dim > kMaxHeadDim || p.head_dim < 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "query has B = %lld and D = %lld; at most %lld and D in [1, %lld]",
                       static_cast<long long>(p.batch), static_cast<long long>(p.head_dim),
                       static_cast<long long>(kMaxBatch), static_cast<long long>(kMaxHeadDim));
  }
  if (call.unaligned_d_limits_batch && p.query_length > 1 && p.head_dim % kHeadDimAlignment != 0 &&
      p.batch > kUnalignedMaxBatch) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "query's D is %lld, not a multiple of %lld: with more than one query row B (%lld) must be at "
                       "most %lld",
                       static_cast<long long>(p.head_dim), static_cast<long long>(kHeadDimAlignment),
                       static_cast<long long>(p.batch), static_cast<long long>(kUnalignedMaxBatch));
  }
  if (!call.unaligned_d_limits_batch && p.query_length > 1 && p.head_dim % kHeadDimAlignment != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "query's D is %lld: with more than one query row it must be a "
                       "multiple of %lld",
                       static_cast<long long>(p.head_dim), static_cast<long long>(kHeadDimAlignment));
  }
  // Key and value: one tensor for every batch, or one (of batch 1) per batch.
  const bool per_batch = keys.size() > 1;
  if (per_batch && static_cast<int64_t>(keys.size()) != p.batch) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "arguments 'key' and 'value' hold %zu tensors; a list of more than "
                       "one needs one per batch (%lld)",
                       keys.size(), static_cast<long long>(p.batch));
  }
  if (!paged && p.layout == Layout::kBsh && keys[0]->view_shape[2] % p.kv_heads != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "key's H (%lld) is not a multiple of numKeyValueHeads (%lld)",
                       static_cast<long long>(keys[0]->view_shape[2]), static_cast<long long>(p.kv_heads));
  }
  std::vector<int64_t> kv_storage(static_cast<size_t>(p.batch));
  bool paged_heads_major = false;  // the cache is (blocks, KV_N, blockSize, D), else (blocks, blockSize, H)
  int64_t cache_blocks = 0;
  if (paged) {
    const Shape& k = keys[0]->view_shape;
    paged_heads_major = k.size() == 4;
    const bool ok = values[0]->view_shape == k &&
                    (k.size() == 3 ? k[1] == call.block_size && k[2] == p.kv_heads * p.head_dim
                                   : k.size() == 4 && p.layout == Layout::kBnsd && k[1] == p.kv_heads &&
                                         k[2] == call.block_size && k[3] == p.head_dim);
    if (!ok) {
      return plan.Reject(
          ACLNN_ERR_PARAM_INVALID,
          "paged key %s and value %s: the cache must be (blocks, blockSize = %lld, H = %lld)%s, the same "
          "for both",
          ShapeToString(k).c_str(), ShapeToString(values[0]->view_shape).c_str(),
          static_cast<long long>(call.block_size), static_cast<long long>(p.kv_heads) * p.head_dim,
          p.layout == Layout::kBnsd ? " or (blocks, KV_N, blockSize, D)" : "");
    }
    cache_blocks = k[0];
    const Shape& t = call.block_table->view_shape;
    if (t.size() != 2 || t[0] != p.batch) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument '%s' has shape %s; it must be [B = %lld, blocks per sequence]",
                         call.block_table_name, ShapeToString(t).c_str(), static_cast<long long>(p.batch));
    }
    if (t[1] > std::numeric_limits<int64_t>::max() / call.block_size) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument '%s' has shape %s: %lld blocks of %lld keys per sequence do not fit int64",
                         call.block_table_name, ShapeToString(t).c_str(), static_cast<long long>(t[1]),
                         static_cast<long long>(call.block_size));
    }
    std::fill(kv_storage.begin(), kv_storage.end(), t[1] * call.block_size);  // the lengths the table can hold
  }
  for (size_t i = 0; i < keys.size() && !paged; ++i) {
    const aclTensor* k = keys[i];
    if (values[i]->view_shape != k->view_shape) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "value[%zu] has shape %s, but key[%zu] has %s: they must match", i,
                         ShapeToString(values[i]->view_shape).c_str(), i, ShapeToString(k->view_shape).c_str());
    }
    const auto e = ExtentsOf(k, p.layout, p.kv_heads);
    if (e[0] != (per_batch ? 1 : p.batch) || e[1] != p.kv_heads || e[3] != p.head_dim) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "key[%zu] has shape %s: in layout %s it needs B = %lld, N = numKeyValueHeads (%lld) and "
                         "query's D (%lld)",
                         i, ShapeToString(k->view_shape).c_str(), input_layout,
                         static_cast<long long>(per_batch ? 1 : p.batch), static_cast<long long>(p.kv_heads),
                         static_cast<long long>(p.head_dim));
    }
    if (per_batch) {
      kv_storage[i] = e[2];
    } else {
      std::fill(kv_storage.begin(), kv_storage.end(), e[2]);
    }
  }
  for (int64_t length : kv_storage) p.max_kv_length = std::max(p.max_kv_length, length);
  std::array<int64_t, 4> want_out = {p.batch, p.heads, p.query_length, p.head_dim};
  const Layout out_layout = p.layout == Layout::kBnsdBsnd ? Layout::kBsnd : p.layout;
  if (p.layout == Layout::kBnsdBsnd && p.query_length <= 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "layout BNSD_BSND needs more than one query row");
  }
  if (ExtentsOf(attention_out, out_layout, num_heads) != want_out ||
      (out_layout == Layout::kBsh && attention_out->view_shape[2] != num_heads * p.head_dim)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'attentionOut' has shape %s, which does not match query %s",
                       ShapeToString(attention_out->view_shape).c_str(), ShapeToString(query->view_shape).c_str());
  }

  // ---- modes and lengths
  if (inner_precise < 0 || inner_precise > call.max_inner_precise) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'innerPrecise' is %lld; it must be in [0, %lld]",
                       static_cast<long long>(inner_precise), static_cast<long long>(call.max_inner_precise));
  }
  // A single query row is decode (FIA): no sparse mode, token window or query lengths; PFA keeps them.
  const bool prompt = call.prompt_only || p.query_length > 1;
  if (prompt && (sparse_mode < 0 || sparse_mode > kLastSparseMode)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'sparseMode' is %lld; it must be in [0, 4]",
                       static_cast<long long>(sparse_mode));
  }
  if (prompt && sparse_mode == kBandSparseMode) {
    return RejectNotSupported(plan, "sparseMode", "sparse mode 4 (band)");
  }
  const bool compressed_mask = prompt && (sparse_mode == 2 || sparse_mode == 3);
  if (compressed_mask) {
    const Shape& m = atten_mask != nullptr ? atten_mask->view_shape : Shape{};
    bool ok = m.size() >= 2 && m.size() <= 4 && m[m.size() - 1] == kCompressedMaskSize &&
              m[m.size() - 2] == kCompressedMaskSize;
    for (size_t i = 0; ok && i + 2 < m.size(); ++i) ok = m[i] == 1;
    if (!ok) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "sparse mode %lld needs a [2048, 2048] attention mask (got %s)",
                         static_cast<long long>(sparse_mode),
                         atten_mask != nullptr ? ShapeToString(m).c_str() : "none");
    }
  }
  if (prompt && sparse_mode == 1 && atten_mask == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "sparse mode 1 needs an attention mask");
  }
  if (prompt && sparse_mode == 0 && atten_mask != nullptr) {
    CANOPY_CHECK(CheckTokenWindow(plan, call.pre_tokens, call.next_tokens, p.query_length, p.max_kv_length));
  }
  std::vector<int64_t> query_valid, kv_valid;
  CANOPY_CHECK(ReadLengths(
      plan, call.query_lengths_name, prompt ? actual_seq_lengths : nullptr, p.batch,
      [&](int64_t) { return p.query_length; }, query_valid));
  CANOPY_CHECK(ReadLengths(
      plan, call.kv_lengths_name, actual_seq_lengths_kv, p.batch,
      [&](int64_t b) { return kv_storage[static_cast<size_t>(b)]; }, kv_valid));
  if (paged) {  // the keys a mask or pse must cover: the blocks the longest sequence uses (none for B = 0)
    p.max_kv_length = CeilDiv(Longest(kv_valid), call.block_size) * call.block_size;
  }

  // ---- pse shift [B or 1, N, >= Q_S, >= KV_S], mask, softmaxLse
  if (pse_shift != nullptr) {
    const Shape& s = pse_shift->view_shape;
    if (s.size() != 4 || (s[0] != p.batch && s[0] != 1) || s[1] != p.heads || s[2] < p.query_length ||
        s[3] < p.max_kv_length) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument '%s' has shape %s; it must be [B or 1, %lld, >= %lld, >= %lld]", call.pse_name,
                         ShapeToString(s).c_str(), static_cast<long long>(p.heads),
                         static_cast<long long>(p.query_length), static_cast<long long>(p.max_kv_length));
    }
  }
  const bool read_mask = atten_mask != nullptr && !compressed_mask;
  std::array<int64_t, 3> mask_extent{};  // (batch, query, key) of the mask; batch 0 = none
  if (read_mask) {
    const Shape& m = atten_mask->view_shape;
    const size_t r = m.size();
    bool ok = r >= 2 && r <= 4 && m[r - 1] >= p.max_kv_length;
    if (ok && r == 2 && !prompt) {
      mask_extent = {m[0], 1, m[1]};  // (B, KV_S)
    } else if (ok) {
      mask_extent = {r >= 3 ? m[0] : 1, m[r - 2], m[r - 1]};
      ok = m[r - 2] >= p.query_length && (r < 4 || m[1] == 1);
    }
    ok = ok && (mask_extent[0] == 1 || mask_extent[0] == p.batch);
    if (!ok) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument '%s' has shape %s; for %lld query rows and %lld keys it must be "
                         "(Q_S, KV_S), (B or 1, Q_S, KV_S), (B or 1, 1, Q_S, KV_S)%s",
                         call.mask_name, ShapeToString(m).c_str(), static_cast<long long>(p.query_length),
                         static_cast<long long>(p.max_kv_length), prompt ? "" : ", (B, KV_S)");
    }
  }
  if (softmax_lse_flag) {
    if (softmax_lse == nullptr) return plan.CheckNotNull("softmaxLse", softmax_lse);
    CANOPY_CHECK(plan.CheckDtype("softmaxLse", softmax_lse->dtype, DtypeSet{ACL_FLOAT}));
    CANOPY_CHECK(plan.CheckShape("softmaxLse", softmax_lse, {p.batch, p.heads, p.query_length, 1}));
  }

  // ---- KV antiquantisation parameters
  AntiquantSide key_aq, value_aq;
  if (int8_kv) {
    CANOPY_CHECK(ChooseAntiquant(plan, call, query->dtype, key_aq, value_aq));
    if (paged && call.block_size % 32 != 0) {
      return plan.Reject(kTilingError,
                         "argument 'blockSize' is %lld; with an INT8 key / value it must be a multiple of 32",
                         static_cast<long long>(call.block_size));
    }
    // The keys a per-token parameter must cover: the cache's S, or (paged) the longest sequence.
    const int64_t tokens = paged ? Longest(kv_valid) : p.max_kv_length;
    CANOPY_CHECK(CheckAntiquantSide(plan, key_aq, p, tokens, query->dtype));
    if (value_aq.scale != key_aq.scale || value_aq.mode != key_aq.mode) {
      CANOPY_CHECK(CheckAntiquantSide(plan, value_aq, p, tokens, query->dtype));
    }
  }

  // ---- operands, in the prototype's input order (int arrays take their IR index too)
  const TensorRef q_ref = plan.Input(query, "query");
  const std::vector<TensorRef> k_refs =
      call.key_list != nullptr ? plan.InputList(call.key_list, "key") : std::vector{plan.Input(call.key, "key")};
  const std::vector<TensorRef> v_refs = call.value_list != nullptr ? plan.InputList(call.value_list, "value")
                                                                   : std::vector{plan.Input(call.value, "value")};
  TensorRef pse_ref, mask_ref;
  if (pse_shift != nullptr) {
    pse_ref = plan.Input(pse_shift, call.pse_name);
  } else {
    plan.SkipInput();
  }
  if (atten_mask != nullptr) {
    mask_ref = plan.Input(atten_mask, call.mask_name);
  } else {
    plan.SkipInput();
  }
  TensorRef table_ref;
  // The antiquantisation parameters read: scale and offset of the key's and the value's (combined: one pair).
  TensorRef aq_refs[4];
  const std::pair<const aclTensor*, int> aq_inputs[4] = {{key_aq.scale, key_aq.scale_input},
                                                         {key_aq.offset, key_aq.offset_input},
                                                         {value_aq.scale, value_aq.scale_input},
                                                         {value_aq.offset, value_aq.offset_input}};
  for (int input = 0; input < call.inputs_after_mask; ++input) {
    bool read = false;
    for (int i = 0; i < 4 && int8_kv; ++i) {
      if (aq_inputs[i].first != nullptr && aq_inputs[i].second == input) {
        aq_refs[i] = plan.Input(aq_inputs[i].first, i % 2 == 0 ? (i < 2 ? key_aq.scale_name : value_aq.scale_name)
                                                               : (i < 2 ? key_aq.offset_name : value_aq.offset_name));
        for (int j = i + 1; j < 4; ++j) {
          if (aq_inputs[j].second == input) aq_refs[j] = aq_refs[i];  // the combined pair serves both
        }
        read = true;
        break;
      }
    }
    if (read) continue;
    if (paged && input == call.block_table_input) {
      table_ref = plan.Input(call.block_table, call.block_table_name);
    } else {
      plan.SkipInput();
    }
  }
  const TensorRef out_ref = plan.Output(attention_out, "attentionOut");
  TensorRef lse_ref;
  if (softmax_lse_flag) {
    lse_ref = plan.Output(softmax_lse, "softmaxLse");
  } else if (call.has_lse_output) {
    plan.SkipOutput();  // returned as it is
  }
  if (query->NumElements() == 0 || attention_out->NumElements() == 0) return ACLNN_SUCCESS;

  kernels::AttentionDesc desc;
  desc.dtype = query->dtype;
  desc.batch = p.batch;
  desc.heads = p.heads;
  desc.kv_heads = p.kv_heads;
  desc.query_length = p.query_length;
  desc.head_dim = p.head_dim;
  desc.value_dim = p.head_dim;
  desc.scale = static_cast<float>(call.scale);
  const Bnsd qv = AsBnsd(q_ref, p.layout, p.heads);
  const Bnsd ov = AsBnsd(out_ref, out_layout, p.heads);
  desc.query = q_ref.buffer;
  desc.out = out_ref.buffer;
  std::copy(qv.strides.begin(), qv.strides.end(), desc.query_strides);
  std::copy(ov.strides.begin(), ov.strides.end(), desc.out_strides);
  const int64_t kv_element = static_cast<int64_t>(DtypeSize(keys[0]->dtype));
  desc.kv.resize(static_cast<size_t>(p.batch));
  if (int8_kv) {
    const auto dequant = [&](const AntiquantSide& side, const TensorRef& scale, const TensorRef& offset) {
      kernels::AttentionDequant dq;
      dq.on = true;
      dq.per_token = IsPerTokenMode(side.mode);
      dq.param_dtype = scale.dtype;
      dq.scale = DequantView(scale, side, p.kv_heads, p.head_dim);
      dq.has_offset = side.offset != nullptr;
      if (dq.has_offset) dq.offset = DequantView(offset, side, p.kv_heads, p.head_dim);
      return dq;
    };
    desc.key_dequant = dequant(key_aq, aq_refs[0], aq_refs[1]);
    desc.value_dequant = dequant(value_aq, aq_refs[2], aq_refs[3]);
  }
  if (paged) {
    desc.paged = true;
    desc.block_table = plan.Contiguous(table_ref, ACL_INT32).buffer;
    desc.table_columns = table_ref.shape[1];
    desc.block_size = call.block_size;
    desc.blocks = cache_blocks;
  }
  for (int64_t b = 0; b < p.batch && paged; ++b) {
    // (head, row within the block, dim) strides and the block stride of each cache.
    kernels::AttentionKv& kv = desc.kv[static_cast<size_t>(b)];
    const auto fill = [&](const TensorRef& t, BufferRef& buffer, int64_t* strides, int64_t& block_stride) {
      buffer = t.buffer;
      const Shape& st = t.strides;
      block_stride = st[0];
      if (paged_heads_major) {
        strides[0] = st[1], strides[1] = st[2], strides[2] = st[3];
      } else {
        strides[0] = st[2] * p.head_dim, strides[1] = st[1], strides[2] = st[2];
      }
    };
    fill(k_refs[0], kv.key, kv.key_strides, kv.key_block_stride);
    fill(v_refs[0], kv.value, kv.value_strides, kv.value_block_stride);
    kv.length = kv_valid[static_cast<size_t>(b)];
  }
  for (int64_t b = 0; b < p.batch && !paged; ++b) {
    const size_t list_index = per_batch ? static_cast<size_t>(b) : 0;
    const int64_t batch_in_tensor = per_batch ? 0 : b;
    const Bnsd kb = AsBnsd(k_refs[list_index], p.layout, p.kv_heads);
    const Bnsd vb = AsBnsd(v_refs[list_index], p.layout, p.kv_heads);
    kernels::AttentionKv& kv = desc.kv[static_cast<size_t>(b)];
    kv.key = k_refs[list_index].buffer;
    kv.key.byte_offset += batch_in_tensor * kb.strides[0] * kv_element;
    kv.value = v_refs[list_index].buffer;
    kv.value.byte_offset += batch_in_tensor * vb.strides[0] * kv_element;
    for (int i = 0; i < 3; ++i) {
      kv.key_strides[i] = kb.strides[static_cast<size_t>(i) + 1];
      kv.value_strides[i] = vb.strides[static_cast<size_t>(i) + 1];
    }
    kv.length = kv_valid[static_cast<size_t>(b)];
  }
  desc.query_valid = query_valid;
  if (pse_shift != nullptr) {
    desc.has_pse = true;
    desc.pse_dtype = pse_shift->dtype;
    desc.pse = pse_ref.buffer;
    for (size_t i = 0; i < 4; ++i) desc.pse_strides[i] = pse_ref.shape[i] == 1 ? 0 : pse_ref.strides[i];
  }
  if (read_mask) {
    desc.has_mask = true;
    desc.mask = mask_ref.buffer;
    const size_t r = mask_ref.shape.size();
    const auto stride = [&](size_t d) { return mask_ref.shape[d] == 1 ? 0 : mask_ref.strides[d]; };
    if (r == 2 && !prompt) {
      desc.mask_strides[0] = stride(0);
      desc.mask_strides[1] = 0;
    } else {
      desc.mask_strides[0] = r >= 3 ? stride(0) : 0;
      desc.mask_strides[1] = stride(r - 2);
    }
    desc.mask_strides[2] = stride(r - 1);
  }
  if (prompt) {
    const int64_t pre = std::clamp(call.pre_tokens, -kTokenLimit, kTokenLimit);
    const int64_t next = std::clamp(call.next_tokens, -kTokenLimit, kTokenLimit);
    if (sparse_mode == 0 && atten_mask != nullptr) {  // the mask, within the token window
      desc.band = true;
      desc.pre_tokens = pre;
      desc.next_tokens = next;
    } else if (sparse_mode == 2 || sparse_mode == 3) {  // causal, top-left or bottom-right aligned
      desc.band = true;
      desc.pre_tokens = kTokenLimit;
      desc.next_tokens = 0;
      desc.right_down = sparse_mode == 3;
    }
  }
  if (softmax_lse_flag) {
    desc.has_lse = true;
    desc.lse = lse_ref.buffer;
    for (size_t i = 0; i < 3; ++i) desc.lse_strides[i] = lse_ref.shape[i] == 1 ? 0 : lse_ref.strides[i];
  }
  std::vector<TensorRef> reads = {q_ref};
  reads.insert(reads.end(), k_refs.begin(), k_refs.end());
  reads.insert(reads.end(), v_refs.begin(), v_refs.end());
  if (pse_shift != nullptr) reads.push_back(pse_ref);
  if (atten_mask != nullptr) reads.push_back(mask_ref);
  if (paged) reads.push_back(table_ref);
  for (int i = 0; i < 4 && int8_kv; ++i) {
    if (aq_inputs[i].first != nullptr) reads.push_back(aq_refs[i]);
  }
  if (softmax_lse_flag) {
    plan.AddStep(kernels::MakeAttentionStep(std::move(desc)));  // two outputs
  } else {
    plan.AddStep(kernels::MakeAttentionStep(std::move(desc)), reads, out_ref);
  }
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
