// Add, Sub, Mul, Div (tensor with tensor) and their in-place forms against
// the float64 reference: every A2 dtype, promotion and casting into out,
// broadcasting from rank 0 to rank 8, strided / transposed / offset views of
// inputs and outputs, outputs aliasing inputs, and empty tensors.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "elementwise_support.h"

namespace canopy_test {
namespace {

enum class Form {
  kOut,         // aclnnXxx with a separate out tensor
  kInplace,     // aclnnInplaceXxx(selfRef, other)
  kOutIsSelf,   // aclnnXxx with out the same memory and view as self
  kOutIsOther,  // aclnnXxx with out the same memory and view as other
};

struct BinaryCase {
  std::string name;
  BinaryOp op;
  aclDataType self, other, out;
  Shape selfShape, otherShape;
  View selfView = View::kContiguous;
  View otherView = View::kContiguous;
  View outView = View::kContiguous;
  Form form = Form::kOut;
  std::optional<std::pair<aclDataType, Value>> alpha = std::nullopt;  // default: DefaultAlpha(compute)
};

void PrintTo(const BinaryCase& c, std::ostream* os) { *os << c.name; }

const Shape kMatrix = {4, 5};

std::string Prefix(BinaryOp op) { return BinaryOpName(op); }

// Mixed-dtype (self, other, out) triples: promotion, then a cast into out.
struct DtypeTriple {
  aclDataType self, other, out;
};

std::string TripleName(const DtypeTriple& t) {
  return std::string(Name(t.self)) + "_" + Name(t.other) + "_to_" + Name(t.out);
}

const std::vector<DtypeTriple>& PromotionTriples() {
  static const std::vector<DtypeTriple> triples = {
      // promotion (out = promoted dtype)
      {ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT},
      {ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT},
      {ACL_BF16, ACL_FLOAT16, ACL_FLOAT},
      {ACL_INT8, ACL_UINT8, ACL_INT16},
      {ACL_UINT8, ACL_INT8, ACL_INT16},
      {ACL_BOOL, ACL_FLOAT16, ACL_FLOAT16},
      {ACL_INT32, ACL_BOOL, ACL_INT32},
      {ACL_UINT8, ACL_BOOL, ACL_UINT8},
      {ACL_INT64, ACL_BF16, ACL_BF16},
      {ACL_INT32, ACL_DOUBLE, ACL_DOUBLE},
      {ACL_INT16, ACL_INT32, ACL_INT32},
      {ACL_COMPLEX64, ACL_DOUBLE, ACL_COMPLEX128},
      {ACL_FLOAT, ACL_COMPLEX64, ACL_COMPLEX64},
      {ACL_INT8, ACL_COMPLEX128, ACL_COMPLEX128},
      {ACL_BOOL, ACL_INT8, ACL_INT8},
      {ACL_FLOAT16, ACL_INT32, ACL_FLOAT16},
      // the promoted result cast into a different out dtype
      {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT},
      {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT16},
      {ACL_FLOAT, ACL_FLOAT, ACL_DOUBLE},
      {ACL_BF16, ACL_BF16, ACL_FLOAT},
      {ACL_INT64, ACL_INT64, ACL_INT8},
      {ACL_BOOL, ACL_BOOL, ACL_INT32},
      {ACL_FLOAT, ACL_FLOAT, ACL_COMPLEX64},
      {ACL_INT8, ACL_INT8, ACL_FLOAT16},
      {ACL_UINT8, ACL_UINT8, ACL_DOUBLE},
      {ACL_COMPLEX64, ACL_COMPLEX64, ACL_COMPLEX128},
      {ACL_DOUBLE, ACL_DOUBLE, ACL_FLOAT},
      {ACL_INT16, ACL_UINT8, ACL_BF16},
  };
  return triples;
}

// Integer division: true division, truncated when out is an integer type.
// (s32 / s32 into a float out is left out: the device divides in int32 there.)
const std::vector<DtypeTriple>& IntegerDivisionTriples() {
  static const std::vector<DtypeTriple> triples = {
      {ACL_INT16, ACL_INT16, ACL_FLOAT},  {ACL_INT8, ACL_UINT8, ACL_FLOAT}, {ACL_UINT8, ACL_UINT8, ACL_FLOAT},
      {ACL_INT64, ACL_INT32, ACL_DOUBLE}, {ACL_BOOL, ACL_INT8, ACL_FLOAT},  {ACL_INT32, ACL_INT32, ACL_INT64},
      {ACL_INT16, ACL_INT8, ACL_INT16},
  };
  return triples;
}

struct ShapePair {
  const char* name;
  Shape self, other;
};

const std::vector<ShapePair>& BroadcastShapePairs() {
  static const std::vector<ShapePair> pairs = {
      {"row", {3, 4}, {4}},
      {"column_and_row", {3, 1}, {1, 4}},
      {"rank3_with_rank2", {2, 1, 4}, {3, 1}},
      {"rank0_other", {2, 3}, {}},
      {"rank0_self", {}, {2, 3}},
      {"rank0_both", {}, {}},
      {"ones_to_matrix", {1}, {3, 3}},
      {"rank5", {3, 1, 2, 1, 2}, {4, 1, 2, 1}},
      {"rank8_interleaved", {2, 1, 2, 1, 2, 1, 2, 1}, {1, 2, 1, 2, 1, 2, 1, 2}},
      {"rank8_same", {2, 2, 1, 2, 1, 2, 1, 3}, {2, 2, 1, 2, 1, 2, 1, 3}},
      {"rank8_with_rank1", {1, 2, 1, 2, 1, 2, 3, 2}, {2}},
  };
  return pairs;
}

struct ViewTriple {
  const char* name;
  View self, other, out;
  Shape shape;
};

const std::vector<ViewTriple>& ViewTriples() {
  static const std::vector<ViewTriple> views = {
      {"self_transposed", View::kTransposed, View::kContiguous, View::kContiguous, {4, 6}},
      {"other_stepped", View::kContiguous, View::kStepped, View::kContiguous, {4, 6}},
      {"out_stepped", View::kContiguous, View::kContiguous, View::kStepped, {4, 6}},
      {"out_transposed", View::kContiguous, View::kContiguous, View::kTransposed, {4, 6}},
      {"offsets", View::kOffset, View::kOffset, View::kOffset, {4, 6}},
      {"self_broadcast_stride0", View::kBroadcast, View::kContiguous, View::kContiguous, {4, 6}},
      {"all_strided", View::kTransposed, View::kStepped, View::kStepped, {4, 6}},
      {"rank3_reversed_stepped", View::kReversed, View::kStepped, View::kReversed, {2, 3, 4}},
      {"rank1_stepped_offset", View::kStepped, View::kOffset, View::kStepped, {7}},
  };
  return views;
}

std::vector<BinaryCase> BinaryCases() {
  std::vector<BinaryCase> cases;
  for (BinaryOp op : AllBinaryOps()) {
    const std::string p = Prefix(op);
    for (aclDataType dt : ElementwiseDtypes()) {
      cases.push_back({p + "_dtype_" + Name(dt), op, dt, dt, dt, kMatrix, kMatrix});
      cases.push_back({p + "_inplace_dtype_" + Name(dt),
                       op,
                       dt,
                       dt,
                       dt,
                       kMatrix,
                       {5},
                       View::kContiguous,
                       View::kContiguous,
                       View::kContiguous,
                       Form::kInplace});
    }
    for (const DtypeTriple& t : PromotionTriples()) {
      cases.push_back({p + "_mixed_" + TripleName(t), op, t.self, t.other, t.out, kMatrix, kMatrix});
    }
    if (op == BinaryOp::kDiv) {
      for (const DtypeTriple& t : IntegerDivisionTriples()) {
        cases.push_back({p + "_intdiv_" + TripleName(t), op, t.self, t.other, t.out, kMatrix, kMatrix});
      }
    }
    for (const ShapePair& s : BroadcastShapePairs()) {
      for (aclDataType dt : {ACL_FLOAT, ACL_INT32}) {
        cases.push_back({p + "_broadcast_" + s.name + "_" + Name(dt), op, dt, dt, dt, s.self, s.other});
      }
    }
    for (const ViewTriple& v : ViewTriples()) {
      for (aclDataType dt : {ACL_FLOAT, ACL_BF16, ACL_INT32, ACL_COMPLEX64}) {
        cases.push_back(
            {p + "_view_" + v.name + "_" + Name(dt), op, dt, dt, dt, v.shape, v.shape, v.self, v.other, v.out});
      }
    }
    // Large enough for the vectorised and multi-threaded paths, with odd tails.
    for (aclDataType dt : ElementwiseDtypes()) {
      cases.push_back({p + "_large_" + Name(dt), op, dt, dt, dt, {300, 257}, {257}});
    }
    cases.push_back({p + "_large_transposed_stepped_f32",
                     op,
                     ACL_FLOAT,
                     ACL_FLOAT,
                     ACL_FLOAT,
                     {256, 301},
                     {256, 301},
                     View::kTransposed,
                     View::kStepped,
                     View::kStepped});
    cases.push_back({p + "_large_broadcast_view_f16_bf16",
                     op,
                     ACL_FLOAT16,
                     ACL_BF16,
                     ACL_FLOAT,
                     {200, 203},
                     {200, 203},
                     View::kBroadcast,
                     View::kTransposed});
    cases.push_back({p + "_large_column_broadcast_s32", op, ACL_INT32, ACL_INT32, ACL_INT32, {300, 1}, {1, 257}});
    cases.push_back({p + "_large_inplace_f16",
                     op,
                     ACL_FLOAT16,
                     ACL_FLOAT16,
                     ACL_FLOAT16,
                     {300, 257},
                     {257},
                     View::kContiguous,
                     View::kContiguous,
                     View::kContiguous,
                     Form::kInplace});
    // Broadcasting and strides together, with a dtype change on the way.
    cases.push_back({p + "_view_broadcast_transposed_f16_f32",
                     op,
                     ACL_FLOAT16,
                     ACL_FLOAT,
                     ACL_FLOAT,
                     {3, 1, 5},
                     {4, 5},
                     View::kStepped,
                     View::kTransposed,
                     View::kStepped});
    // Empty tensors: success, workspace 0, nothing written.
    cases.push_back({p + "_empty_rows", op, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {0, 3}, {3}});
    cases.push_back({p + "_empty_both", op, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, {2, 0}, {2, 0}});
    cases.push_back({p + "_empty_broadcast", op, ACL_INT32, ACL_INT32, ACL_INT32, {0}, {1}});
    cases.push_back({p + "_empty_rank3", op, ACL_FLOAT, ACL_INT8, ACL_FLOAT, {3, 0, 2}, {1, 2}});
    // In-place forms and outputs that alias inputs.
    const View c = View::kContiguous;
    cases.push_back(
        {p + "_inplace_broadcast_rows", op, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {3, 4}, {4}, c, c, c, Form::kInplace});
    cases.push_back(
        {p + "_inplace_rank0_other", op, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {3, 4}, {}, c, c, c, Form::kInplace});
    cases.push_back({p + "_inplace_f16_self_f32_other",
                     op,
                     ACL_FLOAT16,
                     ACL_FLOAT,
                     ACL_FLOAT16,
                     {3, 4},
                     {3, 4},
                     c,
                     c,
                     c,
                     Form::kInplace});
    cases.push_back(
        {p + "_inplace_s8_self_u8_other", op, ACL_INT8, ACL_UINT8, ACL_INT8, {3, 4}, {1, 4}, c, c, c, Form::kInplace});
    cases.push_back({p + "_inplace_transposed_self",
                     op,
                     ACL_FLOAT,
                     ACL_FLOAT,
                     ACL_FLOAT,
                     {4, 6},
                     {4, 6},
                     View::kTransposed,
                     View::kStepped,
                     c,
                     Form::kInplace});
    cases.push_back({p + "_inplace_stepped_self_rank3",
                     op,
                     ACL_INT32,
                     ACL_INT32,
                     ACL_INT32,
                     {2, 3, 4},
                     {3, 1},
                     View::kStepped,
                     c,
                     c,
                     Form::kInplace});
    cases.push_back(
        {p + "_inplace_rank0_self", op, ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE, {}, {}, c, c, c, Form::kInplace});
    cases.push_back({p + "_inplace_empty", op, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {0, 4}, {4}, c, c, c, Form::kInplace});
    cases.push_back({p + "_out_is_self", op, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {3, 4}, {4}, c, c, c, Form::kOutIsSelf});
    cases.push_back({p + "_out_is_self_transposed",
                     op,
                     ACL_FLOAT,
                     ACL_FLOAT,
                     ACL_FLOAT,
                     {4, 6},
                     {4, 6},
                     View::kTransposed,
                     c,
                     c,
                     Form::kOutIsSelf});
    cases.push_back(
        {p + "_out_is_other", op, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {4}, {3, 4}, c, c, c, Form::kOutIsOther});
    cases.push_back({p + "_out_is_other_s32",
                     op,
                     ACL_INT32,
                     ACL_INT32,
                     ACL_INT32,
                     {4, 6},
                     {4, 6},
                     c,
                     View::kStepped,
                     c,
                     Form::kOutIsOther});
  }
  // alpha: every dtype class, castable to the compute dtype.
  struct AlphaRow {
    aclDataType dtype, alphaDtype;
    Value alpha;
    const char* name;
  };
  const std::vector<AlphaRow> alphas = {
      {ACL_FLOAT, ACL_FLOAT, -0.5, "neg_half"},
      {ACL_FLOAT, ACL_DOUBLE, 0.25, "f64"},
      {ACL_FLOAT, ACL_INT32, 3.0, "s32"},
      {ACL_FLOAT16, ACL_FLOAT16, 2.0, "f16"},
      {ACL_BF16, ACL_INT64, -3.0, "s64"},
      {ACL_INT32, ACL_INT64, -3.0, "s64"},
      {ACL_INT8, ACL_BOOL, 1.0, "bool"},
      {ACL_INT32, ACL_INT32, 0.0, "zero"},
      {ACL_COMPLEX64, ACL_COMPLEX64, Value(0.5, 1.0), "c64"},
      {ACL_COMPLEX128, ACL_DOUBLE, 2.5, "f64"},
      {ACL_DOUBLE, ACL_FLOAT, 1.25, "f32"},
      {ACL_UINT8, ACL_UINT8, 3.0, "u8"},
      {ACL_BOOL, ACL_BOOL, 1.0, "bool"},
      {ACL_FLOAT, ACL_FLOAT16, 0.75, "f16"},
      {ACL_INT16, ACL_INT8, -2.0, "s8"},
      {ACL_COMPLEX64, ACL_FLOAT, -1.5, "f32"},
  };
  for (BinaryOp op : {BinaryOp::kAdd, BinaryOp::kSub}) {
    for (const AlphaRow& a : alphas) {
      BinaryCase c{
          Prefix(op) + "_alpha_" + a.name + "_on_" + Name(a.dtype), op, a.dtype, a.dtype, a.dtype, kMatrix, kMatrix};
      c.alpha = std::make_pair(a.alphaDtype, a.alpha);
      cases.push_back(c);
    }
    BinaryCase inplace{Prefix(op) + "_inplace_alpha_neg2_f32", op, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kMatrix, {5}};
    inplace.form = Form::kInplace;
    inplace.alpha = std::make_pair(ACL_FLOAT, Value(-2.0));
    cases.push_back(inplace);
  }
  return cases;
}

class BinaryOpTest : public ::testing::TestWithParam<BinaryCase> {};

TEST_P(BinaryOpTest, MatchesReference) {
  const BinaryCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const std::optional<Shape> outShape = BroadcastShapes(c.selfShape, c.otherShape);
  ASSERT_TRUE(outShape.has_value()) << "bad test case";

  DeviceTensor self(c.self, c.selfShape, c.selfView);
  DeviceTensor other(c.other, c.otherShape, c.otherView);
  const Values selfValues = self.FillRandom(rng, OperandRange(c.op, c.self, false));
  const Values otherValues = other.FillRandom(rng, OperandRange(c.op, c.other, true));
  std::unique_ptr<DeviceTensor> separateOut;
  const DeviceTensor* out = nullptr;
  switch (c.form) {
    case Form::kOut:
      separateOut = std::make_unique<DeviceTensor>(c.out, *outShape, c.outView);
      separateOut->Poison();
      out = separateOut.get();
      break;
    case Form::kInplace:
    case Form::kOutIsSelf:
      out = &self;
      break;
    case Form::kOutIsOther:
      out = &other;
      break;
  }
  ASSERT_EQ(out->dtype(), c.out) << "bad test case: the aliased tensor must have the out dtype";
  const std::vector<uint8_t> outBefore = out->DownloadBytes();

  const aclDataType compute = BinaryComputeDtype(c.op, c.self, c.other);
  // Named variables, not a structured binding: clang 14 cannot capture bindings in a lambda.
  const std::pair<aclDataType, Value> alphaSpec = c.alpha.value_or(DefaultAlpha(compute));
  const aclDataType alphaDtype = alphaSpec.first;
  const Value alpha = alphaSpec.second;
  const bool inplace = c.form == Form::kInplace;
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* selfTensor = args.Tensor(self);
        aclTensor* otherTensor = args.Tensor(other);
        aclScalar* alphaScalar = HasAlpha(c.op) ? args.Scalar(alphaDtype, alpha) : nullptr;
        if (inplace) return InplaceTensorOpPhase1(c.op, selfTensor, otherTensor, alphaScalar, workspaceSize, executor);
        return TensorOpPhase1(c.op, selfTensor, otherTensor, alphaScalar, args.Tensor(*out), workspaceSize, executor);
      },
      TensorOpPhase2(c.op, inplace));
  ASSERT_TRUE(run.ok()) << Describe(run);

  const Expected want = ReferenceBinary(c.op, selfValues, c.selfShape, otherValues, c.otherShape,
                                        HasAlpha(c.op) ? alpha : Value(1.0), compute, c.out);
  ExpectNear(out->ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(*out, outBefore, c.name + " out storage");
  if (c.form == Form::kOut) {
    ExpectExact(self.ReadView(), selfValues, "self must not change");
    ExpectExact(other.ReadView(), otherValues, "other must not change");
  }
  if (NumElements(*outShape) == 0) {
    EXPECT_EQ(run.workspaceSize, 0u) << "empty tensors need no workspace";
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, BinaryOpTest, ::testing::ValuesIn(BinaryCases()),
                         [](const ::testing::TestParamInfo<BinaryCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- IEEE special values ------------------------------------------------------------------------

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Fixed operands (cycled to 67 elements so that vector loops and their tails
// both see them). Division by zero appears here and only here.
struct SpecialCase {
  std::string name;
  BinaryOp op;
  aclDataType dtype;
  std::vector<double> self, other;
  bool otherIsScalar = false;  // Adds/Subs/Muls/Divs with other[0]
};

void PrintTo(const SpecialCase& x, std::ostream* os) { *os << x.name; }

std::vector<SpecialCase> SpecialCases() {
  struct Row {
    const char* name;
    BinaryOp op;
    std::vector<double> self, other;
    bool scalar;
  };
  const std::vector<Row> rows = {
      {"div_by_zero", BinaryOp::kDiv, {1, -1, 0, 2.5, -0.0, kInf, kNan}, {0, 0, 0, -0.0, 0, 0, 0}, false},
      {"div_infinities", BinaryOp::kDiv, {kInf, 1, -1, kNan, -kInf, 3}, {kInf, kInf, -kInf, 2, 4, -kInf}, false},
      {"divs_by_zero", BinaryOp::kDiv, {1, -1, 0, kNan, kInf, -3}, {0}, true},
      {"divs_by_negative_zero", BinaryOp::kDiv, {1, -1, 0, -kInf}, {-0.0}, true},
      {"add_infinities_nan",
       BinaryOp::kAdd,
       {kInf, -kInf, kNan, kInf, 1, 60000},
       {-kInf, 1, 1, kInf, kNan, 60000},
       false},
      {"adds_nan", BinaryOp::kAdd, {1, -2, kInf, 0}, {kNan}, true},
      {"sub_infinities", BinaryOp::kSub, {kInf, kInf, kNan, -kInf, 0}, {kInf, 1, 0, kInf, kNan}, false},
      {"mul_zero_times_infinity",
       BinaryOp::kMul,
       {0, kInf, kNan, -kInf, 1e30, -0.0},
       {kInf, -2, 0, -kInf, 1e30, 5},
       false},
      {"muls_infinity", BinaryOp::kMul, {0, 1, -1, kNan}, {kInf}, true},
  };
  std::vector<SpecialCase> cases;
  for (const Row& r : rows) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
      cases.push_back({std::string(r.name) + "_" + Name(dt), r.op, dt, r.self, r.other, r.scalar});
    }
  }
  return cases;
}

Values Cycled(const std::vector<double>& values, size_t count) {
  Values out(count);
  for (size_t i = 0; i < count; ++i) out[i] = values[i % values.size()];
  return out;
}

class SpecialValuesTest : public ::testing::TestWithParam<SpecialCase> {};

TEST_P(SpecialValuesTest, FollowIeee) {
  const SpecialCase& x = GetParam();
  constexpr size_t kCount = 67;
  const Shape shape = {static_cast<int64_t>(kCount)};
  DeviceTensor self(x.dtype, shape);
  DeviceTensor other(x.dtype, shape);
  DeviceTensor out(x.dtype, shape);
  const Values selfValues = Cycled(x.self, kCount);
  const Values otherValues = Cycled(x.other, kCount);
  self.WriteView(selfValues);
  other.WriteView(otherValues);
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclScalar* alpha = HasAlpha(x.op) ? args.Scalar(ACL_FLOAT, 1.0) : nullptr;
        if (x.otherIsScalar) {
          return ScalarOpPhase1(x.op, args.Tensor(self), args.Scalar(x.dtype, x.other[0]), alpha, args.Tensor(out),
                                workspaceSize, executor);
        }
        return TensorOpPhase1(x.op, args.Tensor(self), args.Tensor(other), alpha, args.Tensor(out), workspaceSize,
                              executor);
      },
      x.otherIsScalar ? ScalarOpPhase2(x.op, false) : TensorOpPhase2(x.op, false));
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values quantisedSelf = self.ReadView(), quantisedOther = other.ReadView();
  const Expected want =
      x.otherIsScalar
          ? ReferenceBinary(x.op, quantisedSelf, shape, {ConvertValue(x.other[0], x.dtype)}, {}, 1.0, x.dtype, x.dtype)
          : ReferenceBinary(x.op, quantisedSelf, shape, quantisedOther, shape, 1.0, x.dtype, x.dtype);
  ExpectNear(out.ReadView(), want, x.name);
}

INSTANTIATE_TEST_SUITE_P(Cases, SpecialValuesTest, ::testing::ValuesIn(SpecialCases()),
                         [](const ::testing::TestParamInfo<SpecialCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
