#include "overlap.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <new>
#include <sstream>
#include <unordered_map>

#include "canopy/canopy_runtime.h"
#include "common/dtype.h"
#include "common/shape.h"

namespace canopy::ops {

// A registered view, relative to its slot's base address.
struct OverlapGuard::Record {
  TensorRef view;     // inputs: the input; outputs: the view on the write slot
  int32_t slot = 0;   // the slot clients bind (for an output, not its write slot)
  int64_t begin = 0;  // bytes [begin, end) the view touches, from the slot's base
  int64_t end = 0;
  bool empty = false;
  const char* name = "";
  std::unique_ptr<const Step> snapshot;   // outputs: parameter view -> write view
  std::unique_ptr<const Step> copy_back;  // outputs: write view -> parameter view
};

struct OverlapGuard::StepOperands {
  bool opaque = false;       // reads every input, writes every output
  bool elementwise = false;  // each element of `out` is written after its inputs' elements are read
  std::vector<TensorRef> inputs;
  TensorRef out;
};

namespace {

constexpr int64_t kNoStep = std::numeric_limits<int64_t>::max();
// Staging regions start on cache-line boundaries, like the workspace's.
constexpr size_t kStagingAlignment = 64;

bool SameView(const TensorRef& a, const TensorRef& b) {
  return a.buffer.slot == b.buffer.slot && a.buffer.byte_offset == b.buffer.byte_offset && a.dtype == b.dtype &&
         a.shape == b.shape && a.strides == b.strides;
}

// Same element layout at the given absolute first-element addresses; strides
// along extent-1 dimensions do not matter.
bool SameLayout(const char* a_first, const TensorRef& a, const char* b_first, const TensorRef& b) {
  if (a_first != b_first || a.dtype != b.dtype || a.shape != b.shape) return false;
  for (size_t d = 0; d < a.shape.size(); ++d) {
    if (a.shape[d] != 1 && a.strides[d] != b.strides[d]) return false;
  }
  return true;
}

// The bytes a view spans from its slot's base: [begin, end).
void SpanOf(const TensorRef& view, int64_t& begin, int64_t& end, bool& empty) {
  int64_t last = 0;
  begin = view.buffer.byte_offset;
  // An empty view spans nothing, and its strides may be anything (phase 1 checks
  // that only a non-empty view's last element is addressable).
  empty = std::find(view.shape.begin(), view.shape.end(), 0) != view.shape.end();
  if (empty) {
    end = begin;
    return;
  }
  for (size_t d = 0; d < view.shape.size(); ++d) {
    if (view.shape[d] > 1) last += (view.shape[d] - 1) * view.strides[d];
  }
  // INT4 views start on a whole byte (phase 1 checks it), so counting from the
  // first element's byte is exact.
  end = begin + ElementBytesEnd(view.dtype, last + 1);
}

bool Intersect(const char* a_begin, const char* a_end, const char* b_begin, const char* b_end) {
  return a_begin < b_end && b_begin < a_end;
}

// The guard around a plan's steps. Immutable after phase 1, shared by every
// executor of a cached plan: per-run state lives in Run() (the slot table in a
// per-thread buffer, as steps never run a guard inside a guard).
class OutputGuardStep final : public Step {
 public:
  struct Output {
    TensorRef view;  // on the write slot
    int32_t parameter_slot = 0;
    int64_t begin = 0;
    int64_t end = 0;
    int64_t staging_offset = -1;  // in the workspace; -1: not booked
    const Step* snapshot = nullptr;
    const Step* copy_back = nullptr;
    const char* name = "";
    // What keeps an input of the exact same view safe to update in place (see
    // InPlaceSafe): the first step writing this output, whether that step is
    // elementwise over exactly this view, whether its elements are distinct.
    int64_t first_write = kNoStep;
    bool tie_safe = false;
    bool distinct = true;
  };
  struct Input {
    TensorRef view;
    int64_t begin = 0;
    int64_t end = 0;
    const char* name = "";
    // The last step reading this input, and whether that step is elementwise
    // reading it as exactly this view.
    int64_t last_read = -1;
    bool tie_safe = false;
  };

  OutputGuardStep(const char* op, size_t slot_count, std::vector<std::unique_ptr<const Step>> steps,
                  std::vector<std::unique_ptr<const Step>> copies, std::vector<Input> inputs,
                  std::vector<Output> outputs)
      : op_(op),
        slot_count_(slot_count),
        steps_(std::move(steps)),
        copies_(std::move(copies)),
        inputs_(std::move(inputs)),
        outputs_(std::move(outputs)) {}

  // For each output, the input that makes it need staging with the slots
  // bound at `bases`, or null where it can be written in place.
  void StagingNeeds(const std::vector<void*>& bases, std::vector<const char*>& needs) const {
    needs.assign(outputs_.size(), nullptr);
    // Few pairs (almost every op): each is compared. Many (foreach ops over
    // lists of a thousand tensors): the inputs sorted by address, so that each
    // output meets only the inputs near it.
    constexpr size_t kDirectPairs = 256;
    if (inputs_.size() * outputs_.size() <= kDirectPairs) {
      for (size_t o = 0; o < outputs_.size(); ++o) {
        for (size_t i = 0; i < inputs_.size() && needs[o] == nullptr; ++i) needs[o] = Conflict(i, o, bases);
      }
      return;
    }
    struct Span {
      const char* begin;
      const char* end;
      size_t input;
    };
    thread_local std::vector<Span> spans;
    thread_local std::vector<const char*> reach;  // the furthest end among spans[0..j]
    spans.clear();
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const char* base = static_cast<const char*>(bases[inputs_[i].view.buffer.slot]);
      if (base != nullptr) spans.push_back({base + inputs_[i].begin, base + inputs_[i].end, i});
    }
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    reach.resize(spans.size());
    for (size_t j = 0; j < spans.size(); ++j) reach[j] = j == 0 ? spans[j].end : std::max(reach[j - 1], spans[j].end);
    for (size_t o = 0; o < outputs_.size(); ++o) {
      const Output& out = outputs_[o];
      const char* out_base = static_cast<const char*>(bases[out.parameter_slot]);
      if (out_base == nullptr) continue;
      const char* first = out_base + out.begin;
      const char* last = out_base + out.end;
      // Inputs starting before the output ends, walked back while one of them may still reach into it.
      auto j = static_cast<size_t>(
          std::lower_bound(spans.begin(), spans.end(), last, [](const Span& a, const char* v) { return a.begin < v; }) -
          spans.begin());
      while (j > 0 && reach[j - 1] > first && needs[o] == nullptr) {
        --j;
        if (spans[j].end > first) needs[o] = Conflict(spans[j].input, o, bases);
      }
    }
  }

  aclnnStatus Run(const RunContext& context) const override {
    // The slot addresses of this run; write slots follow their parameter slot.
    thread_local std::vector<void*> slots;
    slots.resize(slot_count_);
    for (size_t s = 0; s < slot_count_; ++s) slots[s] = context.Resolve({static_cast<int32_t>(s), 0});
    char* workspace = context.Resolve({BufferRef::kWorkspaceSlot, 0});
    for (const Output& out : outputs_) slots[out.view.buffer.slot] = slots[out.parameter_slot];

    std::vector<size_t> staged;
    std::vector<std::unique_ptr<char[], void (*)(char*)>> allocated;
    thread_local std::vector<const char*> needs;
    StagingNeeds(slots, needs);
    for (size_t o = 0; o < outputs_.size(); ++o) {
      const char* input = needs[o];
      if (input == nullptr) continue;
      const Output& out = outputs_[o];
      char* staging = out.staging_offset >= 0 ? workspace + out.staging_offset : nullptr;
      if (staging == nullptr) {
        // Rebound into an overlap phase 1 did not see: the rare path allocates.
        staging = static_cast<char*>(::operator new (static_cast<size_t>(out.end - out.begin),
                                                     std::align_val_t{kStagingAlignment}, std::nothrow));
        if (staging == nullptr) {
          SetErrorMessage("%s: no memory to stage output '%s', which overlaps an input", op_, out.name);
          return ACLNN_ERR_INNER;
        }
        allocated.emplace_back(staging, [](char* p) { ::operator delete (p, std::align_val_t{kStagingAlignment}); });
        if (canopyCheckEnabled() != 0) {
          std::fprintf(stderr, "canopy: check: %s: output '%s' was rebound onto memory input '%s' uses; staged\n", op_,
                       out.name, input);
        }
      }
      slots[out.view.buffer.slot] = staging - out.begin;
      staged.push_back(o);
    }

    const RunContext run(workspace, slots);
    for (size_t o : staged) {
      if (aclnnStatus s = outputs_[o].snapshot->Run(run); s != ACLNN_SUCCESS) return s;
    }
    for (const auto& step : steps_) {
      if (aclnnStatus s = step->Run(run); s != ACLNN_SUCCESS) return s;
    }
    for (size_t o : staged) {
      if (aclnnStatus s = outputs_[o].copy_back->Run(run); s != ACLNN_SUCCESS) return s;
    }
    return ACLNN_SUCCESS;
  }

  // Phase 1 only, before the plan is shared: where each output's staging region lies (-1: none).
  void BookStaging(const std::vector<int64_t>& offsets) {
    for (size_t o = 0; o < outputs_.size(); ++o) outputs_[o].staging_offset = offsets[o];
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "output overlap guard (" << outputs_.size() << " output(s)) over:";
    for (const auto& step : steps_) text << "\n    " << step->Describe();
    return text.str();
  }

 private:
  const char* op_;
  size_t slot_count_;
  std::vector<std::unique_ptr<const Step>> steps_;
  std::vector<std::unique_ptr<const Step>> copies_;  // owns the outputs' snapshot and copy-back steps
  // The input's name where input i and output o overlap at `bases` other than
  // as a view the steps update safely in place; null otherwise (or unbound:
  // phase 1 of an executor whose addresses come later books nothing).
  const char* Conflict(size_t i, size_t o, const std::vector<void*>& bases) const {
    const Input& in = inputs_[i];
    const Output& out = outputs_[o];
    const char* in_base = static_cast<const char*>(bases[in.view.buffer.slot]);
    const char* out_base = static_cast<const char*>(bases[out.parameter_slot]);
    if (in_base == nullptr || out_base == nullptr) return nullptr;
    if (!Intersect(out_base + out.begin, out_base + out.end, in_base + in.begin, in_base + in.end)) return nullptr;
    const bool same =
        SameLayout(out_base + out.view.buffer.byte_offset, out.view, in_base + in.view.buffer.byte_offset, in.view);
    return same && InPlaceSafe(in, out) ? nullptr : in.name;
  }

  // Whether an input may be exactly the output's view in place: no step reads
  // the input after a step has written the output, and the step that does both
  // is elementwise over exactly these two views (each element read, then
  // written); an output whose elements share addresses never is.
  static bool InPlaceSafe(const Input& in, const Output& out) {
    if (!out.distinct) return false;
    if (in.last_read != out.first_write) return in.last_read < out.first_write;
    return in.tie_safe && out.tie_safe;
  }

  std::vector<Input> inputs_;
  std::vector<Output> outputs_;
};

}  // namespace

OverlapGuard::OverlapGuard() = default;
OverlapGuard::~OverlapGuard() = default;

void OverlapGuard::AddInput(const TensorRef& input, const char* name) {
  Record record;
  record.view = input;
  record.slot = input.buffer.slot;
  record.name = name;
  SpanOf(input, record.begin, record.end, record.empty);
  inputs_.push_back(std::move(record));
}

void OverlapGuard::AddOutput(const TensorRef& parameter, const TensorRef& write, const char* name) {
  Record record;
  record.view = write;
  record.slot = parameter.buffer.slot;
  record.name = name;
  SpanOf(write, record.begin, record.end, record.empty);
  if (!record.empty) {
    record.snapshot = MakeCopyStep(parameter, write);
    record.copy_back = MakeCopyStep(write, parameter);
  }
  outputs_.push_back(std::move(record));
}

void OverlapGuard::AddElementwiseStep(const std::vector<TensorRef>& inputs, const TensorRef& out) {
  steps_.push_back({false, true, inputs, out});
}

void OverlapGuard::AddOpaqueStep() { steps_.push_back({true, false, {}, {}}); }

void OverlapGuard::AddDeclaredStep(const std::vector<TensorRef>& inputs, const TensorRef& out) {
  steps_.push_back({false, false, inputs, out});
}

// What InPlaceSafe needs of each record, from one pass over the steps (a pass
// per input and output pair was cubic in a foreach op's list length: 13 s of
// phase 1 for 1000 tensors). An opaque step reads every input and writes every
// output; a declared step (a product) that reads an input and writes an output
// never keeps them safe in place.
void OverlapGuard::InPlaceFacts(std::vector<InputFacts>& inputs, std::vector<OutputFacts>& outputs) const {
  int64_t last_opaque = -1, first_opaque = kNoStep;
  std::unordered_map<int32_t, int64_t> last_read, first_write;  // by slot
  for (size_t k = 0; k < steps_.size(); ++k) {
    const StepOperands& step = steps_[k];
    const auto at = static_cast<int64_t>(k);
    if (step.opaque) {
      last_opaque = at;
      first_opaque = std::min(first_opaque, at);
      continue;
    }
    for (const TensorRef& t : step.inputs) last_read[t.buffer.slot] = at;
    first_write.emplace(step.out.buffer.slot, at);  // keeps the first
  }
  inputs.resize(inputs_.size());
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Record& in = inputs_[i];
    const auto found = last_read.find(in.slot);
    const int64_t k = std::max(found == last_read.end() ? int64_t{-1} : found->second, last_opaque);
    bool tie_safe = false;
    if (k >= 0) {
      const StepOperands& step = steps_[static_cast<size_t>(k)];
      tie_safe = step.elementwise && std::all_of(step.inputs.begin(), step.inputs.end(), [&](const TensorRef& t) {
                   return t.buffer.slot != in.slot || SameView(t, in.view);
                 });
    }
    inputs[i] = {k, tie_safe};
  }
  outputs.resize(outputs_.size());
  for (size_t o = 0; o < outputs_.size(); ++o) {
    const Record& out = outputs_[o];
    const auto found = first_write.find(out.view.buffer.slot);
    const int64_t k = std::min(found == first_write.end() ? kNoStep : found->second, first_opaque);
    bool tie_safe = false;
    if (k != kNoStep) {
      const StepOperands& step = steps_[static_cast<size_t>(k)];
      tie_safe = step.elementwise && SameView(step.out, out.view);
    }
    outputs[o] = {k, tie_safe, ElementsAreDistinct(out.view.shape, out.view.strides)};
  }
}

std::vector<std::unique_ptr<const Step>> OverlapGuard::Seal(Plan& plan, std::vector<std::unique_ptr<const Step>> steps,
                                                            const std::vector<void*>& addresses) {
  const bool any_output = std::any_of(outputs_.begin(), outputs_.end(), [](const Record& r) { return !r.empty; });
  if (steps.empty() || !any_output) return steps;

  std::vector<InputFacts> input_facts;
  std::vector<OutputFacts> output_facts;
  InPlaceFacts(input_facts, output_facts);
  std::vector<OutputGuardStep::Input> inputs;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (inputs_[i].empty) continue;
    inputs.push_back({inputs_[i].view, inputs_[i].begin, inputs_[i].end, inputs_[i].name, input_facts[i].last_read,
                      input_facts[i].tie_safe});
  }
  std::vector<OutputGuardStep::Output> outputs;
  std::vector<size_t> output_records;
  std::vector<std::unique_ptr<const Step>> copies;
  for (size_t o = 0; o < outputs_.size(); ++o) {
    Record& record = outputs_[o];
    if (record.empty) continue;
    outputs.push_back({record.view, record.slot, record.begin, record.end, -1, record.snapshot.get(),
                       record.copy_back.get(), record.name, output_facts[o].first_write, output_facts[o].tie_safe,
                       output_facts[o].distinct});
    output_records.push_back(o);
    copies.push_back(std::move(record.snapshot));
    copies.push_back(std::move(record.copy_back));
  }
  auto guard = std::make_unique<OutputGuardStep>(plan.op(), addresses.size(), std::move(steps), std::move(copies),
                                                 std::move(inputs), std::move(outputs));

  // Book staging for what overlaps at phase 1's addresses; a cached plan is
  // only reused for calls with the same overlap pattern.
  std::vector<void*> bases = addresses;
  for (size_t o = 0; o < output_records.size(); ++o) {
    const Record& record = outputs_[output_records[o]];
    bases[record.view.buffer.slot] = bases[record.slot];
  }
  std::vector<int64_t> booked;
  std::vector<const char*> needs;
  guard->StagingNeeds(bases, needs);
  for (size_t o = 0; o < output_records.size(); ++o) {
    const char* input = needs[o];
    if (input == nullptr) {
      booked.push_back(-1);
      continue;
    }
    const Record& record = outputs_[output_records[o]];
    const TensorRef region = plan.Temporary(ACL_UINT8, {record.end - record.begin});
    booked.push_back(region.buffer.byte_offset);
    if (canopyCheckEnabled() != 0) {
      std::fprintf(stderr,
                   "canopy: check: %sGetWorkspaceSize: output '%s' overlaps input '%s' in memory (other than as "
                   "the same view of an elementwise op); computed in the workspace and copied back\n",
                   plan.op(), record.name, input);
    }
  }
  guard->BookStaging(booked);
  std::vector<std::unique_ptr<const Step>> wrapped;
  wrapped.push_back(std::move(guard));
  return wrapped;
}

void AddOverlapPattern(PlanKey& key) {
  const auto& tensors = key.tensors();
  // Addresses as integers: the views are not checked yet (a plan-cache hit skips
  // those checks), so a span is computed only where its arithmetic cannot overflow.
  struct Span {
    uintptr_t begin = 0;
    uintptr_t end = 0;
    bool placed = false;
  };
  constexpr size_t kMaxInline = 16;
  Span spans[kMaxInline];
  const size_t count = std::min(tensors.size(), kMaxInline);
  for (size_t i = 0; i < count; ++i) {
    const aclTensor* t = tensors[i];
    if (t == nullptr || t->data == nullptr) continue;
    if (std::find(t->view_shape.begin(), t->view_shape.end(), 0) != t->view_shape.end()) continue;  // empty
    const int64_t element = static_cast<int64_t>(DtypeSize(t->dtype));
    int64_t last = t->offset, first_byte = 0, end_byte = 0;
    bool overflow = t->strides.size() != t->view_shape.size();
    for (size_t d = 0; d < t->view_shape.size() && !overflow; ++d) {
      int64_t reach;
      overflow = __builtin_mul_overflow(t->view_shape[d] - 1, t->strides[d], &reach) ||
                 __builtin_add_overflow(last, reach, &last);
    }
    overflow = overflow || __builtin_add_overflow(last, int64_t{1}, &last);
    if (t->dtype == ACL_INT4) {  // two to a byte: the bytes that hold the first and the last element
      first_byte = t->offset / 2;
      end_byte = last / 2 + last % 2;
    } else {
      overflow = overflow || __builtin_mul_overflow(t->offset, element, &first_byte) ||
                 __builtin_mul_overflow(last, element, &end_byte);
    }
    if (overflow) continue;  // such a view is rejected on the way to the recipe
    const auto base = reinterpret_cast<uintptr_t>(t->data);
    spans[i] = {base + static_cast<uintptr_t>(first_byte), base + static_cast<uintptr_t>(end_byte), true};
  }
  // Pairs of distinct descriptors that overlap: 1 partly, 2 as the same view.
  for (size_t i = 0; i < count; ++i) {
    for (size_t j = i + 1; j < count; ++j) {
      if (!spans[i].placed || !spans[j].placed || tensors[i] == tensors[j]) continue;
      if (!(spans[i].begin < spans[j].end && spans[j].begin < spans[i].end)) continue;
      const aclTensor* a = tensors[i];
      const aclTensor* b = tensors[j];
      const bool same = spans[i].begin == spans[j].begin && a->dtype == b->dtype && a->view_shape == b->view_shape &&
                        a->strides == b->strides;
      key.Add(static_cast<int64_t>((i << 32) | (j << 8) | (same ? 2 : 1)));
    }
  }
  // Tensors beyond the first kMaxInline are not told apart: the guard's check at
  // run time still stages them, through memory it allocates then.
  key.Add(int64_t{-1});
}

}  // namespace canopy::ops
