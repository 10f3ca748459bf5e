// aclnnNsaCompress: NSA's compression of keys or values in TND layout. For
// each sequence of actSeqLenOptional (prefix sums of lengths), window i covers
// tokens [i * stride, i * stride + block) of the sequence, for every i with
// the window inside it; output row = sum over the window's rows of row j's
// head n times weight[j, n] (f32 sums of f16 / bf16 values, as CANN's kernel).
// CANN's host checks in order, all 161002: input, weight and output of one
// dtype; head count and head dim positive; weight [compressBlockSize, N];
// layout "TND"; actSeqLenOptional not empty; actSeqLenType 0. The doc's limits,
// which CANN's kernel assumes without checking, are checked here too (161002),
// as are the lengths and the output shape that keep every read and write
// inside the tensors. A null actSeqLenOptional is 161001, as the doc says
// (CANN's code reports 161002).
#include <cstring>

#include "aclnnop/aclnn_nsa_compress.h"
#include "kernels/nsa_compress.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNsaCompressDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxHeads = 128;
constexpr int64_t kMaxHeadDim = 256;
constexpr int64_t kMaxBlock = 128;
constexpr int64_t kAlignment = 16;  // head dim, block and stride: multiples of 16

aclnnStatus CheckTensors(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclTensor* output) {
  for (const auto& [name, t] : {std::pair{"weight", weight}, std::pair{"output", output}}) {
    if (t->dtype != input->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but input is %s: they must match", name,
                         DtypeName(t->dtype), DtypeName(input->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kNsaCompressDtypes));
  for (const auto& [name, t, rank] :
       {std::tuple{"input", input, 3}, std::tuple{"weight", weight, 2}, std::tuple{"output", output, 3}}) {
    if (t->rank() != rank) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be %d", name,
                         static_cast<long long>(t->rank()), rank);
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckAttributes(Plan& plan, const aclTensor* input, const aclTensor* weight, const char* layout,
                            int64_t block) {
  const int64_t heads = input->view_shape[1], head_dim = input->view_shape[2];
  if (heads <= 0 || head_dim <= 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'input' has shape %s: its head count and dim must be positive",
                       ShapeToString(input->view_shape).c_str());
  }
  if (weight->view_shape[0] != block || weight->view_shape[1] != heads) {
    return plan.Reject(
        ACLNN_ERR_PARAM_INVALID, "argument 'weight' has shape %s; it must be [compressBlockSize, N] = [%lld, %lld]",
        ShapeToString(weight->view_shape).c_str(), static_cast<long long>(block), static_cast<long long>(heads));
  }
  if (std::strcmp(layout, "TND") != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'layoutOptional' is '%s'; only \"TND\" is supported", layout);
  }
  return ACLNN_SUCCESS;
}

// The doc's limits on the sizes (CANN's tiling and kernel rely on them).
aclnnStatus CheckDocLimits(Plan& plan, const aclTensor* input, int64_t block, int64_t stride) {
  const int64_t heads = input->view_shape[1], head_dim = input->view_shape[2];
  if (heads > kMaxHeads) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'input' has %lld heads; at most %lld are supported",
                       static_cast<long long>(heads), static_cast<long long>(kMaxHeads));
  }
  if (head_dim % kAlignment != 0 || head_dim > kMaxHeadDim) {
    return plan.Reject(
        ACLNN_ERR_PARAM_INVALID, "argument 'input' has head dim %lld; it must be a multiple of %lld, at most %lld",
        static_cast<long long>(head_dim), static_cast<long long>(kAlignment), static_cast<long long>(kMaxHeadDim));
  }
  if (block <= 0 || block % kAlignment != 0 || block > kMaxBlock) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'compressBlockSize' is %lld; it must be a positive multiple of %lld, at most %lld",
                       static_cast<long long>(block), static_cast<long long>(kAlignment),
                       static_cast<long long>(kMaxBlock));
  }
  if (stride <= 0 || stride % kAlignment != 0 || stride > block) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'compressStride' is %lld; it must be a positive multiple of %lld, at most "
                       "compressBlockSize (%lld)",
                       static_cast<long long>(stride), static_cast<long long>(kAlignment),
                       static_cast<long long>(block));
  }
  return ACLNN_SUCCESS;
}

// The first input row of every window, sequence by sequence.
aclnnStatus WindowStarts(Plan& plan, const aclIntArray* ends, int64_t tokens, int64_t block, int64_t stride,
                         std::vector<int64_t>& starts) {
  int64_t begin = 0;
  for (size_t b = 0; b < ends->values.size(); ++b) {
    const int64_t end = ends->values[b];
    if (end < begin) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "argument 'actSeqLenOptional' holds prefix sums: element %zu (%lld) is below the one "
                         "before it (%lld)",
                         b, static_cast<long long>(end), static_cast<long long>(begin));
    }
    for (int64_t s = begin; s + block <= end; s += stride) starts.push_back(s);
    begin = end;
  }
  if (begin != tokens) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "the last element of 'actSeqLenOptional' is %lld; it must be input's token count %lld",
                       static_cast<long long>(begin), static_cast<long long>(tokens));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanNsaCompress(Plan& plan, const aclTensor* input, const aclTensor* weight, const aclIntArray* act_seq_len,
                            const char* layout, int64_t block, int64_t stride, int64_t act_seq_len_type,
                            const aclTensor* output) {
  CANOPY_CHECK(CheckTensors(plan, input, weight, output));
  CANOPY_CHECK(CheckAttributes(plan, input, weight, layout, block));
  if (act_seq_len->values.empty()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'actSeqLenOptional' is empty; it must hold the sequences");
  }
  if (act_seq_len_type != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'actSeqLenType' is %lld; only 0 (prefix sums) is supported",
                       static_cast<long long>(act_seq_len_type));
  }
  CANOPY_CHECK(CheckDocLimits(plan, input, block, stride));
  const int64_t tokens = input->view_shape[0], heads = input->view_shape[1], head_dim = input->view_shape[2];
  if (tokens == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'input' is empty (shape %s); CANN takes no empty tensor here",
                       ShapeToString(input->view_shape).c_str());
  }
  kernels::NsaCompressDesc desc;
  CANOPY_CHECK(WindowStarts(plan, act_seq_len, tokens, block, stride, desc.window_starts));
  const auto windows = static_cast<int64_t>(desc.window_starts.size());
  CANOPY_CHECK(moe::CheckShapeIs(plan, ACLNN_ERR_PARAM_INVALID, "output", output, {windows, heads, head_dim}));
  if (windows == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "no sequence is as long as compressBlockSize (%lld): argument 'output' would be empty, "
                       "which CANN does not take",
                       static_cast<long long>(block));
  }

  const TensorRef input_ref = plan.Input(input, "input");
  const TensorRef weight_ref = plan.Input(weight, "weight");
  const TensorRef output_ref = plan.Output(output, "output");
  desc.dtype = input->dtype;
  desc.heads = heads;
  desc.head_dim = head_dim;
  desc.block = block;
  desc.in = plan.Contiguous(input_ref, input_ref.dtype).buffer;
  desc.weight = plan.Contiguous(weight_ref, weight_ref.dtype).buffer;
  moe::DenseOutputs outputs;
  desc.out = outputs.Dense(plan, output_ref);
  plan.AddStep(kernels::MakeNsaCompressStep(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(NsaCompress, PlanNsaCompress,
                (OpTraits{.header = "aclnnop/aclnn_nsa_compress.h",
                          .dtypes = kNsaCompressDtypes,
                          .example = "f16[64,4,32] f16[32,4] ints[64] 'TND' 32 32 0 f16[2,4,32]"}),
                (const aclTensor*, input), (const aclTensor*, weight), (const aclIntArray*, actSeqLenOptional),
                (char*, layoutOptional), (int64_t, compressBlockSize), (int64_t, compressStride),
                (int64_t, actSeqLenType), (aclTensor*, output))
