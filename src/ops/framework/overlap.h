// Outputs that overlap inputs. A kernel that writes an output while reading an
// input sharing its memory (a shifted, transposed or narrower-dtype view, or
// any overlap at all for a kernel such as a matrix product) reads values it has
// already overwritten. CANN computes into an intermediate and copies into
// `out`, so results always equal computing from the inputs' values before the
// op; Canopy does the same, but only when the memory really overlaps.
//
// How: every output is written through a write slot of its own that normally
// resolves to the output's address. Phase 1 records, per input and per output,
// what decides whether the steps keep an exact-same-view pair safe in place
// (each element is read by the step that writes it, before it is written). A guard step wrapping
// the plan compares the bound addresses at every run, so rebinding
// (aclSet*TensorAddr) and plan-cache reuse are covered, and points the write
// slot of an output that overlaps an input unsafely at a staging buffer: a
// snapshot of the output, which the steps update and the guard copies back.
// The staging buffer is booked in the workspace when phase 1's addresses
// overlap (the plan-cache key carries the overlap pattern), and allocated at
// run time only when a rebinding creates an overlap phase 1 did not see.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "plan.h"

namespace canopy::ops {

class OverlapGuard {
 public:
  OverlapGuard();
  ~OverlapGuard();
  OverlapGuard(const OverlapGuard&) = delete;
  OverlapGuard& operator=(const OverlapGuard&) = delete;

  // An input tensor as the recipe registered it.
  void AddInput(const TensorRef& input, const char* name);
  // An output: `parameter` is its view on the slot clients bind, `write` the
  // same view on its write slot.
  void AddOutput(const TensorRef& parameter, const TensorRef& write, const char* name);
  // A step the Plan built from its own blocks, whose operands it knows.
  void AddElementwiseStep(const std::vector<TensorRef>& inputs, const TensorRef& out);
  // A step with operands the framework cannot see (a matrix product, ...): it
  // is taken to read every input and write every output.
  void AddOpaqueStep();
  // A step that reads `inputs` in any order and writes `out` (see Plan::AddStep).
  void AddDeclaredStep(const std::vector<TensorRef>& inputs, const TensorRef& out);

  // The plan's steps wrapped in the guard, with staging booked for every
  // output that overlaps an input at `addresses` (phase 1's slot addresses).
  // Returns `steps` unchanged when there is nothing to guard.
  std::vector<std::unique_ptr<const Step>> Seal(Plan& plan, std::vector<std::unique_ptr<const Step>> steps,
                                                const std::vector<void*>& addresses);

 private:
  struct Record;
  struct StepOperands;
  // Per input: the last step reading it and whether that step reads it
  // elementwise as exactly its view; per output: the first step writing it,
  // whether that step is elementwise over exactly its view, and whether its
  // elements are distinct. An input and an output of the same view are safe in
  // place when the input's last read comes before the output's first write,
  // or both are the same elementwise step.
  struct InputFacts {
    int64_t last_read;
    bool tie_safe;
  };
  struct OutputFacts {
    int64_t first_write;
    bool tie_safe;
    bool distinct;
  };
  void InPlaceFacts(std::vector<InputFacts>& inputs, std::vector<OutputFacts>& outputs) const;

  std::vector<Record> inputs_;
  std::vector<Record> outputs_;
  std::vector<StepOperands> steps_;
};

// Appends to `key` which of its tensors overlap in memory and which share
// exactly the same view: what staging phase 1 books depends on it.
void AddOverlapPattern(PlanKey& key);

}  // namespace canopy::ops
