// aclnnNsaCompressWithCache: NSA's compression at inference. Batch b, of
// actSeqLenOptional[b] tokens (lengths, actSeqLenType 1), compresses when its
// length s has just completed a window (s >= compressBlockSize and s -
// compressBlockSize a multiple of compressStride): its tokens [s - block, s),
// read from the paged input [blocks, pageBlockSize, N, D] through
// blockTableOptional, are weighted per head and summed (f32) into row
// slotMapping[b] of outputCache; the other rows keep their values.
// CANN's checks in order: dtypes (161002), then its tiling's (561002):
// block and stride multiples of 16, block >= stride, actSeqLenType 1; weight
// [block, N], outputCache [., N, D], D a multiple of 16, block <= 64, 0 < N
// <= 64, no odd N above 50; at most 2048 batches; a known layout name. CANN's
// kernel reads input as pages and always reads the block table, so Canopy
// rejects (561002) a non-paged input and, when a batch compresses, a null
// blockTableOptional; and checks what keeps reads and writes inside the
// tensors (pageBlockSize 64 or 128 as the doc says, input's page size, the
// index tensors' shapes, each compressing length within its pages); a page
// or slot index out of range fails the run. A null input, weight, slotMapping
// or outputCache is 161001 as the doc says (CANN's code returns 561103).
#include <algorithm>
#include <cctype>
#include <string>

#include "aclnnop/aclnn_nsa_compress_with_cache.h"
#include "kernels/nsa_compress.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCompressDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kAlignment = 16;  // block, stride and head dim
constexpr int64_t kMaxBlockOrHeads = 64;
constexpr int64_t kMaxOddHeads = 50;
constexpr int64_t kMaxBatch = 2048;
constexpr int64_t kLengthsType = 1;  // actSeqLenOptional holds each batch's length
constexpr int64_t kPageSizes[] = {64, 128};

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclTensor* slot_mapping,
                        const aclTensor* block_table, const aclTensor* output) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kCompressDtypes));
  CANOPY_CHECK(plan.CheckDtype("weight", weight->dtype, kCompressDtypes));
  CANOPY_CHECK(plan.CheckDtype("outputCache", output->dtype, kCompressDtypes));
  CANOPY_CHECK(plan.CheckDtype("slotMapping", slot_mapping->dtype, DtypeSet{ACL_INT32}));
  if (block_table != nullptr)
    CANOPY_CHECK(plan.CheckDtype("blockTableOptional", block_table->dtype, DtypeSet{ACL_INT32}));
  for (const auto& [name, t] : {std::pair{"weight", weight}, std::pair{"outputCache", output}}) {
    if (t->dtype != input->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but input is %s: they must match", name,
                         DtypeName(t->dtype), DtypeName(input->dtype));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckAttributes(Plan& plan, int64_t block, int64_t stride, int64_t type) {
  if (block <= 0 || block % kAlignment != 0) {
    return plan.Reject(kTiling, "argument 'compressBlockSize' is %lld; it must be a positive multiple of %lld",
                       static_cast<long long>(block), static_cast<long long>(kAlignment));
  }
  if (stride <= 0 || stride % kAlignment != 0 || stride > block) {
    return plan.Reject(kTiling,
                       "argument 'compressStride' is %lld; it must be a positive multiple of %lld, at most "
                       "compressBlockSize (%lld)",
                       static_cast<long long>(stride), static_cast<long long>(kAlignment),
                       static_cast<long long>(block));
  }
  if (type != kLengthsType) {
    return plan.Reject(kTiling, "argument 'actSeqLenType' is %lld; only 1 (each batch's length) is supported",
                       static_cast<long long>(type));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckShapes(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclTensor* output,
                        int64_t block) {
  for (const auto& [name, t, rank] :
       {std::tuple{"input", input, 4}, std::tuple{"weight", weight, 2}, std::tuple{"outputCache", output, 3}}) {
    if (t->rank() != rank) {
      return plan.Reject(kTiling, "argument '%s' has rank %lld; it must be %d%s", name,
                         static_cast<long long>(t->rank()), rank,
                         rank == 4 ? " ([blocks, pageBlockSize, N, D]: CANN's kernel reads pages)" : "");
    }
  }
  const int64_t heads = input->view_shape[2], dim = input->view_shape[3];
  if (weight->view_shape[1] != heads || weight->view_shape[0] != block) {
    return plan.Reject(kTiling, "argument 'weight' has shape %s; it must be [compressBlockSize, N] = [%lld, %lld]",
                       ShapeToString(weight->view_shape).c_str(), static_cast<long long>(block),
                       static_cast<long long>(heads));
  }
  if (output->view_shape[1] != heads || output->view_shape[2] != dim) {
    return plan.Reject(
        kTiling, "argument 'outputCache' has shape %s; its last two dims must be input's N, D = %lld, %lld",
        ShapeToString(output->view_shape).c_str(), static_cast<long long>(heads), static_cast<long long>(dim));
  }
  if (dim % kAlignment != 0) {
    return plan.Reject(kTiling, "input's head dim is %lld; it must be a multiple of %lld", static_cast<long long>(dim),
                       static_cast<long long>(kAlignment));
  }
  if (block > kMaxBlockOrHeads) {
    return plan.Reject(kTiling, "argument 'compressBlockSize' is %lld; at most %lld is supported",
                       static_cast<long long>(block), static_cast<long long>(kMaxBlockOrHeads));
  }
  if (heads <= 0 || heads > kMaxBlockOrHeads || (heads > kMaxOddHeads && heads % 2 == 1)) {
    return plan.Reject(kTiling, "input has %lld heads; there must be 1 to %lld, and an even number above %lld",
                       static_cast<long long>(heads), static_cast<long long>(kMaxBlockOrHeads),
                       static_cast<long long>(kMaxOddHeads));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckLayout(Plan& plan, const char* layout) {
  if (layout == nullptr) return ACLNN_SUCCESS;
  std::string upper(layout);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  for (const char* known : {"BSH", "SBH", "BSND", "BNSD", "TND"}) {
    if (upper == known) return ACLNN_SUCCESS;
  }
  return plan.Reject(kTiling, "argument 'layoutOptional' is '%s'; it must be BSH, SBH, BSND, BNSD or TND", layout);
}

aclnnStatus PlanNsaCompressWithCache(Plan& plan, const aclTensor* input, const aclTensor* weight,
                                     const aclTensor* slot_mapping, const aclIntArray* act_seq_len,
                                     const aclTensor* block_table, const char* layout, int64_t block, int64_t stride,
                                     int64_t type, int64_t page_size, const aclTensor* output) {
  CANOPY_CHECK(CheckDtypes(plan, input, weight, slot_mapping, block_table, output));
  CANOPY_CHECK(CheckAttributes(plan, block, stride, type));
  CANOPY_CHECK(CheckShapes(plan, input, weight, output, block));
  const std::vector<int64_t> no_lengths;
  const std::vector<int64_t>& lengths = act_seq_len != nullptr ? act_seq_len->values : no_lengths;
  const auto batch = static_cast<int64_t>(lengths.size());
  if (batch > kMaxBatch) {
    return plan.Reject(kTiling, "argument 'actSeqLenOptional' has %lld batches; at most %lld are supported",
                       static_cast<long long>(batch), static_cast<long long>(kMaxBatch));
  }
  CANOPY_CHECK(CheckLayout(plan, layout));
  if (std::find(std::begin(kPageSizes), std::end(kPageSizes), page_size) == std::end(kPageSizes)) {
    return plan.Reject(kTiling, "argument 'pageBlockSize' is %lld; it must be 64 or 128",
                       static_cast<long long>(page_size));
  }
  if (input->view_shape[1] != page_size) {
    return plan.Reject(kTiling, "argument 'input' has shape %s; its dim 1 must be pageBlockSize (%lld)",
                       ShapeToString(input->view_shape).c_str(), static_cast<long long>(page_size));
  }
  if (act_seq_len != nullptr) {
    CANOPY_CHECK(moe::CheckShapeIs(plan, kTiling, "slotMapping", slot_mapping, {batch}));
  }

  kernels::NsaCompressCacheDesc desc;
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t len = lengths[static_cast<size_t>(b)];
    if (len >= block && (len - block) % stride == 0) {
      desc.batches.push_back(b);
      desc.seq_lens.push_back(len);
    }
  }
  if (!desc.batches.empty()) {
    if (block_table == nullptr) {
      return plan.Reject(kTiling,
                         "batch %lld compresses, and CANN's kernel reads its pages through 'blockTableOptional', "
                         "which is null",
                         static_cast<long long>(desc.batches.front()));
    }
    if (block_table->rank() != 2 || block_table->view_shape[0] != batch) {
      return plan.Reject(kTiling, "argument 'blockTableOptional' has shape %s; it must be [%lld, pages per batch]",
                         ShapeToString(block_table->view_shape).c_str(), static_cast<long long>(batch));
    }
    const int64_t capacity = block_table->view_shape[1] * page_size;
    for (size_t i = 0; i < desc.batches.size(); ++i) {
      if (desc.seq_lens[i] > capacity) {
        return plan.Reject(kTiling, "actSeqLenOptional[%lld] is %lld, more than blockTableOptional's pages hold (%lld)",
                           static_cast<long long>(desc.batches[i]), static_cast<long long>(desc.seq_lens[i]),
                           static_cast<long long>(capacity));
      }
    }
  }

  const TensorRef input_ref = plan.Input(input, "input");
  const TensorRef weight_ref = plan.Input(weight, "weight");
  const TensorRef slot_ref = plan.Input(slot_mapping, "slotMapping");
  TensorRef table_ref;
  if (block_table != nullptr) {
    table_ref = plan.Input(block_table, "blockTableOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef output_ref = plan.Output(output, "outputCache");
  if (desc.batches.empty()) return ACLNN_SUCCESS;

  desc.dtype = input->dtype;
  desc.heads = input->view_shape[2];
  desc.head_dim = input->view_shape[3];
  desc.block = block;
  desc.page_size = page_size;
  desc.pages = input->view_shape[0];
  desc.pages_per_batch = block_table->view_shape[1];
  desc.out_rows = output->view_shape[0];
  desc.in = plan.Contiguous(input_ref, input_ref.dtype).buffer;
  desc.weight = plan.Contiguous(weight_ref, weight_ref.dtype).buffer;
  desc.slot_mapping = plan.Contiguous(slot_ref, slot_ref.dtype).buffer;
  desc.block_table = plan.Contiguous(table_ref, table_ref.dtype).buffer;
  moe::DenseOutputs outputs;
  desc.out = outputs.DenseKeeping(plan, output_ref);
  plan.AddStep(kernels::MakeNsaCompressCacheStep(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(NsaCompressWithCache, PlanNsaCompressWithCache,
                (OpTraits{
                    .header = "aclnnop/aclnn_nsa_compress_with_cache.h",
                    .dtypes = DtypeSet{ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64},
                    // !CODE (registry_example.h): batch 0 compresses, and its pages are read through blockTableOptional
                    .example = "f16[2,64,2,16] f16[32,2] i32[2]{0:3} ints[32,0] i32[2,1]{0:1}!561002 'TND' 32 16 1 64 "
                               "f16[4,2,16]"}),
                (const aclTensor*, input), (const aclTensor*, weight), (const aclTensor*, slotMapping),
                (const aclIntArray*, actSeqLenOptional, optional), (const aclTensor*, blockTableOptional, optional),
                (char*, layoutOptional, optional), (int64_t, compressBlockSize), (int64_t, compressStride),
                (int64_t, actSeqLenType), (int64_t, pageBlockSize), (aclTensor*, outputCache))
