// aclnnFlashAttentionScore (forward): for each batch, query head and query row,
//   attentionOut = softmax(scale * (q K^T + realShift), masked) V
// with its softmax statistics, the row's max scaled score (softmaxMaxOut) and
// sum(exp(score - max)) (softmaxSumOut), each repeated 8 times along the last
// dim ([B, N, Sq, 8], f32). Layouts BSH, SBH, BSND, BNSD; grouped-query heads
// (N of key/value divides headNum); value's D may be smaller than query's.
// On the inference attention kernel (kernels/attention.h): blockwise, an
// online softmax, no Sq x Skv scores.
//
// Masks: [Sq, Skv], [1 or B, 1, Sq, Skv], [B, N, Sq, Skv], bool or uint8, a
// non-zero entry masking. Without a mask every key takes part (sparseMode and
// the token window are then ignored, as the doc says); with one, sparse mode 0
// is the mask within preTokens / nextTokens, 1 the mask alone, 2 and 3 causal
// from the top left / bottom right (their optimised 2048 x 2048 mask is
// checked, not read). A row with no key taking part gives zeros (max -inf, sum 0).
//
// Scope (561003, not supported by Canopy): dropout (keepProb < 1), the
// padding mask, sparse modes 4-6 (band, prefix) and the ALiBi-compressed pse
// (1024 rows for a longer query). innerPrecise does not change the result.
#include "aclnnop/aclnn_flash_attention_score.h"
#include "kernels/attention.h"
#include "ops/framework/aclnn_op.h"
#include "token_window.h"

#include <array>
#include <cstring>

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kDtypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT};
constexpr DtypeSet kMaskDtypes = {ACL_BOOL, ACL_UINT8};
constexpr aclnnStatus kNotSupported = ACLNN_ERR_INNER_FIND_KERNEL_ERROR;
constexpr int64_t kMaxHeads = 256;
constexpr int64_t kMaxHeadDim = 768;
constexpr int64_t kStatsCopies = 8;
constexpr int64_t kCompressedMaskSize = 2048;
constexpr int64_t kLastSparseMode = 6;
constexpr int64_t kCompressedPseRows = 1024;
constexpr int64_t kTokenLimit = int64_t{1} << 40;

enum class Layout { kBsh, kSbh, kBsnd, kBnsd };

bool ParseLayout(const char* text, Layout& layout) {
  static constexpr std::pair<const char*, Layout> kNames[] = {
      {"BSH", Layout::kBsh}, {"SBH", Layout::kSbh}, {"BSND", Layout::kBsnd}, {"BNSD", Layout::kBnsd}};
  for (const auto& [name, value] : kNames) {
    if (std::strcmp(text, name) == 0) {
      layout = value;
      return true;
    }
  }
  return false;
}

bool Packed(Layout layout) { return layout == Layout::kBsh || layout == Layout::kSbh; }

// (batch, heads, sequence, dim) extents of a tensor in the layout; a packed H splits as heads x (H / heads).
std::array<int64_t, 4> Extents(const Shape& s, Layout layout, int64_t heads) {
  switch (layout) {
    case Layout::kBsh:
      return {s[0], heads, s[1], s[2] / heads};
    case Layout::kSbh:
      return {s[1], heads, s[0], s[2] / heads};
    case Layout::kBsnd:
      return {s[0], s[2], s[1], s[3]};
    case Layout::kBnsd:
      break;
  }
  return {s[0], s[1], s[2], s[3]};
}

// (batch, head, sequence, dim) element strides of a view in the layout, head dim `d`.
std::array<int64_t, 4> Strides(const TensorRef& t, Layout layout, int64_t d) {
  const Shape& st = t.strides;
  switch (layout) {
    case Layout::kBsh:
      return {st[0], st[2] * d, st[1], st[2]};
    case Layout::kSbh:
      return {st[1], st[2] * d, st[0], st[2]};
    case Layout::kBsnd:
      return {st[0], st[2], st[1], st[3]};
    case Layout::kBnsd:
      break;
  }
  return {st[0], st[1], st[2], st[3]};
}

aclnnStatus SameDtype(Plan& plan, const char* name, const aclTensor* t, aclDataType query) {
  if (t->dtype == query) return ACLNN_SUCCESS;
  CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kDtypes));
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but query is %s: they must match", name,
                     DtypeName(t->dtype), DtypeName(query));
}

// One call of the FlashAttentionScore family: the dense forms (BSH/SBH/BSND/BNSD)
// and the variable-length ones (TND with cumulative lengths), each version
// filling what its prototype has.
struct FlashArgs {
  const aclTensor* query = nullptr;
  const aclTensor* query_rope = nullptr;  // VarLenScoreV3: scores add queryRope . keyRope
  const aclTensor* key = nullptr;
  const aclTensor* key_rope = nullptr;
  const aclTensor* value = nullptr;
  const aclTensor* real_shift = nullptr;
  const aclTensor* drop_mask = nullptr;
  const aclTensor* padding_mask = nullptr;
  const aclTensor* atten_mask = nullptr;
  // Host int arrays after the mask (prefix, the lengths, the start indices): IR slots of their own.
  int int_arrays = 1;
  bool varlen = false;  // TND, with actualSeqQLen / actualSeqKvLen
  const aclIntArray* q_lengths = nullptr;
  const aclIntArray* kv_lengths = nullptr;
  double scale = 1.0, keep_prob = 1.0;
  int64_t pre_tokens = 0, next_tokens = 0, head_num = 0;
  const char* layout = "";
  int64_t sparse_mode = 0;
  // 1: scale * (q.k + pse); 0: scale * q.k + pse; 2 and 3 generate the pse inside (561003).
  int64_t pse_type = 1;
  bool stats_as_input = false;  // VarLenScoreV4's softmaxOutLayout "same_as_input": stats [T, N, 8]
  const aclTensor* softmax_max = nullptr;
  const aclTensor* softmax_sum = nullptr;
  const aclTensor* attention_out = nullptr;
};

constexpr int64_t kLastPseType = 3;

// The checks every form shares, in CANN's order: dtypes, dropout, padding, sparse mode, pse type.
aclnnStatus CheckCommon(Plan& plan, const FlashArgs& a) {
  CANOPY_CHECK(plan.CheckDtype("query", a.query->dtype, kDtypes));
  const aclDataType dtype = a.query->dtype;
  CANOPY_CHECK(SameDtype(plan, "key", a.key, dtype));
  CANOPY_CHECK(SameDtype(plan, "value", a.value, dtype));
  CANOPY_CHECK(SameDtype(plan, "attentionOutOut", a.attention_out, dtype));
  if (a.pse_type < 0 || a.pse_type > kLastPseType) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'pseType' is %lld; it must be in [0, 3]",
                       static_cast<long long>(a.pse_type));
  }
  if (a.pse_type >= 2) {  // the pse then carries the ALiBi slopes, in f32
    if (a.real_shift == nullptr) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'realShiftOptional' is null: pseType %lld needs it",
                         static_cast<long long>(a.pse_type));
    }
    CANOPY_CHECK(plan.CheckDtype("realShiftOptional", a.real_shift->dtype, DtypeSet{ACL_FLOAT}));
    return plan.Reject(kNotSupported, "argument 'pseType' is %lld: a pse generated inside is not supported by Canopy",
                       static_cast<long long>(a.pse_type));
  }
  if (a.real_shift != nullptr) CANOPY_CHECK(SameDtype(plan, "realShiftOptional", a.real_shift, dtype));
  if (a.drop_mask != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("dropMaskOptional", a.drop_mask->dtype, DtypeSet{ACL_UINT8}));
  }
  if (a.atten_mask != nullptr) CANOPY_CHECK(plan.CheckDtype("attenMaskOptional", a.atten_mask->dtype, kMaskDtypes));
  CANOPY_CHECK(plan.CheckDtype("softmaxMaxOut", a.softmax_max->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("softmaxSumOut", a.softmax_sum->dtype, DtypeSet{ACL_FLOAT}));
  if (!(a.keep_prob > 0.0 && a.keep_prob <= 1.0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'keepProb' is %g; it must be in (0, 1]", a.keep_prob);
  }
  if (a.keep_prob < 1.0) {
    return plan.Reject(kNotSupported, "argument 'keepProb' is %g: dropout is not supported by Canopy", a.keep_prob);
  }
  if (a.padding_mask != nullptr) {
    return plan.Reject(kNotSupported, "argument 'paddingMaskOptional': a padding mask is not supported by Canopy");
  }
  if (a.sparse_mode < 0 || a.sparse_mode > kLastSparseMode) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'sparseMode' is %lld; it must be in [0, 6]",
                       static_cast<long long>(a.sparse_mode));
  }
  if (a.atten_mask != nullptr && a.sparse_mode >= 4) {  // without a mask the sparse mode does not apply
    return plan.Reject(kNotSupported,
                       "argument 'sparseMode' is %lld: band and prefix modes are not supported by Canopy",
                       static_cast<long long>(a.sparse_mode));
  }
  return ACLNN_SUCCESS;
}

// The pse's weight against the scores: FlashAttentionScore's pseType 1 scales it with them.
float PseScale(const FlashArgs& a) { return a.pse_type == 1 ? static_cast<float>(a.scale) : 1.0f; }

// A 4-D mask's leading extents: [B, N or 1, ...] (B = 1 included), or [1, 1, ...] shared by every batch.
bool MaskLeadsFit(const Shape& m, int64_t batch, int64_t heads) {
  return (m[0] == batch && (m[1] == heads || m[1] == 1)) || (m[0] == 1 && m[1] == 1);
}

aclnnStatus PlanDense(Plan& plan, const FlashArgs& a) {
  const aclTensor *query = a.query, *key = a.key, *value = a.value, *real_shift = a.real_shift,
                  *atten_mask = a.atten_mask, *softmax_max = a.softmax_max, *softmax_sum = a.softmax_sum,
                  *attention_out = a.attention_out;
  const double scale_value = a.scale;
  const int64_t pre_tokens = a.pre_tokens, next_tokens = a.next_tokens, head_num = a.head_num,
                sparse_mode = a.sparse_mode;
  const char* input_layout = a.layout;
  CANOPY_CHECK(CheckCommon(plan, a));
  const aclDataType dtype = query->dtype;
  const bool masked = atten_mask != nullptr;

  // ---- layout and shapes (161002)
  Layout layout = Layout::kBsh;
  if (!ParseLayout(input_layout, layout)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'inputLayout' is \"%s\"; it must be BSH, SBH, BSND or BNSD",
                       input_layout);
  }
  const int64_t rank = Packed(layout) ? 3 : 4;
  for (const auto& [name, t] : {std::pair{"query", query}, std::pair{"key", key}, std::pair{"value", value},
                                std::pair{"attentionOutOut", attention_out}}) {
    if (t->rank() != rank) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; layout %s takes rank %lld", name,
                         static_cast<long long>(t->rank()), input_layout, static_cast<long long>(rank));
    }
  }
  if (head_num <= 0 || head_num > kMaxHeads) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'headNum' is %lld; it must be in [1, %lld]",
                       static_cast<long long>(head_num), static_cast<long long>(kMaxHeads));
  }
  if (Packed(layout) && query->view_shape[2] % head_num != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "query's H (%lld) is not a multiple of headNum (%lld)",
                       static_cast<long long>(query->view_shape[2]), static_cast<long long>(head_num));
  }
  const auto q = Extents(query->view_shape, layout, head_num);
  const int64_t batch = q[0], q_len = q[2], d = q[3];
  if (q[1] != head_num || d == 0 || d > kMaxHeadDim) {
    return plan.Reject(
        ACLNN_ERR_PARAM_INVALID, "query %s has N = %lld and D = %lld; N must be headNum (%lld), D in [1, %lld]",
        ShapeToString(query->view_shape).c_str(), static_cast<long long>(q[1]), static_cast<long long>(d),
        static_cast<long long>(head_num), static_cast<long long>(kMaxHeadDim));
  }
  // Key and value: N from the shape (packed: key's H / D), the same B, S and N; key's D is query's, value's at most.
  int64_t kv_heads = 0;
  if (Packed(layout)) {
    kv_heads = key->view_shape[2] % d == 0 ? key->view_shape[2] / d : 0;
  } else {
    kv_heads = Extents(key->view_shape, layout, 0)[1];
  }
  if (kv_heads <= 0 || head_num % kv_heads != 0 || (Packed(layout) && value->view_shape[2] % kv_heads != 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "key %s and value %s: their head count must divide headNum (%lld), with query's D (%lld)",
                       ShapeToString(key->view_shape).c_str(), ShapeToString(value->view_shape).c_str(),
                       static_cast<long long>(head_num), static_cast<long long>(d));
  }
  const auto k = Extents(key->view_shape, layout, kv_heads);
  const auto v = Extents(value->view_shape, layout, kv_heads);
  const int64_t kv_len = k[2], dv = v[3];
  if (k[0] != batch || k[3] != d || v[0] != batch || v[1] != kv_heads || v[2] != kv_len || dv == 0 || dv > d) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "key %s and value %s do not fit query %s: the same B, key's D = query's, value's D at most it, "
                       "key and value alike but for D",
                       ShapeToString(key->view_shape).c_str(), ShapeToString(value->view_shape).c_str(),
                       ShapeToString(query->view_shape).c_str());
  }
  const auto o = Extents(attention_out->view_shape, layout, head_num);
  if (o != std::array<int64_t, 4>{batch, head_num, q_len, dv} ||
      (Packed(layout) && attention_out->view_shape[2] != head_num * dv)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'attentionOutOut' has shape %s; it must be query's with value's D",
                       ShapeToString(attention_out->view_shape).c_str());
  }
  const Shape stats_shape = {batch, head_num, q_len, kStatsCopies};
  CANOPY_CHECK(plan.CheckShape("softmaxMaxOut", softmax_max, stats_shape));
  CANOPY_CHECK(plan.CheckShape("softmaxSumOut", softmax_sum, stats_shape));
  if (real_shift != nullptr) {
    const Shape& s = real_shift->view_shape;
    if (s.size() == 4 && s[1] == head_num && s[3] == kv_len && s[2] == kCompressedPseRows &&
        q_len > kCompressedPseRows) {
      return plan.Reject(kNotSupported,
                         "argument 'realShiftOptional': the ALiBi-compressed pse (%lld rows) is not "
                         "supported by Canopy",
                         static_cast<long long>(kCompressedPseRows));
    }
    if (s.size() != 4 || (s[0] != batch && s[0] != 1) || s[1] != head_num || (s[2] != q_len && s[2] != 1) ||
        s[3] != kv_len) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'realShiftOptional' has shape %s; it must be [B or 1, %lld, %lld or 1, %lld]",
                         ShapeToString(s).c_str(), static_cast<long long>(head_num), static_cast<long long>(q_len),
                         static_cast<long long>(kv_len));
    }
  }
  const bool compressed = masked && (sparse_mode == 2 || sparse_mode == 3);
  if (masked && sparse_mode == 0) CANOPY_CHECK(CheckTokenWindow(plan, pre_tokens, next_tokens, q_len, kv_len));
  if (masked) {
    const Shape& m = atten_mask->view_shape;
    const size_t r = m.size();
    const int64_t want_q = compressed ? kCompressedMaskSize : q_len, want_k = compressed ? kCompressedMaskSize : kv_len;
    bool ok = (r == 2 || r == 4) && m[r - 2] == want_q && m[r - 1] == want_k;
    if (ok && r == 4) {
      ok = compressed ? m[0] == 1 && m[1] == 1 : MaskLeadsFit(m, batch, head_num);
    }
    if (!ok) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'attenMaskOptional' has shape %s; %s",
                         ShapeToString(m).c_str(),
                         compressed ? "sparse modes 2 and 3 take [2048, 2048]"
                                    : "it must be [Sq, Skv], [B or 1, 1, Sq, Skv] or [B, N, Sq, Skv]");
    }
  }

  // ---- operands, in prototype order
  const TensorRef q_ref = plan.Input(query, "query");
  const TensorRef k_ref = plan.Input(key, "key");
  const TensorRef v_ref = plan.Input(value, "value");
  TensorRef pse_ref, mask_ref;
  if (real_shift != nullptr) {
    pse_ref = plan.Input(real_shift, "realShiftOptional");
  } else {
    plan.SkipInput();
  }
  plan.SkipInput();  // dropMaskOptional: not read with keepProb 1
  plan.SkipInput();  // paddingMaskOptional
  if (masked) {
    mask_ref = plan.Input(atten_mask, "attenMaskOptional");
  } else {
    plan.SkipInput();
  }
  for (int i = 0; i < a.int_arrays; ++i) plan.SkipInput();  // prefixOptional, the start indices
  const TensorRef max_ref = plan.Output(softmax_max, "softmaxMaxOut");
  const TensorRef sum_ref = plan.Output(softmax_sum, "softmaxSumOut");
  plan.SkipOutput();  // softmaxOutOut: reserved by the doc, left as it is
  const TensorRef out_ref = plan.Output(attention_out, "attentionOutOut");
  if (query->NumElements() == 0) return ACLNN_SUCCESS;

  kernels::AttentionDesc desc;
  desc.dtype = dtype;
  desc.batch = batch;
  desc.heads = head_num;
  desc.kv_heads = kv_heads;
  desc.query_length = q_len;
  desc.head_dim = d;
  desc.value_dim = dv;
  desc.scale = static_cast<float>(scale_value);
  desc.query = q_ref.buffer;
  desc.out = out_ref.buffer;
  const auto qs = Strides(q_ref, layout, d), os = Strides(out_ref, layout, dv);
  std::copy(qs.begin(), qs.end(), desc.query_strides);
  std::copy(os.begin(), os.end(), desc.out_strides);
  const auto ks = Strides(k_ref, layout, d), vs = Strides(v_ref, layout, dv);
  const int64_t element = static_cast<int64_t>(DtypeSize(dtype));
  desc.kv.resize(static_cast<size_t>(batch));
  for (int64_t b = 0; b < batch; ++b) {
    kernels::AttentionKv& kv = desc.kv[static_cast<size_t>(b)];
    kv.key = k_ref.buffer;
    kv.key.byte_offset += b * ks[0] * element;
    kv.value = v_ref.buffer;
    kv.value.byte_offset += b * vs[0] * element;
    for (int i = 0; i < 3; ++i) {
      kv.key_strides[i] = ks[static_cast<size_t>(i) + 1];
      kv.value_strides[i] = vs[static_cast<size_t>(i) + 1];
    }
    kv.length = kv_len;
  }
  desc.query_valid.assign(static_cast<size_t>(batch), q_len);
  if (real_shift != nullptr) {
    desc.has_pse = true;
    desc.pse_dtype = dtype;
    desc.pse = pse_ref.buffer;
    desc.pse_scale = PseScale(a);
    for (size_t i = 0; i < 4; ++i) desc.pse_strides[i] = pse_ref.shape[i] == 1 ? 0 : pse_ref.strides[i];
  }
  if (masked && !compressed) {
    desc.has_mask = true;
    desc.mask = mask_ref.buffer;
    const size_t r = mask_ref.shape.size();
    const auto stride = [&](size_t dim) { return mask_ref.shape[dim] == 1 ? 0 : mask_ref.strides[dim]; };
    desc.mask_strides[0] = r == 4 ? stride(0) : 0;
    desc.mask_head_stride = r == 4 ? stride(1) : 0;
    desc.mask_strides[1] = stride(r - 2);
    desc.mask_strides[2] = stride(r - 1);
  }
  if (masked && sparse_mode == 0) {
    desc.band = true;
    desc.pre_tokens = std::clamp(pre_tokens, -kTokenLimit, kTokenLimit);
    desc.next_tokens = std::clamp(next_tokens, -kTokenLimit, kTokenLimit);
  } else if (compressed) {
    desc.band = true;
    desc.pre_tokens = kTokenLimit;
    desc.next_tokens = 0;
    desc.right_down = sparse_mode == 3;
  }
  desc.has_stats = true;
  desc.softmax_max = max_ref.buffer;
  desc.softmax_sum = sum_ref.buffer;
  desc.stats_copies = kStatsCopies;
  for (size_t i = 0; i < 4; ++i) desc.stats_strides[i] = max_ref.strides[i];
  if (sum_ref.strides != max_ref.strides) {  // the kernel writes both through one set of strides
    const TensorRef dense_max = plan.Temporary(ACL_FLOAT, stats_shape),
                    dense_sum = plan.Temporary(ACL_FLOAT, stats_shape);
    desc.softmax_max = dense_max.buffer;
    desc.softmax_sum = dense_sum.buffer;
    for (size_t i = 0; i < 4; ++i) desc.stats_strides[i] = dense_max.strides[i];
    plan.AddStep(kernels::MakeAttentionStep(std::move(desc)));
    plan.Copy(dense_max, max_ref);
    plan.Copy(dense_sum, sum_ref);
    return ACLNN_SUCCESS;
  }
  plan.AddStep(kernels::MakeAttentionStep(std::move(desc)));
  return ACLNN_SUCCESS;
}

// A view of `t` with `shape` and t's strides from element `offset` on (dim by dim).
TensorRef SubView(const TensorRef& t, const Shape& shape, int64_t offset) {
  TensorRef v = t;
  v.shape = shape;
  v.buffer.byte_offset += ElementByteOffset(t.dtype, offset);
  return v;
}

// Cumulative sequence ends: nondecreasing, from 0, the last at most `total` rows.
aclnnStatus ReadEnds(Plan& plan, const char* name, const aclIntArray* ends, int64_t total, std::vector<int64_t>& out) {
  int64_t previous = 0;
  for (const int64_t end : ends->values) {
    if (end < previous || end > total) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument '%s' is %s; it must be cumulative sequence lengths (nondecreasing, from 0) "
                         "ending at most at T = %lld",
                         name, ShapeToString(ends->values).c_str(), static_cast<long long>(total));
    }
    out.push_back(end - previous);
    previous = end;
  }
  return ACLNN_SUCCESS;
}

// TND: query [Tq, N, D], key [Tkv, N2, D], value [Tkv, N2, Dv]; each batch's rows are one segment
// of T (its query rows against its own keys), planned as one kernel call. Masks and the pse are
// indexed by the row and key within the segment.
aclnnStatus PlanVarLen(Plan& plan, const FlashArgs& a) {
  const aclTensor *query = a.query, *key = a.key, *value = a.value;
  if (std::strcmp(a.layout, "TND") != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'inputLayout' is \"%s\"; this op takes TND only", a.layout);
  }
  // CANN: the rope parts take bf16 only, with a mask (null is 161001: the declaration has it
  // required), no pse, no dropout; checked before the forms Canopy has no kernel for.
  if (a.query_rope != nullptr) {
    for (const auto& [name, t] : {std::pair{"query", query}, std::pair{"queryRope", a.query_rope},
                                  std::pair{"key", key}, std::pair{"keyRope", a.key_rope}, std::pair{"value", value}}) {
      if (t->dtype != ACL_BF16) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s; with queryRope and keyRope it must be BF16",
                           name, DtypeName(t->dtype));
      }
    }
    if (a.sparse_mode == kLastSparseMode) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'sparseMode' is 6: not supported with queryRope");
    }
    if (a.real_shift != nullptr || a.drop_mask != nullptr) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is given: not supported with queryRope",
                         a.real_shift != nullptr ? "realShiftOptional" : "dropMaskOptional");
    }
  }
  CANOPY_CHECK(CheckCommon(plan, a));
  const aclDataType dtype = query->dtype;
  for (const auto& [name, t] : {std::pair{"query", query}, std::pair{"key", key}, std::pair{"value", value},
                                std::pair{"attentionOutOut", a.attention_out}}) {
    if (t->rank() != 3) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; layout TND takes rank 3", name,
                         static_cast<long long>(t->rank()));
    }
  }
  const Shape &qs = query->view_shape, &ks = key->view_shape, &vs = value->view_shape;
  const int64_t heads = a.head_num, q_total = qs[0], kv_total = ks[0], d = qs[2], dv = vs[2], kv_heads = ks[1];
  if (heads <= 0 || heads > kMaxHeads || qs[1] != heads) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'headNum' is %lld; it must be query's N (%lld), in [1, %lld]",
                       static_cast<long long>(heads), static_cast<long long>(qs[1]), static_cast<long long>(kMaxHeads));
  }
  if (d == 0 || d > kMaxHeadDim) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "query %s has D = %lld; it must be in [1, %lld]",
                       ShapeToString(qs).c_str(), static_cast<long long>(d), static_cast<long long>(kMaxHeadDim));
  }
  if (kv_heads <= 0 || heads % kv_heads != 0 || ks[2] != d || vs[0] != kv_total || vs[1] != kv_heads || dv == 0 ||
      dv > d) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "key %s and value %s do not fit query %s: their N must divide headNum, key's D = query's, "
                       "value's D at most it, key and value alike but for D",
                       ShapeToString(ks).c_str(), ShapeToString(vs).c_str(), ShapeToString(qs).c_str());
  }
  int64_t rope_d = 0;
  if (a.query_rope != nullptr) {
    const Shape &qr = a.query_rope->view_shape, &kr = a.key_rope->view_shape;
    if (qr.size() != 3 || kr.size() != 3 || qr[0] != q_total || qr[1] != heads || kr[0] != kv_total ||
        kr[1] != kv_heads || qr[2] != kr[2] || qr[2] > d) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "queryRope %s and keyRope %s do not fit query %s and key %s: the same T and N, one rope D "
                         "at most query's",
                         ShapeToString(qr).c_str(), ShapeToString(kr).c_str(), ShapeToString(qs).c_str(),
                         ShapeToString(ks).c_str());
    }
    rope_d = qr[2];
  }
  CANOPY_CHECK(plan.CheckShape("attentionOutOut", a.attention_out, Shape{q_total, heads, dv}));
  // The lengths: one per batch, as cumulative ends within T.
  if (a.q_lengths->values.empty() || a.q_lengths->values.size() != a.kv_lengths->values.size()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "arguments 'actualSeqQLenOptional' (%zu values) and 'actualSeqKvLenOptional' (%zu values) "
                       "must give one length per batch, at least one",
                       a.q_lengths->values.size(), a.kv_lengths->values.size());
  }
  std::vector<int64_t> q_lens, kv_lens;
  CANOPY_CHECK(ReadEnds(plan, "actualSeqQLenOptional", a.q_lengths, q_total, q_lens));
  CANOPY_CHECK(ReadEnds(plan, "actualSeqKvLenOptional", a.kv_lengths, kv_total, kv_lens));
  const auto batch = static_cast<int64_t>(q_lens.size());
  const int64_t max_q = *std::max_element(q_lens.begin(), q_lens.end()),
                max_kv = *std::max_element(kv_lens.begin(), kv_lens.end());
  // Softmax statistics: [N, T, 8], or [T, N, 8] with softmaxOutLayout "same_as_input" (with one head the
  // two are the same memory, and CANN's own example passes either).
  const Shape ntd = {heads, q_total, kStatsCopies}, tnd = {q_total, heads, kStatsCopies};
  const Shape& stats_shape = a.stats_as_input ? tnd : ntd;
  for (const auto& [name, t] : {std::pair{"softmaxMaxOut", a.softmax_max}, std::pair{"softmaxSumOut", a.softmax_sum}}) {
    if (t->view_shape != stats_shape && !(heads == 1 && (t->view_shape == ntd || t->view_shape == tnd))) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be %s", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(stats_shape).c_str());
    }
  }
  if (a.real_shift != nullptr) {
    const Shape& s = a.real_shift->view_shape;
    if (s.size() != 4 || (s[0] != batch && s[0] != 1) || s[1] != heads || (s[2] < max_q && s[2] != 1) ||
        s[3] < max_kv) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'realShiftOptional' has shape %s; it must be [B or 1, %lld, Sq or 1, Skv] with "
                         "Sq >= %lld, Skv >= %lld",
                         ShapeToString(s).c_str(), static_cast<long long>(heads), static_cast<long long>(max_q),
                         static_cast<long long>(max_kv));
    }
  }
  const bool masked = a.atten_mask != nullptr;
  const bool compressed = masked && (a.sparse_mode == 2 || a.sparse_mode == 3);
  if (masked) {
    const Shape& m = a.atten_mask->view_shape;
    const size_t r = m.size();
    bool ok = r == 2 || r == 4;
    if (ok && compressed) {
      ok = m[r - 2] == kCompressedMaskSize && m[r - 1] == kCompressedMaskSize && (r == 2 || (m[0] == 1 && m[1] == 1));
    } else if (ok) {
      ok = m[r - 2] >= max_q && m[r - 1] >= max_kv && (r == 2 || MaskLeadsFit(m, batch, heads));
    }
    if (!ok) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'attenMaskOptional' has shape %s; %s",
                         ShapeToString(m).c_str(),
                         compressed ? "sparse modes 2 and 3 take [2048, 2048]"
                                    : "it must be [S, S], [B or 1, 1, S, S] or [B, N, S, S], S covering each batch");
    }
  }

  // ---- operands, in prototype order
  const TensorRef q_ref = plan.Input(query, "query");
  TensorRef q_rope_ref, k_rope_ref;
  if (a.query_rope != nullptr) q_rope_ref = plan.Input(a.query_rope, "queryRope");
  const TensorRef k_ref = plan.Input(key, "key");
  if (a.key_rope != nullptr) k_rope_ref = plan.Input(a.key_rope, "keyRope");
  const TensorRef v_ref = plan.Input(value, "value");
  TensorRef pse_ref, mask_ref;
  if (a.real_shift != nullptr) {
    pse_ref = plan.Input(a.real_shift, "realShiftOptional");
  } else {
    plan.SkipInput();
  }
  plan.SkipInput();  // dropMaskOptional: not read with keepProb 1
  plan.SkipInput();  // paddingMaskOptional
  if (masked) {
    mask_ref = plan.Input(a.atten_mask, "attenMaskOptional");
  } else {
    plan.SkipInput();
  }
  for (int i = 0; i < a.int_arrays; ++i) plan.SkipInput();  // prefix, the lengths, the start indices
  const TensorRef max_ref = plan.Output(a.softmax_max, "softmaxMaxOut");
  const TensorRef sum_ref = plan.Output(a.softmax_sum, "softmaxSumOut");
  plan.SkipOutput();  // softmaxOutOut: reserved by the doc, left as it is
  const TensorRef out_ref = plan.Output(a.attention_out, "attentionOutOut");
  if (query->NumElements() == 0 || a.attention_out->NumElements() == 0) return ACLNN_SUCCESS;

  // With the rope parts, the scores are [q, qRope] . [k, kRope]: both joined along D first.
  TensorRef q_all = q_ref, k_all = k_ref;
  const int64_t score_d = d + rope_d;
  if (rope_d > 0) {
    q_all = plan.Temporary(dtype, {q_total, heads, score_d});
    k_all = plan.Temporary(dtype, {kv_total, kv_heads, score_d});
    plan.Copy(q_ref, SubView(q_all, qs, 0));
    plan.Copy(q_rope_ref, SubView(q_all, a.query_rope->view_shape, d));
    plan.Copy(k_ref, SubView(k_all, ks, 0));
    plan.Copy(k_rope_ref, SubView(k_all, a.key_rope->view_shape, d));
  }
  // The kernel writes max and sum through one set of strides: dense temporaries where they differ.
  TensorRef max_dst = max_ref, sum_dst = sum_ref;
  const bool staged_stats = max_ref.strides != sum_ref.strides;
  if (staged_stats) {
    max_dst = plan.Temporary(ACL_FLOAT, max_ref.shape);
    sum_dst = plan.Temporary(ACL_FLOAT, sum_ref.shape);
  }
  // (head, row) strides of the statistics as the layout lays them out.
  const bool stats_tnd = max_dst.shape == tnd && !(heads == 1 && max_dst.shape == ntd);
  const int64_t stats_head = stats_tnd ? max_dst.strides[1] : max_dst.strides[0],
                stats_row = stats_tnd ? max_dst.strides[0] : max_dst.strides[1];
  const auto element = static_cast<int64_t>(DtypeSize(dtype));
  const auto mask_stride = [&](size_t dim) { return mask_ref.shape[dim] == 1 ? 0 : mask_ref.strides[dim]; };
  int64_t q_begin = 0, kv_begin = 0;
  for (int64_t b = 0; b <= batch; ++b) {
    // Segment b; the last one holds the rows past the last query length, against no keys (zeros).
    const bool tail = b == batch;
    const int64_t q_len = tail ? q_total - q_begin : q_lens[static_cast<size_t>(b)];
    const int64_t kv_len = tail ? 0 : kv_lens[static_cast<size_t>(b)];
    if (q_len > 0) {
      kernels::AttentionDesc desc;
      desc.dtype = dtype;
      desc.batch = 1;
      desc.heads = heads;
      desc.kv_heads = kv_heads;
      desc.query_length = q_len;
      desc.head_dim = score_d;
      desc.value_dim = dv;
      desc.scale = static_cast<float>(a.scale);
      desc.query = q_all.buffer;
      desc.query.byte_offset += q_begin * q_all.strides[0] * element;
      desc.out = out_ref.buffer;
      desc.out.byte_offset += q_begin * out_ref.strides[0] * element;
      const int64_t query_strides[4] = {0, q_all.strides[1], q_all.strides[0], q_all.strides[2]};
      const int64_t out_strides[4] = {0, out_ref.strides[1], out_ref.strides[0], out_ref.strides[2]};
      std::copy(std::begin(query_strides), std::end(query_strides), desc.query_strides);
      std::copy(std::begin(out_strides), std::end(out_strides), desc.out_strides);
      kernels::AttentionKv kv;
      kv.key = k_all.buffer;
      kv.key.byte_offset += kv_begin * k_all.strides[0] * element;
      kv.value = v_ref.buffer;
      kv.value.byte_offset += kv_begin * v_ref.strides[0] * element;
      kv.key_strides[0] = k_all.strides[1];
      kv.key_strides[1] = k_all.strides[0];
      kv.key_strides[2] = k_all.strides[2];
      kv.value_strides[0] = v_ref.strides[1];
      kv.value_strides[1] = v_ref.strides[0];
      kv.value_strides[2] = v_ref.strides[2];
      kv.length = kv_len;
      desc.kv.push_back(kv);
      desc.query_valid.assign(1, q_len);
      const int64_t in_batch = tail ? 0 : b;
      if (a.real_shift != nullptr) {
        desc.has_pse = true;
        desc.pse_dtype = dtype;
        desc.pse = pse_ref.buffer;
        desc.pse_scale = PseScale(a);
        if (pse_ref.shape[0] != 1) desc.pse.byte_offset += in_batch * pse_ref.strides[0] * element;
        desc.pse_strides[0] = 0;
        for (size_t i = 1; i < 4; ++i) desc.pse_strides[i] = pse_ref.shape[i] == 1 ? 0 : pse_ref.strides[i];
      }
      if (masked && !compressed) {
        desc.has_mask = true;
        desc.mask = mask_ref.buffer;
        const size_t r = mask_ref.shape.size();
        if (r == 4)
          desc.mask.byte_offset += in_batch * mask_stride(0) * static_cast<int64_t>(DtypeSize(mask_ref.dtype));
        desc.mask_strides[0] = 0;
        desc.mask_head_stride = r == 4 ? mask_stride(1) : 0;
        desc.mask_strides[1] = mask_stride(r - 2);
        desc.mask_strides[2] = mask_stride(r - 1);
      }
      if (masked && a.sparse_mode == 0) {
        desc.band = true;
        desc.pre_tokens = std::clamp(a.pre_tokens, -kTokenLimit, kTokenLimit);
        desc.next_tokens = std::clamp(a.next_tokens, -kTokenLimit, kTokenLimit);
      } else if (compressed) {
        desc.band = true;
        desc.pre_tokens = kTokenLimit;
        desc.next_tokens = 0;
        desc.right_down = a.sparse_mode == 3;
      }
      desc.has_stats = true;
      desc.softmax_max = max_dst.buffer;
      desc.softmax_sum = sum_dst.buffer;
      desc.softmax_max.byte_offset += q_begin * stats_row * static_cast<int64_t>(sizeof(float));
      desc.softmax_sum.byte_offset += q_begin * stats_row * static_cast<int64_t>(sizeof(float));
      desc.stats_copies = kStatsCopies;
      const int64_t stats_strides[4] = {0, stats_head, stats_row, max_dst.strides[2]};
      std::copy(std::begin(stats_strides), std::end(stats_strides), desc.stats_strides);
      plan.AddStep(kernels::MakeAttentionStep(std::move(desc)));
    }
    q_begin += q_len;
    kv_begin += kv_len;
  }
  if (staged_stats) {
    plan.Copy(max_dst, max_ref);
    plan.Copy(sum_dst, sum_ref);
  }
  return ACLNN_SUCCESS;
}

// ---- the versions: each fills FlashArgs from its prototype

// The arguments every version has.
FlashArgs Common(const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* real_shift,
                 const aclTensor* drop_mask, const aclTensor* padding_mask, const aclTensor* atten_mask, double scale,
                 double keep_prob, int64_t pre_tokens, int64_t next_tokens, int64_t head_num, const char* layout,
                 int64_t sparse_mode, const aclTensor* softmax_max, const aclTensor* softmax_sum,
                 const aclTensor* attention_out) {
  FlashArgs a;
  a.query = query;
  a.key = key;
  a.value = value;
  a.real_shift = real_shift;
  a.drop_mask = drop_mask;
  a.padding_mask = padding_mask;
  a.atten_mask = atten_mask;
  a.scale = scale;
  a.keep_prob = keep_prob;
  a.pre_tokens = pre_tokens;
  a.next_tokens = next_tokens;
  a.head_num = head_num;
  a.layout = layout;
  a.sparse_mode = sparse_mode;
  a.softmax_max = softmax_max;
  a.softmax_sum = softmax_sum;
  a.attention_out = attention_out;
  return a;
}

aclnnStatus PlanFlashAttentionScore(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                                    const aclTensor* real_shift, const aclTensor* drop_mask,
                                    const aclTensor* padding_mask, const aclTensor* atten_mask,
                                    const aclIntArray* /*prefix: sparse modes 5 and 6 only*/, double scale_value,
                                    double keep_prob, int64_t pre_tokens, int64_t next_tokens, int64_t head_num,
                                    char* input_layout, int64_t /*inner_precise*/, int64_t sparse_mode,
                                    const aclTensor* softmax_max, const aclTensor* softmax_sum,
                                    const aclTensor* /*softmax_out*/, const aclTensor* attention_out) {
  FlashArgs a =
      Common(query, key, value, real_shift, drop_mask, padding_mask, atten_mask, scale_value, keep_prob, pre_tokens,
             next_tokens, head_num, input_layout, sparse_mode, softmax_max, softmax_sum, attention_out);
  return PlanDense(plan, a);
}

// V2: qStartIdx / kvStartIdx place the sequences for a pse generated inside (pseType 2, 3) and
// sparse mode 8, neither of which Canopy runs; pseType 0 adds the pse after scaling.
aclnnStatus PlanFlashAttentionScoreV2(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                                      const aclTensor* real_shift, const aclTensor* drop_mask,
                                      const aclTensor* padding_mask, const aclTensor* atten_mask,
                                      const aclIntArray* /*prefix*/, const aclIntArray* /*q_start_idx*/,
                                      const aclIntArray* /*kv_start_idx*/, double scale_value, double keep_prob,
                                      int64_t pre_tokens, int64_t next_tokens, int64_t head_num, char* input_layout,
                                      int64_t /*inner_precise*/, int64_t sparse_mode, int64_t pse_type,
                                      const aclTensor* softmax_max, const aclTensor* softmax_sum,
                                      const aclTensor* /*softmax_out*/, const aclTensor* attention_out) {
  FlashArgs a =
      Common(query, key, value, real_shift, drop_mask, padding_mask, atten_mask, scale_value, keep_prob, pre_tokens,
             next_tokens, head_num, input_layout, sparse_mode, softmax_max, softmax_sum, attention_out);
  a.int_arrays = 3;
  a.pse_type = pse_type;
  return PlanDense(plan, a);
}

aclnnStatus PlanVarLenScore(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                            const aclTensor* real_shift, const aclTensor* drop_mask, const aclTensor* padding_mask,
                            const aclTensor* atten_mask, const aclIntArray* /*prefix*/, const aclIntArray* q_lengths,
                            const aclIntArray* kv_lengths, double scale_value, double keep_prob, int64_t pre_tokens,
                            int64_t next_tokens, int64_t head_num, char* input_layout, int64_t /*inner_precise*/,
                            int64_t sparse_mode, const aclTensor* softmax_max, const aclTensor* softmax_sum,
                            const aclTensor* /*softmax_out*/, const aclTensor* attention_out) {
  FlashArgs a =
      Common(query, key, value, real_shift, drop_mask, padding_mask, atten_mask, scale_value, keep_prob, pre_tokens,
             next_tokens, head_num, input_layout, sparse_mode, softmax_max, softmax_sum, attention_out);
  a.int_arrays = 3;
  a.varlen = true;
  a.q_lengths = q_lengths;
  a.kv_lengths = kv_lengths;
  return PlanVarLen(plan, a);
}

aclnnStatus PlanVarLenScoreV2(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                              const aclTensor* real_shift, const aclTensor* drop_mask, const aclTensor* padding_mask,
                              const aclTensor* atten_mask, const aclIntArray* /*prefix*/, const aclIntArray* q_lengths,
                              const aclIntArray* kv_lengths, const aclIntArray* /*q_start_idx*/,
                              const aclIntArray* /*kv_start_idx*/, double scale_value, double keep_prob,
                              int64_t pre_tokens, int64_t next_tokens, int64_t head_num, char* input_layout,
                              int64_t /*inner_precise*/, int64_t sparse_mode, int64_t pse_type,
                              const aclTensor* softmax_max, const aclTensor* softmax_sum,
                              const aclTensor* /*softmax_out*/, const aclTensor* attention_out) {
  FlashArgs a =
      Common(query, key, value, real_shift, drop_mask, padding_mask, atten_mask, scale_value, keep_prob, pre_tokens,
             next_tokens, head_num, input_layout, sparse_mode, softmax_max, softmax_sum, attention_out);
  a.int_arrays = 5;
  a.varlen = true;
  a.q_lengths = q_lengths;
  a.kv_lengths = kv_lengths;
  a.pse_type = pse_type;
  return PlanVarLen(plan, a);
}

aclnnStatus PlanVarLenScoreV3(Plan& plan, const aclTensor* query, const aclTensor* query_rope, const aclTensor* key,
                              const aclTensor* key_rope, const aclTensor* value, const aclTensor* real_shift,
                              const aclTensor* drop_mask, const aclTensor* padding_mask, const aclTensor* atten_mask,
                              const aclIntArray* /*prefix*/, const aclIntArray* q_lengths,
                              const aclIntArray* kv_lengths, const aclIntArray* /*q_start_idx*/,
                              const aclIntArray* /*kv_start_idx*/, double scale_value, double keep_prob,
                              int64_t pre_tokens, int64_t next_tokens, int64_t head_num, char* input_layout,
                              int64_t /*inner_precise*/, int64_t sparse_mode, int64_t pse_type,
                              const aclTensor* softmax_max, const aclTensor* softmax_sum,
                              const aclTensor* /*softmax_out*/, const aclTensor* attention_out) {
  FlashArgs a =
      Common(query, key, value, real_shift, drop_mask, padding_mask, atten_mask, scale_value, keep_prob, pre_tokens,
             next_tokens, head_num, input_layout, sparse_mode, softmax_max, softmax_sum, attention_out);
  a.query_rope = query_rope;
  a.key_rope = key_rope;
  a.int_arrays = 5;
  a.varlen = true;
  a.q_lengths = q_lengths;
  a.kv_lengths = kv_lengths;
  a.pse_type = pse_type;
  return PlanVarLen(plan, a);
}

aclnnStatus PlanVarLenScoreV4(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                              const aclTensor* real_shift, const aclTensor* drop_mask, const aclTensor* padding_mask,
                              const aclTensor* atten_mask, const aclIntArray* /*prefix*/, const aclIntArray* q_lengths,
                              const aclIntArray* kv_lengths, double scale_value, double keep_prob, int64_t pre_tokens,
                              int64_t next_tokens, int64_t head_num, char* input_layout, int64_t /*inner_precise*/,
                              int64_t sparse_mode, char* softmax_out_layout, const aclTensor* softmax_max,
                              const aclTensor* softmax_sum, const aclTensor* /*softmax_out*/,
                              const aclTensor* attention_out) {
  const bool as_input = std::strcmp(softmax_out_layout, "same_as_input") == 0;
  if (!as_input && softmax_out_layout[0] != '\0') {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'softmaxOutLayout' is \"%s\"; it must be \"\" or \"same_as_input\"",
                       softmax_out_layout);
  }
  FlashArgs a =
      Common(query, key, value, real_shift, drop_mask, padding_mask, atten_mask, scale_value, keep_prob, pre_tokens,
             next_tokens, head_num, input_layout, sparse_mode, softmax_max, softmax_sum, attention_out);
  a.int_arrays = 3;
  a.varlen = true;
  a.q_lengths = q_lengths;
  a.kv_lengths = kv_lengths;
  a.stats_as_input = as_input;
  return PlanVarLen(plan, a);
}

}  // namespace

CANOPY_ACLNN_OP(FlashAttentionScore, PlanFlashAttentionScore,
                (OpTraits{
                    .header = "aclnnop/aclnn_flash_attention_score.h",
                    .dtypes = kDtypes,
                    .max_rank = 4,
                    .example = "f16[1,2,4,16] f16[1,2,6,16] f16[1,2,6,16] - - - - - 0.25 1 65536 65536 2 'BNSD' 0 "
                               "0 f32[1,2,4,8] f32[1,2,4,8] - f16[1,2,4,16]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, realShiftOptional, optional), (const aclTensor*, dropMaskOptional, optional),
                (const aclTensor*, paddingMaskOptional, optional), (const aclTensor*, attenMaskOptional, optional),
                (const aclIntArray*, prefixOptional, optional), (double, scaleValue), (double, keepProb),
                (int64_t, preTokens), (int64_t, nextTokens), (int64_t, headNum), (char*, inputLayout),
                (int64_t, innerPrecise), (int64_t, sparseMode), (const aclTensor*, softmaxMaxOut),
                (const aclTensor*, softmaxSumOut), (const aclTensor*, softmaxOutOut, optional),
                (const aclTensor*, attentionOutOut))

CANOPY_ACLNN_OP(FlashAttentionScoreV2, PlanFlashAttentionScoreV2,
                (OpTraits{.header = "aclnnop/aclnn_flash_attention_score.h",
                          .dtypes = kDtypes,
                          .max_rank = 4,
                          .example = "f16[1,2,4,16] f16[1,2,6,16] f16[1,2,6,16] - - - - - - - 0.25 1 65536 65536 2 "
                                     "'BNSD' 0 0 1 f32[1,2,4,8] f32[1,2,4,8] - f16[1,2,4,16]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, realShiftOptional, optional), (const aclTensor*, dropMaskOptional, optional),
                (const aclTensor*, paddingMaskOptional, optional), (const aclTensor*, attenMaskOptional, optional),
                (const aclIntArray*, prefixOptional, optional), (const aclIntArray*, qStartIdxOptional, optional),
                (const aclIntArray*, kvStartIdxOptional, optional), (double, scaleValue), (double, keepProb),
                (int64_t, preTokens), (int64_t, nextTokens), (int64_t, headNum), (char*, inputLayout),
                (int64_t, innerPrecise), (int64_t, sparseMode), (int64_t, pseType), (const aclTensor*, softmaxMaxOut),
                (const aclTensor*, softmaxSumOut), (const aclTensor*, softmaxOutOut, optional),
                (const aclTensor*, attentionOutOut))

CANOPY_ACLNN_OP(FlashAttentionVarLenScore, PlanVarLenScore,
                (OpTraits{.header = "aclnnop/aclnn_flash_attention_score.h",
                          .dtypes = kDtypes,
                          .max_rank = 4,
                          .example = "f16[7,2,16] f16[9,2,16] f16[9,2,16] - - - - - ints[3,7] ints[4,9] 0.25 1 65536 "
                                     "65536 2 'TND' 0 0 f32[2,7,8] f32[2,7,8] - f16[7,2,16]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, realShiftOptional, optional), (const aclTensor*, dropMaskOptional, optional),
                (const aclTensor*, paddingMaskOptional, optional), (const aclTensor*, attenMaskOptional, optional),
                (const aclIntArray*, prefixOptional, optional), (const aclIntArray*, actualSeqQLenOptional),
                (const aclIntArray*, actualSeqKvLenOptional), (double, scaleValue), (double, keepProb),
                (int64_t, preTokens), (int64_t, nextTokens), (int64_t, headNum), (char*, inputLayout),
                (int64_t, innerPrecise), (int64_t, sparseMode), (const aclTensor*, softmaxMaxOut),
                (const aclTensor*, softmaxSumOut), (const aclTensor*, softmaxOutOut, optional),
                (const aclTensor*, attentionOutOut))

CANOPY_ACLNN_OP(FlashAttentionVarLenScoreV2, PlanVarLenScoreV2,
                (OpTraits{.header = "aclnnop/aclnn_flash_attention_score.h",
                          .dtypes = kDtypes,
                          .max_rank = 4,
                          .example = "f16[7,2,16] f16[9,2,16] f16[9,2,16] - - - - - ints[3,7] ints[4,9] - - 0.25 1 "
                                     "65536 65536 2 'TND' 0 0 1 f32[2,7,8] f32[2,7,8] - f16[7,2,16]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, realShiftOptional, optional), (const aclTensor*, dropMaskOptional, optional),
                (const aclTensor*, paddingMaskOptional, optional), (const aclTensor*, attenMaskOptional, optional),
                (const aclIntArray*, prefixOptional, optional), (const aclIntArray*, actualSeqQLenOptional),
                (const aclIntArray*, actualSeqKvLenOptional), (const aclIntArray*, qStartIdxOptional, optional),
                (const aclIntArray*, kvStartIdxOptional, optional), (double, scaleValue), (double, keepProb),
                (int64_t, preTokens), (int64_t, nextTokens), (int64_t, headNum), (char*, inputLayout),
                (int64_t, innerPrecise), (int64_t, sparseMode), (int64_t, pseType), (const aclTensor*, softmaxMaxOut),
                (const aclTensor*, softmaxSumOut), (const aclTensor*, softmaxOutOut, optional),
                (const aclTensor*, attentionOutOut))

CANOPY_ACLNN_OP(FlashAttentionVarLenScoreV3, PlanVarLenScoreV3,
                (OpTraits{.header = "aclnnop/aclnn_flash_attention_score.h",
                          .dtypes = DtypeSet{ACL_BF16},
                          .max_rank = 4,
                          .example = "bf16[7,2,16] bf16[7,2,8] bf16[9,2,16] bf16[9,2,8] bf16[9,2,16] - - - u8[8,8] - "
                                     "ints[3,7] ints[4,9] - - 0.25 1 65536 65536 2 'TND' 0 0 1 f32[2,7,8] "
                                     "f32[2,7,8] - bf16[7,2,16]"}),
                (const aclTensor*, query), (const aclTensor*, queryRope), (const aclTensor*, key),
                (const aclTensor*, keyRope), (const aclTensor*, value), (const aclTensor*, realShiftOptional, optional),
                (const aclTensor*, dropMaskOptional, optional), (const aclTensor*, paddingMaskOptional, optional),
                (const aclTensor*, attenMaskOptional), (const aclIntArray*, prefixOptional, optional),
                (const aclIntArray*, actualSeqQLenOptional), (const aclIntArray*, actualSeqKvLenOptional),
                (const aclIntArray*, qStartIdxOptional, optional), (const aclIntArray*, kvStartIdxOptional, optional),
                (double, scaleValue), (double, keepProb), (int64_t, preTokens), (int64_t, nextTokens),
                (int64_t, headNum), (char*, inputLayout), (int64_t, innerPrecise), (int64_t, sparseMode),
                (int64_t, pseType), (const aclTensor*, softmaxMaxOut), (const aclTensor*, softmaxSumOut),
                (const aclTensor*, softmaxOutOut, optional), (const aclTensor*, attentionOutOut))

CANOPY_ACLNN_OP(FlashAttentionVarLenScoreV4, PlanVarLenScoreV4,
                (OpTraits{.header = "aclnnop/aclnn_flash_attention_score.h",
                          .dtypes = kDtypes,
                          .max_rank = 4,
                          .example = "f16[7,2,16] f16[9,2,16] f16[9,2,16] - - - - - ints[3,7] ints[4,9] 0.25 1 65536 "
                                     "65536 2 'TND' 0 0 'same_as_input' f32[7,2,8] f32[7,2,8] - f16[7,2,16]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, realShiftOptional, optional), (const aclTensor*, dropMaskOptional, optional),
                (const aclTensor*, paddingMaskOptional, optional), (const aclTensor*, attenMaskOptional, optional),
                (const aclIntArray*, prefixOptional, optional), (const aclIntArray*, actualSeqQLenOptional),
                (const aclIntArray*, actualSeqKvLenOptional), (double, scaleValue), (double, keepProb),
                (int64_t, preTokens), (int64_t, nextTokens), (int64_t, headNum), (char*, inputLayout),
                (int64_t, innerPrecise), (int64_t, sparseMode), (char*, softmaxOutLayout),
                (const aclTensor*, softmaxMaxOut), (const aclTensor*, softmaxSumOut),
                (const aclTensor*, softmaxOutOut, optional), (const aclTensor*, attentionOutOut))
