// Harness rows of the pointwise ops with two or more operands (the engine in
// kernels/binary_pointwise.h): comparisons, the Clamp family, Pow,
// MaskedFill, Addcdiv. Each row gives the op's dtypes (CANN's Atlas A2
// column), its promotion and a float64 reference; the harness generates the
// dtype x view x shape x in-place x cache cases (harness/harness.h).
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

// CANN's TensorScalar deduction: the tensor's dtype unless the scalar brings
// floating point (FLOAT) or complex (COMPLEX64) into integer or bool math.
std::optional<aclDataType> TensorScalarDtype(aclDataType tensor, aclDataType scalar) {
  if (IsComplex(tensor)) return tensor;
  if (IsComplex(scalar)) return tensor == ACL_DOUBLE ? ACL_COMPLEX128 : ACL_COMPLEX64;
  if (IsRealFloat(tensor)) return tensor;
  if (IsRealFloat(scalar)) return ACL_FLOAT;
  if (IsBool(tensor)) return Promote(tensor, scalar);
  return tensor;
}

// The dtype two operands compute in: tensor-tensor promotion, or the
// TensorScalar deduction when the second is a scalar.
aclDataType ComputeDtype(const RefCall& call, bool scalarOther) {
  const aclDataType a = call.inputs[0].dtype, b = call.inputs[1].dtype;
  return *(scalarOther ? TensorScalarDtype(a, b) : Promote(a, b));
}

// ---- comparisons --------------------------------------------------------------------------------

const std::vector<aclDataType> kEqDtypes = {ACL_DOUBLE, ACL_FLOAT16, ACL_FLOAT,     ACL_BF16,
                                            ACL_INT64,  ACL_INT32,   ACL_INT8,      ACL_UINT8,
                                            ACL_BOOL,   ACL_INT16,   ACL_COMPLEX64, ACL_COMPLEX128};
const std::vector<aclDataType> kGtDtypes = {ACL_DOUBLE, ACL_BF16,  ACL_FLOAT16, ACL_FLOAT, ACL_INT32,
                                            ACL_UINT32, ACL_INT64, ACL_UINT64,  ACL_INT16, ACL_UINT16,
                                            ACL_INT8,   ACL_UINT8, ACL_BOOL};

// A comparison's reference: both operands converted to the compute dtype, 1 or 0.
Reference Comparison(bool scalarOther, bool (*compare)(Value, Value)) {
  return [scalarOther, compare](const RefCall& call) {
    const aclDataType compute = ComputeDtype(call, scalarOther);
    return Pointwise([compute, compare](const std::vector<Value>& x, const AttrSet&) {
      return Value(compare(ConvertValue(x[0], compute), ConvertValue(x[1], compute)) ? 1.0 : 0.0);
    })(call);
  };
}

// Small integers tie often (random floats rarely do: binary_pointwise_test
// compares floats with ties, NaN and infinities).
const Range kComparisonRange{-2, 2};

// ElementwiseShapes() with both operands empty in the empty case: the in-place
// form rejects exactly one empty operand (binary_pointwise_test checks that).
std::vector<ShapeCase> BothEmptyShapes() {
  std::vector<ShapeCase> shapes = ElementwiseShapes();
  for (ShapeCase& s : shapes) {
    if (s.name == "empty") s.inputs = {{0, 3}, {0, 3}};
  }
  return shapes;
}

OpRow EqTensorRow() {
  OpRow row;
  row.name = "EqTensor";
  row.inputs = {Arg{.name = "self", .range = kComparisonRange}, Arg{.name = "other", .range = kComparisonRange}};
  row.out = {[](Call& c) {
               return aclnnEqTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnEqTensor};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceEqTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize, c.executor);
                 },
                 aclnnInplaceEqTensor};
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) {
    return dc.out == ACL_DT_UNDEFINED && Promote(dc.inputs[0], dc.inputs[1]).has_value();
  };
  // Promotion across categories, and the 1 / 0 result in a non-bool out (ggml's count_equal: s32 out).
  row.dtypes = Concat(EachDtype(kEqDtypes), Singly({{{ACL_FLOAT16, ACL_FLOAT}},
                                                    {{ACL_INT32, ACL_FLOAT}},
                                                    {{ACL_BOOL, ACL_INT8}},
                                                    {{ACL_BF16, ACL_FLOAT16}},
                                                    {{ACL_COMPLEX64, ACL_DOUBLE}},
                                                    {{ACL_INT32, ACL_INT32}, ACL_INT32},
                                                    {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT},
                                                    {{ACL_FLOAT16, ACL_FLOAT16}, ACL_FLOAT16}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.shapes = BothEmptyShapes();
  row.reference = Comparison(false, [](Value a, Value b) { return a == b; });
  return row;
}

OpRow GtScalarRow() {
  OpRow row;
  row.name = "GtScalar";
  row.inputs = {Arg{.name = "self", .range = kComparisonRange},
                Arg{.name = "other", .kind = ArgKind::kScalar, .range = kComparisonRange}};
  row.out = {[](Call& c) {
               return aclnnGtScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnGtScalar};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceGtScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.workspaceSize, c.executor);
                 },
                 aclnnInplaceGtScalar};
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) { return dc.out == ACL_DT_UNDEFINED; };
  // A float scalar against integers compares in FLOAT; against FLOAT16 it is rounded to FLOAT16 first (ggml's step: f32
  // 0).
  row.dtypes = Concat(EachDtype(kGtDtypes), Singly({{{ACL_INT32, ACL_FLOAT}},
                                                    {{ACL_FLOAT16, ACL_DOUBLE}},
                                                    {{ACL_BF16, ACL_FLOAT}},
                                                    {{ACL_BOOL, ACL_INT32}},
                                                    {{ACL_UINT8, ACL_INT64}},
                                                    {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT},
                                                    {{ACL_FLOAT16, ACL_FLOAT}, ACL_FLOAT16},
                                                    {{ACL_INT64, ACL_INT64}, ACL_COMPLEX64}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.reference = Comparison(true, [](Value a, Value b) { return a.real() > b.real(); });
  return row;
}

std::vector<OpRow> BinaryPointwiseRows() { return {EqTensorRow(), GtScalarRow()}; }
CANOPY_HARNESS_ROWS(BinaryPointwiseRows);

}  // namespace
}  // namespace canopy_test
