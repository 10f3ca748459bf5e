// Harness rows of Cast, InplaceCopy, InplaceFillScalar and InplaceZero: every
// dtype (and every dtype pair of Cast and Copy, each at least once), views,
// broadcasting into selfRef, rank 0, rank 8, empty and large tensors (see
// harness/harness.h for what each case checks).
#include <vector>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_fill_tensor.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_zero.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

// Source values every target dtype holds: within +-100 (non-negative when
// either side is unsigned), with fractions (truncation) and exact zeros (bool).
RangeRule ConversionRange() {
  return RangeRule([](aclDataType dtype, const CaseInfo& info) {
    Range range{-100, 100};
    if (IsUnsigned(dtype) || IsUnsigned(info.out)) range.lo = 0;
    range.zeroEvery = 4;
    return range;
  });
}

// Strided bool and complex sources are outside Cast's and Copy's documented contract.
bool SourceViewAllowed(aclDataType dtype, View view) {
  return view == View::kContiguous || !(IsBool(dtype) || IsComplex(dtype));
}

std::vector<DtypeCase> AllPairs() {
  std::vector<DtypeCase> pairs;
  for (aclDataType from : AllDtypes()) {
    for (aclDataType to : AllDtypes()) {
      if (from != to) pairs.push_back({{from}, to, /*pairwise=*/false});
    }
  }
  return pairs;
}

OpRow CastRow() {
  OpRow row;
  row.name = "Cast";
  row.inputs = {Arg{.name = "self", .range = ConversionRange(), .viewAllowed = SourceViewAllowed}};
  row.out = {[](Call& c) {
               return aclnnCastGetWorkspaceSize(c.Tensor(0), c.OutDtype(), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnCast};
  row.dtypes = Concat(EachDtype(AllDtypes()), AllPairs());  // Cast takes all 15 x 15 on A2
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) { return ReferenceCast(call.inputs[0].values, call.out); };
  return row;
}

OpRow InplaceCopyRow() {
  OpRow row;
  row.name = "InplaceCopy";
  row.inputs = {Arg{.name = "selfRef"},
                Arg{.name = "src", .range = ConversionRange(), .viewAllowed = SourceViewAllowed}};
  row.inplace = {
      [](Call& c) { return aclnnInplaceCopyGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize, c.executor); },
      aclnnInplaceCopy, /*overwrites=*/true};
  // {selfRef, src}: src is cast into selfRef's dtype; every pair on A2.
  std::vector<DtypeCase> pairs;
  for (const DtypeCase& p : AllPairs()) pairs.push_back({{p.out, p.inputs[0]}, ACL_DT_UNDEFINED, false});
  row.dtypes = Concat(EachDtype(AllDtypes()), pairs);
  row.reference = [](const RefCall& call) {
    const Operand& src = call.inputs[1];
    return ReferenceCast(BroadcastTo(src.values, src.shape, call.outShape), call.out);
  };
  return row;
}

OpRow InplaceFillScalarRow() {
  OpRow row;
  row.name = "InplaceFillScalar";
  row.inputs = {Arg{.name = "selfRef"}, Arg{.name = "value", .kind = ArgKind::kScalar, .range = ConversionRange()}};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceFillScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.workspaceSize, c.executor);
                 },
                 aclnnInplaceFillScalar, /*overwrites=*/true};
  // A value of another dtype is converted to selfRef's (the pair must promote).
  row.dtypes = Concat(EachDtype(AllDtypes()), Singly({
                                                  {{ACL_FLOAT, ACL_INT32}},
                                                  {{ACL_INT32, ACL_FLOAT}},
                                                  {{ACL_FLOAT16, ACL_DOUBLE}},
                                                  {{ACL_BOOL, ACL_INT8}},
                                                  {{ACL_INT64, ACL_BOOL}},
                                                  {{ACL_COMPLEX64, ACL_FLOAT}},
                                                  {{ACL_BF16, ACL_INT64}},
                                                  {{ACL_UINT8, ACL_INT16}},
                                                  {{ACL_COMPLEX128, ACL_COMPLEX64}},
                                              }));
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    const Value value = ConvertValue(call.inputs[1].values[0], call.out);
    return Expected{Values(static_cast<size_t>(NumElements(call.outShape)), value), {}};
  };
  row.tolerance.ulps = 0;  // exact
  return row;
}

OpRow InplaceZeroRow() {
  OpRow row;
  row.name = "InplaceZero";
  row.inputs = {Arg{.name = "selfRef"}};
  row.inplace = {[](Call& c) { return aclnnInplaceZeroGetWorkspaceSize(c.Tensor(0), c.workspaceSize, c.executor); },
                 aclnnInplaceZero, /*overwrites=*/true};
  row.dtypes = EachDtype({ACL_INT8, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_FLOAT16, ACL_FLOAT, ACL_BOOL, ACL_DOUBLE,
                          ACL_INT16, ACL_UINT16, ACL_COMPLEX128, ACL_COMPLEX64, ACL_BF16});
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    return Expected{Values(static_cast<size_t>(NumElements(call.outShape)), 0.0), {}};
  };
  row.tolerance.ulps = 0;  // exact
  return row;
}

// InplaceFillTensor: the one element of a rank-0 or [1] value tensor, converted to selfRef's dtype.
OpRow InplaceFillTensorRow() {
  OpRow row;
  row.name = "InplaceFillTensor";
  row.inputs = {Arg{.name = "selfRef"}, Arg{.name = "value", .range = ConversionRange()}};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceFillTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize, c.executor);
                 },
                 aclnnInplaceFillTensor, /*overwrites=*/true};
  row.dtypes = Concat(EachDtype({ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16, ACL_INT8, ACL_UINT8,
                                 ACL_DOUBLE, ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16}),
                      Singly({{{ACL_FLOAT16, ACL_FLOAT}}, {{ACL_INT32, ACL_INT64}}, {{ACL_FLOAT, ACL_BOOL}}}));
  row.shapes = {{"typical", {{4, 5}, {}}, true},
                {"value_1d", {{3, 2, 2}, {1}}},
                {"large", {{70, 300}, {}}, true},
                {"rank0", {{}, {1}}},
                {"empty", {{0, 3}, {}}}};
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    const Value value = ConvertValue(call.inputs[1].values[0], call.out);
    return Expected{Values(static_cast<size_t>(NumElements(call.outShape)), value), {}};
  };
  row.tolerance.ulps = 0;  // exact
  return row;
}

// InplaceMaskedFillTensor: a rank-0 value where the broadcast mask is true.
OpRow InplaceMaskedFillTensorRow() {
  OpRow row;
  row.name = "InplaceMaskedFillTensor";
  row.inputs = {Arg{.name = "selfRef"}, Arg{.name = "mask", .range = Range{0, 1, 0, 0, true}, .dtypes = {ACL_BOOL}},
                Arg{.name = "value", .range = Range{-4, 4}}};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceMaskedFillTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2),
                                                                       c.workspaceSize, c.executor);
                 },
                 aclnnInplaceMaskedFillTensor};
  row.dtypes = Concat(EachDtype({ACL_INT32, ACL_INT8, ACL_BOOL, ACL_INT64, ACL_FLOAT, ACL_FLOAT16, ACL_BF16}),
                      Singly({{{ACL_FLOAT16, ACL_BOOL, ACL_FLOAT}},
                              {{ACL_FLOAT, ACL_BOOL, ACL_INT32}},
                              {{ACL_INT64, ACL_BOOL, ACL_INT8}}}));
  row.shapes = {{"typical", {{4, 5}, {4, 5}, {}}, true},
                {"mask_row", {{3, 4}, {4}, {}}},
                {"large", {{70, 300}, {300}, {}}, true},
                {"rank0", {{}, {}, {}}},
                {"empty", {{0, 3}, {3}, {}}}};
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    const Value value = ConvertValue(call.inputs[2].values[0], call.out);
    return Pointwise([value](const std::vector<Value>& x, const AttrSet&) { return x[1].real() != 0 ? value : x[0]; })(
        call);
  };
  row.tolerance.ulps = 0;  // exact
  return row;
}

std::vector<OpRow> CastCopyFillRows() {
  return {CastRow(),        InplaceCopyRow(),       InplaceFillScalarRow(),
          InplaceZeroRow(), InplaceFillTensorRow(), InplaceMaskedFillTensorRow()};
}

CANOPY_HARNESS_ROWS(CastCopyFillRows);

}  // namespace
}  // namespace canopy_test
