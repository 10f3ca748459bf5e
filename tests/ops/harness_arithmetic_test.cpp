// Harness rows of Add, Sub, Mul and Div: the tensor forms (aclnnAdd ...) and
// the scalar forms (aclnnAdds ...), each with its in-place form and, for Add
// and Sub, the alpha attribute. The harness generates the dtype x view x
// shape x form x alpha cases (see harness/harness.h).
#include <algorithm>
#include <string>
#include <vector>

#include "elementwise_support.h"
#include "harness/harness.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

// Mixed dtypes of the tensor forms: promotion, and the promoted result cast into another out dtype.
std::vector<DtypeCase> MixedDtypes(BinaryOp op) {
  std::vector<DtypeCase> cases = {
      {{ACL_FLOAT16, ACL_FLOAT}},
      {{ACL_BF16, ACL_FLOAT16}},
      {{ACL_INT8, ACL_UINT8}},
      {{ACL_BOOL, ACL_FLOAT16}},
      {{ACL_INT32, ACL_BOOL}},
      {{ACL_INT64, ACL_BF16}},
      {{ACL_COMPLEX64, ACL_DOUBLE}},
      {{ACL_FLOAT, ACL_COMPLEX64}},
      {{ACL_FLOAT16, ACL_FLOAT16}, ACL_FLOAT},
      {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT16},
      {{ACL_BOOL, ACL_BOOL}, ACL_INT32},
      {{ACL_UINT8, ACL_UINT8}, ACL_DOUBLE},
  };
  if (op == BinaryOp::kDiv) {
    // Integer division is true division, truncated into an integer out.
    cases.push_back({{ACL_INT16, ACL_INT16}, ACL_FLOAT});
    cases.push_back({{ACL_INT32, ACL_INT32}, ACL_INT64});
  } else {
    cases.push_back({{ACL_INT64, ACL_INT64}, ACL_INT8});
  }
  return cases;
}

// alpha: a bool true fits every compute dtype; integral and float alphas where
// the compute dtype takes them (an unsigned compute keeps alpha positive, so
// that differences stay in range).
std::vector<AttrSet> AlphaSets(bool scalarOther) {
  auto compute = [](const DtypeCase& dc) { return Promote(dc.inputs[0], dc.inputs[1]).value_or(ACL_FLOAT); };
  return {
      {"", {{"alpha", ScalarAttr{ACL_BOOL, 1.0}}}},
      {"alpha_s32_neg2",
       {{"alpha", ScalarAttr{ACL_INT32, -2.0}}},
       [compute](const DtypeCase& dc) { return !IsBool(compute(dc)) && !IsUnsigned(compute(dc)); }},
      {"alpha_f32",
       {{"alpha", ScalarAttr{ACL_FLOAT, scalarOther ? -1.5 : 0.75}}},
       [compute](const DtypeCase& dc) { return IsFloating(compute(dc)); }},
      {"alpha_c64",
       {{"alpha", ScalarAttr{ACL_COMPLEX64, Value(0.5, 1.0)}}},
       [compute](const DtypeCase& dc) { return IsComplex(compute(dc)); }},
  };
}

// The compute dtype of the scalar forms when the scalar has the tensor's dtype.
aclDataType SameDtypeScalarCompute(BinaryOp op, aclDataType self) {
  if (op == BinaryOp::kMul && self == ACL_BF16) return ACL_FLOAT;
  if (op == BinaryOp::kDiv && !IsFloating(self) && !IsBool(self)) return ACL_FLOAT;
  return self;
}

Reference ArithmeticReference(BinaryOp op, bool scalarOther) {
  return [op, scalarOther](const RefCall& call) {
    const Operand& self = call.inputs[0];
    const Operand& other = call.inputs[1];
    const aclDataType compute =
        scalarOther ? SameDtypeScalarCompute(op, self.dtype) : BinaryComputeDtype(op, self.dtype, other.dtype);
    const Value alpha = HasAlpha(op) ? call.attrs.Scalar("alpha").value : Value(1.0);
    Expected want = ReferenceBinary(op, self.values, self.shape, other.values, other.shape, alpha, compute, call.out);
    // ReferenceBinary's tolerance is relative; a result in f16's subnormal range
    // (a product of two small f16 values) is rounded to its absolute spacing
    // 2^-24 when computed in f16, and a device computing in f32 need not round.
    if (compute == ACL_FLOAT16) {
      for (double& t : want.tolerance) t = std::max(t, 0x1p-24);
    }
    return want;
  };
}

OpRow ArithmeticRow(BinaryOp op, bool scalarOther) {
  OpRow row;
  row.name = std::string(BinaryOpName(op)) + (scalarOther ? "s" : "");
  auto range = [op](bool isOther) {
    return RangeRule([op, isOther](aclDataType dtype, const CaseInfo&) { return OperandRange(op, dtype, isOther); });
  };
  row.inputs = {Arg{.name = "self", .range = range(false)},
                Arg{.name = "other", .kind = scalarOther ? ArgKind::kScalar : ArgKind::kTensor, .range = range(true)}};
  auto alpha = [op](Call& c) { return HasAlpha(op) ? c.ScalarAttr("alpha") : nullptr; };
  if (scalarOther) {
    row.out = {[op, alpha](Call& c) {
                 return ScalarOpPhase1(op, c.Tensor(0), c.Scalar(1), alpha(c), c.Out(), c.workspaceSize, c.executor);
               },
               ScalarOpPhase2(op, false)};
    row.inplace = {[op, alpha](Call& c) {
                     return InplaceScalarOpPhase1(op, c.Tensor(0), c.Scalar(1), alpha(c), c.workspaceSize, c.executor);
                   },
                   ScalarOpPhase2(op, true)};
    // InplaceAdds lists no complex dtype on A2.
    if (op == BinaryOp::kAdd)
      row.inplace.accepts = [](const DtypeCase& dc, aclDataType) { return !IsComplex(dc.inputs[0]); };
    row.dtypes = EachDtype(ElementwiseDtypes());
  } else {
    row.out = {[op, alpha](Call& c) {
                 return TensorOpPhase1(op, c.Tensor(0), c.Tensor(1), alpha(c), c.Out(), c.workspaceSize, c.executor);
               },
               TensorOpPhase2(op, false)};
    row.inplace = {[op, alpha](Call& c) {
                     return InplaceTensorOpPhase1(op, c.Tensor(0), c.Tensor(1), alpha(c), c.workspaceSize, c.executor);
                   },
                   TensorOpPhase2(op, true)};
    // In place, the promoted result is cast into selfRef's dtype.
    row.inplace.accepts = [](const DtypeCase& dc, aclDataType) {
      const auto promoted = Promote(dc.inputs[0], dc.inputs[1]);
      return dc.out == ACL_DT_UNDEFINED && promoted && CanCast(*promoted, dc.inputs[0]);
    };
    row.dtypes = Concat(EachDtype(ElementwiseDtypes()), Singly(MixedDtypes(op)));
    row.outDtype = PromotedDtype();
  }
  if (HasAlpha(op)) row.attrs = AlphaSets(scalarOther);
  row.reference = ArithmeticReference(op, scalarOther);
  return row;
}

std::vector<OpRow> ArithmeticRows() {
  std::vector<OpRow> rows;
  for (BinaryOp op : AllBinaryOps()) {
    rows.push_back(ArithmeticRow(op, /*scalarOther=*/false));
    rows.push_back(ArithmeticRow(op, /*scalarOther=*/true));
  }
  return rows;
}

CANOPY_HARNESS_ROWS(ArithmeticRows);

}  // namespace
}  // namespace canopy_test
