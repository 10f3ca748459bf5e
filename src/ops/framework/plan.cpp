#include "plan.h"

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "canopy/canopy_runtime.h"
#include "common/env.h"
#include "common/half.h"
#include "elementwise_desc.h"
#include "overlap.h"

namespace canopy::ops {

bool VerboseEnabled() {
  static const bool enabled = EnvSwitch("CANOPY_VERBOSE", false);
  return enabled;
}

namespace {

constexpr int kLogInfo = 1;  // canopyLog's level numbers are CANN's (include/canopy/canopy_runtime.h)

// Workspace regions start on cache-line boundaries.
constexpr uint64_t kWorkspaceAlignment = 64;
// The most workspace a plan may book (byte offsets stay int64); a plan whose
// temporaries add up to more is marked kWorkspaceOverflowed, which no sum of
// aligned sizes equals, and Finish refuses it (a client's huge broadcast view
// must not wrap the size round to a small workspace that phase 2 overruns).
constexpr uint64_t kMaxWorkspaceBytes = uint64_t{1} << 62;
constexpr uint64_t kWorkspaceOverflowed = ~uint64_t{0};

kernels::StridedOperand OperandOf(const TensorRef& t, const Shape& shape) {
  const TensorRef view = BroadcastTo(t, shape);
  kernels::StridedOperand operand;
  operand.buffer = view.buffer;
  operand.dtype = view.dtype;
  for (size_t d = 0; d < view.strides.size(); ++d) operand.strides[d] = view.strides[d];
  return operand;
}

std::unique_ptr<Step> MakeStep(ElementwiseOp op, ComputeType compute, const std::vector<TensorRef>& inputs,
                               const TensorRef& out, ScalarValue alpha, ScalarValue scalar) {
  return kernels::MakeElementwiseStep(ElementwiseDescOf(op, compute, inputs, out, alpha, scalar));
}

// The elements a tensor's kernels reach from its first view element: its view, or
// the whole storage of a convolution layout Canopy stores as the NPU does
// (ops/math/conv_layout.h), when that storage shape is sane.
int64_t AccessedElements(const aclTensor* tensor) {
  const aclFormat format = tensor->format;
  if ((format == ACL_FORMAT_NC1HWC0 || format == ACL_FORMAT_NDC1HWC0 || format == ACL_FORMAT_FRACTAL_Z ||
       format == ACL_FRACTAL_Z_3D) &&
      !tensor->storage_shape.empty()) {
    constexpr int64_t kLimit = int64_t{1} << 56;
    int64_t storage = 1;
    bool sane = true;
    for (const int64_t extent : tensor->storage_shape) {
      sane = sane && extent > 0 && !__builtin_mul_overflow(storage, extent, &storage) && storage <= kLimit;
    }
    if (sane) return storage;
  }
  int64_t last = 0;
  for (size_t d = 0; d < tensor->view_shape.size(); ++d) last += (tensor->view_shape[d] - 1) * tensor->strides[d];
  return last + 1;
}

}  // namespace

int64_t TensorRef::NumElements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

bool TensorRef::IsContiguous() const {
  int64_t expected = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

std::string ShapeToString(const Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

bool BroadcastShapes(const Shape& a, const Shape& b, Shape& out) {
  const size_t rank = std::max(a.size(), b.size());
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    result[i] = da == 1 ? db : da;
  }
  out = std::move(result);
  return true;
}

TensorRef BroadcastTo(const TensorRef& t, const Shape& shape) {
  // A recipe that asks for a view `t` cannot have is a Canopy bug: it must
  // fail phase 1 (the C boundary turns the exception into ACLNN_ERR_INNER with
  // this message), never build a view that reads or writes out of bounds.
  Shape broadcast;
  if (!BroadcastShapes(t.shape, shape, broadcast) || broadcast != shape) {
    throw std::logic_error("internal error: a view of shape " + ShapeToString(t.shape) + " cannot broadcast to " +
                           ShapeToString(shape));
  }
  TensorRef view = t;
  view.shape = shape;
  view.strides.assign(shape.size(), 0);
  const size_t lead = shape.size() - t.shape.size();
  for (size_t i = 0; i < t.shape.size(); ++i) {
    view.strides[lead + i] = t.shape[i] == 1 && shape[lead + i] != 1 ? 0 : t.strides[i];
  }
  return view;
}

ScalarValue ValueOf(const aclScalar& scalar) {
  const auto read = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, scalar.value, sizeof(v));
    return v;
  };
  switch (scalar.dtype) {
    case ACL_BOOL:
      return ScalarValue::Integer(scalar.value[0] != 0 ? 1 : 0);
    case ACL_INT8:
      return ScalarValue::Integer(read(int8_t{}));
    case ACL_UINT8:
      return ScalarValue::Integer(read(uint8_t{}));
    case ACL_INT16:
      return ScalarValue::Integer(read(int16_t{}));
    case ACL_UINT16:
      return ScalarValue::Integer(read(uint16_t{}));
    case ACL_INT32:
      return ScalarValue::Integer(read(int32_t{}));
    case ACL_UINT32:
      return ScalarValue::Integer(read(uint32_t{}));
    case ACL_INT64:
      return ScalarValue::Integer(read(int64_t{}));
    case ACL_UINT64:
      return ScalarValue::Unsigned(read(uint64_t{}));
    case ACL_FLOAT16:
      return ScalarValue::Real(HalfToFloat(read(uint16_t{})));
    case ACL_BF16:
      return ScalarValue::Real(Bf16ToFloat(read(uint16_t{})));
    case ACL_FLOAT:
      return ScalarValue::Real(read(float{}));
    case ACL_DOUBLE:
      return ScalarValue::Real(read(double{}));
    case ACL_COMPLEX32: {  // two FLOAT16 parts
      uint16_t parts[2];
      std::memcpy(parts, scalar.value, sizeof(parts));
      return ScalarValue::Complex(HalfToFloat(parts[0]), HalfToFloat(parts[1]));
    }
    case ACL_COMPLEX64: {
      const auto v = read(std::complex<float>{});
      return ScalarValue::Complex(v.real(), v.imag());
    }
    case ACL_COMPLEX128: {
      const auto v = read(std::complex<double>{});
      return ScalarValue::Complex(v.real(), v.imag());
    }
    default:
      return ScalarValue::Integer(0);
  }
}

kernels::ElementwiseDesc ElementwiseDescOf(ElementwiseOp op, ComputeType compute, const std::vector<TensorRef>& inputs,
                                           const TensorRef& out, ScalarValue alpha, ScalarValue scalar) {
  kernels::ElementwiseDesc desc;
  desc.op = op;
  desc.compute = compute;
  desc.rank = static_cast<int>(out.shape.size());
  for (int d = 0; d < desc.rank; ++d) desc.shape[d] = out.shape[d];
  desc.out = OperandOf(out, out.shape);
  desc.num_inputs = static_cast<int>(inputs.size());
  for (size_t k = 0; k < inputs.size(); ++k) desc.inputs[k] = OperandOf(inputs[k], out.shape);
  desc.alpha = alpha;
  desc.scalar = scalar;
  return desc;
}

kernels::ElementwiseDesc CopyDescOf(const TensorRef& src, const TensorRef& dst) {
  return ElementwiseDescOf(ElementwiseOp::kCopy, kernels::CastComputeType(src.dtype, dst.dtype), {src}, dst,
                           ScalarValue::Integer(1), {});
}

namespace {

// INT4 into INT4, two values a byte, through any strides of both views (each
// starting on a whole byte): the overlap guard's snapshot and copy-back of an
// INT4 output, which the elementwise engine (whole elements) cannot move.
class Int4CopyStep final : public Step {
 public:
  Int4CopyStep(const TensorRef& src, const TensorRef& dst) : src_(src), dst_(dst) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* from = reinterpret_cast<const uint8_t*>(context.Resolve(src_.buffer));
    auto* to = reinterpret_cast<uint8_t*>(context.Resolve(dst_.buffer));
    const int64_t elements = dst_.NumElements();
    if (src_.IsContiguous() && dst_.IsContiguous()) {  // whole bytes at once; an odd last value alone
      std::memcpy(to, from, static_cast<size_t>(elements / 2));
      if (elements % 2 != 0)
        to[elements / 2] = static_cast<uint8_t>((to[elements / 2] & 0xF0) | (from[elements / 2] & 0x0F));
      return ACLNN_SUCCESS;
    }
    const size_t rank = dst_.shape.size();
    std::vector<int64_t> index(rank, 0);
    for (int64_t n = elements; n > 0; --n) {
      int64_t in = 0, out = 0;
      for (size_t d = 0; d < rank; ++d) {
        in += index[d] * src_.strides[d];
        out += index[d] * dst_.strides[d];
      }
      const int value = (from[in / 2] >> (in % 2 * 4)) & 0xF;
      uint8_t& byte = to[out / 2];
      byte = static_cast<uint8_t>(out % 2 == 0 ? (byte & 0xF0) | value : (byte & 0x0F) | (value << 4));
      for (size_t d = rank; d-- > 0;) {  // the next index, last dimension fastest
        if (++index[d] < dst_.shape[d]) break;
        index[d] = 0;
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "INT4 copy of " + std::to_string(dst_.NumElements()) + " values"; }

 private:
  TensorRef src_, dst_;
};

}  // namespace

std::unique_ptr<Step> MakeCopyStep(const TensorRef& src, const TensorRef& dst) {
  if (src.dtype == ACL_INT4 && dst.dtype == ACL_INT4) return std::make_unique<Int4CopyStep>(src, dst);
  return kernels::MakeElementwiseStep(CopyDescOf(src, dst));
}

Plan::Plan(const char* op_name) : op_(op_name) {}

ExecutorPlan& Plan::Built() {
  if (built_ == nullptr) built_ = std::make_shared<ExecutorPlan>();
  return *built_;
}

Plan::~Plan() = default;

aclnnStatus Plan::Reject(aclnnStatus status, const char* format, ...) {
  char reason[768];
  va_list args;
  va_start(args, format);
  std::vsnprintf(reason, sizeof(reason), format, args);
  va_end(args);
  SetErrorMessage("%sGetWorkspaceSize: %s", op_, reason);  // also CANN's ERROR log record
  if (VerboseEnabled()) std::fprintf(stderr, "canopy: %sGetWorkspaceSize rejected: %s\n", op_, reason);
  return status;
}

aclnnStatus Plan::CheckNotNull(const char* name, const void* pointer) {
  if (pointer != nullptr) return ACLNN_SUCCESS;
  return Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' is null", name);
}

aclnnStatus Plan::CheckDtype(const char* name, aclDataType dtype, DtypeSet allowed) {
  if (allowed.Contains(dtype)) return ACLNN_SUCCESS;
  return Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has dtype %s; supported: %s", name, DtypeName(dtype),
                allowed.ToString().c_str());
}

aclnnStatus Plan::CheckRank(const char* name, const aclTensor* tensor, int64_t min_rank, int64_t max_rank) {
  const int64_t rank = tensor->rank();
  if (rank >= min_rank && rank <= max_rank) return ACLNN_SUCCESS;
  return Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be in [%lld, %lld]", name,
                static_cast<long long>(rank), static_cast<long long>(min_rank), static_cast<long long>(max_rank));
}

aclnnStatus Plan::CheckShape(const char* name, const aclTensor* tensor, const Shape& expected) {
  if (tensor->view_shape == expected) return ACLNN_SUCCESS;
  return Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; expected %s", name,
                ShapeToString(tensor->view_shape).c_str(), ShapeToString(expected).c_str());
}

aclnnStatus Plan::CheckBroadcast(const char* a_name, const Shape& a, const char* b_name, const Shape& b, Shape& out) {
  if (BroadcastShapes(a, b, out)) return ACLNN_SUCCESS;
  return Reject(ACLNN_ERR_PARAM_INVALID, "shapes of '%s' %s and '%s' %s cannot be broadcast", a_name,
                ShapeToString(a).c_str(), b_name, ShapeToString(b).c_str());
}

aclnnStatus Plan::CheckCastable(aclDataType from, const char* name, aclDataType to) {
  if (CanCast(from, to)) return ACLNN_SUCCESS;
  return Reject(ACLNN_ERR_PARAM_INVALID, "the result dtype %s cannot be cast to '%s' dtype %s", DtypeName(from), name,
                DtypeName(to));
}

aclnnStatus Plan::CheckPromotable(const char* a_name, aclDataType a, const char* b_name, aclDataType b,
                                  aclDataType& promoted) {
  promoted = PromoteTypes(a, b);
  if (promoted != ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
  return Reject(ACLNN_ERR_PARAM_INVALID, "dtypes of '%s' (%s) and '%s' (%s) cannot be promoted", a_name, DtypeName(a),
                b_name, DtypeName(b));
}

aclnnStatus Plan::CheckViewRepresentable(const aclTensor* tensor) {
  constexpr int64_t kLimit = int64_t{1} << 62;  // leaves room for byte offsets of 16-byte elements
  if (tensor->rank() > kernels::kMaxRank) {
    return Reject(ACLNN_ERR_PARAM_INVALID, "a tensor of rank %lld exceeds the supported %d dimensions",
                  static_cast<long long>(tensor->rank()), kernels::kMaxRank);
  }
  const int64_t element = std::max<int64_t>(1, static_cast<int64_t>(DtypeSize(tensor->dtype)));
  int64_t count = 1;
  int64_t last = tensor->offset;  // index of the view's last element
  bool empty = false;
  for (size_t d = 0; d < tensor->view_shape.size(); ++d) {
    const int64_t extent = tensor->view_shape[d];
    const int64_t stride = tensor->strides[d];
    if (extent == 0) empty = true;
    if (extent < 0 || (extent > 1 && (stride < 0 || stride > kLimit)) || (extent > 0 && count > kLimit / extent)) {
      return Reject(ACLNN_ERR_PARAM_INVALID, "a tensor view %s with strides %s is too large to address",
                    ShapeToString(tensor->view_shape).c_str(), ShapeToString(tensor->strides).c_str());
    }
    count *= std::max<int64_t>(extent, 1);
    if (extent > 1 && stride > 0 && (extent - 1 > (kLimit - last) / stride)) {
      return Reject(ACLNN_ERR_PARAM_INVALID, "a tensor view %s with strides %s and offset %lld is too large to address",
                    ShapeToString(tensor->view_shape).c_str(), ShapeToString(tensor->strides).c_str(),
                    static_cast<long long>(tensor->offset));
    }
    if (extent > 1) last += (extent - 1) * stride;
  }
  if (tensor->offset < 0 || tensor->offset > kLimit / element || (!empty && last > kLimit / element)) {
    return Reject(ACLNN_ERR_PARAM_INVALID, "a tensor view ending at element %lld does not fit in the address space",
                  static_cast<long long>(last));
  }
  // INT4 packs two elements a byte: a view starting on the high nibble has no
  // byte address (ElementByteOffset), and every kernel would start a nibble early.
  if (tensor->dtype == ACL_INT4 && !empty && tensor->offset % 2 != 0) {
    return Reject(ACLNN_ERR_PARAM_INVALID,
                  "an INT4 tensor view starts at element %lld: it must start on a whole byte (an even element)",
                  static_cast<long long>(tensor->offset));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus Plan::CheckPlainFormat(const char* name, const aclTensor* tensor) {
  if (IsPlainFormat(tensor->format)) return ACLNN_SUCCESS;
  return Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has private format %d; only plain formats are supported", name,
                static_cast<int>(tensor->format));
}

int32_t Plan::SlotOf(const aclTensor* tensor) {
  for (size_t i = 0; i < slot_tensors_.size(); ++i) {
    if (slot_tensors_[i] == tensor) return static_cast<int32_t>(i);
  }
  return NewSlot(tensor);
}

int32_t Plan::NewSlot(const aclTensor* tensor) {
  slot_tensors_.push_back(tensor);
  slot_addresses_.push_back(tensor->data);
  return static_cast<int32_t>(slot_tensors_.size() - 1);
}

OverlapGuard& Plan::Overlaps() {
  if (overlaps_ == nullptr) overlaps_ = std::make_unique<OverlapGuard>();
  return *overlaps_;
}

void Plan::Seal() {
  if (sealed_) return;
  sealed_ = true;
  if (overlaps_ == nullptr) return;
  ExecutorPlan& built = Built();
  built.steps = overlaps_->Seal(*this, std::move(built.steps), slot_addresses_);
}

// Where element `index` of a buffer of `dtype` starts: INT4 packs two elements
// a byte (the even one in the low nibble), so an INT4 view's first element
// must be even to start on a byte.
int64_t ElementByteOffset(aclDataType dtype, int64_t index) {
  if (dtype == ACL_INT4) return index / 2;
  return index * static_cast<int64_t>(DtypeSize(dtype));
}

TensorRef Plan::RefOf(const aclTensor* tensor, int32_t slot) const {
  TensorRef ref;
  ref.buffer.slot = slot;
  ref.buffer.byte_offset = ElementByteOffset(tensor->dtype, tensor->offset);
  ref.dtype = tensor->dtype;
  ref.shape = tensor->view_shape;
  ref.strides = tensor->strides;
  return ref;
}

void Plan::RecordAccess(const aclTensor* tensor, int32_t slot, bool write, const char* name) {
  if (tensor->NumElements() == 0) return;
  RecordSpan(slot, tensor->dtype, tensor->offset, AccessedElements(tensor), write, name);
}

void Plan::RecordSpan(int32_t slot, aclDataType dtype, int64_t first, int64_t elements, bool write, const char* name) {
  const int64_t last = first + elements - 1;
  Built().accesses.push_back({slot, ElementByteOffset(dtype, first), ElementBytesEnd(dtype, last + 1), write, name});
}

TensorRef Plan::Input(const aclTensor* tensor, const char* name) {
  const int32_t slot = SlotOf(tensor);
  Built().inputs.push_back({false, {slot}});
  RecordAccess(tensor, slot, false, name);
  TensorRef ref = RefOf(tensor, slot);
  Overlaps().AddInput(ref, name);
  return ref;
}

TensorRef Plan::InputBlocks(const aclTensor* tensor, const char* name, const Shape& blocks) {
  const int32_t slot = SlotOf(tensor);
  Built().inputs.push_back({false, {slot}});
  TensorRef ref = RefOf(tensor, slot);
  ref.shape = blocks;
  ref.strides = ContiguousStrides(blocks);
  if (tensor->NumElements() != 0) RecordSpan(slot, tensor->dtype, tensor->offset, ref.NumElements(), false, name);
  Overlaps().AddInput(ref, name);
  return ref;
}

TensorRef Plan::Output(const aclTensor* tensor, const char* name) {
  const int32_t slot = SlotOf(tensor);
  Built().outputs.push_back({false, {slot}});
  RecordAccess(tensor, slot, true, name);
  TensorRef write = RefOf(tensor, NewSlot(tensor));
  Overlaps().AddOutput(RefOf(tensor, slot), write, name);
  return write;
}

std::vector<TensorRef> Plan::InputList(const aclTensorList* list, const char* name) {
  ParameterSlots parameter{true, {}};
  std::vector<TensorRef> refs;
  for (const aclTensor* tensor : list->tensors) {
    const int32_t slot = SlotOf(tensor);
    parameter.slots.push_back(slot);
    RecordAccess(tensor, slot, false, name);
    refs.push_back(RefOf(tensor, slot));
    Overlaps().AddInput(refs.back(), name);
  }
  Built().inputs.push_back(std::move(parameter));
  return refs;
}

std::vector<TensorRef> Plan::OutputList(const aclTensorList* list, const char* name) {
  ParameterSlots parameter{true, {}};
  std::vector<TensorRef> writes;
  for (const aclTensor* tensor : list->tensors) {
    const int32_t slot = SlotOf(tensor);
    parameter.slots.push_back(slot);
    RecordAccess(tensor, slot, true, name);
    writes.push_back(RefOf(tensor, NewSlot(tensor)));
    Overlaps().AddOutput(RefOf(tensor, slot), writes.back(), name);
  }
  Built().outputs.push_back(std::move(parameter));
  return writes;
}

void Plan::SkipInput() { Built().inputs.push_back({false, {-1}}); }

void Plan::SkipOutput() { Built().outputs.push_back({false, {-1}}); }

TensorRef Plan::Temporary(aclDataType dtype, const Shape& shape) {
  TensorRef ref;
  ref.buffer.slot = BufferRef::kWorkspaceSlot;
  ref.buffer.byte_offset = static_cast<int64_t>(workspace_bytes_);
  ref.dtype = dtype;
  ref.shape = shape;
  ref.strides = ContiguousStrides(shape);
  const auto elements = static_cast<uint64_t>(ref.NumElements());
  uint64_t bytes = dtype == ACL_INT4 ? elements / 2 + elements % 2 : 0;  // two to a byte
  if (workspace_bytes_ == kWorkspaceOverflowed ||
      (dtype != ACL_INT4 && __builtin_mul_overflow(elements, DtypeSize(dtype), &bytes)) ||
      bytes > kMaxWorkspaceBytes - workspace_bytes_) {
    workspace_bytes_ = kWorkspaceOverflowed;
    return ref;
  }
  workspace_bytes_ += (bytes + kWorkspaceAlignment - 1) / kWorkspaceAlignment * kWorkspaceAlignment;
  return ref;
}

void Plan::Copy(const TensorRef& src, const TensorRef& dst) {
  if (src.dtype == ACL_INT4 && dst.dtype == ACL_INT4) {  // two values a byte: not the elementwise engine's
    AddStep(MakeCopyStep(src, dst), {src}, dst);
    return;
  }
  Elementwise(ElementwiseOp::kCopy, kernels::CastComputeType(src.dtype, dst.dtype), {src}, dst,
              ScalarValue::Integer(1));
}

TensorRef Plan::Contiguous(const TensorRef& src, aclDataType dtype) {
  if (src.dtype == dtype && src.IsContiguous()) return src;
  TensorRef copy = Temporary(dtype, src.shape);
  Copy(src, copy);
  return copy;
}

void Plan::Fill(const TensorRef& dst, ScalarValue value) {
  Elementwise(ElementwiseOp::kFill, kernels::ComputeTypeOf(dst.dtype), {}, dst, ScalarValue::Integer(1), value);
}

void Plan::Elementwise(ElementwiseOp op, ComputeType compute, const std::vector<TensorRef>& inputs,
                       const TensorRef& out, ScalarValue alpha, ScalarValue scalar) {
  if (out.NumElements() == 0) return;
  Built().steps.push_back(MakeStep(op, compute, inputs, out, alpha, scalar));
  Overlaps().AddElementwiseStep(inputs, out);
}

void Plan::Unary(UnaryOp op, ComputeType compute, const TensorRef& in, const TensorRef& out, UnaryParams params) {
  if (out.NumElements() == 0) return;
  kernels::UnaryDesc desc;
  desc.op = op;
  desc.compute = compute;
  desc.params = params;
  desc.view.rank = static_cast<int>(out.shape.size());
  for (size_t d = 0; d < out.shape.size(); ++d) desc.view.shape[d] = out.shape[d];
  desc.view.out = OperandOf(out, out.shape);
  desc.view.num_inputs = 1;
  desc.view.inputs[0] = OperandOf(in, out.shape);
  Built().steps.push_back(kernels::MakeUnaryStep(desc));
  // Element i of out is written from element i of in alone: the elementwise
  // overlap rule applies.
  Overlaps().AddElementwiseStep({in}, out);
}

void Plan::AddStep(std::unique_ptr<Step> step) {
  Built().steps.push_back(std::move(step));
  Overlaps().AddOpaqueStep();
}

void Plan::AddStep(std::unique_ptr<Step> step, const std::vector<TensorRef>& reads, const TensorRef& writes) {
  Built().steps.push_back(std::move(step));
  Overlaps().AddDeclaredStep(reads, writes);
}

void Plan::AddPositionwiseStep(std::unique_ptr<Step> step, const std::vector<TensorRef>& inputs, const TensorRef& out) {
  Built().steps.push_back(std::move(step));
  Overlaps().AddElementwiseStep(inputs, out);
}

void Plan::SetAfterRun(std::unique_ptr<const AfterRun> after_run) { Built().after_run = std::move(after_run); }

std::shared_ptr<const CachedPlan> Plan::ToCachedPlan(const PlanKey& key) {
  if (built_ != nullptr && built_->after_run != nullptr) return nullptr;  // it holds the caller's tensors
  auto cached = std::make_shared<CachedPlan>();
  const auto& arguments = key.tensors();
  for (const aclTensor* tensor : slot_tensors_) {
    const auto it = std::find(arguments.begin(), arguments.end(), tensor);
    if (it == arguments.end()) return nullptr;
    cached->slot_sources.push_back(static_cast<int32_t>(it - arguments.begin()));
  }
  Seal();
  Built().workspace_size = workspace_bytes_;
  cached->plan = built_;  // shared with the executor Finish hands out; neither changes it
  return cached;
}

// Null, and no executor, when the temporaries overflowed the workspace (the
// caller rejects the call).
aclOpExecutor* Plan::Finish(uint64_t* workspace_size) {
  Seal();
  if (workspace_bytes_ == kWorkspaceOverflowed) return nullptr;
  ExecutorPlan& built = Built();
  built.workspace_size = workspace_bytes_;
  *workspace_size = workspace_bytes_;
  if (VerboseEnabled()) {
    std::fprintf(stderr, "canopy: %sGetWorkspaceSize: %zu step(s), workspace %llu bytes\n", op_, built.steps.size(),
                 static_cast<unsigned long long>(workspace_bytes_));
    for (size_t i = 0; i < built.steps.size(); ++i) {
      std::fprintf(stderr, "canopy:   step %zu: %s\n", i, built.steps[i]->Describe().c_str());
    }
  }
  if (canopyLogEnabled(kLogInfo) != 0) {  // the same plan as one INFO record (ASCEND_GLOBAL_LOG_LEVEL <= 1)
    std::string record = std::string(op_) + "GetWorkspaceSize: " + std::to_string(built.steps.size()) +
                         " step(s), workspace " + std::to_string(workspace_bytes_) + " bytes";
    for (const auto& step : built.steps) record += "; " + step->Describe();
    canopyLog(kLogInfo, "OP", record.c_str());
  }
  auto* executor = new aclOpExecutor();
  executor->op_name = op_;
  executor->plan = built_;
  executor->slot_addresses = std::move(slot_addresses_);
  return executor;
}

}  // namespace canopy::ops
