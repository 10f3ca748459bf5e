// Phase 1's building blocks. An op's GetWorkspaceSize is a short recipe over a
// Plan: argument checks that reject with CANN's status and a message naming the
// op, the argument and the reason; operands registered in prototype order (the
// numbering executor reuse relies on); shared blocks (cast, contiguous copy,
// broadcast, fill, strided write) that book workspace and add steps only when needed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "common/shape.h"
#include "kernels/elementwise.h"
#include "kernels/unary.h"
#include "nnopbase/executor.h"
#include "plan_cache.h"

namespace canopy::ops {

using Shape = std::vector<int64_t>;
using kernels::ComputeType;
using kernels::ElementwiseOp;
using kernels::ScalarValue;
using kernels::UnaryOp;
using kernels::UnaryParams;

// An operand as the executor sees it: where it lives, its dtype and its view.
struct TensorRef {
  BufferRef buffer;
  aclDataType dtype = ACL_FLOAT;
  Shape shape;
  Shape strides;  // in elements

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t NumElements() const;
  bool IsContiguous() const;
};

std::string ShapeToString(const Shape& shape);
// NumPy broadcasting; false when the shapes are incompatible.
bool BroadcastShapes(const Shape& a, const Shape& b, Shape& out);
// `t` viewed with `shape`: right-aligned, stride 0 where t has extent 1.
// Throws std::logic_error (ACLNN_ERR_INNER at the C boundary) when t's shape
// does not broadcast to `shape`.
TensorRef BroadcastTo(const TensorRef& t, const Shape& shape);
// The value of a host scalar, exactly.
ScalarValue ValueOf(const aclScalar& scalar);

// The byte offset of element `index` in a buffer of `dtype` (INT4: index / 2).
int64_t ElementByteOffset(aclDataType dtype, int64_t index);
// The end of the bytes that elements [0, count) of `dtype` occupy: a half-used
// last byte of INT4 counts whole. Only for counts the caller has checked fit.
inline int64_t ElementBytesEnd(aclDataType dtype, int64_t count) {
  return ElementByteOffset(dtype, count) + (dtype == ACL_INT4 ? count % 2 : 0);
}

// A step that writes src into dst (converted, broadcast, through dst's strides).
std::unique_ptr<Step> MakeCopyStep(const TensorRef& src, const TensorRef& dst);

class OverlapGuard;

// The layouts a CPU kernel reads as a strided view; private NPU layouts
// (FRACTAL_NZ, NC1HWC0, ...) mean nothing to it.
inline bool IsPlainFormat(aclFormat format) {
  switch (format) {
    case ACL_FORMAT_ND:
    case ACL_FORMAT_NCHW:
    case ACL_FORMAT_NHWC:
    case ACL_FORMAT_NCDHW:
    case ACL_FORMAT_NDHWC:
    case ACL_FORMAT_HWCN:
    case ACL_FORMAT_NC:
    case ACL_FORMAT_NCL:
    case ACL_FORMAT_UNDEFINED:
      return true;
    default:
      return false;
  }
}

// CANOPY_VERBOSE: log each phase-1 decision (steps, cache hits, rejections) to stderr.
bool VerboseEnabled();

class Plan {
 public:
  explicit Plan(const char* op_name);
  ~Plan();
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  const char* op() const { return op_; }

  // ---- checks: on failure each sets the message and returns the status.
  aclnnStatus Reject(aclnnStatus status, const char* format, ...) __attribute__((format(printf, 3, 4)));
  aclnnStatus CheckNotNull(const char* name, const void* pointer);
  aclnnStatus CheckDtype(const char* name, aclDataType dtype, DtypeSet allowed);
  aclnnStatus CheckRank(const char* name, const aclTensor* tensor, int64_t min_rank, int64_t max_rank);
  aclnnStatus CheckShape(const char* name, const aclTensor* tensor, const Shape& expected);
  aclnnStatus CheckBroadcast(const char* a_name, const Shape& a, const char* b_name, const Shape& b, Shape& out);
  aclnnStatus CheckCastable(aclDataType from, const char* name, aclDataType to);
  aclnnStatus CheckPromotable(const char* a_name, aclDataType a, const char* b_name, aclDataType b,
                              aclDataType& promoted);
  // The view's element count, its last element and their byte offsets fit in
  // int64, and its rank in what the kernels can address. Run on every tensor
  // argument before the recipe.
  aclnnStatus CheckViewRepresentable(const aclTensor* tensor);
  // Private NPU layouts (FRACTAL_NZ, NC1HWC0, ...) mean nothing to a CPU kernel.
  aclnnStatus CheckPlainFormat(const char* name, const aclTensor* tensor);

  // ---- operands, in the op's prototype order.
  // `name` is the argument's name in the op's prototype, for checker reports.
  TensorRef Input(const aclTensor* tensor, const char* name);
  // An input whose kernels read a contiguous block layout of `blocks` from its
  // first view element instead of its view (a weight in an NPU layout that may
  // come tagged ND): the returned ref has that shape, and checker mode and the
  // overlap guard see the whole range.
  TensorRef InputBlocks(const aclTensor* tensor, const char* name, const Shape& blocks);
  // An input given again shares its slot. The output is written through a write
  // slot of its own (see overlap.h): reads of the same tensor registered as an
  // input see its values before the op even where the op must be staged.
  TensorRef Output(const aclTensor* tensor, const char* name);
  // A tensor-list argument: one parameter with a slot per element, as
  // aclSetDynamic*TensorAddr numbers them (irIndex the list, relativeIndex the element).
  std::vector<TensorRef> InputList(const aclTensorList* list, const char* name);
  std::vector<TensorRef> OutputList(const aclTensorList* list, const char* name);
  // Parameters a recipe skips (e.g. a null optional tensor) still take their index.
  void SkipInput();
  void SkipOutput();
  TensorRef Temporary(aclDataType dtype, const Shape& shape);

  // ---- building blocks.
  // dst = src converted to dst's dtype and broadcast to dst's shape, written through dst's strides.
  void Copy(const TensorRef& src, const TensorRef& dst);
  // src itself when it is contiguous in `dtype`, else a contiguous converted copy in the workspace.
  TensorRef Contiguous(const TensorRef& src, aclDataType dtype);
  void Fill(const TensorRef& dst, ScalarValue value);
  // out = op(a, b) with a, b broadcast to out's shape (b absent: `scalar` is b).
  void Elementwise(ElementwiseOp op, ComputeType compute, const std::vector<TensorRef>& inputs, const TensorRef& out,
                   ScalarValue alpha, ScalarValue scalar = {});
  // out = f(in) elementwise, f a row of the unary functor table, computed in
  // `compute`; in and out have the same shape (any strides, any dtypes).
  void Unary(UnaryOp op, ComputeType compute, const TensorRef& in, const TensorRef& out, UnaryParams params = {});
  // A step the framework cannot see into: it is taken to read every input and
  // write every output, so an output overlapping an input in any way is staged.
  void AddStep(std::unique_ptr<Step> step);
  // A step that reads `reads` (in any order, as a matrix product does) and writes
  // `writes`, possibly reading its earlier contents (accumulating onto it). An
  // output overlapping one of `reads` is staged; an input the step does not read
  // (a bias copied into `writes` by an elementwise step first) may stay in place.
  void AddStep(std::unique_ptr<Step> step, const std::vector<TensorRef>& reads, const TensorRef& writes);
  // A step that writes each element of `out` from the elements at the same
  // position of `inputs` only (a masked copy, say): like Elementwise's, it may
  // run in place on exactly the same view.
  void AddPositionwiseStep(std::unique_ptr<Step> step, const std::vector<TensorRef>& inputs, const TensorRef& out);

  // Work for phase 2 once the run is over (nnopbase/executor.h): rewriting the
  // view shape of an output whose extent the run decides. It names the
  // caller's tensors, so such a plan is never cached, and its phase 2 waits.
  void SetAfterRun(std::unique_ptr<const AfterRun> after_run);

  // Hands the executor over; the workspace size covers every booked temporary.
  aclOpExecutor* Finish(uint64_t* workspace_size);
  // What a later identical call may reuse: the steps and where each slot's address comes from.
  // Null when a slot's tensor is not among the key's arguments.
  std::shared_ptr<const CachedPlan> ToCachedPlan(const PlanKey& key);

 private:
  int32_t SlotOf(const aclTensor* tensor);
  int32_t NewSlot(const aclTensor* tensor);
  OverlapGuard& Overlaps();
  // Wraps the steps in the overlap guard and books its staging; once, before
  // the plan is handed out or cached.
  void Seal();
  void RecordAccess(const aclTensor* tensor, int32_t slot, bool write, const char* name);
  void RecordSpan(int32_t slot, aclDataType dtype, int64_t first, int64_t elements, bool write, const char* name);
  TensorRef RefOf(const aclTensor* tensor, int32_t slot) const;

  // What is being planned, made on first use: a Plan that only checks (a plan-cache
  // hit, a rejection) allocates nothing.
  ExecutorPlan& Built();

  const char* op_;
  std::shared_ptr<ExecutorPlan> built_;
  std::vector<void*> slot_addresses_;
  uint64_t workspace_bytes_ = 0;
  std::vector<const aclTensor*> slot_tensors_;
  std::unique_ptr<OverlapGuard> overlaps_;
  bool sealed_ = false;
};

}  // namespace canopy::ops

// Returns from the enclosing recipe when a check fails.
#define CANOPY_CHECK(expr)                                                                      \
  do {                                                                                          \
    if (const aclnnStatus canopy_check_status_ = (expr); canopy_check_status_ != ACLNN_SUCCESS) \
      return canopy_check_status_;                                                              \
  } while (0)
