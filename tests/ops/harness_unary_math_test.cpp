// Harness rows of the elementary functions on the unary engine: Exp2, Expm1,
// Log2, Log10, Log1p, Rsqrt, Reciprocal, Floor, Ceil, Round, Trunc, Frac,
// Erf, Erfc, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Square
// and their in-place forms, each with the dtype lists of its CANN document.
// The reference is float64 (complex<double> for complex dtypes); the
// tolerance is the bound the functor declares (src/kernels/unary_accuracy.h).
// Below the rows: special values, each CANN document's example call, and
// every rejection with CANN's code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "../../src/kernels/unary_accuracy.h"
#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_erfc.h"
#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_frac.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_square.h"
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_trunc.h"
#include "harness/harness.h"
#include "unary_bounds.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table
namespace accuracy = canopy::kernels::unary_accuracy;
using unary_bounds::Bounded;

constexpr aclDataType F32 = ACL_FLOAT, F16 = ACL_FLOAT16, BF16 = ACL_BF16, F64 = ACL_DOUBLE, C64 = ACL_COMPLEX64,
                      C128 = ACL_COMPLEX128, S8 = ACL_INT8, U8 = ACL_UINT8, S16 = ACL_INT16, U16 = ACL_UINT16,
                      S32 = ACL_INT32, U32 = ACL_UINT32, S64 = ACL_INT64, U64 = ACL_UINT64, BOOL = ACL_BOOL;

using OutPhase1 = aclnnStatus (*)(OpArgs& args, aclTensor* self, aclTensor* out, uint64_t*, aclOpExecutor**);
using InplacePhase1 = aclnnStatus (*)(OpArgs& args, aclTensor* self, uint64_t*, aclOpExecutor**);
using RealFn = double (*)(double);
using ComplexFn = Value (*)(Value);

// One op: its two forms, its CANN dtype lists, the values that exercise it and its float64 function.
struct MathOp {
  const char* name;
  OutPhase1 out;
  Phase2 outPhase2;
  InplacePhase1 inplace;  // null: no in-place form (Square)
  Phase2 inplacePhase2;
  std::vector<aclDataType> self;
  std::vector<aclDataType> outDtypes;
  std::vector<aclDataType> inplaceDtypes;
  bool promotes;   // bool and integer self give FLOAT (else out has self's dtype)
  bool sameDtype;  // out must have self's dtype
  Range range;     // floats; integers draw from `integerRange`
  Range integerRange;
  RealFn real;
  ComplexFn complex;  // null: no complex dtype
  double ulps;
};

// f over the input's dtype: the complex function for complex dtypes, else the real one (NaN outside its domain).
Value Apply(const MathOp& op, aclDataType dtype, Value x) {
  if (dtype == C64 || dtype == C128) return op.complex(x);
  return op.real(x.real());
}

#define OUT_FORM(op)                                                                       \
  [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) -> aclnnStatus { \
    return aclnn##op##GetWorkspaceSize(s, o, w, e);                                        \
  },                                                                                       \
      aclnn##op
#define INPLACE_FORM(op)                                                     \
  [](OpArgs&, aclTensor* s, uint64_t* w, aclOpExecutor** e) -> aclnnStatus { \
    return aclnnInplace##op##GetWorkspaceSize(s, w, e);                      \
  },                                                                         \
      aclnnInplace##op

double Round(double x) { return std::nearbyint(x); }
double Frac(double x) { return x - std::trunc(x); }
double Rsqrt(double x) { return 1 / std::sqrt(x); }
double Reciprocal(double x) { return 1 / x; }
double Square(double x) { return x * x; }
Value Log2C(Value x) { return std::log(x) / M_LN2; }
Value Log10C(Value x) { return std::log10(x); }
Value TanC(Value x) { return std::tan(x); }
Value SinhC(Value x) { return std::sinh(x); }
Value RsqrtC(Value x) { return 1.0 / std::sqrt(x); }
Value ReciprocalC(Value x) { return 1.0 / x; }

const std::vector<aclDataType> kInts = {S8, S16, S32, S64, U8, BOOL};

std::vector<aclDataType> With(std::vector<aclDataType> a, const std::vector<aclDataType>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const std::vector<MathOp>& MathOps() {
  const std::vector<aclDataType> f3 = {F32, F16, F64}, f4 = {F32, F16, BF16, F64}, c = {C64, C128};
  static const std::vector<MathOp> ops = {
      {"Exp2", OUT_FORM(Exp2), INPLACE_FORM(Exp2), With(f4, kInts), f4, f4, true, false, Range{-12, 12}, Range{-10, 10},
       std::exp2, nullptr, accuracy::kSleef},
      {"Expm1",
       OUT_FORM(Expm1),
       INPLACE_FORM(Expm1),
       {S64, BOOL, F32, F16, BF16},
       {F32, F16, F64, BF16},
       {F32, F16, BF16},
       true,
       false,
       Range{-6, 6},
       Range{-5, 5},
       std::expm1,
       nullptr,
       accuracy::kSleef},
      {"Log2", OUT_FORM(Log2), INPLACE_FORM(Log2), With(With(f4, c), kInts), With(f4, c), With(f4, c), true, false,
       Range{0.01, 1000}, Range{1, 100}, std::log2, Log2C, accuracy::kSleef},
      {"Log10", OUT_FORM(Log10), INPLACE_FORM(Log10), With(With(f4, c), kInts), With(f4, c), With(f4, c), true, false,
       Range{0.01, 1000}, Range{1, 100}, std::log10, Log10C, accuracy::kSleef},
      {"Log1p", OUT_FORM(Log1p), INPLACE_FORM(Log1p), With(f4, kInts), f4, f4, true, false, Range{-0.9, 20},
       Range{0, 100}, std::log1p, nullptr, accuracy::kSleef},
      {"Rsqrt", OUT_FORM(Rsqrt), INPLACE_FORM(Rsqrt), With(With(f4, c), kInts), With(f4, c), With(f4, c), true, false,
       Range{0.01, 100}, Range{1, 100}, Rsqrt, RsqrtC, accuracy::kRsqrt},
      {"Reciprocal", OUT_FORM(Reciprocal), INPLACE_FORM(Reciprocal), With(With(f4, c), kInts), With(f4, c), With(f4, c),
       true, false, Range{-10, 10, 0.05}, Range{-20, 20, 1}, Reciprocal, ReciprocalC, accuracy::kReciprocal},
      {"Floor",
       OUT_FORM(Floor),
       INPLACE_FORM(Floor),
       {F64, F32, F16, S64, S32, S16, S8, U64, U32, U16, U8, BF16},
       {},
       {F64, F32, F16, S64, S32, S16, S8, U64, U32, U16, U8, BF16},
       false,
       true,
       Range{-20, 20},
       Range{-100, 100},
       std::floor,
       nullptr,
       accuracy::kExact},
      {"Ceil",
       OUT_FORM(Ceil),
       INPLACE_FORM(Ceil),
       f4,
       {},
       f4,
       false,
       true,
       Range{-20, 20},
       Range{},
       std::ceil,
       nullptr,
       accuracy::kExact},
      {"Round",
       OUT_FORM(Round),
       INPLACE_FORM(Round),
       {BF16, F16, F32, F64, S32, S64},
       {},
       {BF16, F16, F32, F64, S32, S64},
       false,
       true,
       Range{-20, 20},
       Range{-100, 100},
       Round,
       nullptr,
       accuracy::kExact},
      {"Trunc",
       OUT_FORM(Trunc),
       INPLACE_FORM(Trunc),
       {F32, F16, BF16},
       {},
       {F32, F16, BF16},
       false,
       true,
       Range{-20, 20},
       Range{},
       std::trunc,
       nullptr,
       accuracy::kExact},
      {"Frac",
       OUT_FORM(Frac),
       INPLACE_FORM(Frac),
       {F16, F32, U8, S8, S16, S32, S64, BF16},
       {},
       {F16, F32, U8, S8, S16, S32, S64, BF16},
       false,
       true,
       Range{-20, 20},
       Range{-100, 100},
       Frac,
       nullptr,
       accuracy::kExact},
      {"Erf",
       OUT_FORM(Erf),
       INPLACE_FORM(Erf),
       {F64, F32, F16, BOOL, S64},
       f3,
       f3,
       true,
       false,
       Range{-4, 4},
       Range{-3, 3},
       std::erf,
       nullptr,
       accuracy::kSleef},
      {"Erfc",
       OUT_FORM(Erfc),
       INPLACE_FORM(Erfc),
       {F64, F32, F16, BOOL, S64},
       f3,
       f3,
       true,
       false,
       Range{-3, 9},
       Range{-3, 9},
       std::erfc,
       nullptr,
       accuracy::kErfc},
      {"Tan", OUT_FORM(Tan), INPLACE_FORM(Tan), With(With(f4, c), kInts), With(f4, c), With(f4, c), true, false,
       Range{-1.5, 1.5}, Range{-20, 20}, std::tan, TanC, accuracy::kSleef},
      {"Asin", OUT_FORM(Asin), INPLACE_FORM(Asin), With(f3, kInts), f3, f3, true, false, Range{-1, 1}, Range{-1, 1},
       std::asin, nullptr, accuracy::kSleef},
      {"Acos", OUT_FORM(Acos), INPLACE_FORM(Acos), With(f3, kInts), f3, f3, true, false, Range{-1, 1}, Range{-1, 1},
       std::acos, nullptr, accuracy::kSleef},
      {"Atan", OUT_FORM(Atan), INPLACE_FORM(Atan), With(f4, kInts), f4, f4, true, false, Range{-20, 20}, Range{-50, 50},
       std::atan, nullptr, accuracy::kSleef},
      {"Sinh", OUT_FORM(Sinh), INPLACE_FORM(Sinh), With(With(f4, c), kInts), With(f4, c), With(f4, c), true, false,
       Range{-10, 10}, Range{-10, 10}, std::sinh, SinhC, accuracy::kSleef},
      {"Cosh", OUT_FORM(Cosh), INPLACE_FORM(Cosh), f3, f3, f3, false, false, Range{-10, 10}, Range{}, std::cosh,
       nullptr, accuracy::kSleef},
      {"Asinh", OUT_FORM(Asinh), INPLACE_FORM(Asinh), With(f3, kInts), f3, f3, true, false, Range{-50, 50},
       Range{-50, 50}, std::asinh, nullptr, accuracy::kSleef},
      {"Acosh", OUT_FORM(Acosh), INPLACE_FORM(Acosh), f3, f3, f3, false, false, Range{1, 50}, Range{}, std::acosh,
       nullptr, accuracy::kSleef},
      {"Atanh", OUT_FORM(Atanh), INPLACE_FORM(Atanh), With(f3, kInts), f3, f3, true, false, Range{-0.99, 0.99},
       Range{-1, 1}, std::atanh, nullptr, accuracy::kSleef},
      {"Square",
       OUT_FORM(Square),
       nullptr,
       nullptr,
       {F32, F16, BF16, S32, S64},
       {},
       {},
       false,
       true,
       Range{-100, 100},
       Range{-1000, 1000},
       Square,
       nullptr,
       accuracy::kSquare},
  };
  return ops;
}

bool IsIntegerOrBool(aclDataType dtype) { return dtype == BOOL || IsIntegral(dtype); }

// The result dtype of `op` on `self`: FLOAT for a promoted integer, else self's own.
aclDataType ResultOf(const MathOp& op, aclDataType self) { return op.promotes && IsIntegerOrBool(self) ? F32 : self; }

OpRow RowOf(const MathOp& op) {
  OpRow row;
  row.name = op.name;
  const Range floats = op.range, integers = op.integerRange;
  row.inputs = {Arg{.name = "self", .range = RangeRule([floats, integers](aclDataType dtype, const CaseInfo&) {
                                      if (dtype == BOOL) return Range{0, 1, 0, 0, true};
                                      if (!IsIntegral(dtype)) return floats;
                                      Range r = integers;
                                      if (IsUnsigned(dtype)) r.lo = std::max(r.lo, 0.0);
                                      return r;
                                    })}};
  const OutPhase1 out = op.out;
  row.out = {[out](Call& c) { return out(c.args(), c.Tensor(0), c.Out(), c.workspaceSize, c.executor); }, op.outPhase2};
  if (op.inplace != nullptr) {
    const InplacePhase1 inplace = op.inplace;
    const std::vector<aclDataType> inplaceDtypes = op.inplaceDtypes;
    row.inplace = {[inplace](Call& c) { return inplace(c.args(), c.Tensor(0), c.workspaceSize, c.executor); },
                   op.inplacePhase2, false,
                   [inplaceDtypes](const DtypeCase& dc, aclDataType outDtype) {
                     return outDtype == dc.inputs[0] &&
                            std::find(inplaceDtypes.begin(), inplaceDtypes.end(), outDtype) != inplaceDtypes.end();
                   }};
  }
  // Each dtype with its own result dtype; where out may differ, a few casts of the result.
  // Floats meet every view and shape; each integer dtype appears once (they
  // only convert on the way in, through the path the floats take).
  std::vector<aclDataType> floatDtypes, integerDtypes;
  for (aclDataType dtype : op.self)
    (op.promotes && IsIntegerOrBool(dtype) ? integerDtypes : floatDtypes).push_back(dtype);
  row.dtypes = Concat(EachDtype(floatDtypes), Singly(EachDtype(integerDtypes)));
  if (!op.sameDtype) {
    std::vector<DtypeCase> casts;
    for (aclDataType self : op.self) {
      const aclDataType result = ResultOf(op, self);
      for (aclDataType to : {F32, F16, F64}) {
        const bool listed = std::find(op.outDtypes.begin(), op.outDtypes.end(), to) != op.outDtypes.end();
        if (listed && to != result && (self == F16 || self == S32) && casts.size() < 2) casts.push_back({{self}, to});
      }
    }
    row.dtypes = Concat(row.dtypes, Singly(casts));
  }
  const MathOp* self = &op;
  row.outDtype = [self](const std::vector<aclDataType>& inputs) -> std::optional<aclDataType> {
    const aclDataType result = ResultOf(*self, inputs[0]);
    if (!self->sameDtype &&
        std::find(self->outDtypes.begin(), self->outDtypes.end(), result) == self->outDtypes.end()) {
      return std::nullopt;  // an out-of-place result CANN has no out dtype for
    }
    return result;
  };
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  row.reference = [self](const RefCall& call) {
    const Operand& in = call.inputs[0];
    const aclDataType dtype = in.dtype;
    return Bounded([self, dtype](Value x, const AttrSet&) { return Apply(*self, dtype, x); }, self->ulps, in.values,
                   dtype, ResultOf(*self, dtype), call.out, call.attrs);
  };
  return row;
}

std::vector<OpRow> MathRows() {
  std::vector<OpRow> rows;
  for (const MathOp& op : MathOps()) rows.push_back(RowOf(op));
  return rows;
}
CANOPY_HARNESS_ROWS(MathRows);

const MathOp& OpNamed(const std::string& name) {
  for (const MathOp& op : MathOps()) {
    if (name == op.name) return op;
  }
  ADD_FAILURE() << "no op " << name;
  return MathOps().front();
}

// ---- special values ----------------------------------------------------------------------------

// NaN, infinities, signed zeros, subnormals, huge and tiny magnitudes, halves
// (rounding), the ends of the domains, in each 32- and 16-bit float dtype the
// op takes, through the vector kernels (contiguous) and the strided path.
TEST(UnaryMathSpecialValues, MatchTheFloat64Reference) {
  const Values special = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 80.0, -80.0, 100.0, 1e-30, -1e-30, 1e-40,
                          -1e-40, 0.5, -0.5, 1.5, -2.5, 2.5, 1e30, -1e30, 0.999, -0.999, 1.001, 3.0e4, -3.0e4, 8388609,
                          1.0e7, 20.0, -12.0,
                          // where SLEEF's log1pf, sinhf and coshf overflowed early or lost the sign
                          89.0, -89.0, 89.41, 2e38, 3.4028234e38, 1.4e-45, -1.4e-45};
  for (const MathOp& op : MathOps()) {
    for (aclDataType dtype : {F32, F16, BF16}) {
      if (std::find(op.self.begin(), op.self.end(), dtype) == op.self.end()) continue;
      for (View view : {View::kContiguous, View::kStepped}) {
        Values in;
        for (Value v : special) in.push_back(ConvertValue(v, dtype));
        DeviceTensor self(dtype, {static_cast<int64_t>(in.size())}, view);
        DeviceTensor out(dtype, {static_cast<int64_t>(in.size())}, view);
        self.WriteView(in);
        out.Poison();
        const OpRun run =
            RunOp([&](OpArgs& args, uint64_t* ws,
                      aclOpExecutor** ex) { return op.out(args, args.Tensor(self), args.Tensor(out), ws, ex); },
                  op.outPhase2);
        ASSERT_TRUE(run.ok()) << op.name << " " << Describe(run);
        ExpectNear(out.ReadView(),
                   Bounded([&](Value x, const AttrSet&) { return Apply(op, dtype, x); }, op.ulps, in, dtype, dtype,
                           dtype, AttrSet{}),
                   std::string(op.name) + " " + Name(dtype) + " " + ViewName(view));
      }
    }
  }
}

// ---- the CANN documents' example calls ---------------------------------------------------------

// Each document's example: the shape and dtype it creates (FLOAT [2, 2] but
// where noted), out of place and in place, on values of the op's range.
TEST(UnaryMathDocExamples, RunAsDocumented) {
  struct Example {
    const char* op;
    Shape shape;
    aclDataType dtype;
  };
  const std::vector<Example> examples = {
      {"Exp2", {2, 2}, F32},  {"Expm1", {4, 2}, F32}, {"Log2", {2, 2}, F64},       {"Log10", {2, 2}, F64},
      {"Log1p", {2, 2}, F32}, {"Rsqrt", {2, 2}, F32}, {"Reciprocal", {2, 2}, F32}, {"Floor", {2, 2}, F32},
      {"Ceil", {2, 2}, F64},  {"Round", {2, 2}, F64}, {"Trunc", {2, 2}, F32},      {"Frac", {2, 2}, F32},
      {"Erf", {2, 2}, F32},   {"Erfc", {2, 2}, F32},  {"Tan", {2, 2}, F32},        {"Asin", {2, 2}, F32},
      {"Acos", {2, 2}, F64},  {"Atan", {2, 2}, F64},  {"Sinh", {2, 2}, F32},       {"Cosh", {2, 2}, F32},
      {"Asinh", {2, 2}, F32}, {"Acosh", {2, 2}, F32}, {"Atanh", {2, 2}, F32},      {"Square", {2, 2}, F32},
  };
  for (const Example& example : examples) {
    const MathOp& op = OpNamed(example.op);
    Values in;
    Rng rng(17);
    for (int64_t i = 0; i < NumElements(example.shape); ++i) in.push_back(rng.Draw(example.dtype, op.range));
    const Expected want = Bounded([&](Value x, const AttrSet&) { return Apply(op, example.dtype, x); }, op.ulps, in,
                                  example.dtype, example.dtype, example.dtype, AttrSet{});
    {
      DeviceTensor self(example.dtype, example.shape), out(example.dtype, example.shape);
      self.WriteView(in);
      const OpRun run =
          RunOp([&](OpArgs& args, uint64_t* ws,
                    aclOpExecutor** ex) { return op.out(args, args.Tensor(self), args.Tensor(out), ws, ex); },
                op.outPhase2);
      ASSERT_TRUE(run.ok()) << example.op << " " << Describe(run);
      ExpectNear(out.ReadView(), want, std::string(example.op) + " example");
    }
    if (op.inplace != nullptr) {
      DeviceTensor selfRef(example.dtype, example.shape);
      selfRef.WriteView(in);
      const OpRun run = RunOp([&](OpArgs& args, uint64_t* ws,
                                  aclOpExecutor** ex) { return op.inplace(args, args.Tensor(selfRef), ws, ex); },
                              op.inplacePhase2);
      ASSERT_TRUE(run.ok()) << "Inplace" << example.op << " " << Describe(run);
      ExpectNear(selfRef.ReadView(), want, std::string("Inplace") + example.op + " example");
    }
  }
}

// ---- rejections --------------------------------------------------------------------------------

std::vector<aclDataType> Missing(const std::vector<aclDataType>& listed) {
  std::vector<aclDataType> missing;
  for (aclDataType dtype : {F32, F16, BF16, F64, C64, C128, S8, U8, S16, U16, S32, U32, S64, U64, BOOL}) {
    if (std::find(listed.begin(), listed.end(), dtype) == listed.end()) missing.push_back(dtype);
  }
  return missing;
}

// Every dtype a document leaves out of self, out and selfRef, an out of
// another dtype where it must match, and a shape that differs: 161002 each.
TEST(UnaryMathRejections, EachWithCannsCode) {
  for (const MathOp& op : MathOps()) {
    auto expectRejected = [&](const std::string& what, aclDataType self, aclDataType out, Shape outShape) {
      DeviceTensor s(self, {2, 3}), o(out, outShape);
      const OpRun run = RunOp([&](OpArgs& args, uint64_t* ws,
                                  aclOpExecutor** ex) { return op.out(args, args.Tensor(s), args.Tensor(o), ws, ex); },
                              op.outPhase2);
      EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << op.name << " " << what << ": " << Describe(run);
    };
    const aclDataType good = op.self.front();
    const aclDataType goodOut = op.sameDtype ? good : ResultOf(op, good);
    for (aclDataType dtype : Missing(op.self)) {
      expectRejected(std::string("self ") + Name(dtype), dtype, op.sameDtype ? dtype : goodOut, {2, 3});
    }
    if (!op.sameDtype) {
      for (aclDataType dtype : Missing(op.outDtypes)) {
        expectRejected(std::string("out ") + Name(dtype), good, dtype, {2, 3});
      }
    } else {
      for (aclDataType dtype : op.self) {
        if (dtype != good) expectRejected(std::string("out of another dtype ") + Name(dtype), good, dtype, {2, 3});
      }
    }
    expectRejected("shapes differ", good, goodOut, {3, 2});
    if (op.inplace == nullptr) continue;
    for (aclDataType dtype : Missing(op.inplaceDtypes)) {
      DeviceTensor s(dtype, {2, 3});
      const OpRun run = RunOp(
          [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) { return op.inplace(args, args.Tensor(s), ws, ex); },
          op.inplacePhase2);
      EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID)
          << "Inplace" << op.name << " " << Name(dtype) << ": " << Describe(run);
    }
  }
}

}  // namespace
}  // namespace canopy_test
