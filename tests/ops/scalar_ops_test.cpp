// Adds, Subs, Muls, Divs and their in-place forms against the float64
// reference: every A2 dtype with a scalar of its own dtype, scalars of other
// dtypes (the impl's compute-dtype rules of the fact sheet), alpha, views,
// rank 0 to rank 8 and empty tensors.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "elementwise_support.h"

namespace canopy_test {
namespace {

struct ScalarCase {
  std::string name;
  BinaryOp op;
  aclDataType self;
  aclDataType scalarDtype;
  Value scalar;
  aclDataType out;
  Shape shape = {3, 5};
  View selfView = View::kContiguous;
  View outView = View::kContiguous;
  bool inplace = false;
  std::optional<std::pair<aclDataType, Value>> alpha = std::nullopt;  // default: DefaultAlpha(compute)
};

void PrintTo(const ScalarCase& c, std::ostream* os) { *os << c.name; }

// Compute dtype of the tensor-scalar forms on A2 (fact sheet, impl rules).
aclDataType ScalarComputeDtype(BinaryOp op, aclDataType self, aclDataType scalar, aclDataType out) {
  const aclDataType promoted = Promote(self, scalar).value_or(ACL_FLOAT);
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
      if (IsComplex(self) || IsComplex(scalar)) return promoted;
      if (IsRealFloat(self)) return self;
      if (scalar == ACL_DOUBLE && out == ACL_FLOAT) return ACL_FLOAT;
      if (IsRealFloat(scalar) || IsBool(self)) return promoted;
      return self;
    case BinaryOp::kMul:
      if (IsComplex(self) || IsComplex(scalar)) return promoted;
      if (IsRealFloat(self)) return self == ACL_BF16 ? ACL_FLOAT : self;
      if ((IsBool(self) && scalar == ACL_DOUBLE) || (scalar == ACL_DOUBLE && out == ACL_FLOAT)) return ACL_FLOAT;
      if (IsRealFloat(scalar) || IsBool(self)) return promoted;
      return self;
    case BinaryOp::kDiv: {
      aclDataType compute = IsFloating(self) ? self : ACL_FLOAT;
      if (IsBool(self) && IsBool(scalar)) compute = ACL_BOOL;
      if (IsComplex(scalar)) compute = Promote(compute, scalar).value_or(compute);
      return compute;
    }
  }
  return promoted;
}

// A scalar of `dtype` that is exact in every dtype and keeps results in range.
Value NaturalScalar(BinaryOp op, aclDataType dtype) {
  // bool - true is not well defined (PyTorch rejects it); subtract false.
  if (IsBool(dtype)) return op == BinaryOp::kSub ? 0.0 : 1.0;
  if (IsComplex(dtype)) return {0.5, -1.25};
  if (IsUnsigned(dtype)) return 3.0;
  if (IsIntegral(dtype)) return op == BinaryOp::kSub ? 3.0 : -3.0;
  return op == BinaryOp::kDiv ? -1.25 : 0.75;
}

struct ScalarRow {
  aclDataType self, scalarDtype;
  Value scalar;
  aclDataType out;
};

// Scalars of another dtype, for Adds / Subs / Muls.
const std::vector<ScalarRow>& MixedRows() {
  static const std::vector<ScalarRow> rows = {
      {ACL_FLOAT16, ACL_FLOAT, 0.75, ACL_FLOAT16},
      {ACL_FLOAT, ACL_DOUBLE, 1.25, ACL_FLOAT},
      {ACL_BF16, ACL_INT32, 3.0, ACL_BF16},
      {ACL_FLOAT, ACL_INT64, -2.0, ACL_FLOAT},
      {ACL_DOUBLE, ACL_FLOAT16, 0.5, ACL_DOUBLE},
      {ACL_FLOAT, ACL_BOOL, 1.0, ACL_FLOAT},
      {ACL_BF16, ACL_FLOAT, -1.5, ACL_BF16},
      {ACL_INT32, ACL_FLOAT, 0.75, ACL_FLOAT},
      {ACL_INT8, ACL_DOUBLE, 1.25, ACL_DOUBLE},
      {ACL_INT32, ACL_DOUBLE, 1.25, ACL_FLOAT},
      {ACL_UINT8, ACL_INT32, 3.0, ACL_UINT8},
      {ACL_INT16, ACL_BOOL, 1.0, ACL_INT16},
      {ACL_INT64, ACL_INT8, -2.0, ACL_INT64},
      {ACL_BOOL, ACL_INT32, 3.0, ACL_INT32},
      {ACL_BOOL, ACL_FLOAT, 0.5, ACL_FLOAT},
      {ACL_FLOAT, ACL_COMPLEX64, Value(1.0, -0.5), ACL_COMPLEX64},
      {ACL_COMPLEX64, ACL_DOUBLE, 1.25, ACL_COMPLEX128},
      {ACL_INT32, ACL_COMPLEX128, Value(0.5, 2.0), ACL_COMPLEX128},
      {ACL_COMPLEX128, ACL_INT32, 2.0, ACL_COMPLEX128},
      {ACL_FLOAT16, ACL_FLOAT16, 0.75, ACL_FLOAT},
      {ACL_INT32, ACL_INT32, 2.0, ACL_INT64},
  };
  return rows;
}

// Scalars of another dtype for Divs (integer tensors divide in f32).
const std::vector<ScalarRow>& DivRows() {
  static const std::vector<ScalarRow> rows = {
      {ACL_FLOAT16, ACL_FLOAT, 0.5, ACL_FLOAT16},
      {ACL_FLOAT, ACL_INT32, -2.0, ACL_FLOAT},
      {ACL_BF16, ACL_DOUBLE, 1.25, ACL_BF16},
      {ACL_INT32, ACL_FLOAT, 0.75, ACL_FLOAT},
      {ACL_INT16, ACL_INT32, 3.0, ACL_FLOAT},
      {ACL_UINT8, ACL_UINT8, 4.0, ACL_FLOAT},
      {ACL_INT8, ACL_INT64, -3.0, ACL_DOUBLE},
      {ACL_BOOL, ACL_FLOAT, 0.5, ACL_FLOAT},
      {ACL_INT32, ACL_INT32, 3.0, ACL_INT32},
      {ACL_COMPLEX64, ACL_FLOAT, 2.0, ACL_COMPLEX64},
      {ACL_FLOAT, ACL_COMPLEX64, Value(1.0, -0.5), ACL_COMPLEX64},
      {ACL_DOUBLE, ACL_FLOAT16, -0.5, ACL_DOUBLE},
      {ACL_INT64, ACL_INT8, 4.0, ACL_INT64},
  };
  return rows;
}

std::string RowName(const ScalarRow& r) {
  return std::string(Name(r.self)) + "_by_" + Name(r.scalarDtype) + "_to_" + Name(r.out);
}

std::vector<ScalarCase> ScalarCases() {
  std::vector<ScalarCase> cases;
  for (BinaryOp op : AllBinaryOps()) {
    const std::string p = std::string(BinaryOpName(op)) + "s";
    for (aclDataType dt : ElementwiseDtypes()) {
      cases.push_back({p + "_dtype_" + Name(dt), op, dt, dt, NaturalScalar(op, dt), dt});
      // InplaceAdds lists no complex dtype on A2.
      if (op == BinaryOp::kAdd && IsComplex(dt)) continue;
      ScalarCase inplace{p + "_inplace_dtype_" + Name(dt), op, dt, dt, NaturalScalar(op, dt), dt};
      inplace.inplace = true;
      cases.push_back(inplace);
    }
    for (const ScalarRow& r : op == BinaryOp::kDiv ? DivRows() : MixedRows()) {
      cases.push_back({p + "_mixed_" + RowName(r), op, r.self, r.scalarDtype, r.scalar, r.out});
    }
    const Value s = NaturalScalar(op, ACL_FLOAT);
    const View c = View::kContiguous;
    cases.push_back({p + "_view_stepped_self", op, ACL_FLOAT, ACL_FLOAT, s, ACL_FLOAT, {4, 6}, View::kStepped, c});
    cases.push_back({p + "_view_transposed_self_stepped_out",
                     op,
                     ACL_FLOAT,
                     ACL_FLOAT,
                     s,
                     ACL_FLOAT,
                     {4, 6},
                     View::kTransposed,
                     View::kStepped});
    cases.push_back({p + "_view_offsets_s32",
                     op,
                     ACL_INT32,
                     ACL_INT32,
                     NaturalScalar(op, ACL_INT32),
                     ACL_INT32,
                     {4, 6},
                     View::kOffset,
                     View::kOffset});
    cases.push_back(
        {p + "_view_broadcast_self", op, ACL_FLOAT16, ACL_FLOAT16, s, ACL_FLOAT16, {4, 6}, View::kBroadcast, c});
    cases.push_back({p + "_view_reversed_rank3_c64",
                     op,
                     ACL_COMPLEX64,
                     ACL_COMPLEX64,
                     Value(0.5, -1.25),
                     ACL_COMPLEX64,
                     {2, 3, 4},
                     View::kReversed,
                     View::kTransposed});
    cases.push_back({p + "_rank0", op, ACL_FLOAT, ACL_FLOAT, s, ACL_FLOAT, {}});
    cases.push_back({p + "_rank0_offset",
                     op,
                     ACL_INT64,
                     ACL_INT64,
                     NaturalScalar(op, ACL_INT64),
                     ACL_INT64,
                     {},
                     View::kOffset,
                     View::kOffset});
    cases.push_back({p + "_rank8", op, ACL_FLOAT, ACL_FLOAT, s, ACL_FLOAT, {2, 1, 2, 1, 2, 1, 2, 2}});
    cases.push_back({p + "_rank8_stepped",
                     op,
                     ACL_BF16,
                     ACL_FLOAT,
                     s,
                     ACL_BF16,
                     {2, 1, 2, 1, 2, 1, 2, 2},
                     View::kStepped,
                     View::kStepped});
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_DOUBLE, ACL_INT8, ACL_COMPLEX64}) {
      cases.push_back({p + "_large_" + Name(dt), op, dt, dt, NaturalScalar(op, dt), dt, {300, 257}});
    }
    cases.push_back({p + "_large_transposed_f32",
                     op,
                     ACL_FLOAT,
                     ACL_FLOAT,
                     s,
                     ACL_FLOAT,
                     {256, 301},
                     View::kTransposed,
                     View::kStepped});
    cases.push_back({p + "_empty", op, ACL_FLOAT, ACL_FLOAT, s, ACL_FLOAT, {0, 4}});
    cases.push_back({p + "_empty_rank3", op, ACL_INT32, ACL_INT32, NaturalScalar(op, ACL_INT32), ACL_INT32, {3, 0, 2}});
    // In-place with a scalar of another dtype, and on strided views.
    const std::vector<ScalarRow> inplaceRows = {
        {ACL_FLOAT16, ACL_FLOAT, op == BinaryOp::kDiv ? 0.5 : 0.75, ACL_FLOAT16},
        {ACL_INT32, ACL_INT64, op == BinaryOp::kDiv ? 3.0 : -2.0, ACL_INT32},
        {ACL_BF16, ACL_INT32, 3.0, ACL_BF16},
        {ACL_UINT8, ACL_BOOL, 1.0, ACL_UINT8},
    };
    for (const ScalarRow& r : inplaceRows) {
      ScalarCase inplace{p + "_inplace_mixed_" + RowName(r), op, r.self, r.scalarDtype, r.scalar, r.out};
      inplace.inplace = true;
      cases.push_back(inplace);
    }
    ScalarCase strided{p + "_inplace_transposed", op, ACL_FLOAT, ACL_FLOAT, s, ACL_FLOAT, {4, 6}, View::kTransposed};
    strided.inplace = true;
    cases.push_back(strided);
    ScalarCase stepped{p + "_inplace_stepped_rank3", op,        ACL_INT16, ACL_INT16,
                       NaturalScalar(op, ACL_INT16), ACL_INT16, {2, 3, 4}, View::kStepped};
    stepped.inplace = true;
    cases.push_back(stepped);
    ScalarCase empty{p + "_inplace_empty", op, ACL_FLOAT, ACL_FLOAT, s, ACL_FLOAT, {2, 0}};
    empty.inplace = true;
    cases.push_back(empty);
  }
  // alpha on Adds / Subs.
  for (BinaryOp op : {BinaryOp::kAdd, BinaryOp::kSub}) {
    const std::string p = std::string(BinaryOpName(op)) + "s";
    struct AlphaRow {
      aclDataType dtype, scalarDtype;
      Value scalar;
      aclDataType alphaDtype;
      Value alpha;
    };
    const std::vector<AlphaRow> rows = {
        {ACL_FLOAT, ACL_FLOAT, 0.75, ACL_FLOAT, -2.0},
        {ACL_INT32, ACL_INT32, 3.0, ACL_INT64, -2.0},
        {ACL_FLOAT16, ACL_FLOAT16, 0.5, ACL_DOUBLE, 0.5},
        {ACL_COMPLEX64, ACL_COMPLEX64, Value(0.5, 1.0), ACL_COMPLEX64, Value(0.0, 1.0)},
        {ACL_INT8, ACL_INT8, 2.0, ACL_BOOL, 1.0},
        {ACL_DOUBLE, ACL_INT32, 3.0, ACL_INT16, 3.0},
    };
    for (const AlphaRow& r : rows) {
      ScalarCase c{
          p + "_alpha_" + Name(r.alphaDtype) + "_on_" + Name(r.dtype), op, r.dtype, r.scalarDtype, r.scalar, r.dtype};
      c.alpha = std::make_pair(r.alphaDtype, r.alpha);
      cases.push_back(c);
      if (!IsComplex(r.dtype)) {
        ScalarCase inplace = c;
        inplace.name = p + "_inplace_alpha_" + Name(r.alphaDtype) + "_on_" + Name(r.dtype);
        inplace.inplace = true;
        cases.push_back(inplace);
      }
    }
  }
  return cases;
}

class ScalarOpTest : public ::testing::TestWithParam<ScalarCase> {};

TEST_P(ScalarOpTest, MatchesReference) {
  const ScalarCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(c.self, c.shape, c.selfView);
  const Values selfValues = self.FillRandom(rng, OperandRange(c.op, c.self, false));
  std::unique_ptr<DeviceTensor> separateOut;
  const DeviceTensor* out = &self;
  if (!c.inplace) {
    separateOut = std::make_unique<DeviceTensor>(c.out, c.shape, c.outView);
    separateOut->Poison();
    out = separateOut.get();
  }
  ASSERT_EQ(out->dtype(), c.out) << "bad test case";
  const std::vector<uint8_t> outBefore = out->DownloadBytes();

  const aclDataType compute = ScalarComputeDtype(c.op, c.self, c.scalarDtype, c.out);
  // Named variables, not a structured binding: clang 14 cannot capture bindings in a lambda.
  const std::pair<aclDataType, Value> alphaSpec = c.alpha.value_or(DefaultAlpha(compute));
  const aclDataType alphaDtype = alphaSpec.first;
  const Value alpha = alphaSpec.second;
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* selfTensor = args.Tensor(self);
        aclScalar* other = args.Scalar(c.scalarDtype, c.scalar);
        aclScalar* alphaScalar = HasAlpha(c.op) ? args.Scalar(alphaDtype, alpha) : nullptr;
        if (c.inplace) return InplaceScalarOpPhase1(c.op, selfTensor, other, alphaScalar, workspaceSize, executor);
        return ScalarOpPhase1(c.op, selfTensor, other, alphaScalar, args.Tensor(*out), workspaceSize, executor);
      },
      ScalarOpPhase2(c.op, c.inplace));
  ASSERT_TRUE(run.ok()) << Describe(run);

  const Values scalarValue = {ConvertValue(c.scalar, c.scalarDtype)};
  const Expected want =
      ReferenceBinary(c.op, selfValues, c.shape, scalarValue, {}, HasAlpha(c.op) ? alpha : Value(1.0), compute, c.out);
  ExpectNear(out->ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(*out, outBefore, c.name + " out storage");
  if (!c.inplace) ExpectExact(self.ReadView(), selfValues, "self must not change");
  if (NumElements(c.shape) == 0) {
    EXPECT_EQ(run.workspaceSize, 0u) << "empty tensors need no workspace";
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, ScalarOpTest, ::testing::ValuesIn(ScalarCases()),
                         [](const ::testing::TestParamInfo<ScalarCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
