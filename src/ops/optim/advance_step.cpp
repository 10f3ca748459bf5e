// aclnnAdvanceStep: vLLM's decode-step bookkeeping, in place. For each query
// i < numQueries, with s = seqLens[i]:
//   inputTokens[i] = sampledTokenIds[i, 0], inputPositions[i] = s,
//   seqLens[i] = s + 1,
//   slotMapping[i] = (blockTables_flat[s / blockSize] + stride * i) * blockSize + s % blockSize
// with stride = blockTables' elements per row. That is what CANN's A2 kernel
// computes (it reads the flattened table at s / blockSize and adds the row
// offset to the block number), not vLLM's blockTables[i, s / blockSize] *
// blockSize + s % blockSize; CANN's behaviour is the contract. The padding
// sequences i in [numQueries, numSeqs) get inputTokens 0, inputPositions 0
// and slotMapping -1. A table read outside blockTables fails the run with
// nothing written. All INT64 (161002, the op definition); CANN checks the
// attributes and shapes while tiling (561002).
//
// Deviation: CANN's kernel runs the queries below its vector-core count only
// and pads every core-count-th padding sequence; Canopy does every query and
// every padding sequence.
#include <memory>
#include <string>

#include "aclnnop/aclnn_advance_step.h"
#include "ops/framework/aclnn_op.h"
#include "ops/shape/gather.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInt64 = {ACL_INT64};
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kMaxSeqs = 200000000;  // numSeqs below it

struct AdvanceStepDesc {
  int64_t seqs = 0, queries = 0, block_size = 0, table_elements = 0, stride = 0;
  BufferRef tokens, sampled, positions, seq_lens, slots, tables;  // dense INT64
};

class AdvanceStepStep final : public Step {
 public:
  explicit AdvanceStepStep(const AdvanceStepDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    auto* tokens = reinterpret_cast<int64_t*>(context.Resolve(d_.tokens));
    const auto* sampled = reinterpret_cast<const int64_t*>(context.Resolve(d_.sampled));
    auto* positions = reinterpret_cast<int64_t*>(context.Resolve(d_.positions));
    auto* seq_lens = reinterpret_cast<int64_t*>(context.Resolve(d_.seq_lens));
    auto* slots = reinterpret_cast<int64_t*>(context.Resolve(d_.slots));
    const auto* tables = reinterpret_cast<const int64_t*>(context.Resolve(d_.tables));
    // Every table read first: a bad one fails the run with nothing written.
    for (int64_t i = 0; i < d_.queries; ++i) {
      const int64_t block = seq_lens[i] / d_.block_size;
      if (block < 0 || block >= d_.table_elements) {
        SetErrorMessage(
            "aclnnAdvanceStep: seqLens[%lld] = %lld reads blockTables' element %lld (seqLens / blockSize %lld), "
            "outside its %lld elements",
            static_cast<long long>(i), static_cast<long long>(seq_lens[i]), static_cast<long long>(block),
            static_cast<long long>(d_.block_size), static_cast<long long>(d_.table_elements));
        return kIndexOutOfRangeStatus;
      }
    }
    for (int64_t i = 0; i < d_.queries; ++i) {
      const int64_t s = seq_lens[i];
      tokens[i] = sampled[i];
      positions[i] = s;
      seq_lens[i] = s + 1;
      slots[i] = (tables[s / d_.block_size] + d_.stride * i) * d_.block_size + s % d_.block_size;
    }
    for (int64_t i = d_.queries; i < d_.seqs; ++i) {
      tokens[i] = 0;
      positions[i] = 0;
      slots[i] = -1;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "advance step seqs=" + std::to_string(d_.seqs) + " queries=" + std::to_string(d_.queries) +
           " blockSize=" + std::to_string(d_.block_size);
  }

 private:
  AdvanceStepDesc d_;
};

// CANN's tiling checks, in its order (561002).
aclnnStatus CheckShapes(Plan& plan, const aclTensor* input_tokens, const aclTensor* sampled,
                        const aclTensor* input_positions, const aclTensor* seq_lens, const aclTensor* slot_mapping,
                        const aclTensor* block_tables, int64_t num_seqs, int64_t num_queries, int64_t block_size) {
  for (const auto& [name, value] :
       {std::pair{"numSeqs", num_seqs}, std::pair{"numQueries", num_queries}, std::pair{"blockSize", block_size}}) {
    if (value < 1) {
      return plan.Reject(kTiling, "argument '%s' is %lld; it must be at least 1", name, static_cast<long long>(value));
    }
  }
  if (num_seqs <= num_queries) {
    return plan.Reject(kTiling, "argument 'numSeqs' (%lld) must be above numQueries (%lld)",
                       static_cast<long long>(num_seqs), static_cast<long long>(num_queries));
  }
  if (num_seqs >= kMaxSeqs) {
    return plan.Reject(kTiling, "argument 'numSeqs' is %lld; it must be below %lld", static_cast<long long>(num_seqs),
                       static_cast<long long>(kMaxSeqs));
  }
  for (const auto& [name, t] : {std::pair{"inputTokens", input_tokens}, std::pair{"inputPositions", input_positions},
                                std::pair{"seqLens", seq_lens}, std::pair{"slotMapping", slot_mapping},
                                std::pair{"blockTables", block_tables}}) {
    if (t->rank() == 0 || t->view_shape[0] != num_seqs) {
      return plan.Reject(kTiling, "argument '%s' has shape %s; its first dim must be numSeqs (%lld)", name,
                         ShapeToString(t->view_shape).c_str(), static_cast<long long>(num_seqs));
    }
  }
  if (sampled->rank() != 2 || sampled->view_shape[0] != num_queries || sampled->view_shape[1] != 1) {
    return plan.Reject(kTiling, "argument 'sampledTokenIds' has shape %s; it must be [numQueries (%lld), 1]",
                       ShapeToString(sampled->view_shape).c_str(), static_cast<long long>(num_queries));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAdvanceStep(Plan& plan, const aclTensor* input_tokens, const aclTensor* sampled,
                            const aclTensor* input_positions, const aclTensor* seq_lens, const aclTensor* slot_mapping,
                            const aclTensor* block_tables, int64_t num_seqs, int64_t num_queries, int64_t block_size) {
  for (const auto& [name, t] : {std::pair{"inputTokens", input_tokens}, std::pair{"sampledTokenIds", sampled},
                                std::pair{"inputPositions", input_positions}, std::pair{"seqLens", seq_lens},
                                std::pair{"slotMapping", slot_mapping}, std::pair{"blockTables", block_tables}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kInt64));
  }
  CANOPY_CHECK(CheckShapes(plan, input_tokens, sampled, input_positions, seq_lens, slot_mapping, block_tables, num_seqs,
                           num_queries, block_size));

  plan.Input(input_tokens, "inputTokens");  // the in-out tensors are read through their outputs
  const TensorRef sampled_ref = plan.Input(sampled, "sampledTokenIds");
  plan.Input(input_positions, "inputPositions");
  plan.Input(seq_lens, "seqLens");
  plan.Input(slot_mapping, "slotMapping");
  const TensorRef tables_ref = plan.Input(block_tables, "blockTables");
  const TensorRef tokens_out = plan.Output(input_tokens, "inputTokens");
  const TensorRef positions_out = plan.Output(input_positions, "inputPositions");
  const TensorRef seq_lens_out = plan.Output(seq_lens, "seqLens");
  const TensorRef slots_out = plan.Output(slot_mapping, "slotMapping");

  AdvanceStepDesc desc;
  desc.seqs = num_seqs;
  desc.queries = num_queries;
  desc.block_size = block_size;
  desc.table_elements = tables_ref.NumElements();
  desc.stride = desc.table_elements / num_seqs;
  desc.sampled = plan.Contiguous(sampled_ref, ACL_INT64).buffer;
  desc.tables = plan.Contiguous(tables_ref, ACL_INT64).buffer;
  moe::DenseOutputs outputs;  // each in-out tensor dense, its values kept (seqLens is read)
  desc.tokens = outputs.DenseKeeping(plan, tokens_out);
  desc.positions = outputs.DenseKeeping(plan, positions_out);
  desc.seq_lens = outputs.DenseKeeping(plan, seq_lens_out);
  desc.slots = outputs.DenseKeeping(plan, slots_out);
  plan.AddStep(std::make_unique<AdvanceStepStep>(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kDtypes = {ACL_INT64};

}  // namespace

CANOPY_ACLNN_OP(AdvanceStep, PlanAdvanceStep,
                (OpTraits{.header = "aclnnop/aclnn_advance_step.h",
                          .dtypes = kDtypes,
                          .example = "i64[4] i64[2,1] i64[4] i64[4]{1:7} i64[4] i64[4,3]{0:9} 4 2 4"}),
                (const aclTensor*, inputTokens), (const aclTensor*, sampledTokenIds),
                (const aclTensor*, inputPositions), (const aclTensor*, seqLens), (const aclTensor*, slotMapping),
                (const aclTensor*, blockTables), (int64_t, numSeqs), (int64_t, numQueries), (int64_t, blockSize))
