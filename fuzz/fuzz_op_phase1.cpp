// fuzz_op_phase1: phase 1 of every aclnn op in libopapi's op registry
// (canopy/canopy_ops.h: an op added there is fuzzed without editing this file) with random tensors
// (rank 0..9 and beyond, shapes with 0 and huge extents, random strides and
// offsets, every dtype and format, null pointers), random scalars and random
// cubeMathType / dtype / mode attributes; then, when phase 1 accepts and every
// view lies inside the device buffer it points into, phase 2 on a stream.
//
// Shapes are drawn as a coherent problem for the op (broadcastable operands,
// matching K, ...) and then sometimes mutated, so inputs reach the kernels as
// well as the rejections. Invariants checked besides "no crash, hang, leak or
// undefined behaviour":
//  * every status is a documented one (0, 161001, 161002, 561xxx), and a
//    failure leaves a message in aclGetRecentErrMsg();
//  * a null required argument is 161001; a null workspaceSize/executor is 161001;
//  * phase 1 accepts only what the docs allow (dtypes Canopy can store, rank
//    limits, matmul formats, cubeMathType 0..4, DivMod mode 0..2, the output
//    shape the op defines);
//  * phase 2 of an accepted op completes without an asynchronous error and
//    writes nothing outside its output views (the rest of the buffer is compared
//    byte for byte with a copy taken before the run);
//  * repeatable executors run twice, rebound to a second buffer, and die by
//    aclDestroyAclOpExecutor; every executor phase 2 does not run is freed.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "canopy/canopy_ops.h"
#include "common/c_calls.h"
#include "common/fuzz_support.h"
#include "common/fuzz_values.h"
#include "registry_example.h"

using namespace canopy::fuzz;

namespace {

using Shape = std::vector<int64_t>;

// One device buffer (and a mirror for rebinding) that every tensor points into.
// Below the runtime's mmap threshold, so AddressSanitizer guards its edges.
constexpr int64_t kBufferBytes = int64_t{128} << 10;
// Tensors start on these boundaries inside the buffer (CANN wants 32-byte alignment).
constexpr int64_t kRegionAlignment = 64;
// Phase 2 runs only when every tensor has at most this many elements.
constexpr int64_t kMaxRunElements = 4096;
// Workspaces above this are not allocated (phase 2 is then refused, not run).
constexpr uint64_t kMaxWorkspaceBytes = uint64_t{16} << 20;

// ---- the ops --------------------------------------------------------------------

// How the harness draws a coherent problem for an op: the families it knows the
// shape rules of, and kGeneric (every tensor of one shape) for any other op.
enum class Family {
  kBinary,
  kBinaryScalar,
  kCast,
  kCopy,
  kZero,
  kFill,
  kMatmul,
  kMm,
  kBatchMatMul,
  kAddmm,
  kReduce,   // self reduced over a dims list (ReduceSum, Mean)
  kExample,  // the op's declared example call (canopyOpInfo::example), varied
  kGeneric
};

using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

struct OpInfo {
  const char* name;
  Family family;
  bool in_place;
  bool has_alpha;         // Add, Sub: alpha scales other
  bool has_mode;          // DivMod: rounding mode
  bool has_scalar_other;  // a scalar other, value, beta or activation attribute
  Phase2 phase2;
  const canopyOpInfo* registry;
  std::vector<canopy_test::ExampleArgument> example;  // kExample: the declared call, read
};

const canopyOpArg* FindArg(const canopyOpInfo& op, const char* name, int kind) {
  for (size_t i = 0; i < op.argCount; ++i) {
    if (std::strcmp(op.args[i].name, name) == 0 && op.args[i].kind == kind) return &op.args[i];
  }
  return nullptr;
}

// The family follows from the prototype's argument names; the matrix products
// differ only in their shape rules, which are told apart by name.
Family FamilyOf(const canopyOpInfo& op) {
  if (op.example != nullptr) return Family::kExample;
  if (FindArg(op, "mat1", CANOPY_ARG_TENSOR)) return Family::kAddmm;
  if (FindArg(op, "mat2", CANOPY_ARG_TENSOR)) {
    if (std::strcmp(op.name, "Mm") == 0) return Family::kMm;
    if (std::strcmp(op.name, "BatchMatMul") == 0) return Family::kBatchMatMul;
    return Family::kMatmul;
  }
  if (FindArg(op, "dims", CANOPY_ARG_INT_ARRAY) || FindArg(op, "dim", CANOPY_ARG_INT_ARRAY)) return Family::kReduce;
  if (FindArg(op, "dtype", CANOPY_ARG_ENUM)) return Family::kCast;
  if (FindArg(op, "src", CANOPY_ARG_TENSOR)) return Family::kCopy;
  if (FindArg(op, "value", CANOPY_ARG_SCALAR)) return Family::kFill;
  if (FindArg(op, "other", CANOPY_ARG_TENSOR)) return Family::kBinary;
  if (FindArg(op, "other", CANOPY_ARG_SCALAR)) return Family::kBinaryScalar;
  if (op.argCount == 1 && op.inPlace) return Family::kZero;
  return Family::kGeneric;
}

// The argument names the harness knows how to fill; a new name must be taught
// in known_argument_names.inc.
bool IsKnownArgument(const canopyOpArg& arg) {
  static const char* const kKnown[] = {
#include "known_argument_names.inc"
  };
  for (const char* name : kKnown) {
    if (std::strcmp(arg.name, name) == 0) return true;
  }
  return false;
}

// Every registered op, built once.
const std::vector<OpInfo>& Ops() {
  static const std::vector<OpInfo> ops = [] {
    std::vector<OpInfo> table;
    for (size_t i = 0; i < canopyOpCount(); ++i) {
      const canopyOpInfo& op = *canopyOpAt(i);
      for (size_t a = 0; a < op.argCount; ++a) {
        CANOPY_FUZZ_CHECK(IsKnownArgument(op.args[a]), "aclnn%s: fuzz_op_phase1 does not know argument '%s'", op.name,
                          op.args[a].name);
      }
      // The activations' scalar attributes take the same scalar.
      bool scalar_other = false;
      for (const char* name : {"other", "value", "beta", "negativeSlope", "threshold", "scale", "inputScale"}) {
        scalar_other |= FindArg(op, name, CANOPY_ARG_SCALAR) != nullptr;
      }
      table.push_back({op.name,
                       FamilyOf(op),
                       op.inPlace != 0,
                       FindArg(op, "alpha", CANOPY_ARG_SCALAR) != nullptr,
                       FindArg(op, "mode", CANOPY_ARG_INT) != nullptr,
                       scalar_other,
                       op.run,
                       &op,
                       {}});
      if (op.example != nullptr) {
        std::string error;
        auto example = canopy_test::ParseExample(op, error);
        CANOPY_FUZZ_CHECK(example.has_value(), "%s", error.c_str());
        table.back().example = std::move(*example);
      }
    }
    CANOPY_FUZZ_CHECK(!table.empty(), "the op registry is empty");
    return table;
  }();
  return ops;
}

bool IsMatmulFamily(Family f) {
  return f == Family::kMatmul || f == Family::kMm || f == Family::kBatchMatMul || f == Family::kAddmm;
}

// ---- dtypes as the harness knows them ----------------------------------------------

int64_t ElementSize(int dtype) {
  switch (dtype) {
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
      return 4;
    case ACL_DOUBLE:
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 0;  // not a dtype any op here may accept
  }
}

bool IsPlainFormat(int format) {
  return std::find(std::begin(kPlainFormats), std::end(kPlainFormats), format) != std::end(kPlainFormats);
}

// ---- shapes -----------------------------------------------------------------------------

// A small extent most of the time (so phase 2 runs), sometimes 0 or large.
int64_t PickExtent(FuzzedDataProvider& in) {
  const int choice = in.ConsumeIntegralInRange(0, 15);
  if (choice < 11) return choice % 6;  // 0..5, 0 and 1 a little more often
  if (choice == 11) return 8;
  if (choice == 12) return 16;
  if (choice == 13) return 64;
  return PickDim(in);  // anything, huge and negative included
}

Shape PickShape(FuzzedDataProvider& in, int64_t max_rank) {
  int64_t rank = in.ConsumeIntegralInRange<int64_t>(0, max_rank);
  if (in.ConsumeIntegralInRange(0, 31) == 0) rank = in.ConsumeIntegralInRange<int64_t>(9, 24);
  Shape shape(static_cast<size_t>(rank));
  for (auto& d : shape) d = PickExtent(in);
  return shape;
}

// A shape that broadcasts to `target`: leading dimensions dropped, some extents set to 1.
Shape Broadcastable(FuzzedDataProvider& in, const Shape& target) {
  const size_t drop = in.ConsumeIntegralInRange(0, 3) == 0 ? in.ConsumeIntegralInRange<size_t>(0, target.size()) : 0;
  Shape shape(target.begin() + static_cast<std::ptrdiff_t>(drop), target.end());
  for (auto& d : shape) {
    if (in.ConsumeIntegralInRange(0, 4) == 0) d = 1;
  }
  return shape;
}

// Sometimes replace a drawn shape with an unrelated one.
Shape MaybeMutate(FuzzedDataProvider& in, Shape shape) {
  switch (in.ConsumeIntegralInRange(0, 23)) {
    case 0:
      return PickShape(in, 9);
    case 1:
      if (!shape.empty()) shape[in.ConsumeIntegralInRange<size_t>(0, shape.size() - 1)] = PickDim(in);
      return shape;
    case 2:
      shape.push_back(PickExtent(in));
      return shape;
    case 3:
      if (!shape.empty()) shape.erase(shape.begin());
      return shape;
    default:
      return shape;
  }
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

// ---- tensors ------------------------------------------------------------------------------

// A tensor the harness made, and where its elements lie.
struct Operand {
  aclTensor* tensor = nullptr;
  Shape shape;
  std::vector<int64_t> strides;  // as Canopy sees them (derived when none were passed)
  int64_t offset = 0;
  int dtype = ACL_FLOAT;
  int format = ACL_FORMAT_ND;
  int64_t data_offset = 0;  // byte offset into the buffer; -1: not in the buffer
  bool fits = false;        // every element lies inside the buffer, and there are few enough to run
  int64_t first_byte = 0;   // [first_byte, end_byte): the bytes the view may touch
  int64_t end_byte = 0;
  bool in_list = false;  // a tensor list owns it (destroyed with the list)
};

// Where the view's elements lie: false when an extent, stride or offset makes
// the arithmetic overflow or the view leaves the buffer.
void Place(Operand& o) {
  o.fits = false;
  int64_t elements = 1, low = 0, high = 0;
  for (size_t i = 0; i < o.shape.size(); ++i) {
    if (o.shape[i] < 0 || __builtin_mul_overflow(elements, o.shape[i], &elements)) return;
  }
  if (elements > kMaxRunElements) return;
  if (elements == 0) {  // nothing is read or written, wherever the data pointer points
    o.fits = true;
    o.first_byte = o.end_byte = 0;
    return;
  }
  const int64_t size = ElementSize(o.dtype);
  if (size == 0 || o.data_offset < 0) return;
  for (size_t i = 0; i < o.shape.size(); ++i) {
    int64_t reach;
    if (__builtin_mul_overflow(o.strides[i], o.shape[i] - 1, &reach)) return;
    if (__builtin_add_overflow(reach < 0 ? low : high, reach, reach < 0 ? &low : &high)) return;
  }
  int64_t first, last;
  if (__builtin_add_overflow(o.offset, low, &first) || __builtin_add_overflow(o.offset, high, &last)) return;
  if (first < 0 || last >= kBufferBytes) return;
  o.first_byte = o.data_offset + first * size;
  o.end_byte = o.data_offset + (last + 1) * size;
  o.fits = o.end_byte <= kBufferBytes;
}

std::vector<int64_t> ContiguousStrides(const Shape& shape, bool& overflow) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  overflow = false;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    if (__builtin_mul_overflow(stride, std::max<int64_t>(shape[i], 1), &stride)) overflow = true;
  }
  return strides;
}

struct Buffers {
  void* main = nullptr;
  void* mirror = nullptr;
  aclrtStream stream = nullptr;
  aclrtStream stale_stream = nullptr;  // destroyed at start-up: phase 2 must refuse it
};

Buffers& TheBuffers() {
  static Buffers buffers;
  return buffers;
}

// Draws the rest of a tensor around `shape` and creates it: mostly of the
// problem's dtype, any format; exactly `fixed_format` and the problem's dtype
// when one is given (an example call's tensor that this case keeps).
Operand MakeOperand(FuzzedDataProvider& in, Shape shape, int problem_dtype, int fixed_format = -1) {
  Operand o;
  o.shape = std::move(shape);
  const int dtype_choice = in.ConsumeIntegralInRange(0, 7);
  o.dtype = dtype_choice < 5 || fixed_format >= 0 ? problem_dtype : PickDtype(in);
  o.format = fixed_format >= 0 ? fixed_format : PickFormat(in);
  bool overflow = false;
  const std::vector<int64_t> contiguous = ContiguousStrides(o.shape, overflow);
  bool pass_strides = true;
  o.strides = contiguous;
  switch (in.ConsumeIntegralInRange(0, 11)) {
    case 0:
    case 1:
    case 2:
    case 3:
      pass_strides = false;
      break;  // contiguous, derived by Canopy
    case 4:
      break;  // contiguous, spelled out
    case 5:   // column-major (transposed storage)
      if (!overflow) {
        int64_t stride = 1;
        for (size_t i = 0; i < o.shape.size(); ++i) {
          o.strides[i] = stride;
          stride *= std::max<int64_t>(o.shape[i], 1);
        }
      }
      break;
    case 6:  // padded rows
      for (auto& s : o.strides) {
        if (__builtin_mul_overflow(s, 2, &s)) s = 1;
      }
      break;
    case 7:  // broadcast along some dimensions
      for (auto& s : o.strides) {
        if (in.ConsumeBool()) s = 0;
      }
      break;
    case 8:  // reversed along one dimension
      if (!o.strides.empty()) {
        const size_t d = in.ConsumeIntegralInRange<size_t>(0, o.strides.size() - 1);
        if (o.strides[d] != std::numeric_limits<int64_t>::min()) o.strides[d] = -o.strides[d];
      }
      break;
    default:  // anything
      for (auto& s : o.strides) s = PickStride(in);
      break;
  }
  o.offset = in.ConsumeIntegralInRange(0, 3) == 0 ? PickOffset(in) : 0;
  // A reversed dimension needs an offset to stay inside the buffer.
  if (in.ConsumeBool()) {
    int64_t reach = 0;
    for (size_t i = 0; i < o.shape.size(); ++i) {
      if (o.strides[i] < 0 && o.shape[i] > 0 && o.shape[i] < kBufferBytes && o.strides[i] > -kBufferBytes) {
        reach -= o.strides[i] * (o.shape[i] - 1);
      }
    }
    if (reach < kBufferBytes) o.offset = std::max<int64_t>(o.offset, reach);
  }
  void* data = nullptr;
  switch (in.ConsumeIntegralInRange(0, 31)) {
    case 0:
      data = nullptr;
      o.data_offset = -1;
      break;
    case 1:
      data = reinterpret_cast<void*>(uintptr_t{0x1000});
      o.data_offset = -1;
      break;  // never run
    default: {
      const int64_t regions = kBufferBytes / kRegionAlignment;
      o.data_offset = in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange<int64_t>(0, regions - 1) * kRegionAlignment;
      data = static_cast<char*>(TheBuffers().main) + o.data_offset;
      break;
    }
  }
  if (pass_strides) {
    Place(o);
  } else {
    o.strides = contiguous;
    if (!overflow) Place(o);
  }
  // Storage: one dimension covering the view, or something arbitrary (Canopy ignores it).
  Shape storage = {in.ConsumeIntegralInRange<int64_t>(0, kBufferBytes)};
  if (in.ConsumeIntegralInRange(0, 7) == 0) storage = PickShape(in, 4);
  o.tensor =
      canopy_fuzz_create_tensor(o.shape.data(), o.shape.size(), o.dtype, pass_strides ? o.strides.data() : nullptr,
                                o.offset, o.format, storage.data(), storage.size(), data);
  if (o.tensor == nullptr) {
    ClearErrorMessage();  // rejected at creation (negative extent or offset, ...): the op gets null
    o.fits = true;        // nothing to place
  }
  return o;
}

// ---- one fuzz case --------------------------------------------------------------------------

struct Case {
  const OpInfo* info = nullptr;
  int problem_dtype = ACL_FLOAT;
  std::vector<Operand> operands;  // owned tensors, destroyed once
  // Arguments by role; several roles may name one operand (aliasing).
  int self = -1, other = -1, mat2 = -1, out = -1;  // indices into operands; -1: null
  aclScalar* scalar_other = nullptr;               // Adds/Subs/Muls/Divs other, FillScalar value, Addmm beta
  aclScalar* alpha = nullptr;
  bool scalar_other_required = false, alpha_required = false;
  int cast_dtype = ACL_FLOAT;
  int mode = 0;
  int8_t cube_math_type = 0;
  aclIntArray* dims = nullptr;  // a reduction's dims list (null sometimes)
  std::vector<int64_t> dim_values;
  bool keep_dims = false;
  std::vector<int> inputs, outputs;  // operand indices in prototype order
  // kExample: each argument's 8-byte cell (a pointer or a value) in prototype order,
  // and the objects behind the pointers.
  std::vector<uint64_t> cells;
  std::vector<aclTensorList*> tensor_lists;
  std::vector<aclScalarList*> scalar_lists;
  std::vector<aclScalar*> scalars;
  std::vector<aclIntArray*> int_arrays;
  std::vector<aclFloatArray*> float_arrays;
  std::vector<aclBoolArray*> bool_arrays;
  std::vector<std::string> strings;  // reserved up front: cells point into them

  ~Case() {
    DestroyTensors();
    if (dims != nullptr) aclDestroyIntArray(dims);
    if (scalar_other != nullptr) aclDestroyScalar(scalar_other);
    if (alpha != nullptr) aclDestroyScalar(alpha);
    for (aclScalarList* list : scalar_lists) aclDestroyScalarList(list);
    for (aclScalar* scalar : scalars) aclDestroyScalar(scalar);
    for (aclIntArray* array : int_arrays) aclDestroyIntArray(array);
    for (aclFloatArray* array : float_arrays) aclDestroyFloatArray(array);
    for (aclBoolArray* array : bool_arrays) aclDestroyBoolArray(array);
  }

  void DestroyTensors() {
    for (aclTensorList* list : tensor_lists) aclDestroyTensorList(list);  // and its tensors
    tensor_lists.clear();
    for (auto& o : operands) {
      if (o.tensor != nullptr && !o.in_list) aclDestroyTensor(o.tensor);
      o.tensor = nullptr;
    }
  }

  aclTensor* T(int index) const { return index < 0 ? nullptr : operands[static_cast<size_t>(index)].tensor; }
  const Operand* O(int index) const { return index < 0 ? nullptr : &operands[static_cast<size_t>(index)]; }

  int Add(Operand o) {
    operands.push_back(std::move(o));
    return static_cast<int>(operands.size()) - 1;
  }
};

aclScalar* MakeScalar(FuzzedDataProvider& in, int problem_dtype) {
  if (in.ConsumeIntegralInRange(0, 31) == 0) return nullptr;
  const int dtype = in.ConsumeIntegralInRange(0, 3) == 0 ? PickDtype(in) : problem_dtype;
  ScalarBytes value = PickScalarBytes(in, dtype);
  aclScalar* scalar = canopy_fuzz_create_scalar(value.bytes, dtype);
  if (scalar == nullptr) ClearErrorMessage();
  return scalar;
}

// Lets a role name an operand drawn for another (in-place aliasing, self == other).
int MaybeAlias(FuzzedDataProvider& in, int index, int alias) {
  return alias >= 0 && in.ConsumeIntegralInRange(0, 15) == 0 ? alias : index;
}

// `shape` reduced over `dims` as CANN defines it (negative dims wrap, an empty
// list is every dim, a rank-0 tensor takes 0 and -1); false for a dim out of
// range or given twice.
bool ReducedShape(const Shape& shape, const std::vector<int64_t>& dims, bool keep_dims, Shape& out) {
  const auto rank = static_cast<int64_t>(shape.size());
  const int64_t wrap = std::max<int64_t>(rank, 1);
  std::vector<bool> reduced(static_cast<size_t>(wrap), dims.empty());
  std::vector<bool> seen(static_cast<size_t>(wrap), false);
  for (const int64_t dim : dims) {
    if (dim < -wrap || dim >= wrap) return false;
    const int64_t d = dim < 0 ? dim + wrap : dim;
    if (seen[static_cast<size_t>(d)]) return false;
    seen[static_cast<size_t>(d)] = reduced[static_cast<size_t>(d)] = true;
  }
  out.clear();
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[static_cast<size_t>(d)]) {
      out.push_back(shape[static_cast<size_t>(d)]);
    } else if (keep_dims) {
      out.push_back(1);
    }
  }
  return true;
}

// Null sometimes.
int MaybeNull(FuzzedDataProvider& in, int index) { return in.ConsumeIntegralInRange(0, 31) == 0 ? -1 : index; }

void DrawMatmulShapes(FuzzedDataProvider& in, Family family, int64_t max_rank, Shape& a, Shape& b, Shape& out) {
  const int64_t m = PickExtent(in), k = PickExtent(in), n = PickExtent(in);
  if (family == Family::kMm || family == Family::kAddmm) {
    a = {m, k};
    b = {k, n};
    out = {m, n};
    return;
  }
  if (family == Family::kBatchMatMul) {
    const int64_t batch = PickExtent(in);
    const int64_t ba = in.ConsumeIntegralInRange(0, 3) == 0 ? 1 : batch;
    const int64_t bb = in.ConsumeIntegralInRange(0, 3) == 0 ? 1 : batch;
    a = {ba, m, k};
    b = {bb, k, n};
    out = {ba == 1 ? bb : ba, m, n};
    return;
  }
  // Matmul: ranks 1..max_rank with broadcast batch dimensions.
  const int64_t rank_a = in.ConsumeIntegralInRange<int64_t>(1, max_rank);
  const int64_t rank_b = in.ConsumeIntegralInRange<int64_t>(1, max_rank);
  const size_t batch_rank = static_cast<size_t>(std::max<int64_t>({rank_a - 2, rank_b - 2, 0}));
  Shape batch(batch_rank);
  for (auto& d : batch) d = in.ConsumeIntegralInRange<int64_t>(1, 3);
  const auto batch_of = [&](int64_t rank) {
    Shape shape(batch.end() - std::max<int64_t>(rank - 2, 0), batch.end());
    for (auto& d : shape) {
      if (in.ConsumeIntegralInRange(0, 3) == 0) d = 1;
    }
    return shape;
  };
  a = rank_a == 1 ? Shape{k} : batch_of(rank_a);
  if (rank_a > 1) a.insert(a.end(), {m, k});
  b = rank_b == 1 ? Shape{k} : batch_of(rank_b);
  if (rank_b > 1) b.insert(b.end(), {k, n});
  const Shape batch_a(a.begin(), a.end() - std::min<int64_t>(static_cast<int64_t>(a.size()), 2));
  const Shape batch_b(b.begin(), b.end() - std::min<int64_t>(static_cast<int64_t>(b.size()), 2));
  BroadcastShapes(batch_a, batch_b, out);
  if (rank_a > 1) out.push_back(m);
  if (rank_b > 1) out.push_back(n);
}

// Draws the op, its problem and its arguments.
// An output argument: a tensor or tensor list the prototype does not declare const.
bool IsOutputArgument(const canopyOpArg& arg) {
  return (arg.kind == CANOPY_ARG_TENSOR || arg.kind == CANOPY_ARG_TENSOR_LIST) &&
         std::strncmp(arg.type, "const ", 6) != 0;
}

bool IsPointerKind(int kind) {
  return kind == CANOPY_ARG_TENSOR || kind == CANOPY_ARG_SCALAR || kind == CANOPY_ARG_STRING ||
         (kind >= CANOPY_ARG_INT_ARRAY && kind <= CANOPY_ARG_SCALAR_LIST);
}

// An example call's int array, as declared or (changed) with an element or the length redrawn.
std::vector<int64_t> ExampleIntegers(FuzzedDataProvider& in, const std::vector<double>& declared, bool change) {
  std::vector<int64_t> values(declared.begin(), declared.end());
  if (!change) return values;
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0:
      if (!values.empty()) values[in.ConsumeIntegralInRange<size_t>(0, values.size() - 1)] = PickDim(in);
      break;
    case 1:
      if (!values.empty()) values.pop_back();
      break;
    case 2:
      values.push_back(in.ConsumeIntegralInRange<int64_t>(-3, 8));
      break;
    default:
      for (int64_t& v : values) v = in.ConsumeIntegralInRange<int64_t>(-3, 8);
      break;
  }
  return values;
}

// The op's declared example call (canopyOpInfo::example), with one argument
// changed (or none, or, now and then, all of them): so most cases pass phase 1
// and reach the kernels with strided views, odd offsets and any values, and the
// rest probe one check at a time. Tensors the example keeps keep its dtype and
// format; every tensor gets fuzzed strides, offsets and data.
void DrawExampleCase(FuzzedDataProvider& in, Case& c) {
  const canopyOpInfo& op = *c.info->registry;
  const std::vector<canopy_test::ExampleArgument>& example = c.info->example;
  using Form = canopy_test::ExampleArgument::Form;
  const int changed = in.ConsumeIntegralInRange<int>(-1, static_cast<int>(op.argCount) - 1);
  const bool wild = in.ConsumeIntegralInRange(0, 7) == 0;
  c.cells.assign(op.argCount, 0);
  c.strings.reserve(op.argCount);
  std::vector<int> tensors_so_far;
  for (size_t i = 0; i < op.argCount; ++i) {
    const canopy_test::ExampleArgument& a = example[i];
    const canopyOpArg& arg = op.args[i];
    const bool change = wild || static_cast<int>(i) == changed;
    const bool output = IsOutputArgument(arg);
    // One tensor of the example: kept, or (changed) reshaped, retyped or reformatted,
    // or (an output) the operand of an earlier argument (aliasing).
    const auto tensor = [&](const canopy_test::ExampleTensor& t) -> int {
      if (change && output && !tensors_so_far.empty() && in.ConsumeIntegralInRange(0, 3) == 0) {
        const int alias = tensors_so_far[in.ConsumeIntegralInRange<size_t>(0, tensors_so_far.size() - 1)];
        c.outputs.push_back(alias);
        return alias;
      }
      const bool keep = !change || in.ConsumeBool();
      const int index = c.Add(keep ? MakeOperand(in, t.shape, t.dtype, t.format)
                                   : MakeOperand(in, MaybeMutate(in, t.shape), t.dtype));
      tensors_so_far.push_back(index);
      (output ? c.outputs : c.inputs).push_back(index);
      return index;
    };
    void* pointer = nullptr;
    int64_t integer = 0;
    double real = 0;
    const size_t inputs_before = c.inputs.size(), outputs_before = c.outputs.size();
    switch (a.form) {
      case Form::kNull:  // left out; changed, a tensor where the op takes one
        if (change && arg.kind == CANOPY_ARG_TENSOR && in.ConsumeBool()) {
          pointer = c.T(tensor(canopy_test::ExampleTensor{ACL_FLOAT, {2, 2}}));
        }
        break;
      case Form::kTensor:
        pointer = c.T(tensor(a.tensors[0]));
        break;
      case Form::kScalar: {
        aclScalar* scalar = MakeScalar(in, a.scalars[0].dtype);
        if (scalar != nullptr) c.scalars.push_back(scalar);
        pointer = scalar;
        break;
      }
      case Form::kIntArray: {
        const std::vector<int64_t> values = ExampleIntegers(in, a.numbers, change);
        aclIntArray* array = aclCreateIntArray(values.empty() ? nullptr : values.data(), values.size());
        if (array != nullptr) c.int_arrays.push_back(array);
        pointer = array;
        break;
      }
      case Form::kFloatArray: {
        std::vector<float> values(a.numbers.begin(), a.numbers.end());
        if (change) {
          for (float& v : values) v = in.ConsumeFloatingPoint<float>();
        }
        aclFloatArray* array = aclCreateFloatArray(values.empty() ? nullptr : values.data(), values.size());
        if (array != nullptr) c.float_arrays.push_back(array);
        pointer = array;
        break;
      }
      case Form::kBoolArray: {
        const std::vector<int64_t> drawn = ExampleIntegers(in, a.numbers, change);
        std::unique_ptr<bool[]> flags(new bool[drawn.size() + 1]);
        for (size_t k = 0; k < drawn.size(); ++k) flags[k] = drawn[k] != 0;
        aclBoolArray* array = aclCreateBoolArray(flags.get(), drawn.size());
        if (array != nullptr) c.bool_arrays.push_back(array);
        pointer = array;
        break;
      }
      case Form::kTensorList: {
        std::vector<aclTensor*> members;
        for (const canopy_test::ExampleTensor& t : a.tensors) {
          // A list owns its members: an operand listed here is no other argument's.
          const int index = c.Add(change && in.ConsumeBool() ? MakeOperand(in, MaybeMutate(in, t.shape), t.dtype)
                                                             : MakeOperand(in, t.shape, t.dtype, t.format));
          c.operands[static_cast<size_t>(index)].in_list = true;
          (output ? c.outputs : c.inputs).push_back(index);
          members.push_back(c.T(index));
        }
        if (change && in.ConsumeBool()) {
          if (!members.empty() && in.ConsumeBool()) {
            members.pop_back();  // its operand stays, owned by nobody but the case
            c.operands.back().in_list = false;
            (output ? c.outputs : c.inputs).pop_back();
          } else {
            members.push_back(nullptr);
          }
        }
        aclTensorList* list = aclCreateTensorList(members.empty() ? nullptr : members.data(), members.size());
        if (list != nullptr) {
          c.tensor_lists.push_back(list);
        } else {
          ClearErrorMessage();
          for (aclTensor* member : members) {
            for (Operand& o : c.operands) {
              if (o.tensor == member) o.in_list = false;
            }
          }
        }
        pointer = list;
        break;
      }
      case Form::kScalarList: {
        std::vector<aclScalar*> members;
        for (const canopy_test::ExampleScalar& e : a.scalars) members.push_back(MakeScalar(in, e.dtype));
        if (change && in.ConsumeBool()) members.push_back(nullptr);
        aclScalarList* list = aclCreateScalarList(members.empty() ? nullptr : members.data(), members.size());
        if (list != nullptr) {
          c.scalar_lists.push_back(list);
        } else {
          ClearErrorMessage();
          for (aclScalar* member : members) aclDestroyScalar(member);
        }
        pointer = list;
        break;
      }
      case Form::kString: {
        static const char* const kOthers[] = {"", "none", "BSND", "BNSD", "BSH", "TND", "mean", "sum", "??"};
        c.strings.push_back(change ? kOthers[in.ConsumeIntegralInRange<size_t>(0, std::size(kOthers) - 1)] : a.text);
        pointer = c.strings.back().data();
        break;
      }
      case Form::kNumber:
        real = a.numbers[0];
        integer = static_cast<int64_t>(real);
        if (change) {
          integer = in.ConsumeIntegralInRange(0, 3) == 0 ? in.ConsumeIntegral<int64_t>()
                                                         : in.ConsumeIntegralInRange<int64_t>(-3, 8);
          real = in.ConsumeBool() ? in.ConsumeFloatingPoint<double>() : static_cast<double>(integer);
        }
        break;
    }
    if (change && IsPointerKind(arg.kind) && in.ConsumeIntegralInRange(0, 7) == 0) {
      pointer = nullptr;  // what this argument made stays owned by the case, and unused
      c.inputs.resize(inputs_before);
      c.outputs.resize(outputs_before);
    }
    uint64_t& cell = c.cells[i];
    if (IsPointerKind(arg.kind)) {
      std::memcpy(&cell, &pointer, sizeof pointer);
    } else if (arg.kind == CANOPY_ARG_FLOAT && arg.size == sizeof(float)) {
      const auto single = static_cast<float>(real);
      std::memcpy(&cell, &single, sizeof single);
    } else if (arg.kind == CANOPY_ARG_FLOAT) {
      std::memcpy(&cell, &real, sizeof real);
    } else if (arg.kind == CANOPY_ARG_BOOL) {
      cell = integer != 0 ? 1 : 0;
    } else {
      std::memcpy(&cell, &integer, sizeof integer);  // little-endian: the low `size` bytes
    }
  }
}

void DrawCase(FuzzedDataProvider& in, Case& c) {
  c.info = &Ops()[in.ConsumeIntegralInRange<size_t>(0, Ops().size() - 1)];
  const Family family = c.info->family;
  if (family == Family::kExample) {
    DrawExampleCase(in, c);
    return;
  }
  c.problem_dtype = IsMatmulFamily(family) && in.ConsumeIntegralInRange(0, 3) != 0
                        ? PickFrom(in, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})
                        : PickDtype(in);
  const int dtype = c.problem_dtype;
  switch (family) {
    case Family::kBinary: {
      const Shape shape = PickShape(in, c.info->registry->maxRank);
      c.self = MaybeNull(in, c.Add(MakeOperand(in, MaybeMutate(in, shape), dtype)));
      c.other = MaybeNull(
          in, MaybeAlias(in, c.Add(MakeOperand(in, MaybeMutate(in, Broadcastable(in, shape)), dtype)), c.self));
      if (!c.info->in_place) {
        c.out = MaybeNull(in, MaybeAlias(in, c.Add(MakeOperand(in, MaybeMutate(in, shape), dtype)), c.self));
      }
      break;
    }
    case Family::kBinaryScalar:
    case Family::kCast:
    case Family::kZero:
    case Family::kFill:
    case Family::kExample:  // drawn by DrawExampleCase
    case Family::kGeneric: {
      const Shape shape = PickShape(in, c.info->registry->maxRank);
      c.self = MaybeNull(in, c.Add(MakeOperand(in, MaybeMutate(in, shape), dtype)));
      if (!c.info->in_place) {
        c.out = MaybeNull(in, MaybeAlias(in, c.Add(MakeOperand(in, MaybeMutate(in, shape), dtype)), c.self));
      }
      break;
    }
    case Family::kReduce: {
      const Shape shape = PickShape(in, c.info->registry->maxRank);
      const auto rank = static_cast<int64_t>(shape.size());
      // Mostly valid dims (negative ones too); sometimes out of range or repeated.
      const size_t count = in.ConsumeIntegralInRange<size_t>(0, shape.size() + 1);
      for (size_t i = 0; i < count; ++i) {
        c.dim_values.push_back(
            in.ConsumeIntegralInRange(0, 15) == 0 ? PickDim(in) : in.ConsumeIntegralInRange<int64_t>(-rank - 1, rank));
      }
      c.keep_dims = in.ConsumeBool();
      if (in.ConsumeIntegralInRange(0, 31) != 0) {
        c.dims = aclCreateIntArray(c.dim_values.empty() ? nullptr : c.dim_values.data(), c.dim_values.size());
      }
      c.self = MaybeNull(in, c.Add(MakeOperand(in, MaybeMutate(in, shape), dtype)));
      Shape out;
      if (!ReducedShape(shape, c.dim_values, c.keep_dims, out)) out = shape;
      c.out = MaybeNull(in, MaybeAlias(in, c.Add(MakeOperand(in, MaybeMutate(in, out), dtype)), c.self));
      break;
    }
    case Family::kCopy: {
      const Shape shape = PickShape(in, c.info->registry->maxRank);
      c.self = MaybeNull(in, c.Add(MakeOperand(in, MaybeMutate(in, shape), dtype)));
      c.other = MaybeNull(in, c.Add(MakeOperand(in, MaybeMutate(in, Broadcastable(in, shape)), PickDtype(in))));
      break;
    }
    case Family::kMatmul:
    case Family::kMm:
    case Family::kBatchMatMul:
    case Family::kAddmm: {
      Shape a, b, out;
      DrawMatmulShapes(in, family, c.info->registry->maxRank, a, b, out);
      if (family == Family::kAddmm) {
        Shape bias = Broadcastable(in, out);
        if (c.info->in_place || bias.empty()) bias = out;
        c.self = MaybeNull(in, c.Add(MakeOperand(in, MaybeMutate(in, bias), dtype)));
        c.other = MaybeNull(in, c.Add(MakeOperand(in, MaybeMutate(in, a), dtype)));  // mat1
      } else {
        c.self = MaybeNull(in, c.Add(MakeOperand(in, MaybeMutate(in, a), dtype)));
      }
      c.mat2 = MaybeNull(in, c.Add(MakeOperand(in, MaybeMutate(in, b), dtype)));
      if (!c.info->in_place) c.out = MaybeNull(in, c.Add(MakeOperand(in, MaybeMutate(in, out), dtype)));
      break;
    }
  }
  if (c.info->in_place) c.out = c.self;

  // Scalars and attributes.
  if (c.info->has_scalar_other) {
    c.scalar_other = MakeScalar(in, family == Family::kAddmm ? ACL_FLOAT : dtype);
    c.scalar_other_required = true;
  }
  if (c.info->has_alpha || family == Family::kAddmm) {
    c.alpha = MakeScalar(in, family == Family::kAddmm ? ACL_FLOAT : dtype);
    c.alpha_required = true;
  }
  c.cast_dtype = in.ConsumeBool() ? dtype : PickDtype(in);
  // A reduction's dtype must match out's: mostly it does.
  if (family == Family::kReduce && c.O(c.out) != nullptr && in.ConsumeIntegralInRange(0, 3) != 0) {
    c.cast_dtype = c.O(c.out)->dtype;
  }
  c.mode = in.ConsumeIntegralInRange(0, 15) == 0 ? in.ConsumeIntegral<int>() : in.ConsumeIntegralInRange(0, 2);
  c.cube_math_type =
      in.ConsumeIntegralInRange(0, 15) == 0 ? in.ConsumeIntegral<int8_t>() : in.ConsumeIntegralInRange<int8_t>(0, 4);

  // Prototype order of the tensors, as the executor-reuse API numbers them.
  switch (family) {
    case Family::kBinary:
      c.inputs = {c.self, c.other};
      break;
    case Family::kCopy:
      c.inputs = {c.self, c.other};
      break;
    case Family::kAddmm:
      c.inputs = {c.self, c.other, c.mat2};
      break;
    case Family::kMatmul:
    case Family::kMm:
    case Family::kBatchMatMul:
      c.inputs = {c.self, c.mat2};
      break;
    default:
      c.inputs = {c.self};
      break;
  }
  c.outputs = {c.out};
}

// Phase 1 through the registry's packed call, each argument filled by its name.
aclnnStatus RunPhase1(const Case& c, uint64_t* workspace_size, aclOpExecutor** executor) {
  const canopyOpInfo& op = *c.info->registry;
  constexpr size_t kMaxArguments = 48;  // FusedInferAttentionScoreV2 takes 39
  uint64_t cells[kMaxArguments] = {};
  void* pointers[kMaxArguments];
  CANOPY_FUZZ_CHECK(op.argCount <= kMaxArguments, "aclnn%s has more arguments than the harness passes", op.name);
  if (c.info->family == Family::kExample) {
    for (size_t i = 0; i < op.argCount; ++i) pointers[i] = const_cast<uint64_t*>(&c.cells[i]);
    return op.callGetWorkspaceSize(pointers, workspace_size, executor);
  }
  for (size_t i = 0; i < op.argCount; ++i) {
    const canopyOpArg& arg = op.args[i];
    const std::string name = arg.name;
    const void* pointer = nullptr;
    int64_t integer = 0;
    if (arg.kind == CANOPY_ARG_TENSOR) {
      if (name == "self" || name == "selfRef" || name == "weight" || name == "x" || name == "x1" || name == "input" ||
          name == "inputRef" || name == "features") {
        pointer = c.T(c.self);
      }
      if (name == "x2" || name == "labels" || name == "gamma" || name == "weightOptional" || name == "biasOptional" ||
          name == "bias") {
        pointer = c.T(c.other);
      }
      if (name == "yOut" || name == "xOut" || name == "backprop" || name == "rstdOut" || name == "meanOut" ||
          name == "meanOutOptional" || name == "rstdOutOptional" || name == "loss" || name == "output") {
        pointer = c.T(c.out);
      }
      if (name == "other" || name == "mat1" || name == "src" || name == "index" || name == "indices") {
        pointer = c.T(c.other);
      }
      if (name == "mat2") pointer = c.T(c.mat2);
      if (name == "out" || name == "outRef" || name == "y" || name == "result") pointer = c.T(c.out);
      if (name == "source" || name == "repeats") pointer = c.T(c.other);
      // Further operands of the pointwise ops: self's shape (every tensor of one shape).
      if (name == "exponent" || name == "clipValueMin" || name == "clipValueMax" || name == "max" || name == "mask" ||
          name == "tensor1" || name == "tensor2") {
        pointer = c.T(c.self);
      }
    } else if (arg.kind == CANOPY_ARG_SCALAR) {
      pointer = name == "alpha" ? c.alpha : c.scalar_other;  // other, value, beta
    } else if (name == "dtype") {
      integer = c.cast_dtype;  // any int, as a C caller may pass
    } else if (name == "mode") {
      integer = c.mode;
    } else if (name == "cubeMathType") {
      integer = c.cube_math_type;
    } else if (arg.kind == CANOPY_ARG_INT_ARRAY) {
      pointer = c.dims;  // dims, dim
    } else if (arg.kind == CANOPY_ARG_BOOL) {
      integer = c.keep_dims ? 1 : 0;  // keepDims, keepDim
    } else if (name == "step" || name == "repeats" || name == "groups") {
      integer = 1;
    } else if (name == "end") {
      integer = std::numeric_limits<int64_t>::max();
    }  // dim, start, diagonal: 0
    if (arg.kind == CANOPY_ARG_TENSOR || arg.kind == CANOPY_ARG_SCALAR || arg.kind == CANOPY_ARG_INT_ARRAY) {
      std::memcpy(&cells[i], &pointer, sizeof pointer);
    } else {
      std::memcpy(&cells[i], &integer, sizeof integer);  // little-endian: the low `size` bytes
    }
    pointers[i] = &cells[i];
  }
  return op.callGetWorkspaceSize(pointers, workspace_size, executor);
}

// CANOPY_FUZZ_VERBOSE=1: print each case, to turn a crashing input into a regression test.
bool Verbose() {
  static const bool verbose = std::getenv("CANOPY_FUZZ_VERBOSE") != nullptr;
  return verbose;
}

std::string ToString(const std::vector<int64_t>& values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "}";
}

void Describe(const Case& c) {
  std::fprintf(stderr, "canopy-fuzz: aclnn%s mode=%d cubeMathType=%d castDtype=%d\n", c.info->name, c.mode,
               c.cube_math_type, c.cast_dtype);
  const char* roles[] = {"self", "other/mat1/src", "mat2", "out"};
  const int indices[] = {c.self, c.other, c.mat2, c.out};
  for (int r = 0; r < 4; ++r) {
    const Operand* o = c.O(indices[r]);
    if (o == nullptr) continue;
    std::fprintf(stderr, "  %s (operand %d%s): shape %s strides %s offset %lld dtype %d format %d data+%lld fits=%d\n",
                 roles[r], indices[r], o->tensor == nullptr ? ", not created" : "", ToString(o->shape).c_str(),
                 ToString(o->strides).c_str(), static_cast<long long>(o->offset), o->dtype, o->format,
                 static_cast<long long>(o->data_offset), o->fits ? 1 : 0);
  }
  const aclScalar* scalars[] = {c.scalar_other, c.alpha};
  for (const aclScalar* scalar : scalars) std::fprintf(stderr, "  scalar %s\n", scalar ? "set" : "null");
}

// Views whose element count does not fit in int64: phase 1 must refuse them (K6).
bool ElementCountOverflows(const Operand& o) {
  int64_t count = 1;
  for (int64_t extent : o.shape) {
    if (__builtin_mul_overflow(count, extent, &count)) return true;
  }
  return false;
}

// ---- invariants of phase 1 ------------------------------------------------------------------

bool RequiredArgumentIsNull(const Case& c) {
  const Family f = c.info->family;
  if (f == Family::kExample) {
    const canopyOpInfo& op = *c.info->registry;
    for (size_t i = 0; i < op.argCount; ++i) {
      if (IsPointerKind(op.args[i].kind) && op.args[i].optional == 0 && c.cells[i] == 0) return true;
    }
    return false;
  }
  bool null = c.T(c.self) == nullptr;
  if (f == Family::kBinary || f == Family::kCopy || f == Family::kAddmm) null |= c.T(c.other) == nullptr;
  if (IsMatmulFamily(f)) null |= c.T(c.mat2) == nullptr;
  if (f == Family::kReduce) null |= c.dims == nullptr;
  if (!c.info->in_place && f != Family::kZero && f != Family::kFill && f != Family::kCopy) {
    null |= c.T(c.out) == nullptr;
  }
  if (c.scalar_other_required) null |= c.scalar_other == nullptr;
  if (c.alpha_required) null |= c.alpha == nullptr;
  return null;
}

// The output shape the op defines for its inputs; false when there is none.
bool ExpectedOutputShape(const Case& c, Shape& expected) {
  const Operand* self = c.O(c.self);
  const Operand* other = c.O(c.other);
  const Operand* mat2 = c.O(c.mat2);
  switch (c.info->family) {
    case Family::kBinary:
      if (!BroadcastShapes(self->shape, other->shape, expected)) return false;
      return !c.info->in_place || expected == self->shape;
    case Family::kCopy:
      return BroadcastShapes(self->shape, other->shape, expected) && expected == self->shape;
    case Family::kBinaryScalar:
    case Family::kCast:
    case Family::kZero:
    case Family::kFill:
    case Family::kGeneric:
      expected = self->shape;
      return true;
    case Family::kExample:  // no shape rule known here
      return false;
    case Family::kReduce:
      return ReducedShape(self->shape, c.dim_values, c.keep_dims, expected);
    case Family::kMm:
      if (self->shape.size() != 2 || mat2->shape.size() != 2 || self->shape[1] != mat2->shape[0]) return false;
      expected = {self->shape[0], mat2->shape[1]};
      return true;
    case Family::kAddmm: {
      if (other->shape.size() != 2 || mat2->shape.size() != 2 || other->shape[1] != mat2->shape[0]) return false;
      expected = {other->shape[0], mat2->shape[1]};
      Shape broadcast;
      if (self->shape.empty() || self->shape.size() > 2) return false;
      return BroadcastShapes(self->shape, expected, broadcast) && broadcast == expected;
    }
    case Family::kBatchMatMul: {
      const Shape& a = self->shape;
      const Shape& b = mat2->shape;
      if (a.size() != 3 || b.size() != 3 || a[2] != b[1]) return false;
      if (a[0] != b[0] && a[0] != 1 && b[0] != 1) return false;
      expected = {std::max(a[0], b[0]), a[1], b[2]};  // CANN's rule: [0,M,K] @ [1,K,N] -> [1,M,N]
      return true;
    }
    case Family::kMatmul: {
      const Shape& a = self->shape;
      const Shape& b = mat2->shape;
      if (a.empty() || b.empty() || static_cast<int64_t>(a.size()) > c.info->registry->maxRank ||
          static_cast<int64_t>(b.size()) > c.info->registry->maxRank) {
        return false;
      }
      const int64_t k_b = b.size() == 1 ? b[0] : b[b.size() - 2];
      if (a.back() != k_b) return false;
      const Shape batch_a(a.begin(), a.end() - std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(a.size()), 2));
      const Shape batch_b(b.begin(), b.end() - std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(b.size()), 2));
      if (!BroadcastShapes(batch_a, batch_b, expected)) return false;
      if (a.size() > 1) expected.push_back(a[a.size() - 2]);
      if (b.size() > 1) expected.push_back(b.back());
      return true;
    }
  }
  return false;
}

// What phase 1 must have rejected, when it did not.
void CheckAccepted(const Case& c) {
  const OpInfo& op = *c.info;
  const Family f = op.family;
  CANOPY_FUZZ_CHECK(!RequiredArgumentIsNull(c), "%s accepted a null required argument", op.name);
  for (const Operand& o : c.operands) {
    const bool used = std::find(c.inputs.begin(), c.inputs.end(), &o - c.operands.data()) != c.inputs.end() ||
                      std::find(c.outputs.begin(), c.outputs.end(), &o - c.operands.data()) != c.outputs.end();
    if (!used) continue;
    CANOPY_FUZZ_CHECK(ElementSize(o.dtype) > 0, "%s accepted a tensor of dtype %d", op.name, o.dtype);
    // Every op rejects private formats unless the registry says it takes them (K13).
    CANOPY_FUZZ_CHECK(op.registry->privateFormats != 0 || IsPlainFormat(o.format), "%s accepted private format %d",
                      op.name, o.format);
    CANOPY_FUZZ_CHECK(static_cast<int64_t>(o.shape.size()) <= op.registry->maxRank, "%s accepted rank %zu", op.name,
                      o.shape.size());  // InplaceZero too (K8)
    if (IsMatmulFamily(f)) {
      CANOPY_FUZZ_CHECK(std::all_of(o.shape.begin(), o.shape.end(),
                                    [](int64_t e) { return e <= std::numeric_limits<int32_t>::max(); }),
                        "%s accepted an extent past 2^31 - 1", op.name);  // K11
    }
    CANOPY_FUZZ_CHECK(!ElementCountOverflows(o), "%s accepted a view whose element count overflows", op.name);
  }
  if (f == Family::kCast) CANOPY_FUZZ_CHECK(ElementSize(c.cast_dtype) > 0, "Cast accepted dtype %d", c.cast_dtype);
  if (IsMatmulFamily(f)) {
    CANOPY_FUZZ_CHECK(c.cube_math_type >= 0 && c.cube_math_type <= 4, "%s accepted cubeMathType %d", op.name,
                      c.cube_math_type);
  }
  if (op.has_mode) CANOPY_FUZZ_CHECK(c.mode >= 0 && c.mode <= 2, "%s accepted mode %d", op.name, c.mode);
  if (f == Family::kGeneric || f == Family::kExample) return;  // the harness knows no shape rule for it
  Shape expected;
  const bool defined = ExpectedOutputShape(c, expected);
  CANOPY_FUZZ_CHECK(defined, "%s accepted operands whose shapes it does not define", op.name);
  CANOPY_FUZZ_CHECK(c.O(c.out)->shape == expected, "%s accepted an output of the wrong shape", op.name);
}

// ---- phase 2 ------------------------------------------------------------------------------

// Fills the buffers with the input's pattern: any bits, so integers overflow and floats are NaN at times.
void FillBuffers(FuzzedDataProvider& in, std::vector<uint8_t>& image) {
  image.resize(static_cast<size_t>(kBufferBytes));
  uint64_t state = in.ConsumeIntegral<uint64_t>() | 1;
  for (size_t i = 0; i < image.size(); i += sizeof(uint64_t)) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    std::memcpy(&image[i], &state, sizeof(state));
  }
  Buffers& b = TheBuffers();
  for (void* buffer : {b.main, b.mirror}) {
    const aclError status = aclrtMemcpy(buffer, image.size(), image.data(), image.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    CANOPY_FUZZ_CHECK(status == ACL_SUCCESS, "aclrtMemcpy to the buffer returned %d", status);
  }
}

// Every byte outside the outputs' views must be as it was before the run.
void CheckUntouched(const Case& c, const std::vector<uint8_t>& before, void* buffer) {
  std::vector<uint8_t> after(before.size());
  const aclError status = aclrtMemcpy(after.data(), after.size(), buffer, after.size(), ACL_MEMCPY_DEVICE_TO_HOST);
  CANOPY_FUZZ_CHECK(status == ACL_SUCCESS, "aclrtMemcpy from the buffer returned %d", status);
  std::vector<bool> written(before.size(), false);
  for (int index : c.outputs) {
    const Operand& o = *c.O(index);
    for (int64_t byte = o.first_byte; byte < o.end_byte; ++byte) written[static_cast<size_t>(byte)] = true;
  }
  for (size_t i = 0; i < before.size(); ++i) {
    CANOPY_FUZZ_CHECK(written[i] || before[i] == after[i], "aclnn%s wrote byte %zu outside its output views",
                      c.info->name, i);
  }
}

// Frees an executor phase 2 will not run, one of the ways a client may.
void DiscardExecutor(FuzzedDataProvider& in, const Case& c, aclOpExecutor* executor, uint64_t workspace_size) {
  const OpInfo& op = *c.info;
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0:
      if (workspace_size > 0) {  // a workspace that is missing: refused, and the executor is gone
        const aclnnStatus status = op.phase2(nullptr, workspace_size, executor, TheBuffers().stream);
        CANOPY_FUZZ_CHECK(status == ACLNN_ERR_PARAM_NULLPTR, "aclnn%s(null workspace) returned %d", op.name, status);
        RequireErrorMessage(op.name, status);
        return;
      }
      break;
    case 1:
      if (workspace_size > 0) {  // a workspace that is too small
        const aclnnStatus status = op.phase2(TheBuffers().mirror, workspace_size - 1, executor, TheBuffers().stream);
        CANOPY_FUZZ_CHECK(status == ACLNN_ERR_PARAM_INVALID, "aclnn%s(small workspace) returned %d", op.name, status);
        RequireErrorMessage(op.name, status);
        return;
      }
      break;
    case 2: {  // a destroyed stream: nothing may be queued on it
      void* workspace = workspace_size > 0 ? TheBuffers().mirror : nullptr;
      if (workspace_size > static_cast<uint64_t>(kBufferBytes)) break;
      const aclnnStatus status = op.phase2(workspace, workspace_size, executor, TheBuffers().stale_stream);
      CANOPY_FUZZ_CHECK(status == ACLNN_ERR_RUNTIME_ERROR || status == ACLNN_SUCCESS,
                        "aclnn%s(destroyed stream) returned %d", op.name, status);
      ClearErrorMessage();
      return;
    }
    default:
      break;
  }
  CANOPY_FUZZ_CHECK(aclSetAclOpExecutorRepeatable(executor) == ACLNN_SUCCESS, "aclSetAclOpExecutorRepeatable");
  CANOPY_FUZZ_CHECK(aclDestroyAclOpExecutor(executor) == ACLNN_SUCCESS, "aclDestroyAclOpExecutor");
}

// Points every slot of a repeatable executor at the mirror buffer, the way a
// client rebinds between runs; a few wrong calls on the way must be refused.
void Rebind(FuzzedDataProvider& in, const Case& c, aclOpExecutor* executor) {
  Buffers& b = TheBuffers();
  const auto mirror_of = [&](int index) {
    const int64_t offset = c.O(index)->data_offset;
    return offset < 0 ? nullptr : static_cast<void*>(static_cast<char*>(b.mirror) + offset);
  };
  const bool combined = in.ConsumeBool();
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const int index = c.inputs[i];
    const aclnnStatus status = combined ? aclSetTensorAddr(executor, i, c.T(index), mirror_of(index))
                                        : aclSetInputTensorAddr(executor, i, c.T(index), mirror_of(index));
    CANOPY_FUZZ_CHECK(status == ACLNN_SUCCESS, "aclnn%s: rebinding input %zu returned %d", c.info->name, i, status);
  }
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    const int index = c.outputs[i];
    const aclnnStatus status = combined ? aclSetTensorAddr(executor, c.inputs.size() + i, c.T(index), mirror_of(index))
                                        : aclSetOutputTensorAddr(executor, i, c.T(index), mirror_of(index));
    CANOPY_FUZZ_CHECK(status == ACLNN_SUCCESS, "aclnn%s: rebinding output %zu returned %d", c.info->name, i, status);
  }
  aclTensor* any = c.T(c.inputs[0]);
  const aclnnStatus past_end = aclSetInputTensorAddr(executor, c.inputs.size(), any, mirror_of(c.inputs[0]));
  CANOPY_FUZZ_CHECK(past_end == ACLNN_ERR_PARAM_INVALID, "rebinding past the last input returned %d", past_end);
  const aclnnStatus no_tensor = aclSetOutputTensorAddr(executor, 0, nullptr, nullptr);
  CANOPY_FUZZ_CHECK(no_tensor == ACLNN_ERR_INNER_NULLPTR, "rebinding a null tensor returned %d", no_tensor);
  const aclnnStatus no_executor = aclSetTensorAddr(nullptr, 0, any, nullptr);
  CANOPY_FUZZ_CHECK(no_executor == ACLNN_ERR_INNER_NULLPTR, "rebinding on a null executor returned %d", no_executor);
  ClearErrorMessage();
  // Rebinding wrote the new address into the tensors too (as CANN does): put them back.
  for (const Operand& o : c.operands) {
    if (o.tensor != nullptr && o.data_offset >= 0) {
      aclSetRawTensorAddr(o.tensor, static_cast<char*>(b.main) + o.data_offset);
    }
  }
}

void RunPhase2(FuzzedDataProvider& in, Case& c, aclOpExecutor* executor, uint64_t workspace_size) {
  const OpInfo& op = *c.info;
  Buffers& b = TheBuffers();
  std::vector<uint8_t> image;
  FillBuffers(in, image);
  void* workspace = nullptr;
  if (workspace_size > 0) {
    const aclError status = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
    CANOPY_FUZZ_CHECK(status == ACL_SUCCESS, "aclrtMalloc(%llu) for the workspace returned %d",
                      static_cast<unsigned long long>(workspace_size), status);
  }
  aclrtStream stream = in.ConsumeBool() ? b.stream : nullptr;  // an explicit stream or the default one
  const bool repeatable = in.ConsumeIntegralInRange(0, 3) == 0;
  bool rebound = false;
  if (repeatable) CANOPY_FUZZ_CHECK(aclSetAclOpExecutorRepeatable(executor) == ACLNN_SUCCESS, "repeatable");
  aclnnStatus status = op.phase2(workspace, workspace_size, executor, stream);
  CANOPY_FUZZ_CHECK(status == ACLNN_SUCCESS, "aclnn%s returned %d: %s", op.name, status, aclGetRecentErrMsg());
  if (repeatable) {
    // An example call's slots include absent optionals and list elements: not rebound here.
    if (op.family != Family::kExample && in.ConsumeBool()) {
      Rebind(in, c, executor);
      rebound = true;
    }
    status = op.phase2(workspace, workspace_size, executor, stream);
    CANOPY_FUZZ_CHECK(status == ACLNN_SUCCESS, "aclnn%s (second run) returned %d", op.name, status);
  }
  // Clients destroy descriptors and hand the workspace back right after phase 2.
  c.DestroyTensors();
  const bool free_early = in.ConsumeBool();
  if (free_early && workspace != nullptr) CANOPY_FUZZ_CHECK(aclrtFree(workspace) == ACL_SUCCESS, "aclrtFree");
  if (repeatable && in.ConsumeBool()) {  // queued launches keep it alive
    CANOPY_FUZZ_CHECK(aclDestroyAclOpExecutor(executor) == ACLNN_SUCCESS, "aclDestroyAclOpExecutor");
    executor = nullptr;
  }
  const aclError sync = aclrtSynchronizeStream(stream);
  // An index tensor holds fuzzed values: one out of range fails the task, as on the NPU (with a message).
  // An example call's integer input (indices, lengths, group sizes) is such a tensor too.
  bool indexed = FindArg(*op.registry, "index", CANOPY_ARG_TENSOR) != nullptr ||
                 FindArg(*op.registry, "indices", CANOPY_ARG_TENSOR) != nullptr;
  if (op.family == Family::kExample) {
    for (int index : c.inputs) {
      const int dtype = c.O(index)->dtype;
      indexed |= dtype == ACL_INT8 || dtype == ACL_INT16 || dtype == ACL_INT32 || dtype == ACL_INT64 ||
                 dtype == ACL_UINT8 || dtype == ACL_UINT16 || dtype == ACL_UINT32 || dtype == ACL_UINT64;
    }
  }
  CANOPY_FUZZ_CHECK(sync == ACL_SUCCESS || (indexed && sync == ACL_ERROR_RT_AICORE_EXCEPTION),
                    "aclnn%s failed asynchronously with %d: %s", op.name, sync, aclGetRecentErrMsg());
  if (repeatable && executor != nullptr) {
    CANOPY_FUZZ_CHECK(aclDestroyAclOpExecutor(executor) == ACLNN_SUCCESS, "aclDestroyAclOpExecutor");
  }
  if (!free_early && workspace != nullptr) CANOPY_FUZZ_CHECK(aclrtFree(workspace) == ACL_SUCCESS, "aclrtFree");
  CheckUntouched(c, image, b.main);
  if (rebound) CheckUntouched(c, image, b.mirror);
}

// Phase 2 runs when every tensor the op uses lies inside the buffer.
bool Runnable(const Case& c) {
  for (const std::vector<int>* group : {&c.inputs, &c.outputs}) {
    for (int index : *group) {
      if (index < 0 || c.T(index) == nullptr || !c.O(index)->fits) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  InitRuntimeOnce();
  Buffers& b = TheBuffers();
  CANOPY_FUZZ_CHECK(aclrtMalloc(&b.main, kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CANOPY_FUZZ_CHECK(aclrtMalloc(&b.mirror, kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CANOPY_FUZZ_CHECK(aclrtCreateStream(&b.stream) == ACL_SUCCESS, "aclrtCreateStream");
  CANOPY_FUZZ_CHECK(aclrtCreateStream(&b.stale_stream) == ACL_SUCCESS, "aclrtCreateStream");
  CANOPY_FUZZ_CHECK(aclrtDestroyStream(b.stale_stream) == ACL_SUCCESS, "aclrtDestroyStream");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Case c;
  DrawCase(in, c);
  const OpInfo& op = *c.info;
  if (Verbose()) Describe(c);

  // Sometimes the output pointers themselves are null.
  const int pointers = in.ConsumeIntegralInRange(0, 31);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ClearErrorMessage();
  const aclnnStatus status =
      RunPhase1(c, pointers == 0 ? nullptr : &workspace_size, pointers == 1 ? nullptr : &executor);
  CANOPY_FUZZ_CHECK(IsDocumentedAclnnStatus(status), "aclnn%sGetWorkspaceSize returned %d", op.name, status);
  if (pointers <= 1) {
    CANOPY_FUZZ_CHECK(status == ACLNN_ERR_PARAM_NULLPTR, "aclnn%sGetWorkspaceSize with a null %s returned %d", op.name,
                      pointers == 0 ? "workspaceSize" : "executor", status);
  }
  if (status != ACLNN_SUCCESS) {
    const char* message = aclGetRecentErrMsg();
    CANOPY_FUZZ_CHECK(message != nullptr && message[0] != '\0', "aclnn%sGetWorkspaceSize returned %d without a message",
                      op.name, status);
    if (RequiredArgumentIsNull(c) && !(op.has_mode && (c.mode < 0 || c.mode > 2))) {
      CANOPY_FUZZ_CHECK(status == ACLNN_ERR_PARAM_NULLPTR, "aclnn%s: a null argument gave %d, not 161001", op.name,
                        status);
    }
    return 0;
  }
  CANOPY_FUZZ_CHECK(executor != nullptr, "aclnn%sGetWorkspaceSize succeeded without an executor", op.name);
  CheckAccepted(c);

  // The same call again: a plan-cache hit must agree with the first plan.
  if (in.ConsumeIntegralInRange(0, 3) == 0) {
    uint64_t again_size = 0;
    aclOpExecutor* again = nullptr;
    const aclnnStatus again_status = RunPhase1(c, &again_size, &again);
    CANOPY_FUZZ_CHECK(again_status == ACLNN_SUCCESS && again != nullptr && again_size == workspace_size,
                      "aclnn%s: a repeated phase 1 disagreed (%d, %llu vs %llu)", op.name, again_status,
                      static_cast<unsigned long long>(again_size), static_cast<unsigned long long>(workspace_size));
    DiscardExecutor(in, c, again, again_size);
  }

  if (Runnable(c) && workspace_size <= kMaxWorkspaceBytes && in.ConsumeIntegralInRange(0, 7) != 0) {
    RunPhase2(in, c, executor, workspace_size);
  } else {
    DiscardExecutor(in, c, executor, workspace_size);
  }
  return 0;
}
