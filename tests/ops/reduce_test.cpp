// ReduceSum and Mean on the reduction engine, through the public C API against
// a float64 reference: every dtype, keepDim both ways, negative / empty dim
// lists, strided, transposed and broadcast inputs, strided outputs, rank 0,
// empty tensors, reductions long enough to split into chunks, the summation
// error of a long f32 sum, repeat runs bit for bit, the plan cache telling
// apart calls that differ only in an array or an enum argument, and every
// rejection with its code.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_softmax.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

enum class Kind { kSum, kMean, kMax, kMin };

bool IsExtreme(Kind kind) { return kind == Kind::kMax || kind == Kind::kMin; }

const std::vector<aclDataType>& SumDtypes() {
  static const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,      ACL_DOUBLE,
                                                  ACL_INT8,  ACL_UINT8,   ACL_INT16,     ACL_INT32,
                                                  ACL_INT64, ACL_BOOL,    ACL_COMPLEX64, ACL_COMPLEX128};
  return dtypes;
}
const std::vector<aclDataType>& ExtremeDtypes() {
  static const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                                  ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};
  return dtypes;
}
const std::vector<aclDataType>& MeanDtypes() {
  static const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16,   ACL_BF16,      ACL_DOUBLE,
                                                  ACL_INT8,  ACL_UINT8,     ACL_INT16,     ACL_INT32,
                                                  ACL_INT64, ACL_COMPLEX64, ACL_COMPLEX128};
  return dtypes;
}

// A wrapping integer result, as the int64 accumulation stored into `dtype` gives.
Value WrapInteger(int64_t sum, aclDataType dtype) {
  switch (dtype) {
    case ACL_INT8:
      return static_cast<double>(static_cast<int8_t>(sum));
    case ACL_UINT8:
      return static_cast<double>(static_cast<uint8_t>(sum));
    case ACL_INT16:
      return static_cast<double>(static_cast<int16_t>(sum));
    case ACL_INT32:
      return static_cast<double>(static_cast<int32_t>(sum));
    case ACL_BOOL:
      return sum != 0 ? 1.0 : 0.0;
    default:
      return static_cast<double>(sum);
  }
}

// The float64 reference: `values` (row-major over `shape`) reduced over `dims`
// (already normalised: empty means every dim), with the expected tolerance.
Expected Reference(Kind kind, const Values& values, const Shape& shape, const std::vector<bool>& reduced,
                   aclDataType out) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  Shape kept;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (reduced[static_cast<size_t>(d)]) {
      count *= shape[static_cast<size_t>(d)];
    } else {
      kept.push_back(shape[static_cast<size_t>(d)]);
    }
  }
  const int64_t outputs = NumElements(kept);
  Values sums(static_cast<size_t>(outputs), 0.0);
  std::vector<double> magnitude(static_cast<size_t>(outputs), 0.0);
  std::vector<int64_t> integer(static_cast<size_t>(outputs), 0);
  std::vector<double> extreme(static_cast<size_t>(outputs), kind == Kind::kMax ? -INFINITY : INFINITY);
  for (int64_t i = 0; i < NumElements(shape); ++i) {
    int64_t rest = i, o = 0, scale = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      const int64_t index = rest % shape[static_cast<size_t>(d)];
      rest /= shape[static_cast<size_t>(d)];
      if (!reduced[static_cast<size_t>(d)]) {
        o += index * scale;
        scale *= shape[static_cast<size_t>(d)];
      }
    }
    sums[static_cast<size_t>(o)] += values[static_cast<size_t>(i)];
    magnitude[static_cast<size_t>(o)] += std::abs(values[static_cast<size_t>(i)]);
    if (std::isfinite(values[static_cast<size_t>(i)].real())) {  // integer dtypes hold no NaN
      integer[static_cast<size_t>(o)] += static_cast<int64_t>(values[static_cast<size_t>(i)].real());
    }
    double& e = extreme[static_cast<size_t>(o)];
    const double v = values[static_cast<size_t>(i)].real();
    if (std::isnan(v) || std::isnan(e)) {
      e = std::isnan(e) ? e : v;  // NaN propagates
    } else {
      e = kind == Kind::kMax ? std::max(e, v) : std::min(e, v);
    }
  }
  Expected want;
  const double accumulate = IsComplex(out) || IsRealFloat(out) ? (UnitRoundoff(out) <= 0x1p-50 ? 0x1p-50 : 0x1p-22) : 0;
  for (int64_t o = 0; o < outputs; ++o) {
    Value v = sums[static_cast<size_t>(o)];
    double tolerance = accumulate * magnitude[static_cast<size_t>(o)];
    if (IsExtreme(kind)) {
      v = ConvertValue(extreme[static_cast<size_t>(o)], out);  // exact: an element of self
      tolerance = 0;
    } else if (IsIntegral(out) || IsBool(out)) {
      const int64_t s = integer[static_cast<size_t>(o)];
      const int64_t truncated_mean = count == 0 ? 0 : s / count;  // integer means truncate
      v = kind == Kind::kSum ? WrapInteger(s, out) : static_cast<double>(truncated_mean);
    } else {
      if (kind == Kind::kMean) {
        v = count == 0 ? Value(std::numeric_limits<double>::quiet_NaN(), 0) : v / static_cast<double>(count);
        tolerance /= std::max<int64_t>(count, 1);
      }
      tolerance += 2 * UnitRoundoff(out) * std::abs(v);
      v = ConvertValue(v, out);
    }
    want.values.push_back(v);
    want.tolerance.push_back(tolerance);
  }
  return want;
}

struct ReduceCase {
  std::string name;
  Kind kind;
  aclDataType dtype;
  Shape shape;
  std::vector<int64_t> dims;
  bool keepDim = false;
  View view = View::kContiguous;
  View outView = View::kContiguous;
  aclDataType self = ACL_DT_UNDEFINED;  // when not `dtype`
};

void PrintTo(const ReduceCase& x, std::ostream* os) { *os << x.name; }

std::vector<bool> Normalised(const std::vector<int64_t>& dims, int64_t rank) {
  std::vector<bool> reduced(static_cast<size_t>(rank), dims.empty());
  for (int64_t d : dims) {
    const int64_t wrapped = d < 0 ? d + std::max<int64_t>(rank, 1) : d;
    if (wrapped < rank) reduced[static_cast<size_t>(wrapped)] = true;
  }
  return reduced;
}

Shape OutShape(const ReduceCase& x) {
  const std::vector<bool> reduced = Normalised(x.dims, static_cast<int64_t>(x.shape.size()));
  Shape out;
  for (size_t d = 0; d < x.shape.size(); ++d) {
    if (!reduced[d]) {
      out.push_back(x.shape[d]);
    } else if (x.keepDim) {
      out.push_back(1);
    }
  }
  return out;
}

std::string KindName(Kind kind) {
  switch (kind) {
    case Kind::kSum:
      return "sum_";
    case Kind::kMean:
      return "mean_";
    case Kind::kMax:
      return "amax_";
    case Kind::kMin:
      return "amin_";
  }
  return "";
}

const std::vector<aclDataType>& DtypesOf(Kind kind) {
  return kind == Kind::kSum ? SumDtypes() : kind == Kind::kMean ? MeanDtypes() : ExtremeDtypes();
}

std::vector<ReduceCase> ReduceCases() {
  std::vector<ReduceCase> cases;
  const View c = View::kContiguous;
  for (const Kind kind : {Kind::kSum, Kind::kMean, Kind::kMax, Kind::kMin}) {
    const std::string op = KindName(kind);
    for (aclDataType dtype : DtypesOf(kind)) {
      const std::string n = op + Name(dtype) + "_";
      cases.push_back({n + "inner", kind, dtype, {3, 4, 5}, {2}});
      cases.push_back({n + "middle_keepdim", kind, dtype, {3, 4, 5}, {1}, true});
      cases.push_back({n + "outer", kind, dtype, {3, 4, 5}, {0}});
      cases.push_back({n + "negative_pair", kind, dtype, {3, 4, 5}, {-1, 0}});
      cases.push_back({n + "all_empty_list", kind, dtype, {3, 4, 5}, {}});
      cases.push_back({n + "all_keepdim", kind, dtype, {3, 4, 5}, {0, 1, 2}, true});
      cases.push_back({n + "rank0", kind, dtype, {}, {}});
      cases.push_back({n + "rank0_dim0_keepdim", kind, dtype, {}, {0}, true});
      if (!IsComplex(dtype) && !IsExtreme(kind)) {  // rejected: an empty self into complex out, a max of nothing
        cases.push_back({n + "empty_reduced", kind, dtype, {0, 3}, {0}});
        cases.push_back({n + "empty_kept", kind, dtype, {0, 3}, {1}});
      }
      if (!IsBool(dtype) && !IsComplex(dtype)) {  // views of bool and complex are outside the documented contract
        cases.push_back({n + "transposed_outer", kind, dtype, {6, 7}, {0}, false, View::kTransposed});
        cases.push_back({n + "transposed_inner", kind, dtype, {6, 7}, {1}, false, View::kTransposed});
        cases.push_back({n + "stepped_middle", kind, dtype, {4, 6, 5}, {1}, false, View::kStepped});
        cases.push_back({n + "reversed_two", kind, dtype, {4, 6, 5}, {0, 2}, false, View::kReversed});
        cases.push_back({n + "broadcast_even_dims", kind, dtype, {4, 6, 5}, {0}, true, View::kBroadcast});
        cases.push_back({n + "broadcast_odd_dim", kind, dtype, {4, 6, 5}, {1}, false, View::kBroadcast});
        cases.push_back({n + "stepped_out", kind, dtype, {6, 8, 4}, {1}, false, c, View::kStepped});
      }
    }
    // Past the engine's tiles (4096 outputs), blocks (512 elements) and chunks
    // (65536 elements, 256 rows): partial sums combined in a fixed order.
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32}) {
      const std::string n = op + Name(dtype) + "_large_";
      cases.push_back({n + "outer_one_tile", kind, dtype, {37, 1100}, {0}});
      cases.push_back({n + "outer_tiles", kind, dtype, {20, 4100}, {0}});
      cases.push_back({n + "inner_blocks", kind, dtype, {37, 1100}, {1}});
      cases.push_back({n + "inner_chunks", kind, dtype, {3, 70000}, {1}});
      cases.push_back({n + "outer_row_chunks", kind, dtype, {5000, 3}, {0}});
      cases.push_back({n + "all_chunks", kind, dtype, {300, 700}, {}});
      cases.push_back({n + "transposed_outer", kind, dtype, {300, 270}, {0}, false, View::kTransposed});
    }
    cases.push_back({op + "f32_large_outer_tiles_and_row_chunks", kind, ACL_FLOAT, {300, 4100}, {0}});
    cases.push_back({op + "f16_large_outer_middle_dim", kind, ACL_FLOAT16, {3, 600, 50}, {1}});
    if (IsExtreme(kind)) {
      cases.push_back({op + "empty_kept_only", kind, ACL_FLOAT, {0, 3}, {1}});
      continue;
    }
    // The input in another dtype than the result.
    cases.push_back({op + "f16_self_into_f32", kind, ACL_FLOAT, {40, 30}, {0}, false, c, c, ACL_FLOAT16});
    cases.push_back({op + "s32_self_into_f64", kind, ACL_DOUBLE, {40, 30}, {1}, false, c, c, ACL_INT32});
  }
  return cases;
}

// Values small enough that no sum leaves the exact range of any dtype's
// accumulator; non-negative where a dtype is unsigned.
Range RangeFor(aclDataType dtype) {
  Range range{-3, 3};
  if (IsUnsigned(dtype) || IsBool(dtype)) range.lo = 0;
  return range;
}

OpRun RunReduce(Kind kind, const DeviceTensor& self, const std::vector<int64_t>& dims, bool keepDim, aclDataType dtype,
                const DeviceTensor& out) {
  const Phase2 phase2 = kind == Kind::kSum    ? aclnnReduceSum
                        : kind == Kind::kMean ? aclnnMean
                        : kind == Kind::kMax  ? aclnnAmax
                                              : aclnnAmin;
  return RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclIntArray* dimArray = args.IntArray(dims);
        switch (kind) {
          case Kind::kSum:
            return aclnnReduceSumGetWorkspaceSize(args.Tensor(self), dimArray, keepDim, dtype, args.Tensor(out),
                                                  workspaceSize, executor);
          case Kind::kMean:
            return aclnnMeanGetWorkspaceSize(args.Tensor(self), dimArray, keepDim, dtype, args.Tensor(out),
                                             workspaceSize, executor);
          case Kind::kMax:
            return aclnnAmaxGetWorkspaceSize(args.Tensor(self), dimArray, keepDim, args.Tensor(out), workspaceSize,
                                             executor);
          case Kind::kMin:
            return aclnnAminGetWorkspaceSize(args.Tensor(self), dimArray, keepDim, args.Tensor(out), workspaceSize,
                                             executor);
        }
        return static_cast<aclnnStatus>(ACLNN_ERR_INNER);
      },
      phase2);
}

class ReduceTest : public ::testing::TestWithParam<ReduceCase> {};

TEST_P(ReduceTest, MatchesFloat64Reference) {
  const ReduceCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const aclDataType selfDtype = x.self == ACL_DT_UNDEFINED ? x.dtype : x.self;
  DeviceTensor self(selfDtype, x.shape, x.view);
  const Values values = self.FillRandom(rng, RangeFor(selfDtype));
  DeviceTensor out(x.dtype, OutShape(x), x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunReduce(x.kind, self, x.dims, x.keepDim, x.dtype, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const std::vector<bool> reduced = Normalised(x.dims, static_cast<int64_t>(x.shape.size()));
  ExpectNear(out.ReadView(), Reference(x.kind, values, x.shape, reduced, x.dtype), x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
  ExpectExact(self.ReadView(), values, "self must not change");
}

INSTANTIATE_TEST_SUITE_P(Cases, ReduceTest, ::testing::ValuesIn(ReduceCases()),
                         [](const ::testing::TestParamInfo<ReduceCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// A long f32 sum stays within a few ulp of the float64 sum (a serial f32 loop
// over these 2^21 values near 1 drifts by thousands of ulp).
TEST(ReduceSum, LongF32SumIsAccurate) {
  const int64_t n = int64_t{1} << 21;
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(ACL_FLOAT, {n});
  const Values values = self.FillRandom(rng, Range{0.5, 1.5});
  DeviceTensor out(ACL_FLOAT, Shape{});
  ASSERT_TRUE(RunReduce(Kind::kSum, self, {0}, false, ACL_FLOAT, out).ok());
  double want = 0;
  for (const Value& v : values) want += v.real();
  const double got = out.ReadView()[0].real();
  const double ulp = std::ldexp(1.0, std::ilogb(want) - 23);
  EXPECT_LE(std::abs(got - want), 8 * ulp) << "got " << got << " want " << want;
}

// The same call twice gives the same bits (partial sums combine in a fixed order).
TEST(ReduceSum, RepeatsBitForBit) {
  Rng rng = Rng::ForCurrentTest();
  for (const auto& [shape, dims] :
       std::vector<std::pair<Shape, std::vector<int64_t>>>{{{512, 700}, {0}}, {{512, 700}, {1}}, {{300000}, {0}}}) {
    DeviceTensor self(ACL_FLOAT, shape);
    self.FillRandom(rng, Range{-1, 1});
    const Shape outShape = shape.size() == 1 ? Shape{} : Shape{shape[dims[0] == 0 ? 1 : 0]};
    DeviceTensor first(ACL_FLOAT, outShape);
    DeviceTensor second(ACL_FLOAT, first.shape());
    ASSERT_TRUE(RunReduce(Kind::kSum, self, dims, false, ACL_FLOAT, first).ok());
    ASSERT_TRUE(RunReduce(Kind::kSum, self, dims, false, ACL_FLOAT, second).ok());
    ExpectExact(second.ReadView(), first.ReadView(), ShapeString(shape));
  }
}

// As CANN (CheckShapeAndScalarSame), an out of another shape is taken when it
// and the result both hold one element: ggml's cross-entropy loss sums every
// dim of a vector into a [1] out with keepDims false. Any other shape is 161002.
TEST(ReduceSum, OneElementOutMayHaveAnotherShape) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(ACL_FLOAT, {7});
  const Values values = self.FillRandom(rng, Range{-2, 2});
  for (const Shape& shape : {Shape{1}, Shape{1, 1}}) {
    DeviceTensor out(ACL_FLOAT, shape);
    ASSERT_TRUE(RunReduce(Kind::kSum, self, {0}, false, ACL_FLOAT, out).ok()) << ShapeString(shape);
    ExpectNear(out.ReadView(), Reference(Kind::kSum, values, {7}, {true}, ACL_FLOAT), ShapeString(shape));
  }
  DeviceTensor two(ACL_FLOAT, {2});
  EXPECT_EQ(RunReduce(Kind::kSum, self, {0}, false, ACL_FLOAT, two).phase1, ACLNN_ERR_PARAM_INVALID);
  DeviceTensor wide(ACL_FLOAT, {3, 7});
  wide.FillRandom(rng, Range{-2, 2});
  DeviceTensor single(ACL_FLOAT, {1});
  EXPECT_EQ(RunReduce(Kind::kSum, wide, {0}, false, ACL_FLOAT, single).phase1, ACLNN_ERR_PARAM_INVALID)
      << "a 7-element result does not fit a one-element out";
}

// Two calls that differ only in the values of the dims array (same count, same
// tensors) must not share a cached plan: the second sums its own dim.
TEST(ReduceSum, DimsValuesAreInThePlanKey) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(ACL_FLOAT, {5, 5});
  const Values values = self.FillRandom(rng, Range{-2, 2});
  for (const int64_t dim : {0, 1, 0}) {
    DeviceTensor out(ACL_FLOAT, {5});
    ASSERT_TRUE(RunReduce(Kind::kSum, self, {dim}, false, ACL_FLOAT, out).ok());
    std::vector<bool> reduced = {dim == 0, dim == 1};
    ExpectNear(out.ReadView(), Reference(Kind::kSum, values, {5, 5}, reduced, ACL_FLOAT), "dim " + std::to_string(dim));
  }
}

// Calls that differ only in the dims list's length ([] and [0, 1] reduce the
// same; [0] differs) each get their own plan, and the result shows it.
TEST(ReduceSum, DimsCountIsInThePlanKey) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(ACL_FLOAT, {1, 6});
  const Values values = self.FillRandom(rng, Range{-2, 2});
  // Over [1, 6], dims [0] and [0, 1] with keepDim give out [1, 6] and [1, 1]; with
  // dims [] and [0, 1] the same [1, 1]: the pair with one out shape must agree.
  for (const std::vector<int64_t>& dims :
       {std::vector<int64_t>{}, std::vector<int64_t>{0, 1}, std::vector<int64_t>{1}}) {
    DeviceTensor out(ACL_FLOAT, {1, 1});
    ASSERT_TRUE(RunReduce(Kind::kSum, self, dims, true, ACL_FLOAT, out).ok());
    ExpectNear(out.ReadView(), Reference(Kind::kSum, values, {1, 6}, {true, true}, ACL_FLOAT), "dims");
  }
  DeviceTensor kept(ACL_FLOAT, {1, 6});
  ASSERT_TRUE(RunReduce(Kind::kSum, self, {0}, true, ACL_FLOAT, kept).ok());
  ExpectNear(kept.ReadView(), Reference(Kind::kSum, values, {1, 6}, {true, false}, ACL_FLOAT), "dims [0]");
}

// Mean computed in another dtype than out's needs a temporary; a call that
// differs only in `dtype` must plan its own (the key holds the enum's value).
TEST(Mean, DtypeIsInThePlanKey) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(ACL_FLOAT, {4, 8});
  const Values values = self.FillRandom(rng, Range{-2, 2});
  DeviceTensor out(ACL_FLOAT, {4});
  const OpRun same = RunReduce(Kind::kMean, self, {1}, false, ACL_FLOAT, out);
  ASSERT_TRUE(same.ok()) << Describe(same);
  EXPECT_EQ(same.workspaceSize, 0u);
  const OpRun wider = RunReduce(Kind::kMean, self, {1}, false, ACL_DOUBLE, out);
  ASSERT_TRUE(wider.ok()) << Describe(wider);
  EXPECT_GT(wider.workspaceSize, 0u) << "the f64 result is rounded once more into the f32 out";
  ExpectNear(out.ReadView(), Reference(Kind::kMean, values, {4, 8}, {false, true}, ACL_FLOAT), "mean in f64");
}

// Amax and Amin propagate NaN (PyTorch), wherever it sits in a row or a column.
TEST(Amax, NanPropagates) {
  for (const Kind kind : {Kind::kMax, Kind::kMin}) {
    for (const int64_t dim : {0, 1}) {
      DeviceTensor self(ACL_FLOAT, {4, 300});
      Values values(4 * 300);
      for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 7) - 3;
      values[2 * 300 + 17] = std::numeric_limits<double>::quiet_NaN();
      self.WriteView(values);
      DeviceTensor out(ACL_FLOAT, Shape{dim == 0 ? 300 : 4});
      ASSERT_TRUE(RunReduce(kind, self, {dim}, false, ACL_FLOAT, out).ok());
      const std::vector<bool> reduced = {dim == 0, dim == 1};
      ExpectNear(out.ReadView(), Reference(kind, values, {4, 300}, reduced, ACL_FLOAT), KindName(kind));
    }
  }
}

// ---- rejections -----------------------------------------------------------------------------------

struct Rejection {
  std::string name;
  Kind kind;
  aclDataType self = ACL_FLOAT;
  Shape shape = {2, 3};
  std::vector<int64_t> dims = {0};
  int dtype = ACL_FLOAT;
  aclDataType out = ACL_FLOAT;
  Shape outShape = {3};
  std::string keyword;
};

void PrintTo(const Rejection& x, std::ostream* os) { *os << x.name; }

std::vector<Rejection> Rejections() {
  std::vector<Rejection> cases;
  for (const Kind kind : {Kind::kSum, Kind::kMean}) {
    const std::string n = kind == Kind::kSum ? "sum_" : "mean_";
    const char* dim = kind == Kind::kSum ? "dims" : "dim";
    cases.push_back({n + "self_u16", kind, ACL_UINT16, {2, 3}, {0}, ACL_FLOAT, ACL_FLOAT, {3}, "self"});
    cases.push_back({n + "out_u16", kind, ACL_FLOAT, {2, 3}, {0}, ACL_UINT16, ACL_UINT16, {3}, "out"});
    cases.push_back({n + "dtype_not_an_enumerator", kind, ACL_FLOAT, {2, 3}, {0}, 9999, ACL_FLOAT, {3}, "dtype"});
    cases.push_back({n + "dim_past_rank", kind, ACL_FLOAT, {2, 3}, {2}, ACL_FLOAT, ACL_FLOAT, {2}, dim});
    cases.push_back({n + "dim_below_minus_rank", kind, ACL_FLOAT, {2, 3}, {-3}, ACL_FLOAT, ACL_FLOAT, {2}, dim});
    cases.push_back({n + "dim_twice", kind, ACL_FLOAT, {2, 3}, {0, -2}, ACL_FLOAT, ACL_FLOAT, {3}, dim});
    cases.push_back({n + "rank0_dim1", kind, ACL_FLOAT, {}, {1}, ACL_FLOAT, ACL_FLOAT, {}, dim});
    cases.push_back({n + "out_shape", kind, ACL_FLOAT, {2, 3}, {0}, ACL_FLOAT, ACL_FLOAT, {2}, "out"});
    cases.push_back({n + "out_keeps_dim_not_asked", kind, ACL_FLOAT, {2, 3}, {0}, ACL_FLOAT, ACL_FLOAT, {1, 3}, "out"});
    cases.push_back({n + "empty_self_into_complex",
                     kind,
                     ACL_COMPLEX64,
                     {0, 3},
                     {0},
                     ACL_COMPLEX64,
                     ACL_COMPLEX64,
                     {3},
                     "complex"});
    cases.push_back(
        {n + "complex_self_to_real_dtype", kind, ACL_COMPLEX64, {2, 3}, {0}, ACL_FLOAT, ACL_FLOAT, {3}, "dtype"});
  }
  for (const Kind kind : {Kind::kMax, Kind::kMin}) {
    const std::string n = KindName(kind);
    cases.push_back({n + "self_c64", kind, ACL_COMPLEX64, {2, 3}, {0}, ACL_COMPLEX64, ACL_COMPLEX64, {3}, "self"});
    cases.push_back({n + "out_dtype_differs", kind, ACL_FLOAT, {2, 3}, {0}, ACL_FLOAT, ACL_DOUBLE, {3}, "out"});
    cases.push_back({n + "dim_past_rank", kind, ACL_FLOAT, {2, 3}, {2}, ACL_FLOAT, ACL_FLOAT, {2}, "dim"});
    cases.push_back({n + "dim_twice", kind, ACL_FLOAT, {2, 3}, {1, -1}, ACL_FLOAT, ACL_FLOAT, {2}, "dim"});
    cases.push_back({n + "out_shape", kind, ACL_FLOAT, {2, 3}, {0}, ACL_FLOAT, ACL_FLOAT, {2}, "out"});
    cases.push_back({n + "reduced_extent_0", kind, ACL_FLOAT, {0, 3}, {0}, ACL_FLOAT, ACL_FLOAT, {3}, "extent 0"});
    cases.push_back({n + "all_of_empty", kind, ACL_FLOAT, {2, 0}, {}, ACL_FLOAT, ACL_FLOAT, {}, "extent 0"});
  }
  cases.push_back(
      {"sum_dtype_differs_from_out", Kind::kSum, ACL_FLOAT, {2, 3}, {0}, ACL_DOUBLE, ACL_FLOAT, {3}, "dtype"});
  cases.push_back({"mean_bool_self", Kind::kMean, ACL_BOOL, {2, 3}, {0}, ACL_FLOAT, ACL_FLOAT, {3}, "self"});
  cases.push_back(
      {"mean_dtype_not_castable_to_out", Kind::kMean, ACL_FLOAT, {2, 3}, {0}, ACL_COMPLEX64, ACL_FLOAT, {3}, "out"});
  return cases;
}

class ReduceRejectionTest : public ::testing::TestWithParam<Rejection> {};

TEST_P(ReduceRejectionTest, IsInvalidArgument) {
  const Rejection& x = GetParam();
  DeviceTensor self(x.self, x.shape);
  DeviceTensor out(x.out, x.outShape);
  // The dtype travels as the raw int a C caller may pass: through the registry's packed call.
  const canopyOpInfo* op = canopyFindOp(x.kind == Kind::kSum    ? "ReduceSum"
                                        : x.kind == Kind::kMean ? "Mean"
                                        : x.kind == Kind::kMax  ? "Amax"
                                                                : "Amin");
  ASSERT_NE(op, nullptr);
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        const aclTensor* selfTensor = args.Tensor(self);
        const aclIntArray* dimArray = args.IntArray(x.dims);
        const bool keepDim = false;
        const aclTensor* outTensor = args.Tensor(out);
        const int dtype = x.dtype;
        std::vector<void*> pointers = {&selfTensor, &dimArray, const_cast<bool*>(&keepDim)};
        if (!IsExtreme(x.kind)) pointers.push_back(const_cast<int*>(&dtype));
        pointers.push_back(&outTensor);
        return op->callGetWorkspaceSize(pointers.data(), workspaceSize, executor);
      },
      op->run);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, ReduceRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return SanitizeName(info.param.name); });

// ---- Softmax and LogSoftmax ----------------------------------------------------------------------

struct SoftmaxCase {
  std::string name;
  bool log;
  aclDataType self, out;
  Shape shape;
  int64_t dim;
  View view = View::kContiguous;
  View outView = View::kContiguous;
};

void PrintTo(const SoftmaxCase& x, std::ostream* os) { *os << x.name; }

// The float64 reference along `dim`, with a tolerance for an f32 (or f64) computation rounded into `out`.
Expected SoftmaxReference(bool log, const Values& values, const Shape& shape, int64_t dim, aclDataType self,
                          aclDataType out) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t d = rank == 0 ? 0 : (dim < 0 ? dim + rank : dim);
  const int64_t length = rank == 0 ? 1 : shape[static_cast<size_t>(d)];
  int64_t inner = 1;
  for (int64_t i = d + 1; i < rank; ++i) inner *= shape[static_cast<size_t>(i)];
  const int64_t outer = NumElements(shape) / std::max<int64_t>(1, length * inner);
  const double compute = self == ACL_DOUBLE || out == ACL_DOUBLE ? 0x1p-53 : 0x1p-24;
  Expected want;
  want.values.resize(values.size());
  want.tolerance.resize(values.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const auto at = [&](int64_t k) { return static_cast<size_t>((o * length + k) * inner + i); };
      double max = -INFINITY;
      for (int64_t k = 0; k < length; ++k) max = std::max(max, values[at(k)].real());
      double sum = 0;
      for (int64_t k = 0; k < length; ++k) sum += std::exp(values[at(k)].real() - max);
      for (int64_t k = 0; k < length; ++k) {
        const double x = values[at(k)].real() - max;
        const double v = log ? x - std::log(sum) : std::exp(x) / sum;
        want.values[at(k)] = ConvertValue(v, out);
        want.tolerance[at(k)] = 4 * UnitRoundoff(out) * std::abs(v) + 16 * compute * (1 + std::abs(x) + std::abs(v));
      }
    }
  }
  return want;
}

std::vector<SoftmaxCase> SoftmaxCases() {
  std::vector<SoftmaxCase> cases;
  for (const bool log : {false, true}) {
    const std::string op = log ? "logsoftmax_" : "softmax_";
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
      const std::string n = op + Name(dtype) + "_";
      cases.push_back({n + "last", log, dtype, dtype, {3, 7}, 1});
      cases.push_back({n + "first", log, dtype, dtype, {3, 7}, 0});
      cases.push_back({n + "negative_middle", log, dtype, dtype, {4, 5, 6}, -2});
      cases.push_back({n + "transposed", log, dtype, dtype, {6, 9}, 1, View::kTransposed});
      cases.push_back({n + "stepped_in_and_out", log, dtype, dtype, {4, 6, 5}, 2, View::kStepped, View::kStepped});
      cases.push_back({n + "broadcast", log, dtype, dtype, {4, 6, 5}, 1, View::kBroadcast});
      cases.push_back({n + "rank0", log, dtype, dtype, {}, 0});
      cases.push_back({n + "empty", log, dtype, dtype, {0, 4}, 1});
      cases.push_back({n + "long_row", log, dtype, dtype, {2, 5000}, 1});
      cases.push_back({n + "long_column_tiles", log, dtype, dtype, {300, 1500}, 0});
    }
    cases.push_back({op + "f16_into_f32", log, ACL_FLOAT16, ACL_FLOAT, {5, 40}, 1});
    cases.push_back({op + "f32_into_bf16", log, ACL_FLOAT, ACL_BF16, {40, 5}, 0});
  }
  return cases;
}

OpRun RunSoftmax(bool log, const DeviceTensor& self, int64_t dim, const DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return log ? aclnnLogSoftmaxGetWorkspaceSize(args.Tensor(self), dim, args.Tensor(out), workspaceSize, executor)
                   : aclnnSoftmaxGetWorkspaceSize(args.Tensor(self), dim, args.Tensor(out), workspaceSize, executor);
      },
      log ? aclnnLogSoftmax : aclnnSoftmax);
}

class SoftmaxTest : public ::testing::TestWithParam<SoftmaxCase> {};

TEST_P(SoftmaxTest, MatchesFloat64Reference) {
  const SoftmaxCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(x.self, x.shape, x.view);
  const Values values = self.FillRandom(rng, Range{-4, 4});
  DeviceTensor out(x.out, x.shape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunSoftmax(x.log, self, x.dim, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(out.ReadView(), SoftmaxReference(x.log, values, x.shape, x.dim, x.self, x.out), x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, SoftmaxTest, ::testing::ValuesIn(SoftmaxCases()),
                         [](const ::testing::TestParamInfo<SoftmaxCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// Large inputs do not overflow (the row maximum is subtracted), and a NaN makes its row NaN.
TEST(Softmax, LargeValuesAndNan) {
  DeviceTensor self(ACL_FLOAT, {2, 3});
  self.WriteView({1000.0, 1001.0, 999.0, 1.0, std::numeric_limits<double>::quiet_NaN(), 2.0});
  DeviceTensor out(ACL_FLOAT, {2, 3});
  ASSERT_TRUE(RunSoftmax(false, self, 1, out).ok());
  const Values got = out.ReadView();
  const double sum = std::exp(-1.0) + 1 + std::exp(-2.0);
  EXPECT_NEAR(got[0].real(), std::exp(-1.0) / sum, 1e-6);
  EXPECT_NEAR(got[1].real(), 1 / sum, 1e-6);
  for (int i = 3; i < 6; ++i) EXPECT_TRUE(std::isnan(got[static_cast<size_t>(i)].real())) << i;
}

TEST(Softmax, Rejections) {
  struct Bad {
    const char* name;
    aclDataType self, out;
    Shape shape, outShape;
    int64_t dim;
    const char* keyword;
  };
  const Bad cases[] = {
      {"s32 self", ACL_INT32, ACL_FLOAT, {2, 3}, {2, 3}, 1, "self"},
      {"s32 out", ACL_FLOAT, ACL_INT32, {2, 3}, {2, 3}, 1, "out"},
      {"out shape", ACL_FLOAT, ACL_FLOAT, {2, 3}, {3, 2}, 1, "out"},
      {"dim past rank", ACL_FLOAT, ACL_FLOAT, {2, 3}, {2, 3}, 2, "dim"},
      {"dim below -rank", ACL_FLOAT, ACL_FLOAT, {2, 3}, {2, 3}, -3, "dim"},
      {"rank 0 dim 1", ACL_FLOAT, ACL_FLOAT, {}, {}, 1, "dim"},
  };
  for (const bool log : {false, true}) {
    for (const Bad& bad : cases) {
      DeviceTensor self(bad.self, bad.shape);
      DeviceTensor out(bad.out, bad.outShape);
      const OpRun run = RunSoftmax(log, self, bad.dim, out);
      EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << bad.name << ": " << Describe(run);
      EXPECT_NE(run.message.find(bad.keyword), std::string::npos) << bad.name << ": " << run.message;
    }
  }
}

}  // namespace
}  // namespace canopy_test
