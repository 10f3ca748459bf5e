// MoE init routing (MoeInitRouting, MoeInitRoutingV2): the token copies
// (rows x k expert choices) sorted by expert number, stably in the flattened
// [rows, k] order, and the token rows gathered into that order.
//
// V1 (`row_index` given): slot t = i * k + j carries rowIdx[t] (k-major,
//   j * rows + i from MoeGatingTopKSoftmax). After the sort, position p holds
//   slot s(p): expandedExpertIdx[p] = expert[s(p)], expandedRowIdx[rowIdx[s(p)]] = p,
//   expandedX[p] = x[rowIdx[s(p)] % rows] for p < expanded_rows.
// V2 drop-less / active: expandedRowIdx[s(p)] = p, expandedX[p] = x[s(p) / k]
//   for p < expanded_rows; per-expert counts or their running sum.
// V2 drop/pad: expandedX is [experts, capacity, h]; the r-th copy of expert e
//   goes to row e * capacity + r when r < capacity (else it is dropped and its
//   expandedRowIdx is -1); unfilled rows are zero; per-expert counts before
//   the drop.
// MoeTokenPermute is V2's drop-less / active form with int32 or int64 indices
//   (WithEp: the positions [expanded_start, expanded_start + expanded_rows)
//   only, to rows from 0; the other rows left alone).
// MoeInitRoutingQuantV2's dynamic form (`to_f32`): expandedX holds f32 rows
//   (x's row times a smooth row: the one row, or the row's expert's), zero
//   rows where padded, for DynamicQuant to quantise.
// Index values are checked before anything is written: a V1 rowIdx outside
// [0, rows * k), a V2 expert number below 0 or (where the counts or the
// drop/pad layout need it) at or above `experts` fails the run (507015).
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct MoeInitRoutingDesc {
  const char* op = "";            // for the error message
  aclDataType dtype = ACL_FLOAT;  // x and expandedX (moved as bytes)
  int64_t rows = 0, k = 0, h = 0;
  int64_t expanded_rows = 0;   // rows of expandedX written in the drop-less / active forms
  int64_t expanded_start = 0;  // drop-less: position p goes to row p - expanded_start (MoeTokenPermuteWithEp's range)
  BufferRef x, expert_index, expanded_x, expanded_row_index;  // int32 indices; all contiguous
  bool index_int64 = false;                                   // expert_index is int64 (MoeTokenPermute)
  const char* expert_name = "expertIdx";                      // for the error message
  int64_t expert_limit = INT32_MAX;                           // expert numbers below it, unless experts_bounded
  bool has_row_index = false;                                 // V1
  BufferRef row_index, expanded_expert_index;                 // V1's rowIdx input and third output
  // V2
  int64_t experts = 0;
  bool experts_bounded = false;  // expert numbers must be below `experts`
  bool drop_pad = false;
  int64_t capacity = 0;
  enum class Counts { kNone, kCumsum, kCount, kBeforeCapacity } counts = Counts::kNone;
  BufferRef expert_tokens;         // int32 [experts], with `counts`
  bool to_f32 = false;             // expanded_x: f32 rows (x's dtype is f32 / f16 / bf16)
  bool has_smooth = false;         // with to_f32: times smooth (f32, contiguous)
  bool smooth_per_expert = false;  // smooth is [experts, h] (else [1, h]); needs experts_bounded
  BufferRef smooth;
};

std::unique_ptr<Step> MakeMoeInitRoutingStep(const MoeInitRoutingDesc& desc);

// MoeInitRoutingV3: the slots whose expert is in [expert_start, expert_end)
// sorted by expert (stably in the flattened [rows, k] order); the others are
// dropped, so `kept` (their number) is known only at run time. Position p
// holds slot s(p):
// - expandedRowIdx, gather form (rowIdxType 0): [s(p)] = p, -1 for a dropped
//   slot; scatter form (1): [p] = s(p) for p < kept, the rest left alone.
// - expandedX[p] = x[s(p) / k] for p < kept (the rest left alone); quantised:
//   the f32 row x[s(p) / k] * smooth[expert - expert_start] (smooth optional)
//   and zero rows past kept, for DynamicQuant to quantise.
// - row_scale (f32, one per x row): expandedScale[p] = row_scale[s(p) / k].
// - counts (int64): the tokens of each expert of the range, or key_value:
//   (expert, count) pairs for the experts that have tokens, then zero pairs,
//   min(range + 1, experts) pairs in all.
// Expert numbers outside the range are dropped, never an error.
struct MoeInitRoutingV3Desc {
  aclDataType dtype = ACL_FLOAT;  // x (and expandedX when not quantised)
  int64_t rows = 0, k = 0, h = 0, experts = 0, expert_start = 0, expert_end = 0;
  BufferRef x, expert_index, expanded_x, expanded_row_index, expert_tokens;  // all contiguous
  bool scatter_row_index = false;
  bool key_value = false;
  bool quantise = false;  // expanded_x: f32 rows for DynamicQuant
  bool has_smooth = false;
  BufferRef smooth;  // f32 [expert_end - expert_start, h]
  bool has_row_scale = false;
  BufferRef row_scale, expanded_scale;  // f32 [rows], f32 [rows * k]
};

std::unique_ptr<Step> MakeMoeInitRoutingV3Step(const MoeInitRoutingV3Desc& desc);

}  // namespace canopy::kernels
