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

aclnnStatus PlanFlashAttentionScore(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                                    const aclTensor* real_shift, const aclTensor* drop_mask,
                                    const aclTensor* padding_mask, const aclTensor* atten_mask,
                                    const aclIntArray* /*prefix: sparse modes 5 and 6 only*/, double scale_value,
                                    double keep_prob, int64_t pre_tokens, int64_t next_tokens, int64_t head_num,
                                    char* input_layout, int64_t /*inner_precise*/, int64_t sparse_mode,
                                    const aclTensor* softmax_max, const aclTensor* softmax_sum,
                                    const aclTensor* softmax_out, const aclTensor* attention_out) {
  // ---- dtypes (161002) and the forms without a kernel (561003)
  CANOPY_CHECK(plan.CheckDtype("query", query->dtype, kDtypes));
  const aclDataType dtype = query->dtype;
  CANOPY_CHECK(SameDtype(plan, "key", key, dtype));
  CANOPY_CHECK(SameDtype(plan, "value", value, dtype));
  CANOPY_CHECK(SameDtype(plan, "attentionOutOut", attention_out, dtype));
  if (real_shift != nullptr) CANOPY_CHECK(SameDtype(plan, "realShiftOptional", real_shift, dtype));
  if (drop_mask != nullptr) CANOPY_CHECK(plan.CheckDtype("dropMaskOptional", drop_mask->dtype, DtypeSet{ACL_UINT8}));
  if (atten_mask != nullptr) CANOPY_CHECK(plan.CheckDtype("attenMaskOptional", atten_mask->dtype, kMaskDtypes));
  CANOPY_CHECK(plan.CheckDtype("softmaxMaxOut", softmax_max->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("softmaxSumOut", softmax_sum->dtype, DtypeSet{ACL_FLOAT}));
  if (!(keep_prob > 0.0 && keep_prob <= 1.0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'keepProb' is %g; it must be in (0, 1]", keep_prob);
  }
  if (keep_prob < 1.0) {
    return plan.Reject(kNotSupported, "argument 'keepProb' is %g: dropout is not supported by Canopy", keep_prob);
  }
  if (padding_mask != nullptr) {
    return plan.Reject(kNotSupported, "argument 'paddingMaskOptional': a padding mask is not supported by Canopy");
  }
  if (sparse_mode < 0 || sparse_mode > kLastSparseMode) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'sparseMode' is %lld; it must be in [0, 6]",
                       static_cast<long long>(sparse_mode));
  }
  const bool masked = atten_mask != nullptr;  // without a mask the sparse mode does not apply
  if (masked && sparse_mode >= 4) {
    return plan.Reject(kNotSupported,
                       "argument 'sparseMode' is %lld: band and prefix modes are not supported by Canopy",
                       static_cast<long long>(sparse_mode));
  }

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
  if (masked) {
    const Shape& m = atten_mask->view_shape;
    const size_t r = m.size();
    const int64_t want_q = compressed ? kCompressedMaskSize : q_len, want_k = compressed ? kCompressedMaskSize : kv_len;
    bool ok = (r == 2 || r == 4) && m[r - 2] == want_q && m[r - 1] == want_k;
    if (ok && r == 4) {
      ok = compressed ? m[0] == 1 && m[1] == 1
                      : (m[0] == batch || m[0] == 1) && (m[1] == head_num || m[1] == 1) && !(m[0] == 1 && m[1] != 1);
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
  plan.SkipInput();  // prefixOptional
  const TensorRef max_ref = plan.Output(softmax_max, "softmaxMaxOut");
  const TensorRef sum_ref = plan.Output(softmax_sum, "softmaxSumOut");
  static_cast<void>(softmax_out);  // reserved by the doc: left as it is
  plan.SkipOutput();
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
    desc.pse_scale = static_cast<float>(scale_value);
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
