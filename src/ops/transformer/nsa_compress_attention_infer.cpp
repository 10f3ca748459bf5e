// aclnnNsaCompressAttentionInfer: NSA's compressed attention for inference
// (kernels/nsa_attention.h has the formulas): one token per sequence, or one
// to four (actualQSeqLenOptional, per-sequence lengths), TND or BSND, against
// compressed keys and values in a paged cache, with the top-k select blocks.
// CANN's checks in order: query's batch in [1, 10000] and the dtypes
// (161002); both outputs empty is a no-op; layout TND or BSND (161002); then
// its tiling's (561002): ranks, the lists against the block table's batch,
// query lengths in [1, 4], actualCmpKvSeqLen = (actualSelKvSeqLen -
// compressBlockSize) / stride + 1 with several query tokens, the shapes, the
// block sizes, pageBlockSize, the select-block count, G, the head dims and the
// longest sequence. Canopy also checks (161002) what keeps every access inside
// the tensors (key and value rows of N2 heads, the output shapes, lengths of
// at least 1 that the block table covers) and needs actualSelKvSeqLenOptional
// where CANN's kernel reads it (an attention mask with several query tokens).
// CANN's kernel reads no values of attentionMaskOptional (its presence masks
// the last compressed key for a token that window does not cover), nor
// topKMaskOptional or sparseMode.
#include <cstring>

#include "aclnnop/aclnn_nsa_compress_attention_infer.h"
#include "kernels/nsa_attention.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNsaInferDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kMaxBatch = 10000;
constexpr int64_t kMaxQueryTokens = 4;
constexpr int64_t kAlignment = 16;
constexpr int64_t kMaxCompressBlock = 128, kMaxStride = 64, kMaxSelectBlock = 128, kMaxPageSize = 128;
constexpr int64_t kMaxSelectBlocks = 4096;
constexpr int64_t kGroupRows = 128;
constexpr int64_t kMaxDim = 192, kMaxValueDim = 128;
constexpr int64_t kMaxCompressedKv = 8192;

long long L(int64_t v) { return static_cast<long long>(v); }

struct InferArgs {
  const aclTensor *query, *key, *value, *mask, *block_table, *topk_mask, *out, *topk;
  const aclIntArray *q_lens, *kv_lens, *sel_lens;
  int64_t heads, kv_heads, select_block, count, compress_block, stride, page_size;
  const char* layout;
  bool bsnd = false;
};

aclnnStatus CheckDtypes(Plan& plan, const InferArgs& a) {
  CANOPY_CHECK(plan.CheckDtype("query", a.query->dtype, kNsaInferDtypes));
  for (const auto& [name, t] : {std::pair{"key", a.key}, std::pair{"value", a.value}, std::pair{"output", a.out}}) {
    if (t->dtype != a.query->dtype) {
      return plan.Reject(kInvalid, "argument '%s' is %s, but query is %s: they must match", name, DtypeName(t->dtype),
                         DtypeName(a.query->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("blockTableOptional", a.block_table->dtype, DtypeSet{ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("topKOutput", a.topk->dtype, DtypeSet{ACL_INT32}));
  if (a.mask != nullptr) CANOPY_CHECK(plan.CheckDtype("attentionMaskOptional", a.mask->dtype, DtypeSet{ACL_BOOL}));
  if (a.topk_mask != nullptr) CANOPY_CHECK(plan.CheckDtype("topKMaskOptional", a.topk_mask->dtype, DtypeSet{ACL_BOOL}));
  return ACLNN_SUCCESS;
}

// What the tiling reads of the lists: the batch, the lengths and the most query tokens.
struct Lists {
  int64_t batch = 0, most_tokens = 1, token_sum = 0, max_kv = 0, min_kv = 0;
  std::vector<int64_t> q_lens, kv_lens, sel_lens;
};

aclnnStatus CheckLists(Plan& plan, const InferArgs& a, Lists& z) {
  if (a.query->rank() != (a.bsnd ? 4 : 3)) {
    return plan.Reject(kTiling, "argument 'query' has rank %lld; with layout %s it must be %d", L(a.query->rank()),
                       a.layout, a.bsnd ? 4 : 3);
  }
  for (const auto& [name, t] : {std::pair{"key", a.key}, std::pair{"value", a.value}}) {
    if (t->rank() != 3) {
      return plan.Reject(kTiling, "argument '%s' has rank %lld; the paged cache must be [blocks, blockSize, N * D]",
                         name, L(t->rank()));
    }
  }
  if (a.block_table->rank() != 2) {
    return plan.Reject(kTiling, "argument 'blockTableOptional' has rank %lld; it must be [B, blocks per sequence]",
                       L(a.block_table->rank()));
  }
  if (a.kv_heads <= 0)
    return plan.Reject(kTiling, "argument 'numKeyValueHeads' is %lld; it must be positive", L(a.kv_heads));
  z.batch = a.block_table->view_shape[0];
  if (z.batch <= 0) return plan.Reject(kTiling, "argument 'blockTableOptional' has no sequence (batch 0)");
  const auto count_is_batch = [&](const char* name, const aclIntArray* list) {
    if (static_cast<int64_t>(list->values.size()) == z.batch) return ACLNN_SUCCESS;
    return plan.Reject(kTiling,
                       "argument '%s' has %zu entries; it must have one per sequence of the block table (%lld)", name,
                       list->values.size(), L(z.batch));
  };
  CANOPY_CHECK(count_is_batch("actualCmpKvSeqLenOptional", a.kv_lens));
  z.kv_lens = a.kv_lens->values;
  z.max_kv = *std::max_element(z.kv_lens.begin(), z.kv_lens.end());
  z.min_kv = *std::min_element(z.kv_lens.begin(), z.kv_lens.end());
  if (a.q_lens != nullptr) {
    CANOPY_CHECK(count_is_batch("actualQSeqLenOptional", a.q_lens));
    for (int64_t n : a.q_lens->values) {
      if (n < 1 || n > kMaxQueryTokens) {
        return plan.Reject(kTiling, "argument 'actualQSeqLenOptional' holds %lld; query lengths must be in [1, %lld]",
                           L(n), L(kMaxQueryTokens));
      }
      z.most_tokens = std::max(z.most_tokens, n);
      z.token_sum += n;
    }
    z.q_lens = a.q_lens->values;
  } else {
    z.q_lens.assign(static_cast<size_t>(z.batch), 1);
    z.token_sum = z.batch;
  }
  if (z.most_tokens > 1 && a.sel_lens != nullptr) {
    CANOPY_CHECK(count_is_batch("actualSelKvSeqLenOptional", a.sel_lens));
    for (int64_t b = 0; b < z.batch && a.stride > 0; ++b) {
      const int64_t sel = a.sel_lens->values[static_cast<size_t>(b)], kv = z.kv_lens[static_cast<size_t>(b)];
      if (kv != (sel - a.compress_block) / a.stride + 1) {
        return plan.Reject(kTiling,
                           "sequence %lld: actualCmpKvSeqLen (%lld) must be (actualSelKvSeqLen (%lld) - "
                           "compressBlockSize) / compressBlockStride + 1",
                           L(b), L(kv), L(sel));
      }
    }
    z.sel_lens = a.sel_lens->values;
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckShapes(Plan& plan, const InferArgs& a, const Lists& z) {
  const Shape& q = a.query->view_shape;
  if (z.most_tokens == 1 && q[0] != z.batch) {
    return plan.Reject(kTiling,
                       "with one query token per sequence, query's batch (%lld) must be the block table's (%lld)",
                       L(q[0]), L(z.batch));
  }
  if (!a.bsnd && z.most_tokens > 1 && q[0] != z.token_sum) {
    return plan.Reject(kTiling, "with layout TND, query's T (%lld) must be the sum of 'actualQSeqLenOptional' (%lld)",
                       L(q[0]), L(z.token_sum));
  }
  if (a.bsnd && q[1] != z.most_tokens) {
    return plan.Reject(kTiling, "with layout BSND, query's S (%lld) must be the longest query length (%lld)", L(q[1]),
                       L(z.most_tokens));
  }
  if (a.bsnd && z.most_tokens > 1 && q[0] != z.batch) {
    return plan.Reject(kTiling, "with layout BSND, query's B (%lld) must be the block table's (%lld)", L(q[0]),
                       L(z.batch));
  }
  const int64_t heads = q[a.bsnd ? 2 : 1];
  if (heads != a.heads || heads <= 0) {
    return plan.Reject(kTiling, "argument 'numHeads' is %lld and query has %lld heads; they must be equal and positive",
                       L(a.heads), L(heads));
  }
  const Shape &k = a.key->view_shape, &v = a.value->view_shape;
  if (k[0] != v[0] || k[0] <= 0) {
    return plan.Reject(kTiling, "key and value must have the same positive number of blocks (%lld, %lld)", L(k[0]),
                       L(v[0]));
  }
  if (k[1] != v[1] || v[1] != a.page_size) {
    return plan.Reject(kTiling, "the block size of key (%lld), value (%lld) and 'pageBlockSize' (%lld) must be equal",
                       L(k[1]), L(v[1]), L(a.page_size));
  }
  return ACLNN_SUCCESS;
}

int64_t SelectBlocks(const InferArgs& a, int64_t kv) {
  return ((kv - 1) * a.stride + a.compress_block + a.select_block - 1) / a.select_block;
}

aclnnStatus CheckAttrs(Plan& plan, const InferArgs& a, const Lists& z) {
  for (const auto& [name, size] :
       {std::pair{"compressBlockSize", a.compress_block}, std::pair{"compressBlockStride", a.stride},
        std::pair{"selectBlockSize", a.select_block}}) {
    if (size % kAlignment != 0) {
      return plan.Reject(kTiling, "argument '%s' is %lld; it must be a multiple of %lld", name, L(size), L(kAlignment));
    }
  }
  if (a.compress_block < a.stride || a.compress_block > a.select_block) {
    return plan.Reject(kTiling,
                       "selectBlockSize (%lld) >= compressBlockSize (%lld) >= compressBlockStride (%lld) must hold",
                       L(a.select_block), L(a.compress_block), L(a.stride));
  }
  for (const auto& [name, size, limit] : {std::tuple{"compressBlockSize", a.compress_block, kMaxCompressBlock},
                                          std::tuple{"compressBlockStride", a.stride, kMaxStride},
                                          std::tuple{"selectBlockSize", a.select_block, kMaxSelectBlock},
                                          std::tuple{"pageBlockSize", a.page_size, kMaxPageSize}}) {
    if (size < kAlignment || size > limit) {
      return plan.Reject(kTiling, "argument '%s' is %lld; it must be a multiple of %lld in [%lld, %lld]", name, L(size),
                         L(kAlignment), L(kAlignment), L(limit));
    }
  }
  if (a.select_block % a.stride != 0) {
    return plan.Reject(kTiling, "argument 'selectBlockSize' (%lld) must be a multiple of compressBlockStride (%lld)",
                       L(a.select_block), L(a.stride));
  }
  if (a.page_size % kAlignment != 0) {
    return plan.Reject(kTiling, "argument 'pageBlockSize' is %lld; it must be a multiple of %lld", L(a.page_size),
                       L(kAlignment));
  }
  if (a.heads % a.kv_heads != 0) {
    return plan.Reject(kTiling, "argument 'numHeads' (%lld) must be a multiple of numKeyValueHeads (%lld)", L(a.heads),
                       L(a.kv_heads));
  }
  if (SelectBlocks(a, z.max_kv) > kMaxSelectBlocks) {
    return plan.Reject(kTiling, "the longest sequence has %lld select blocks; at most %lld are supported",
                       L(SelectBlocks(a, z.max_kv)), L(kMaxSelectBlocks));
  }
  if (a.count < 0 || SelectBlocks(a, z.min_kv) < a.count) {
    return plan.Reject(kTiling,
                       "argument 'selectBlockCount' is %lld; it must be at most the shortest sequence's select "
                       "blocks (%lld)",
                       L(a.count), L(SelectBlocks(a, z.min_kv)));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckHeadsAndDims(Plan& plan, const InferArgs& a, const Lists& z, int64_t dim, int64_t value_dim) {
  const int64_t groups = a.heads / a.kv_heads;
  if (groups <= 0 || groups > kGroupRows || kGroupRows % groups != 0) {
    return plan.Reject(kTiling, "numHeads / numKeyValueHeads (%lld) must divide %lld", L(groups), L(kGroupRows));
  }
  if (dim <= 0 || dim > kMaxDim || value_dim <= 0 || value_dim > kMaxValueDim || value_dim > dim) {
    return plan.Reject(kTiling,
                       "head dims: query's (%lld) must be in [1, %lld] and value's (%lld) in [1, min(%lld, it)]",
                       L(dim), L(kMaxDim), L(value_dim), L(kMaxValueDim));
  }
  if (z.max_kv <= 0 || z.max_kv > kMaxCompressedKv) {
    return plan.Reject(kTiling, "the longest compressed sequence has %lld keys; it must be in [1, %lld]", L(z.max_kv),
                       L(kMaxCompressedKv));
  }
  return ACLNN_SUCCESS;
}

// Canopy's own checks (161002): what keeps every access inside the tensors.
aclnnStatus CheckAccesses(Plan& plan, const InferArgs& a, const Lists& z, int64_t dim, int64_t value_dim) {
  if (a.key->view_shape[2] != a.kv_heads * dim || a.value->view_shape[2] % a.kv_heads != 0) {
    return plan.Reject(kInvalid,
                       "key's rows (%lld) must be numKeyValueHeads * query's head dim (%lld * %lld), and value's "
                       "(%lld) a multiple of numKeyValueHeads",
                       L(a.key->view_shape[2]), L(a.kv_heads), L(dim), L(a.value->view_shape[2]));
  }
  const int64_t covered = a.block_table->view_shape[1] * a.page_size;
  for (int64_t b = 0; b < z.batch; ++b) {
    const int64_t kv = z.kv_lens[static_cast<size_t>(b)];
    if (kv < 1 || kv > covered) {
      return plan.Reject(kInvalid,
                         "sequence %lld has %lld compressed keys; it must have at least 1 and at most the %lld the "
                         "block table covers",
                         L(b), L(kv), L(covered));
    }
  }
  if (a.mask != nullptr && z.most_tokens > 1 && z.sel_lens.empty()) {
    return plan.Reject(kInvalid,
                       "argument 'actualSelKvSeqLenOptional' must be given with an attention mask and several query "
                       "tokens (CANN's kernel reads it)");
  }
  Shape out = a.query->view_shape, topk = a.query->view_shape;
  out.back() = value_dim;
  topk[topk.size() - 2] = a.kv_heads;
  topk.back() = a.count;
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "output", a.out, out));
  return moe::CheckShapeIs(plan, kInvalid, "topKOutput", a.topk, topk);
}

aclnnStatus PlanNsaCompressAttentionInfer(Plan& plan, const aclTensor* query, const aclTensor* key,
                                          const aclTensor* value, const aclTensor* mask, const aclTensor* block_table,
                                          const aclIntArray* q_lens, const aclIntArray* kv_lens,
                                          const aclIntArray* sel_lens, const aclTensor* topk_mask, int64_t heads,
                                          int64_t kv_heads, int64_t select_block, int64_t count, int64_t compress_block,
                                          int64_t stride, double scale, const char* layout, int64_t page_size,
                                          int64_t /*sparseMode: not read by CANN's kernel*/, const aclTensor* out,
                                          const aclTensor* topk) {
  InferArgs a{.query = query,
              .key = key,
              .value = value,
              .mask = mask,
              .block_table = block_table,
              .topk_mask = topk_mask,
              .out = out,
              .topk = topk,
              .q_lens = q_lens,
              .kv_lens = kv_lens,
              .sel_lens = sel_lens,
              .heads = heads,
              .kv_heads = kv_heads,
              .select_block = select_block,
              .count = count,
              .compress_block = compress_block,
              .stride = stride,
              .page_size = page_size,
              .layout = layout};
  const int64_t batch = query->rank() > 0 ? query->view_shape[0] : 0;
  if (batch < 1 || batch > kMaxBatch) {
    return plan.Reject(kInvalid, "argument 'query' has batch %lld; it must be in [1, %lld]", L(batch), L(kMaxBatch));
  }
  CANOPY_CHECK(CheckDtypes(plan, a));
  if (out->NumElements() == 0 && topk->NumElements() == 0) return ACLNN_SUCCESS;  // CANN computes nothing
  a.bsnd = std::strcmp(layout, "BSND") == 0;
  if (!a.bsnd && std::strcmp(layout, "TND") != 0) {
    return plan.Reject(kInvalid, "argument 'layoutOptional' is '%s'; only \"TND\" and \"BSND\" are supported", layout);
  }
  Lists z;
  CANOPY_CHECK(CheckLists(plan, a, z));
  CANOPY_CHECK(CheckShapes(plan, a, z));
  CANOPY_CHECK(CheckAttrs(plan, a, z));
  const int64_t dim = query->view_shape.back(), value_dim = value->view_shape[2] / kv_heads;
  CANOPY_CHECK(CheckHeadsAndDims(plan, a, z, dim, value_dim));
  CANOPY_CHECK(CheckAccesses(plan, a, z, dim, value_dim));

  const TensorRef query_ref = plan.Input(query, "query");
  const TensorRef key_ref = plan.Input(key, "key");
  const TensorRef value_ref = plan.Input(value, "value");
  if (mask != nullptr) {
    plan.Input(mask, "attentionMaskOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef table_ref = plan.Input(block_table, "blockTableOptional");
  if (topk_mask != nullptr) {
    plan.Input(topk_mask, "topKMaskOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef out_ref = plan.Output(out, "output");
  const TensorRef topk_ref = plan.Output(topk, "topKOutput");

  kernels::NsaCompressAttentionInferDesc desc;
  desc.dtype = query->dtype;
  const int64_t rows_per_batch = a.bsnd ? query->view_shape[1] : 1;
  desc.q_rows = a.bsnd ? query->view_shape[0] * rows_per_batch : query->view_shape[0];
  desc.heads = heads;
  desc.kv_heads = kv_heads;
  desc.dim = dim;
  desc.value_dim = value_dim;
  int64_t start = 0;
  for (int64_t b = 0; b < z.batch; ++b) {
    desc.q_starts.push_back(a.bsnd ? b * rows_per_batch : start);
    start += z.q_lens[static_cast<size_t>(b)];
  }
  desc.q_lens = z.q_lens;
  desc.kv_lens = z.kv_lens;
  desc.sel_lens = z.sel_lens;
  desc.pages = key->view_shape[0];
  desc.page_size = page_size;
  desc.pages_per_batch = block_table->view_shape[1];
  desc.scale = static_cast<float>(scale);
  desc.compress_block = compress_block;
  desc.compress_stride = stride;
  desc.select_block = select_block;
  desc.top_k = count;
  desc.has_mask = mask != nullptr;
  desc.query = plan.Contiguous(query_ref, query_ref.dtype).buffer;
  desc.key = plan.Contiguous(key_ref, key_ref.dtype).buffer;
  desc.value = plan.Contiguous(value_ref, value_ref.dtype).buffer;
  desc.block_table = plan.Contiguous(table_ref, table_ref.dtype).buffer;
  moe::DenseOutputs outputs;
  desc.out = outputs.Dense(plan, out_ref);
  desc.topk_indices = outputs.Dense(plan, topk_ref);
  plan.AddStep(kernels::MakeNsaCompressAttentionInferStep(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(NsaCompressAttentionInfer, PlanNsaCompressAttentionInfer,
                (OpTraits{.header = "aclnnop/aclnn_nsa_compress_attention_infer.h",
                          .dtypes = kNsaInferDtypes,
                          .example = "f16[2,4,32] f16[4,16,64] f16[4,16,64] - i32[2,2]{0:3} - ints[20,24] - - 4 2 64 "
                                     "2 32 16 0.125 'TND' 16 0 f16[2,4,32] i32[2,2,2]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, attentionMaskOptional, optional), (const aclTensor*, blockTableOptional),
                (const aclIntArray*, actualQSeqLenOptional, optional), (const aclIntArray*, actualCmpKvSeqLenOptional),
                (const aclIntArray*, actualSelKvSeqLenOptional, optional),
                (const aclTensor*, topKMaskOptional, optional), (int64_t, numHeads), (int64_t, numKeyValueHeads),
                (int64_t, selectBlockSize), (int64_t, selectBlockCount), (int64_t, compressBlockSize),
                (int64_t, compressBlockStride), (double, scaleValue), (char*, layoutOptional), (int64_t, pageBlockSize),
                (int64_t, sparseMode), (const aclTensor*, output), (const aclTensor*, topKOutput))
