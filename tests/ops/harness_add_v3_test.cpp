// The harness row of aclnnAddV3 / aclnnInplaceAddV3: out = self + alpha * other
// with self a scalar. The row lists other first (the tensor the in-place form
// writes) and self second; the phase-1 calls pass them in prototype order.
// CANN's compute dtype: FLOAT for a floating other, else other's dtype unless a
// floating self promotes it (a DOUBLE self with a FLOAT out computes in FLOAT).
#include <optional>
#include <vector>

#include "aclnnop/aclnn_add_v3.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

aclDataType AddV3Compute(aclDataType other, aclDataType self, aclDataType out) {
  if (IsComplex(other) || IsComplex(self)) return Promote(other, self).value_or(ACL_COMPLEX64);
  if (IsFloating(other)) return ACL_FLOAT;
  if (self == ACL_DOUBLE && out == ACL_FLOAT) return ACL_FLOAT;
  if (IsFloating(self)) return Promote(other, self).value_or(ACL_FLOAT);
  return other;
}

std::vector<OpRow> AddV3Rows() {
  OpRow row;
  row.name = "AddV3";
  row.inputs = {Arg{.name = "other", .range = Range{-10, 10}},
                Arg{.name = "self", .kind = ArgKind::kScalar, .range = Range{-4, 4}}};
  row.out = {[](Call& c) {
               return aclnnAddV3GetWorkspaceSize(c.Scalar(1), c.Tensor(0), c.ScalarAttr("alpha"), c.Out(),
                                                 c.workspaceSize, c.executor);
             },
             aclnnAddV3};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceAddV3GetWorkspaceSize(c.Scalar(1), c.Tensor(0), c.ScalarAttr("alpha"),
                                                            c.workspaceSize, c.executor);
                 },
                 aclnnInplaceAddV3};
  // In place the result is cast into other's dtype.
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) {
    return dc.out == ACL_DT_UNDEFINED &&
           CanCast(AddV3Compute(dc.inputs[0], dc.inputs[1], ACL_DT_UNDEFINED), dc.inputs[0]);
  };
  row.dtypes = Concat(EachDtype({ACL_FLOAT, ACL_INT32, ACL_FLOAT16, ACL_BF16, ACL_INT8}),
                      Singly({{{ACL_INT32, ACL_FLOAT}},
                              {{ACL_INT8, ACL_INT32}},
                              {{ACL_FLOAT, ACL_COMPLEX64}},
                              {{ACL_INT8, ACL_COMPLEX128}},
                              {{ACL_INT8, ACL_FLOAT16}},
                              {{ACL_INT32, ACL_BOOL}},
                              {{ACL_FLOAT16, ACL_DOUBLE}, ACL_FLOAT},
                              {{ACL_INT32, ACL_DOUBLE}, ACL_FLOAT},
                              {{ACL_INT32, ACL_DOUBLE}, ACL_DOUBLE},
                              {{ACL_BF16, ACL_BF16}, ACL_FLOAT},
                              {{ACL_INT32, ACL_INT32}, ACL_FLOAT}}));
  // out takes other's dtype where the compute dtype casts to it (f16 -> f32 -> f16), else the compute dtype.
  row.outDtype = [](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    const aclDataType compute = AddV3Compute(in[0], in[1], ACL_DT_UNDEFINED);
    return CanCast(compute, in[0]) ? in[0] : compute;
  };
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  auto floating = [](const DtypeCase& dc) { return IsFloating(AddV3Compute(dc.inputs[0], dc.inputs[1], dc.out)); };
  row.attrs = {{"", {{"alpha", ScalarAttr{ACL_INT32, 2.0}}}},
               {"alpha_one", {{"alpha", ScalarAttr{ACL_INT8, 1.0}}}},
               {"alpha_f32", {{"alpha", ScalarAttr{ACL_FLOAT, 0.75}}}, floating},
               {"alpha_bf16", {{"alpha", ScalarAttr{ACL_BF16, -1.5}}}, floating}};
  row.reference = ComputedIn(
      [](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
        return AddV3Compute(in[0], in[1], ACL_DT_UNDEFINED);
      },
      [](const std::vector<Value>& x, const AttrSet& attrs) { return x[1] + attrs.Scalar("alpha").value * x[0]; }, 2,
      /*minMagnitude=*/16);
  return {row};
}
CANOPY_HARNESS_ROWS(AddV3Rows);

}  // namespace
}  // namespace canopy_test
