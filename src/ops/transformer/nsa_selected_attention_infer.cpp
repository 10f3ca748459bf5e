// aclnnNsaSelectedAttentionInfer: NSA's selected attention at inference, the
// keys and values read from a paged cache (kernels/nsa_attention.h has the
// formulas). actualQSeqLenOptional and actualKvSeqLenOptional hold each
// sequence's lengths (not prefix sums); a layout of BSH or BSND puts sequence
// b's token s at query row (b, s), TND at the sum of the earlier lengths + s.
// CANN's checks in order: an empty output is a no-op; the layout (161002);
// the head counts (561103, as CANN's host reports them); the dtypes, the
// ranks, the head dims (D 192, Dv 128), at most 3072 sequences and no empty
// query or cache (161002); then its tiling's (561002): selectBlockCount and
// topkIndices' last dim, the head counts and group (at most 16), 1 to 4 query
// tokens per sequence and no more than its keys, numHeads against query's N,
// the block table, the ranks and dims per layout, pageBlockSize 64 or 128,
// selectBlockSize a multiple of 16 up to 128, at most 3072 sequences and 256
// key heads, the output dtype and the key lengths the block table covers.
// Checked too (161002), as the kernel relies on them: the lists hold one
// entry per sequence, key and value pages of pageBlockSize rows, query rows
// for every token, and the shapes of topkIndices, the block table and the
// output. Indices are -1 (none) or blocks of the sequence and pages lie in
// the cache, else the run fails. CANN counts a token's keys assuming its
// indices are distinct; Canopy takes every index in order.
#include <cstring>

#include "aclnnop/aclnn_nsa_selected_attention_infer.h"
#include "kernels/nsa_attention.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNsaSelectedInferDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr aclnnStatus kHostHeads = ACLNN_ERR_INNER_NULLPTR;  // CANN's host reports bad head counts so
constexpr int64_t kMaxGroup = 16;
constexpr int64_t kHeadDim = 192, kValueHeadDim = 128;
constexpr int64_t kMaxSequences = 3072;
constexpr int64_t kMaxQueryTokens = 4;
constexpr int64_t kMaxKvHeads = 256;
constexpr int64_t kSmallPage = 64, kLargePage = 128;
constexpr int64_t kBlockAlignment = 16, kMaxSelectBlock = 128;

long long L(int64_t v) { return static_cast<long long>(v); }

enum class Layout { kBsh, kBsnd, kTnd };

struct Sizes {
  Layout layout = Layout::kBsnd;
  int64_t rank = 4;           // of query, key, value and output
  int64_t batch = 0, s1 = 0;  // BSH / BSND: query's B and S
  int64_t dim = 0, key_dim = 0, value_dim = 0;
};

// The host's checks (161002 but the head counts).
aclnnStatus CheckHost(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                      const aclTensor* indices, const aclIntArray* q_lens, const aclIntArray* kv_lens,
                      const char* layout, int64_t heads, int64_t kv_heads, Sizes& z) {
  if (std::strcmp(layout, "BSH") == 0) {
    z = {.layout = Layout::kBsh, .rank = 3};
  } else if (std::strcmp(layout, "BSND") == 0) {
    z = {.layout = Layout::kBsnd, .rank = 4};
  } else if (std::strcmp(layout, "TND") == 0) {
    z = {.layout = Layout::kTnd, .rank = 3};
  } else {
    return plan.Reject(kInvalid, "argument 'layoutOptional' is '%s'; it must be \"BSND\", \"BSH\" or \"TND\"", layout);
  }
  if (heads == 0 || kv_heads == 0 || heads % kv_heads != 0 || heads / kv_heads > kMaxGroup) {
    return plan.Reject(kHostHeads,
                       "arguments 'numHeads' (%lld) and 'numKeyValueHeads' (%lld): numHeads must be a nonzero multiple "
                       "of numKeyValueHeads, at most %lld times it",
                       L(heads), L(kv_heads), L(kMaxGroup));
  }
  CANOPY_CHECK(plan.CheckDtype("query", query->dtype, kNsaSelectedInferDtypes));
  for (const auto& [name, t] : {std::pair{"key", key}, std::pair{"value", value}}) {
    if (t->dtype != query->dtype) {
      return plan.Reject(kInvalid, "argument '%s' is %s, but query is %s: they must match", name, DtypeName(t->dtype),
                         DtypeName(query->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("topkIndices", indices->dtype, DtypeSet{ACL_INT32}));
  for (const auto& [name, t] : {std::pair{"query", query}, std::pair{"key", key}, std::pair{"value", value}}) {
    if (t->rank() != z.rank) {
      return plan.Reject(kInvalid, "argument '%s' has rank %lld; with layout %s it must be %lld", name, L(t->rank()),
                         layout, L(z.rank));
    }
  }
  const Shape& q = query->view_shape;
  const Shape& k = key->view_shape;
  const Shape& v = value->view_shape;
  z.dim = z.layout == Layout::kBsh ? q[2] / heads : q[z.rank - 1];
  z.key_dim = z.layout == Layout::kBsnd ? k[3] : k[2] / kv_heads;
  z.value_dim = z.layout == Layout::kBsnd ? v[3] : v[2] / kv_heads;
  if (z.dim != z.key_dim || z.dim < z.value_dim) {
    return plan.Reject(kInvalid, "head dims: query's (%lld) must equal key's (%lld), and value's (%lld) be at most it",
                       L(z.dim), L(z.key_dim), L(z.value_dim));
  }
  if (z.dim != kHeadDim || z.value_dim != kValueHeadDim) {
    return plan.Reject(kInvalid, "head dims: query's and key's (%lld) must be %lld and value's (%lld) %lld", L(z.dim),
                       L(kHeadDim), L(z.value_dim), L(kValueHeadDim));
  }
  if (static_cast<int64_t>(q_lens->values.size()) > kMaxSequences ||
      static_cast<int64_t>(kv_lens->values.size()) > kMaxSequences) {
    return plan.Reject(kInvalid,
                       "arguments 'actualQSeqLenOptional' (%zu entries) and 'actualKvSeqLenOptional' (%zu) may list "
                       "at most %lld sequences",
                       q_lens->values.size(), kv_lens->values.size(), L(kMaxSequences));
  }
  const int64_t cache_rows = v[0] * v[1];
  if (q[0] == 0 || cache_rows == 0 || (z.layout != Layout::kTnd && q[1] == 0)) {
    return plan.Reject(kInvalid, "argument 'query' (%s) and the value cache (%lld rows) must not be empty",
                       ShapeToString(q).c_str(), L(cache_rows));
  }
  return ACLNN_SUCCESS;
}

// CANN's tiling: the attributes, the lengths and the layout's dims (561002).
aclnnStatus CheckTiling(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* indices,
                        const aclIntArray* q_lens, const aclIntArray* kv_lens, int64_t heads, int64_t kv_heads,
                        int64_t count, Sizes& z) {
  const int64_t indices_rank = z.layout == Layout::kTnd ? 3 : 4;
  if (indices->rank() != indices_rank || indices->view_shape[indices_rank - 1] != count) {
    return plan.Reject(kTiling, "argument 'topkIndices' (%s) must have rank %lld and last dim selectBlockCount (%lld)",
                       ShapeToString(indices->view_shape).c_str(), L(indices_rank), L(count));
  }
  if (heads <= 0 || kv_heads <= 0 || count <= 0) {
    return plan.Reject(kTiling,
                       "arguments 'numHeads' (%lld), 'numKeyValueHeads' (%lld) and 'selectBlockCount' (%lld) "
                       "must be at least 1",
                       L(heads), L(kv_heads), L(count));
  }
  const Shape& q = query->view_shape;
  z.batch = z.layout == Layout::kTnd ? static_cast<int64_t>(q_lens->values.size()) : q[0];
  if (static_cast<int64_t>(q_lens->values.size()) < z.batch || static_cast<int64_t>(kv_lens->values.size()) < z.batch) {
    return plan.Reject(kTiling,
                       "arguments 'actualQSeqLenOptional' (%zu entries) and 'actualKvSeqLenOptional' (%zu) must list "
                       "the %lld sequences",
                       q_lens->values.size(), kv_lens->values.size(), L(z.batch));
  }
  int64_t max_q = 0;
  for (int64_t b = 0; b < z.batch; ++b) {
    const int64_t q_len = q_lens->values[static_cast<size_t>(b)], kv_len = kv_lens->values[static_cast<size_t>(b)];
    if (q_len > kv_len || q_len < 1 || q_len > kMaxQueryTokens) {
      return plan.Reject(kTiling,
                         "sequence %lld has %lld query tokens ('actualQSeqLenOptional') and %lld keys: it must have 1 "
                         "to %lld query tokens and at least as many keys",
                         L(b), L(q_len), L(kv_len), L(kMaxQueryTokens));
    }
    max_q = std::max(max_q, q_len);
  }
  // BSH: CANN takes query's head count from key's H (D * numHeads * numKeyValueHeads / key's H).
  const int64_t query_heads = z.layout == Layout::kBsh    ? z.dim * heads * kv_heads / key->view_shape[2]
                              : z.layout == Layout::kBsnd ? q[2]
                                                          : q[1];
  z.s1 = z.layout == Layout::kTnd ? max_q : q[1];
  if ((z.layout == Layout::kBsh && q[2] % heads != 0) || query_heads != heads) {
    return plan.Reject(kTiling, "argument 'numHeads' is %lld, but query (%s) has another head count", L(heads),
                       ShapeToString(q).c_str());
  }
  if (z.s1 < 1 || z.s1 > kMaxQueryTokens) {
    return plan.Reject(kTiling, "query's S is %lld; it must be in [1, %lld]", L(z.s1), L(kMaxQueryTokens));
  }
  return ACLNN_SUCCESS;
}

// CANN's tiling: the block table, the output and the limits (561002).
aclnnStatus CheckLimits(Plan& plan, const aclTensor* query, const aclTensor* table, const aclTensor* out,
                        const aclIntArray* kv_lens, int64_t kv_heads, int64_t select_block, int64_t page,
                        const Sizes& z) {
  if (table->NumElements() == 0 || table->rank() != 2) {
    return plan.Reject(kTiling, "argument 'blockTableOptional' (%s) must be a non-empty [B, max pages] table",
                       ShapeToString(table->view_shape).c_str());
  }
  if (out->rank() != z.rank) {
    return plan.Reject(kTiling, "argument 'output' has rank %lld; it must be %lld", L(out->rank()), L(z.rank));
  }
  if (page != kSmallPage && page != kLargePage) {
    return plan.Reject(kTiling, "argument 'pageBlockSize' is %lld; it must be %lld or %lld", L(page), L(kSmallPage),
                       L(kLargePage));
  }
  if (z.batch > kMaxSequences) {
    return plan.Reject(kTiling, "there are %lld sequences; at most %lld are supported", L(z.batch), L(kMaxSequences));
  }
  if (select_block <= 0 || select_block % kBlockAlignment != 0 || select_block > kMaxSelectBlock) {
    return plan.Reject(kTiling, "argument 'selectBlockSize' is %lld; it must be a multiple of %lld in [%lld, %lld]",
                       L(select_block), L(kBlockAlignment), L(kBlockAlignment), L(kMaxSelectBlock));
  }
  if (kv_heads > kMaxKvHeads) {
    return plan.Reject(kTiling, "argument 'numKeyValueHeads' is %lld; at most %lld is supported", L(kv_heads),
                       L(kMaxKvHeads));
  }
  if (out->dtype != query->dtype) {
    return plan.Reject(kTiling, "argument 'output' is %s, but query is %s: they must match", DtypeName(out->dtype),
                       DtypeName(query->dtype));
  }
  const int64_t covered = page * table->view_shape[1];
  for (int64_t b = 0; b < z.batch; ++b) {
    const int64_t kv_len = kv_lens->values[static_cast<size_t>(b)];
    if (kv_len < 0 || kv_len > covered) {
      return plan.Reject(kTiling,
                         "sequence %lld has %lld keys ('actualKvSeqLenOptional'); it must be in [0, %lld], what the "
                         "block table covers",
                         L(b), L(kv_len), L(covered));
    }
  }
  return ACLNN_SUCCESS;
}

// What the kernel relies on (161002).
aclnnStatus CheckShapes(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                        const aclTensor* indices, const aclTensor* table, const aclTensor* out,
                        const aclIntArray* q_lens, int64_t heads, int64_t kv_heads, int64_t count, int64_t page,
                        const Sizes& z) {
  CANOPY_CHECK(plan.CheckDtype("blockTableOptional", table->dtype, DtypeSet{ACL_INT32}));
  const Shape& k = key->view_shape;
  const Shape& v = value->view_shape;
  if (k[1] != page || v[0] != k[0] || v[1] != page ||
      (z.layout == Layout::kBsnd ? (k[2] != kv_heads || v[2] != kv_heads) : k[2] != kv_heads * z.dim)) {
    return plan.Reject(kInvalid,
                       "arguments 'key' %s and 'value' %s must be caches of the same pages of pageBlockSize (%lld) "
                       "rows of %lld key heads",
                       ShapeToString(k).c_str(), ShapeToString(v).c_str(), L(page), L(kv_heads));
  }
  if (table->view_shape[0] < z.batch) {
    return plan.Reject(kInvalid, "argument 'blockTableOptional' has %lld rows; it must have one per sequence (%lld)",
                       L(table->view_shape[0]), L(z.batch));
  }
  Shape want_indices, want_out;
  if (z.layout == Layout::kTnd) {
    int64_t tokens = 0;
    for (int64_t b = 0; b < z.batch; ++b) tokens += q_lens->values[static_cast<size_t>(b)];
    if (query->view_shape[0] < tokens) {
      return plan.Reject(kInvalid, "argument 'query' has %lld rows; the sequences have %lld tokens",
                         L(query->view_shape[0]), L(tokens));
    }
    want_indices = {query->view_shape[0], kv_heads, count};
    want_out = {query->view_shape[0], heads, z.value_dim};
  } else {
    for (int64_t b = 0; b < z.batch; ++b) {
      if (q_lens->values[static_cast<size_t>(b)] > z.s1) {
        return plan.Reject(kInvalid, "sequence %lld has %lld query tokens; query's S is %lld", L(b),
                           L(q_lens->values[static_cast<size_t>(b)]), L(z.s1));
      }
    }
    want_indices = {z.batch, z.s1, kv_heads, count};
    want_out =
        z.layout == Layout::kBsh ? Shape{z.batch, z.s1, heads * z.value_dim} : Shape{z.batch, z.s1, heads, z.value_dim};
  }
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "topkIndices", indices, want_indices));
  return moe::CheckShapeIs(plan, kInvalid, "output", out, want_out);
}

aclnnStatus PlanNsaSelectedAttentionInfer(Plan& plan, const aclTensor* query, const aclTensor* key,
                                          const aclTensor* value, const aclTensor* indices, const aclTensor* mask,
                                          const aclTensor* table, const aclIntArray* q_lens, const aclIntArray* kv_lens,
                                          const char* layout, int64_t heads, int64_t kv_heads, int64_t select_block,
                                          int64_t count, int64_t page, double scale, int64_t /*sparse_mode: reserved*/,
                                          const aclTensor* out) {
  if (out->NumElements() == 0) return ACLNN_SUCCESS;  // CANN computes nothing for an empty output
  Sizes z;
  CANOPY_CHECK(CheckHost(plan, query, key, value, indices, q_lens, kv_lens, layout, heads, kv_heads, z));
  CANOPY_CHECK(CheckTiling(plan, query, key, indices, q_lens, kv_lens, heads, kv_heads, count, z));
  CANOPY_CHECK(CheckLimits(plan, query, table, out, kv_lens, kv_heads, select_block, page, z));
  CANOPY_CHECK(CheckShapes(plan, query, key, value, indices, table, out, q_lens, heads, kv_heads, count, page, z));

  kernels::NsaSelectedAttentionInferDesc desc;
  int64_t start = 0;
  for (int64_t b = 0; b < z.batch; ++b) {
    const int64_t q_len = q_lens->values[static_cast<size_t>(b)];
    desc.q_starts.push_back(z.layout == Layout::kTnd ? start : b * z.s1);
    desc.q_lens.push_back(q_len);
    desc.kv_lens.push_back(kv_lens->values[static_cast<size_t>(b)]);
    start += q_len;
  }
  const TensorRef query_ref = plan.Input(query, "query");
  const TensorRef key_ref = plan.Input(key, "key");
  const TensorRef value_ref = plan.Input(value, "value");
  const TensorRef indices_ref = plan.Input(indices, "topkIndices");
  if (mask != nullptr) {
    plan.Input(mask, "attenMaskOptional");  // reserved: CANN reads nothing of it
  } else {
    plan.SkipInput();
  }
  const TensorRef table_ref = plan.Input(table, "blockTableOptional");
  const TensorRef out_ref = plan.Output(out, "output");
  desc.dtype = query->dtype;
  desc.rows = z.layout == Layout::kTnd ? query->view_shape[0] : z.batch * z.s1;
  desc.heads = heads;
  desc.kv_heads = kv_heads;
  desc.dim = z.dim;
  desc.value_dim = z.value_dim;
  desc.pages = key->view_shape[0];
  desc.page_size = page;
  desc.pages_per_batch = table->view_shape[1];
  desc.scale = static_cast<float>(scale);
  desc.select_block = select_block;
  desc.count = count;
  desc.query = plan.Contiguous(query_ref, query_ref.dtype).buffer;
  desc.key = plan.Contiguous(key_ref, key_ref.dtype).buffer;
  desc.value = plan.Contiguous(value_ref, value_ref.dtype).buffer;
  desc.topk_indices = plan.Contiguous(indices_ref, indices_ref.dtype).buffer;
  desc.block_table = plan.Contiguous(table_ref, table_ref.dtype).buffer;
  moe::DenseOutputs outputs;
  desc.out = outputs.Dense(plan, out_ref);
  plan.AddStep(kernels::MakeNsaSelectedAttentionInferStep(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(NsaSelectedAttentionInfer, PlanNsaSelectedAttentionInfer,
                (OpTraits{.header = "aclnnop/aclnn_nsa_selected_attention_infer.h",
                          .dtypes = kNsaSelectedInferDtypes,
                          .example = "f16[2,1,4,192] f16[4,64,2,192] f16[4,64,2,128] i32[2,1,2,2]{0:1} - "
                                     "i32[2,2]{0:3} ints[1,1] ints[64,64] 'BSND' 4 2 32 2 64 0.07 0 f16[2,1,4,128]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, topkIndices), (const aclTensor*, attenMaskOptional, optional),
                (const aclTensor*, blockTableOptional), (const aclIntArray*, actualQSeqLenOptional),
                (const aclIntArray*, actualKvSeqLenOptional), (char*, layoutOptional), (int64_t, numHeads),
                (int64_t, numKeyValueHeads), (int64_t, selectBlockSize), (int64_t, selectBlockCount),
                (int64_t, pageBlockSize), (double, scaleValue), (int64_t, sparseMode), (aclTensor*, output))
