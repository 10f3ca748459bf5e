// One cached oneDNN primitive as a plan step, shared by every family that runs
// on oneDNN (convolution, pooling, and later norms). Phase 1 describes the
// problem as a primitive descriptor over Canopy's strided views; the step makes
// the primitive once there (it lives in the cached plan, so a plan-cache hit
// reuses it), books its scratchpad and any layout the primitive prefers in the
// call's workspace, and phase 2 only binds addresses and executes on the
// device engine's thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nnopbase/executor.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "onednn_engine.h"  // OneDnnEngine(): the engine every step runs on

namespace canopy::kernels {

// A memory descriptor for a strided view: its dims and strides in elements.
// Extent-1 dimensions, whose strides a view may set to anything, get the dense
// value, which names the same elements (oneDNN reads every stride).
dnnl::memory::desc OnednnViewDesc(aclDataType dtype, const std::vector<int64_t>& dims,
                                  const std::vector<int64_t>& strides);
// Whether OnednnViewDesc can describe the view: oneDNN takes only strides that
// nest (ordered by stride, each at least the next smaller one times its
// extent); a step-sliced view such as x[..., ::2] of an odd width does not, and
// its callers copy it to a contiguous one first.
bool OnednnDescribes(aclDataType dtype, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides);

// Attributes every step's primitive descriptor is made with: the scratchpad is
// the caller's (booked in the workspace: a cached plan's primitive runs on
// several streams and devices at once, and a primitive-owned scratchpad would
// be shared between those runs).
dnnl::primitive_attr OnednnAttr();

// One argument of the primitive: where the operand lives and how it is laid out there.
struct OnednnArgument {
  int key = 0;  // DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, ...
  BufferRef buffer;
  dnnl::memory::desc view;  // the operand's own layout (OnednnViewDesc)
  bool output = false;      // written by the primitive
  // An input that usually holds the same bytes call after call (weights): where
  // the primitive wants it in another layout, the step keeps the reordered copy
  // (onednn_reordered_copies.h) and reorders again only when the operand's
  // bytes differ from those the copy was made from.
  bool keep_reordered = false;
};

// Books `bytes` of the call's workspace for a step and says where they are.
using OnednnBooking = std::function<BufferRef(int64_t bytes)>;

// The step for `primitive_desc` (made with OnednnAttr()). Where the primitive
// wants an operand in another layout than its view (a primitive descriptor made
// with format_tag::any picks blocked layouts), the step reorders it through a
// booked buffer: inputs before, outputs after. `what` names the problem for
// CANOPY_VERBOSE and error messages. Null with `reason` set when oneDNN cannot
// make the primitive or a reorder. `one_thread`: the step runs under
// OneThreadScope (a primitive descriptor made under one too).
std::unique_ptr<Step> MakeOnednnStep(const dnnl::primitive_desc& primitive_desc,
                                     const std::vector<OnednnArgument>& arguments, const OnednnBooking& book,
                                     std::string what, std::string& reason, bool one_thread = false);

// Whether the primitive's results may change with the number of threads it was
// made for: oneDNN's gemm-based convolutions split their reduction over
// threads; its direct and brgemm kernels reduce each output on one thread
// (checked bit for bit across thread counts by the determinism test).
bool SplitsReductionOverThreads(const dnnl::primitive_desc& primitive_desc);

}  // namespace canopy::kernels
