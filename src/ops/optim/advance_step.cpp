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
// aclnnAdvanceStepV2 with non-empty specToken [numSeqs, specNum] and
// acceptedNum [numSeqs] is CANN's speculative kernel, over numSeqs requests of
// t = 1 + specNum tokens (inputTokens, inputPositions, seqLens, slotMapping
// [numSeqs * t], sampledTokenIds [numSeqs, t]), in int32 as it computes:
//   pos = inputPositions[i, j] + acceptedNum[i] + 1, inputPositions = pos,
//   seqLens = pos + 1, slotMapping = blockTables[i, pos / blockSize] *
//   blockSize + pos % blockSize (read flat from row i's start),
//   inputTokens[i, 0] = the sampled token before the row's first minimum
//   (as f32, with -1 appended: the first rejected -1), [i, 1..] = specToken[i].
// A table read outside blockTables, or a row whose first sampled token is
// that minimum, fails the run with nothing written. With either empty, V2 is
// AdvanceStep, as CANN's tiling falls back.
//
// Deviation: CANN's kernel runs the queries below its vector-core count only
// and pads every core-count-th padding sequence; Canopy does every query and
// every padding sequence.
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_advance_step.h"
#include "aclnnop/aclnn_advance_step_v2.h"
#include "ops/framework/aclnn_op.h"
#include "ops/shape/gather.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kInt64 = {ACL_INT64};
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kMaxSeqs = 200000000;  // numSeqs below it

// Both forms' tensors as dense INT64 buffers: the four in-out ones, sampledTokenIds and blockTables.
struct StepBuffers {
  BufferRef tokens, sampled, positions, seq_lens, slots, tables;
  int64_t table_elements = 0;
};

// The buffers' addresses at run time.
struct StepPointers {
  int64_t* tokens;
  const int64_t* sampled;
  int64_t *positions, *seq_lens, *slots;
  const int64_t* tables;
};

StepPointers Resolve(const RunContext& context, const StepBuffers& io) {
  const auto at = [&](const BufferRef& b) { return reinterpret_cast<int64_t*>(context.Resolve(b)); };
  return {at(io.tokens), at(io.sampled), at(io.positions), at(io.seq_lens), at(io.slots), at(io.tables)};
}

struct AdvanceStepDesc {
  int64_t seqs = 0, queries = 0, block_size = 0, stride = 0;
  StepBuffers io;
};

class AdvanceStepStep final : public Step {
 public:
  explicit AdvanceStepStep(const AdvanceStepDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto [tokens, sampled, positions, seq_lens, slots, tables] = Resolve(context, d_.io);
    // Every table read first: a bad one fails the run with nothing written.
    for (int64_t i = 0; i < d_.queries; ++i) {
      const int64_t block = seq_lens[i] / d_.block_size;
      if (block < 0 || block >= d_.io.table_elements) {
        SetErrorMessage(
            "aclnnAdvanceStep: seqLens[%lld] = %lld reads blockTables' element %lld (seqLens / blockSize %lld), "
            "outside its %lld elements",
            static_cast<long long>(i), static_cast<long long>(seq_lens[i]), static_cast<long long>(block),
            static_cast<long long>(d_.block_size), static_cast<long long>(d_.io.table_elements));
        return kIndexOutOfRangeStatus;
      }
    }
    for (int64_t i = 0; i < d_.queries; ++i) {
      const int64_t s = seq_lens[i];
      tokens[i] = sampled[i];
      positions[i] = s;
      // In two's complement, as the kernel's int64 arithmetic wraps (seqLens near INT64_MAX overflowed here).
      using U = uint64_t;
      seq_lens[i] = static_cast<int64_t>(U(s) + 1);
      slots[i] = static_cast<int64_t>((U(tables[s / d_.block_size]) + U(d_.stride) * U(i)) * U(d_.block_size) +
                                      U(s % d_.block_size));
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

// Registers the six common inputs in prototype order; returns sampledTokenIds and blockTables.
std::pair<TensorRef, TensorRef> CommonInputs(Plan& plan, const aclTensor* input_tokens, const aclTensor* sampled,
                                             const aclTensor* input_positions, const aclTensor* seq_lens,
                                             const aclTensor* slot_mapping, const aclTensor* block_tables) {
  plan.Input(input_tokens, "inputTokens");  // the in-out tensors are read through their outputs
  const TensorRef sampled_ref = plan.Input(sampled, "sampledTokenIds");
  plan.Input(input_positions, "inputPositions");
  plan.Input(seq_lens, "seqLens");
  plan.Input(slot_mapping, "slotMapping");
  return {sampled_ref, plan.Input(block_tables, "blockTables")};
}

// The outputs (each in-out tensor dense with its values kept: seqLens and inputPositions are read) and the
// inputs made dense.
StepBuffers BindBuffers(Plan& plan, const std::pair<TensorRef, TensorRef>& inputs, const aclTensor* input_tokens,
                        const aclTensor* input_positions, const aclTensor* seq_lens, const aclTensor* slot_mapping,
                        moe::DenseOutputs& outputs) {
  StepBuffers io;
  io.tokens = outputs.DenseKeeping(plan, plan.Output(input_tokens, "inputTokens"));
  io.positions = outputs.DenseKeeping(plan, plan.Output(input_positions, "inputPositions"));
  io.seq_lens = outputs.DenseKeeping(plan, plan.Output(seq_lens, "seqLens"));
  io.slots = outputs.DenseKeeping(plan, plan.Output(slot_mapping, "slotMapping"));
  io.sampled = plan.Contiguous(inputs.first, ACL_INT64).buffer;
  io.tables = plan.Contiguous(inputs.second, ACL_INT64).buffer;
  io.table_elements = inputs.second.NumElements();
  return io;
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
  const auto inputs = CommonInputs(plan, input_tokens, sampled, input_positions, seq_lens, slot_mapping, block_tables);
  AdvanceStepDesc desc;
  desc.seqs = num_seqs;
  desc.queries = num_queries;
  desc.block_size = block_size;
  moe::DenseOutputs outputs;
  desc.io = BindBuffers(plan, inputs, input_tokens, input_positions, seq_lens, slot_mapping, outputs);
  desc.stride = desc.io.table_elements / num_seqs;
  plan.AddStep(std::make_unique<AdvanceStepStep>(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

// AdvanceStepV2's speculative form: numSeqs requests of t = 1 + specNum tokens each.
struct SpecDesc {
  int64_t seqs = 0, tokens_each = 0, block_size = 0, stride = 0;
  StepBuffers io;
  BufferRef spec, accepted;  // dense INT64
};

// CANN's spec kernel computes in int32: values wrap as its casts do.
int32_t Wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

class AdvanceStepSpecStep final : public Step {
 public:
  explicit AdvanceStepSpecStep(const SpecDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto [tokens, sampled, positions, seq_lens, slots, tables] = Resolve(context, d_.io);
    const auto* spec = reinterpret_cast<const int64_t*>(context.Resolve(d_.spec));
    const auto* accepted = reinterpret_cast<const int64_t*>(context.Resolve(d_.accepted));
    const int64_t t = d_.tokens_each, count = d_.seqs * t;
    std::vector<int32_t> next(static_cast<size_t>(count));
    std::vector<int64_t> last(static_cast<size_t>(d_.seqs));
    // Every read first: a bad one fails the run with nothing written.
    for (int64_t i = 0; i < d_.seqs; ++i) {
      for (int64_t j = 0; j < t; ++j) {
        const int32_t pos = Wrap32(Wrap32(positions[i * t + j]) + static_cast<int64_t>(Wrap32(accepted[i])) + 1);
        next[static_cast<size_t>(i * t + j)] = pos;
        const int64_t element = i * d_.stride + pos / static_cast<int32_t>(d_.block_size);
        if (element < 0 || element >= d_.io.table_elements) {
          return Fail("inputPositions[%lld] + acceptedNum + 1 = %lld reads blockTables' element %lld, outside its %lld",
                      i * t + j, pos, element, d_.io.table_elements);
        }
      }
      // The last accepted token: the one before the first minimum of the row (as f32) with -1 appended.
      int64_t first_min = t;
      float min = -1.0F;
      for (int64_t j = t - 1; j >= 0; --j) {
        const auto v = static_cast<float>(sampled[i * t + j]);
        if (v <= min) {
          min = v;
          first_min = j;
        }
      }
      if (first_min == 0) {
        return Fail("sampledTokenIds row %lld (element %lld) is %lld: the row has no accepted token before it", i,
                    i * t, sampled[i * t], t);
      }
      last[static_cast<size_t>(i)] = sampled[i * t + first_min - 1];
    }
    for (int64_t i = 0; i < d_.seqs; ++i) {
      tokens[i * t] = last[static_cast<size_t>(i)];
      for (int64_t j = 1; j < t; ++j) tokens[i * t + j] = spec[i * (t - 1) + j - 1];
      for (int64_t j = 0; j < t; ++j) {
        const int32_t pos = next[static_cast<size_t>(i * t + j)];
        const auto bs = static_cast<int32_t>(d_.block_size);
        const int32_t block = Wrap32(tables[i * d_.stride + pos / bs]);
        positions[i * t + j] = pos;
        seq_lens[i * t + j] = Wrap32(static_cast<int64_t>(pos) + 1);
        slots[i * t + j] = Wrap32(static_cast<int64_t>(block) * bs + pos % bs);
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "advance step (speculative) seqs=" + std::to_string(d_.seqs) +
           " tokensEach=" + std::to_string(d_.tokens_each) + " blockSize=" + std::to_string(d_.block_size);
  }

 private:
  static aclnnStatus Fail(const char* format, int64_t a, int64_t b, int64_t c, int64_t e) {
    const std::string message = std::string("aclnnAdvanceStepV2: ") + format;
    SetErrorMessage(message.c_str(), static_cast<long long>(a), static_cast<long long>(b), static_cast<long long>(c),
                    static_cast<long long>(e));
    return kIndexOutOfRangeStatus;
  }

  SpecDesc d_;
};

// CANN's tiling checks of the speculative form (561002), in its order.
aclnnStatus CheckSpecShapes(Plan& plan, const aclTensor* input_tokens, const aclTensor* sampled,
                            const aclTensor* input_positions, const aclTensor* seq_lens, const aclTensor* slot_mapping,
                            const aclTensor* block_tables, int64_t num_seqs, int64_t tokens_each) {
  const int64_t slots = num_seqs * tokens_each;
  if (input_tokens->view_shape != Shape{slots}) {
    return plan.Reject(kTiling, "argument 'inputTokens' has shape %s; it must be [numSeqs * (1 + specNum)] = [%lld]",
                       ShapeToString(input_tokens->view_shape).c_str(), static_cast<long long>(slots));
  }
  if (sampled->view_shape != Shape{num_seqs, tokens_each}) {
    return plan.Reject(kTiling,
                       "argument 'sampledTokenIds' has shape %s; it must be [numSeqs, 1 + specNum] = [%lld,%lld]",
                       ShapeToString(sampled->view_shape).c_str(), static_cast<long long>(num_seqs),
                       static_cast<long long>(tokens_each));
  }
  for (const auto& [name, t] : {std::pair{"inputPositions", input_positions}, std::pair{"seqLens", seq_lens},
                                std::pair{"slotMapping", slot_mapping}}) {
    if (t->view_shape != input_tokens->view_shape) {
      return plan.Reject(kTiling, "argument '%s' has shape %s; it must be inputTokens' %s", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(input_tokens->view_shape).c_str());
    }
  }
  if (block_tables->rank() != 2 || block_tables->view_shape[0] != num_seqs) {
    return plan.Reject(kTiling, "argument 'blockTables' has shape %s; it must be [numSeqs (%lld), blocks]",
                       ShapeToString(block_tables->view_shape).c_str(), static_cast<long long>(num_seqs));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAdvanceStepV2(Plan& plan, const aclTensor* input_tokens, const aclTensor* sampled,
                              const aclTensor* input_positions, const aclTensor* seq_lens,
                              const aclTensor* slot_mapping, const aclTensor* block_tables, const aclTensor* spec_token,
                              const aclTensor* accepted_num, int64_t num_seqs, int64_t num_queries,
                              int64_t block_size) {
  for (const auto& [name, t] : {std::pair{"specToken", spec_token}, std::pair{"acceptedNum", accepted_num}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kInt64));
  }
  // Without speculative tokens (either empty) CANN runs AdvanceStep.
  if (spec_token->NumElements() == 0 || accepted_num->NumElements() == 0) {
    return PlanAdvanceStep(plan, input_tokens, sampled, input_positions, seq_lens, slot_mapping, block_tables, num_seqs,
                           num_queries, block_size);
  }
  for (const auto& [name, t] : {std::pair{"inputTokens", input_tokens}, std::pair{"sampledTokenIds", sampled},
                                std::pair{"inputPositions", input_positions}, std::pair{"seqLens", seq_lens},
                                std::pair{"slotMapping", slot_mapping}, std::pair{"blockTables", block_tables}}) {
    CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kInt64));
  }
  for (const auto& [name, value] :
       {std::pair{"numSeqs", num_seqs}, std::pair{"numQueries", num_queries}, std::pair{"blockSize", block_size}}) {
    if (value < 1) {
      return plan.Reject(kTiling, "argument '%s' is %lld; it must be at least 1", name, static_cast<long long>(value));
    }
  }
  // The kernel computes positions in int32: a larger blockSize was truncated (2^32 to 0, then a division by zero
  // that killed the process).
  if (block_size > std::numeric_limits<int32_t>::max()) {
    return plan.Reject(kTiling, "argument 'blockSize' is %lld; the speculative form takes at most %d",
                       static_cast<long long>(block_size), std::numeric_limits<int32_t>::max());
  }
  if (spec_token->rank() != 2 || spec_token->view_shape[0] != num_seqs) {
    return plan.Reject(kTiling, "argument 'specToken' has shape %s; it must be [numSeqs (%lld), specNum]",
                       ShapeToString(spec_token->view_shape).c_str(), static_cast<long long>(num_seqs));
  }
  if (accepted_num->view_shape != Shape{num_seqs}) {
    return plan.Reject(kTiling, "argument 'acceptedNum' has shape %s; it must be [numSeqs (%lld)]",
                       ShapeToString(accepted_num->view_shape).c_str(), static_cast<long long>(num_seqs));
  }
  const int64_t tokens_each = spec_token->view_shape[1] + 1;
  CANOPY_CHECK(CheckSpecShapes(plan, input_tokens, sampled, input_positions, seq_lens, slot_mapping, block_tables,
                               num_seqs, tokens_each));
  const auto inputs = CommonInputs(plan, input_tokens, sampled, input_positions, seq_lens, slot_mapping, block_tables);
  const TensorRef spec_ref = plan.Input(spec_token, "specToken");
  const TensorRef accepted_ref = plan.Input(accepted_num, "acceptedNum");
  SpecDesc desc;
  desc.seqs = num_seqs;
  desc.tokens_each = tokens_each;
  desc.block_size = block_size;
  desc.stride = block_tables->view_shape[1];
  desc.spec = plan.Contiguous(spec_ref, ACL_INT64).buffer;
  desc.accepted = plan.Contiguous(accepted_ref, ACL_INT64).buffer;
  moe::DenseOutputs outputs;
  desc.io = BindBuffers(plan, inputs, input_tokens, input_positions, seq_lens, slot_mapping, outputs);
  plan.AddStep(std::make_unique<AdvanceStepSpecStep>(desc));
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

CANOPY_ACLNN_OP(AdvanceStepV2, PlanAdvanceStepV2,
                (OpTraits{.header = "aclnnop/aclnn_advance_step_v2.h",
                          .dtypes = kDtypes,
                          .example = "i64[6] i64[2,3]{1:9} i64[6]{0:5} i64[6] i64[6] i64[2,4]{0:9} i64[2,2]{1:9} "
                                     "i64[2]{0:1} 2 2 4"}),
                (const aclTensor*, inputTokens), (const aclTensor*, sampledTokenIds),
                (const aclTensor*, inputPositions), (const aclTensor*, seqLens), (const aclTensor*, slotMapping),
                (const aclTensor*, blockTables), (const aclTensor*, specToken), (const aclTensor*, acceptedNum),
                (int64_t, numSeqs), (int64_t, numQueries), (int64_t, blockSize))
