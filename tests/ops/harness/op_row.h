// The row of the table-driven op-test harness: everything the harness needs to
// know about one aclnn op (its two phases, its float64 reference, its dtypes,
// value ranges, shapes, attributes and in-place form) to generate its test
// cases. See harness.h for what is generated and docs/adding-an-op.md for
// worked rows.
#ifndef CANOPY_TESTS_OPS_HARNESS_OP_ROW_H_
#define CANOPY_TESTS_OPS_HARNESS_OP_ROW_H_

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "op_test_support.h"

namespace canopy_test::harness {

// ---- Dtypes ---------------------------------------------------------------------------------------

// The dtypes of one call: one per row input (a single entry applies to every
// input), and the out dtype (ACL_DT_UNDEFINED: the row's outDtype rule decides).
// `pairwise`: the case meets every value of every other factor (each view of
// each input, each out view, the typical and large shapes). false: it appears
// at least once and meets each form and attribute set only; for long lists of
// mixed dtypes (promotion triples, Cast's dtype pairs) that would multiply the
// case count.
struct DtypeCase {
  std::vector<aclDataType> inputs{};
  aclDataType out = ACL_DT_UNDEFINED;
  bool pairwise = true;
};

// The out dtype of a call from its input dtypes; nullopt: the op rejects the
// combination (the harness then does not generate it).
using DtypeRule = std::function<std::optional<aclDataType>(const std::vector<aclDataType>& inputs)>;

// ---- Attributes -----------------------------------------------------------------------------------

// An aclScalar attribute (alpha). ACL_DT_UNDEFINED: a scalar of the call's out
// dtype holding ConvertValue(value, out dtype).
struct ScalarAttr {
  aclDataType dtype = ACL_DT_UNDEFINED;
  Value value = 0.0;
};

using AttrValue = std::variant<int64_t, bool, double, std::vector<int64_t>, ScalarAttr, aclDataType>;

// One set of attribute values the harness sweeps. `name` goes into the test
// names ("" for the row's only set); `when`, if set, limits the set to the
// dtype cases it accepts (an integral alpha only where the compute dtype is
// integral, say).
struct AttrSet {
  std::string name{};
  std::vector<std::pair<std::string, AttrValue>> values{};
  std::function<bool(const DtypeCase&)> when{};

  bool Has(const std::string& key) const;
  int64_t Int(const std::string& key) const;
  bool Bool(const std::string& key) const;
  double Double(const std::string& key) const;
  const std::vector<int64_t>& IntArray(const std::string& key) const;
  ScalarAttr Scalar(const std::string& key) const;  // resolved: a defined dtype, the converted value
  aclDataType Dtype(const std::string& key) const;
  const AttrValue* Find(const std::string& key) const;
};

// ---- Shapes ---------------------------------------------------------------------------------------

// Input shapes of one call, one per tensor input (fewer: the last one repeats;
// scalar inputs take none). `everyDtype`: every dtype case meets this shape
// (the typical shape, and the large one that crosses the kernels' vector and
// thread blocks); other shapes are paired with the other factors only.
struct ShapeCase {
  std::string name{};
  std::vector<Shape> inputs{};
  bool everyDtype = false;
};

// The out shape from the input shapes (scalars: {}) and the attributes;
// nullopt: no valid call (the harness does not generate it).
using ShapeRule = std::function<std::optional<Shape>(const std::vector<Shape>& inputs, const AttrSet& attrs)>;

// ---- One generated case ---------------------------------------------------------------------------

// Everything one generated test case fixes. Value-range rules and invalid-value
// rules see it (an index range depends on the indexed dim's size).
struct CaseInfo {
  std::string name;
  std::vector<aclDataType> dtypes;  // per row input
  aclDataType out = ACL_DT_UNDEFINED;
  std::vector<Shape> shapes;  // per row input ({} for scalars)
  Shape outShape;
  std::vector<View> views;  // per row input (kContiguous for scalars)
  View outView = View::kContiguous;
  bool inplace = false;
  AttrSet attrs;             // scalar attributes resolved
  int invalidInput = -1;     // >= 0: this input holds `invalidValue` at one element (a stream-error case)
  Value invalidValue = 0.0;  //
};

// ---- Inputs ---------------------------------------------------------------------------------------

enum class ArgKind { kTensor, kScalar };

// The value range of an input: a constant Range, or a function of the input's
// dtype and the case (divisors away from zero, log's positive inputs, indices
// inside the indexed dim).
class RangeRule {
 public:
  using Function = std::function<Range(aclDataType dtype, const CaseInfo& info)>;
  RangeRule() = default;
  RangeRule(Range range) : range_(range) {}                         // NOLINT(google-explicit-constructor)
  RangeRule(Function function) : function_(std::move(function)) {}  // NOLINT(google-explicit-constructor)
  Range For(aclDataType dtype, const CaseInfo& info) const { return function_ ? function_(dtype, info) : range_; }

 private:
  Range range_;
  Function function_;
};

// The views an input tensor is tried in.
const std::vector<View>& AllInputViews();   // contiguous, offset, transposed, reversed, stepped, broadcast
const std::vector<View>& AllOutputViews();  // the same without broadcast

struct Arg {
  std::string name{};  // the prototype's name: "self", "other", "index"
  ArgKind kind = ArgKind::kTensor;
  RangeRule range{};
  // Dtypes of an input that does not follow the row's dtype cases (an index
  // tensor: s32 and s64): swept as a factor of its own. Empty: the dtype cases decide.
  std::vector<aclDataType> dtypes{};
  std::vector<View> views = AllInputViews();
  // Combinations of this input's dtype and view the op does not accept
  // (nullptr: all of `views` for every dtype).
  std::function<bool(aclDataType dtype, View view)> viewAllowed{};
  // Values that make the op fail on the stream (an index out of range): for
  // each, a case with that value at one element, expecting phase 1 to succeed
  // and phase 2 or the synchronisation to fail.
  std::function<std::vector<Value>(const CaseInfo& info)> invalidValues{};
};

// ---- Phases and reference -------------------------------------------------------------------------

class Call;
// Phase 1 of one form: builds the descriptors from `call` and returns
// aclnnXxxGetWorkspaceSize(..., call.workspaceSize, call.executor).
using Phase1Fn = std::function<aclnnStatus(Call& call)>;

struct Form {
  Phase1Fn phase1{};  // null: the op has no such form
  Phase2 phase2 = nullptr;
};

struct InPlaceForm {
  Phase1Fn phase1{};  // null: no in-place form; input 0 is selfRef and the output
  Phase2 phase2 = nullptr;
  // selfRef's values are not read (Copy, Fill, Zero): it is poisoned before the call.
  bool overwrites = false;
  // The dtype cases the in-place form accepts (nullptr: out dtype == input 0's dtype).
  std::function<bool(const DtypeCase& dtypes, aclDataType outDtype)> accepts{};
};

// What the float64 reference receives: each input's dtype, shape and values
// (row-major over the view; a scalar is one value of shape {}), the resolved
// attributes and the out dtype and shape.
struct Operand {
  aclDataType dtype;
  Shape shape;
  Values values;
};

struct RefCall {
  const std::vector<Operand>& inputs;
  const AttrSet& attrs;
  aclDataType out;
  const Shape& outShape;
  bool inplace;
};

// The expected out values, row-major over outShape. With an empty tolerance
// the harness derives one from the row's Tolerance (values are then rounded to
// the out dtype first); a reference that knows better (cancellation) fills it.
using Reference = std::function<Expected(const RefCall& call)>;

// Allowed error, in units of roundoff of the out dtype (UnitRoundoff: f32 2^-24)
// relative to max(|expected|, minMagnitude). Integer and bool outputs are exact.
struct Tolerance {
  double ulps = 2;
  std::vector<std::pair<aclDataType, double>> perDtype{};  // overrides `ulps` (fp16/bf16 transcendental functions)
  double minMagnitude = 0;
  double UlpsFor(aclDataType dtype) const;
};

// ---- The row --------------------------------------------------------------------------------------

struct OpRow {
  std::string name{};         // the gtest suite name: "Add", "InplaceCopy"
  std::vector<Arg> inputs{};  // in prototype order
  Form out{};                 // the form with an out tensor
  InPlaceForm inplace{};      //
  std::vector<DtypeCase> dtypes{};
  DtypeRule outDtype{};             // nullptr: same as input 0
  std::vector<ShapeCase> shapes{};  // empty: ElementwiseShapes()
  ShapeRule outShape{};             // nullptr: the broadcast of the tensor inputs
  std::vector<AttrSet> attrs{};     // empty: one set without attributes
  std::vector<View> outViews = AllOutputViews();
  Reference reference{};
  Tolerance tolerance{};
  bool expectCacheHit = true;  // the repeated call must be a plan-cache hit
};

// ---- The call the phase-1 functions build ----------------------------------------------------------

// The descriptors of one call, made on demand (fresh each call, destroyed after
// phase 2 as clients do).
class Call {
 public:
  aclTensor* Tensor(size_t input);
  aclScalar* Scalar(size_t input);
  aclTensor* Out();  // the out tensor (out form only)
  // The device tensor behind input `input` (null for scalars), for rows that
  // build a descriptor of their own (an aliasing view, say).
  const DeviceTensor* Buffer(size_t input) const { return input < tensors_.size() ? tensors_[input] : nullptr; }
  aclDataType OutDtype() const { return info_.out; }
  const CaseInfo& info() const { return info_; }

  aclScalar* ScalarAttr(const std::string& key);
  aclIntArray* IntArrayAttr(const std::string& key);
  int64_t IntAttr(const std::string& key) const { return info_.attrs.Int(key); }
  bool BoolAttr(const std::string& key) const { return info_.attrs.Bool(key); }
  double DoubleAttr(const std::string& key) const { return info_.attrs.Double(key); }
  aclDataType DtypeAttr(const std::string& key) const { return info_.attrs.Dtype(key); }
  OpArgs& args() { return args_; }

  uint64_t* workspaceSize;
  aclOpExecutor** executor;

  // Made by the harness.
  Call(OpArgs& args, const CaseInfo& info, std::vector<const DeviceTensor*> tensors, std::vector<Value> scalars,
       const DeviceTensor* out, uint64_t* workspaceSizeOut, aclOpExecutor** executorOut)
      : workspaceSize(workspaceSizeOut),
        executor(executorOut),
        args_(args),
        info_(info),
        tensors_(std::move(tensors)),
        scalars_(std::move(scalars)),
        out_(out) {}

 private:
  OpArgs& args_;
  const CaseInfo& info_;
  std::vector<const DeviceTensor*> tensors_;  // per input (null for scalars)
  std::vector<Value> scalars_;                // per input (scalars' values)
  const DeviceTensor* out_;
};

}  // namespace canopy_test::harness

#endif  // CANOPY_TESTS_OPS_HARNESS_OP_ROW_H_
