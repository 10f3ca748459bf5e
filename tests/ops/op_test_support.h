// Test support for the aclnn operator suites: dtypes and their host
// encodings, device tensors with arbitrary views, seeded random data, and the
// two-phase call a client makes (phase 1, workspace, phase 2, destroy the
// descriptors, synchronise). Everything goes through the public C API.
#ifndef CANOPY_TESTS_OPS_OP_TEST_SUPPORT_H_
#define CANOPY_TESTS_OPS_OP_TEST_SUPPORT_H_

#include <array>
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "canopy/canopy_ops.h"

namespace canopy_test {

using Shape = std::vector<int64_t>;
// Every element value travels as a complex double: real dtypes use the real
// part only, which holds every value of every supported dtype exactly
// (64-bit integers are kept inside +-2^53 by the generators).
using Value = std::complex<double>;
using Values = std::vector<Value>;

// ---- Data types ---------------------------------------------------------------------------------

enum class DtypeKind { kBool, kSigned, kUnsigned, kFloat, kComplex };

struct DtypeInfo {
  aclDataType dtype;
  const char* name;  // short name used in test names: f32, bf16, s8, c64, ...
  size_t bytes;
  DtypeKind kind;
};

const DtypeInfo& Info(aclDataType dtype);
const char* Name(aclDataType dtype);
bool IsKnownDtype(aclDataType dtype);  // one of AllDtypes()
size_t ElementBytes(aclDataType dtype);
bool IsBool(aclDataType dtype);
bool IsIntegral(aclDataType dtype);  // signed or unsigned integer, not bool
bool IsUnsigned(aclDataType dtype);
bool IsRealFloat(aclDataType dtype);
bool IsComplex(aclDataType dtype);
bool IsFloating(aclDataType dtype);  // real float or complex
// Half the spacing of 1.0 in the dtype (f32: 2^-24); 0 for exact dtypes.
double UnitRoundoff(aclDataType dtype);

// The 15 dtypes the suite knows how to encode.
const std::vector<aclDataType>& AllDtypes();

// ---- fp16 / bf16 (round to nearest, ties to even) ----------------------------------------------

uint16_t DoubleToHalf(double value);
double HalfToDouble(uint16_t bits);
uint16_t DoubleToBf16(double value);
double Bf16ToDouble(uint16_t bits);

// The value `value` becomes when converted to `dtype` the way a C cast /
// PyTorch .to() does: complex to real keeps the real part, float to integer
// truncates toward zero, anything to bool tests for non-zero, floats round to
// nearest even.
Value ConvertValue(Value value, aclDataType dtype);

void EncodeValue(Value value, aclDataType dtype, void* dst);
Value DecodeValue(const void* src, aclDataType dtype);

// ---- Shapes and views ---------------------------------------------------------------------------

int64_t NumElements(const Shape& shape);
// The row-major multi-index of element `flat` of `shape`, and back.
Shape Unravel(int64_t flat, const Shape& shape);
int64_t Ravel(const Shape& index, const Shape& shape);
Shape ContiguousStrides(const Shape& shape);
std::string ShapeString(const Shape& shape);

// How a logical tensor sits in its storage.
enum class View {
  kContiguous,
  kOffset,      // contiguous, starting a few elements into the buffer
  kTransposed,  // last two dims swapped in memory (rank >= 2, else contiguous)
  kReversed,    // every dim permuted (storage holds the reversed shape)
  kStepped,     // every dim sliced with step 2, non-zero offset
  kBroadcast,   // stride 0 on every even dim (inputs only)
};
const char* ViewName(View view);

struct Layout {
  Shape shape;         // logical (view) shape
  Shape strides;       // in elements
  int64_t offset = 0;  // in elements
  Shape storageShape;  // physical shape handed to aclCreateTensor
  int64_t StorageElements() const;
  // Storage index of each logical element, in row-major logical order.
  std::vector<int64_t> ElementIndices() const;
};
Layout MakeLayout(const Shape& shape, View view);

// ---- Random data ----------------------------------------------------------------------------------

// A value range for generated data. Integers are drawn from [ceil(lo),
// floor(hi)]; minAbs > 0 keeps values away from zero (divisors).
// zeroEvery > 0 puts an exact zero at every zeroEvery-th element.
struct Range {
  double lo = -2;
  double hi = 2;
  double minAbs = 0;
  int zeroEvery = 0;
  bool allowAllZero = false;  // e.g. an all-false bool operand chosen on purpose
};

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed), seed_(seed) {}
  // Seeded from the running test's full name (and CANOPY_TEST_SEED if set).
  static Rng ForCurrentTest();
  Value Draw(aclDataType dtype, const Range& range);
  double Uniform(double lo, double hi);
  uint64_t seed() const { return seed_; }

 private:
  std::mt19937_64 engine_;
  uint64_t seed_;
};

// `count` values of `dtype` drawn from `range`, already quantised to the dtype
// and never all zero (unless range.allowAllZero).
Values RandomValues(Rng& rng, aclDataType dtype, int64_t count, const Range& range);

// ---- Device tensors -----------------------------------------------------------------------------

// A device buffer plus the view an aclTensor describes. Descriptors are made
// fresh for every op call (clients destroy theirs right after phase 2).
class DeviceTensor {
 public:
  DeviceTensor(aclDataType dtype, Layout layout);
  DeviceTensor(aclDataType dtype, const Shape& shape, View view = View::kContiguous);
  ~DeviceTensor();
  DeviceTensor(const DeviceTensor&) = delete;
  DeviceTensor& operator=(const DeviceTensor&) = delete;

  aclDataType dtype() const { return dtype_; }
  const Layout& layout() const { return layout_; }
  const Shape& shape() const { return layout_.shape; }
  int64_t numel() const { return NumElements(layout_.shape); }
  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }

  aclTensor* CreateDescriptor(aclFormat format = ACL_FORMAT_ND) const;

  // Whole-storage access (the buffer behind the view).
  void UploadBytes(const std::vector<uint8_t>& bytes);
  std::vector<uint8_t> DownloadBytes() const;
  void UploadStorage(const Values& storage);
  Values DownloadStorage() const;

  // Fill the whole storage with random values; returns the logical view.
  Values FillRandom(Rng& rng, const Range& range);
  // Write `logical` (row-major over the view) into the view elements.
  void WriteView(const Values& logical);
  Values ReadView() const;
  // NaN for float and complex dtypes, 0xA5 bytes otherwise.
  void Poison();

 private:
  aclDataType dtype_;
  Layout layout_;
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

// The poison byte pattern Poison() writes for `dtype`, one element.
std::vector<uint8_t> PoisonElement(aclDataType dtype);

// Expects every storage element outside the view to still hold `before`'s bytes.
void ExpectOutsideViewUnchanged(const DeviceTensor& tensor, const std::vector<uint8_t>& before,
                                const std::string& what);

// ---- One op call, as a client makes it --------------------------------------------------------

// The descriptors (and throw-away device tensors) of one op call. Descriptors
// are destroyed right after phase 2; device tensors live until the stream has
// been synchronised.
class OpArgs {
 public:
  OpArgs() = default;
  ~OpArgs();
  OpArgs(const OpArgs&) = delete;
  OpArgs& operator=(const OpArgs&) = delete;

  aclTensor* Tensor(const DeviceTensor& tensor, aclFormat format = ACL_FORMAT_ND);
  aclScalar* Scalar(aclDataType dtype, Value value);
  // A new random device tensor owned by this call.
  aclTensor* NewTensor(aclDataType dtype, const Shape& shape, View view = View::kContiguous,
                       aclFormat format = ACL_FORMAT_ND);
  // The same with values drawn from `range` (index tensors that must stay in bounds).
  aclTensor* NewTensorIn(const Range& range, aclDataType dtype, const Shape& shape, View view = View::kContiguous,
                         aclFormat format = ACL_FORMAT_ND);
  // A new random tensor of the NCDHW view `shape` over its FRACTAL_Z_3D storage,
  // [D*C1*H*W, N1, 16, C0] with C0 = 32 bytes of `dtype` (as aclnnNpuFormatCast makes it).
  aclTensor* NewFractalZ3dTensor(aclDataType dtype, const Shape& shape);
  // A new random tensor of the 2-D view `shape` ([r, c]) over NZ storage
  // [ceil(c / c0), ceil(r / 16), 16, c0], c0 = 32 bytes of `dtype`.
  aclTensor* NewFractalNzTensor(aclDataType dtype, const Shape& shape);
  // A new random contiguous view of `shape` over a buffer of `storage`'s shape, tagged `format`.
  aclTensor* NewOverStorage(aclDataType dtype, const Shape& shape, const Shape& storage, aclFormat format);
  aclIntArray* IntArray(const std::vector<int64_t>& values);
  aclFloatArray* FloatArray(const std::vector<float>& values);
  aclBoolArray* BoolArray(const std::vector<bool>& values);
  // A list of descriptors made by Tensor()/NewTensor() of this call.
  aclTensorList* TensorList(const std::vector<aclTensor*>& tensors);
  // A list of new scalars (the list owns them, as aclDestroyScalarList frees them);
  // element `nullIndex` is null instead.
  aclScalarList* ScalarList(aclDataType dtype, const std::vector<Value>& values, int nullIndex = -1);

  void DestroyDescriptors();
  void ReleaseDeviceTensors();

 private:
  std::vector<aclTensor*> tensors_;
  std::vector<aclScalar*> scalars_;
  std::vector<aclIntArray*> arrays_;
  std::vector<aclFloatArray*> float_arrays_;
  std::vector<aclBoolArray*> bool_arrays_;
  std::vector<aclTensorList*> tensor_lists_;
  std::vector<aclScalarList*> scalar_lists_;
  std::vector<std::unique_ptr<DeviceTensor>> owned_;
};

using Phase1 = std::function<aclnnStatus(OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor)>;
using Phase2 = aclnnStatus (*)(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

struct OpRun {
  aclnnStatus phase1 = -1;
  aclnnStatus phase2 = -1;
  uint64_t workspaceSize = 0;
  aclError sync = -1;
  std::string message;  // aclGetRecentErrMsg() after a phase-1 failure
  bool ok() const { return phase1 == ACLNN_SUCCESS && phase2 == ACLNN_SUCCESS && sync == ACL_SUCCESS; }
};

// Phase 1, workspace from aclrtMalloc when > 0, phase 2 on the test stream,
// descriptors destroyed at once, then one synchronisation.
OpRun RunOp(const Phase1& phase1, Phase2 phase2);

std::string Describe(const OpRun& run);

// A call that must succeed, with what failed in the message otherwise.
void ExpectRuns(const Phase1& phase1, Phase2 phase2);

// A contiguous device tensor holding `values` (row-major), and a poisoned one.
std::unique_ptr<DeviceTensor> Upload(aclDataType dtype, const Shape& shape, const Values& values);
std::unique_ptr<DeviceTensor> Poisoned(aclDataType dtype, const Shape& shape);

// One documented rejection: phase 1 returns `expected` (161002 by default)
// with a message naming `keyword`. Test files list them and instantiate a
// parameterised suite whose body is ExpectRejection(GetParam()).
struct RejectionCase {
  std::string name;
  Phase1 phase1;
  Phase2 phase2;  // releases the executor if phase 1 wrongly succeeds
  std::string keyword;
  aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
};
inline void PrintTo(const RejectionCase& r, std::ostream* os) { *os << r.name; }
void ExpectRejection(const RejectionCase& r);

// ---- Calls built from the op registry (canopy/canopy_ops.h) ------------------------------------

// A phase-1 call of any registered op. An op that declares an example call
// (canopyOpInfo::example, notation in registry_example.h) gets that call;
// otherwise every tensor argument is an f32 tensor of `shape`, every scalar an
// f32 1, every integer and enum argument 0 (ACL_FLOAT for a dtype), every bool
// false, every float or double 1, every int array [0, 1, ..., rank-1] (all dims:
// a valid dims, permutation or axes list), every float array rank 1s, every
// bool array rank `true`s, every tensor list two such tensors, every scalar list
// two f32 1s and every string "none" (the "no reduction" spelling CANN's loss
// ops use); an index tensor ("index", "indices") is int64 of shape [shape[0]]
// with values in [0, 1] and a "mask" tensor BOOL, as CANN names them in every
// op. The fields vary the call; argument indices are prototype positions.
struct RegistryCall {
  Shape shape = {2, 2};
  int nullArg = -1;         // this pointer argument (optional or not) is passed as null
  int nullElementArg = -1;  // this tensor or scalar list's second element is null
  int formatArg = -1;       // this tensor argument gets `format`
  aclFormat format = ACL_FORMAT_ND;
  int rankArg = -1;  // this tensor argument gets `rankShape`
  Shape rankShape;
  // Tensor arguments named "out" get `outShape` instead of `shape` (a reduction's result).
  bool outShapeSet = false;
  Shape outShape;
  // The tensors of an op's declared example call (canopyOpInfo::example) take this view:
  // kOffset plans differently from kContiguous, a plan-cache miss.
  View view = View::kContiguous;
  // The example names the one-rank example group (mc2_ranks.h) but the op runs
  // on 2 ranks or more: phase 1 passes every check up to CANN's rank-count
  // check and stops there with 561002, and nothing of the call can run.
  bool needsPeers = false;
};
// True when `run` is phase 1 stopping at an mc2 op's rank-count check.
bool StopsAtRankCount(const OpRun& run);
Phase1 RegistryPhase1(const canopyOpInfo& op, const RegistryCall& call);
// The same call's arguments, made in `args` and packed for op.callGetWorkspaceSize
// (one 8-byte cell per argument; `pointers` point into `cells`).
struct ExampleArgument;
struct RegistryArguments {
  std::vector<std::array<uint8_t, 8>> cells;
  std::vector<void*> pointers;
  std::shared_ptr<const std::vector<ExampleArgument>> example;  // owns the strings the cells point at
};
RegistryArguments PackRegistryArguments(const canopyOpInfo& op, const RegistryCall& call, OpArgs& args);

// The op's declared example call (canopyOpInfo::example) when it has one, else
// the first call for which RegistryPhase1 succeeds (phase 1 and 2): every tensor
// [2,2], [2,2,2], [2] or [2,2,2,2], or those with "out" of rank 0 (a reduction
// over every dim), in ND or else channel-first formats. call.shape is empty
// when none does.
RegistryCall RegistryValidCall(const canopyOpInfo& op);
// RegistryValidCall(op).shape.
Shape RegistryValidShape(const canopyOpInfo& op);

// Every registered op, in order of name.
std::vector<const canopyOpInfo*> RegisteredOps();

// ---- The process-wide device and stream --------------------------------------------------------

// aclInit + aclrtSetDevice(0) + one stream, made once (a gtest Environment
// tears them down).
aclrtStream TestStream();

// RAII device allocation.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return data_; }
  void* release() {
    void* data = data_;
    data_ = nullptr;
    return data;
  }

 private:
  void* data_ = nullptr;
};

// ---- Comparison ---------------------------------------------------------------------------------

// Expected values with a per-element absolute tolerance (0 = exact).
struct Expected {
  Values values;
  std::vector<double> tolerance;
};

// Compares `got` with `want` element by element (real and imaginary parts
// each within the tolerance); NaN matches only NaN and an infinity only
// itself. Reports the first few mismatches.
void ExpectNear(const Values& got, const Expected& want, const std::string& what);
void ExpectExact(const Values& got, const Values& want, const std::string& what);

// A readable gtest parameter name: keeps [A-Za-z0-9_], maps the rest to '_'.
std::string SanitizeName(const std::string& name);

}  // namespace canopy_test

#endif  // CANOPY_TESTS_OPS_OP_TEST_SUPPORT_H_
