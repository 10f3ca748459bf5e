#include "onednn_step.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include "canopy/canopy_runtime.h"
#include "onednn_reordered_copies.h"

namespace canopy::kernels {
namespace {

// An operand the primitive reads or writes in a layout of its own choosing:
// the booked buffer it lives in for the primitive, and the reorder between it
// and the operand's view.
struct Staged {
  int key = 0;
  bool output = false;
  dnnl::memory::desc internal;
  BufferRef internal_at;
  dnnl::reorder reorder;
  dnnl::memory::desc scratchpad;  // the reorder's own, booked like the primitive's
  BufferRef scratchpad_at;
  // Kept reordered copies (keep_reordered inputs whose view is dense); the
  // booked buffer above serves when the process budget has no room.
  std::shared_ptr<ReorderedCopies> copies;
};

class OnednnStep final : public Step {
 public:
  OnednnStep(dnnl::primitive primitive, std::vector<OnednnArgument> arguments, std::vector<Staged> staged,
             dnnl::memory::desc scratchpad, BufferRef scratchpad_at, std::string description, bool one_thread)
      : primitive_(std::move(primitive)),
        arguments_(std::move(arguments)),
        staged_(std::move(staged)),
        scratchpad_md_(scratchpad),
        scratchpad_(scratchpad_at),
        description_(std::move(description)),
        one_thread_(one_thread) {}

  aclnnStatus Run(const RunContext& context) const override {
    try {
      dnnl::engine& engine = OneDnnEngine();
      dnnl::stream& stream = OneDnnThreadStream();
      canopyPrepareComputeTeam();
      std::optional<OneThreadScope> one_thread;
      if (one_thread_) one_thread.emplace();
      std::unordered_map<int, dnnl::memory> bound;
      std::unordered_map<int, dnnl::memory> views;
      for (const OnednnArgument& argument : arguments_) {
        dnnl::memory view(argument.view, engine, context.Resolve(argument.buffer));
        bound.emplace(argument.key, view);
        views.emplace(argument.key, view);
      }
      std::vector<std::shared_ptr<const ReorderedCopies::Copy>> used;  // alive until the primitive has run
      for (const Staged& s : staged_) {
        if (s.copies) {
          const dnnl::memory& view = views.at(s.key);
          auto copy = s.copies->Get(view.get_data_handle(), [&](void* from, void* to) {
            Reorder(s, context, dnnl::memory(view.get_desc(), engine, from), dnnl::memory(s.internal, engine, to));
          });
          if (copy) {
            bound.insert_or_assign(s.key, dnnl::memory(s.internal, engine, copy->reordered()));
            used.push_back(std::move(copy));
            continue;
          }
        }
        dnnl::memory internal(s.internal, engine, context.Resolve(s.internal_at));
        if (!s.output) Reorder(s, context, views.at(s.key), internal);
        bound.insert_or_assign(s.key, internal);
      }
      if (scratchpad_md_.get_size() > 0) {
        bound.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(scratchpad_md_, engine, context.Resolve(scratchpad_)));
      }
      primitive_.execute(stream, bound);
      for (const Staged& s : staged_) {
        if (s.output) Reorder(s, context, bound.at(s.key), views.at(s.key));
      }
      stream.wait();
    } catch (const dnnl::error& e) {
      SetErrorMessage("%s failed in oneDNN: %s", description_.c_str(), e.what());
      return ACLNN_ERR_INNER;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return description_; }

 private:
  static void Reorder(const Staged& s, const RunContext& context, const dnnl::memory& from, const dnnl::memory& to) {
    std::unordered_map<int, dnnl::memory> arguments = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
    if (s.scratchpad.get_size() > 0) {
      arguments.emplace(DNNL_ARG_SCRATCHPAD,
                        dnnl::memory(s.scratchpad, OneDnnEngine(), context.Resolve(s.scratchpad_at)));
    }
    s.reorder.execute(OneDnnThreadStream(), arguments);
  }

  dnnl::primitive primitive_;
  std::vector<OnednnArgument> arguments_;
  std::vector<Staged> staged_;
  dnnl::memory::desc scratchpad_md_;
  BufferRef scratchpad_;  // in this call's workspace
  std::string description_;
  bool one_thread_;
};

// Whether a view's span holds only its own elements (no gaps another tensor
// could use): then comparing the span's bytes compares the operand. A stride-0
// dimension repeats elements, and oneDNN's size counts it as if it did not (a
// [2, K] weight with a stride-0 row spans K + 1 elements, its size says 2K).
bool Dense(const dnnl::memory::desc& view) {
  size_t elements = 1;
  const dnnl::memory::dims dims = view.dims();
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] > 1 && view.data.format_desc.blocking.strides[d] == 0) return false;
    elements *= static_cast<size_t>(dims[d]);
  }
  return view.get_size() == elements * dnnl::memory::data_type_size(view.data_type());
}

}  // namespace

dnnl::memory::desc OnednnViewDesc(aclDataType dtype, const std::vector<int64_t>& dims,
                                  const std::vector<int64_t>& strides) {
  dnnl::memory::dims fixed(strides.begin(), strides.end());
  int64_t dense = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    if (dims[d] == 1) fixed[d] = dense;
    dense = std::max<int64_t>(dense, fixed[d] * std::max<int64_t>(dims[d], 1));
  }
  return dnnl::memory::desc(dnnl::memory::dims(dims.begin(), dims.end()), OnednnType(dtype), fixed);
}

bool OnednnDescribes(aclDataType dtype, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides) {
  try {
    (void)OnednnViewDesc(dtype, dims, strides);
    return true;
  } catch (const dnnl::error&) {
    return false;
  }
}

dnnl::primitive_attr OnednnAttr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

std::unique_ptr<Step> MakeOnednnStep(const dnnl::primitive_desc& primitive_desc,
                                     const std::vector<OnednnArgument>& arguments, const OnednnBooking& book,
                                     std::string what, std::string& reason, bool one_thread) {
  try {
    std::vector<Staged> staged;
    for (const OnednnArgument& argument : arguments) {
      const dnnl::memory::desc wanted = primitive_desc.query_md(dnnl::query::exec_arg_md, argument.key);
      if (wanted == argument.view) continue;
      Staged s;
      s.key = argument.key;
      s.output = argument.output;
      s.internal = wanted;
      const dnnl::memory::desc& from = argument.output ? wanted : argument.view;
      const dnnl::memory::desc& to = argument.output ? argument.view : wanted;
      const dnnl::reorder::primitive_desc reorder_desc(OneDnnEngine(), from, OneDnnEngine(), to, OnednnAttr());
      s.reorder = dnnl::reorder(reorder_desc);
      s.internal_at = book(static_cast<int64_t>(wanted.get_size()));
      s.scratchpad = reorder_desc.scratchpad_desc();
      if (s.scratchpad.get_size() > 0) s.scratchpad_at = book(static_cast<int64_t>(s.scratchpad.get_size()));
      if (argument.keep_reordered && !argument.output && Dense(argument.view)) {
        s.copies = std::make_shared<ReorderedCopies>(argument.view.get_size(), wanted.get_size());
      }
      staged.push_back(std::move(s));
    }
    const dnnl::memory::desc scratchpad = primitive_desc.scratchpad_desc();
    const BufferRef scratchpad_at =
        scratchpad.get_size() > 0 ? book(static_cast<int64_t>(scratchpad.get_size())) : BufferRef{};
    std::string description = std::move(what) + " (oneDNN " + primitive_desc.impl_info_str() +
                              (staged.empty() ? "" : ", reordered operands") +
                              (std::any_of(staged.begin(), staged.end(), [](const Staged& s) { return s.copies; })
                                   ? ", weights reordered once per address and content"
                                   : "") +
                              (one_thread ? ", one thread: deterministic" : "") + ")";
    return std::make_unique<OnednnStep>(dnnl::primitive(primitive_desc), arguments, std::move(staged), scratchpad,
                                        scratchpad_at, std::move(description), one_thread);
  } catch (const dnnl::error& e) {
    reason = e.what();
    return nullptr;
  }
}

bool SplitsReductionOverThreads(const dnnl::primitive_desc& primitive_desc) {
  // "gemm:jit", "x64:gemm:jit": a segment named gemm (not brgemm, whose kernels reduce per output).
  const std::string name = primitive_desc.impl_info_str();
  for (size_t at = name.find("gemm:"); at != std::string::npos; at = name.find("gemm:", at + 1)) {
    if (at == 0 || name[at - 1] == ':') return true;
  }
  return false;
}

}  // namespace canopy::kernels
