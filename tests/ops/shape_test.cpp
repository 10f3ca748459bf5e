// Slice, SliceV2, Tril/InplaceTril, Triu/InplaceTriu, Arange, Permute, Repeat and the RepeatInterleave forms through
// the public C API against plain references: every documented dtype, strided, transposed and offset inputs and outputs,
// negative dims, clamped bounds, empty tensors, in-place calls, and each rejection with its status code.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_range.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_slice_v2.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const View kContiguous = View::kContiguous;

void ExpectRejected(const OpRun& run, aclnnStatus status, const std::string& keyword) {
  EXPECT_EQ(run.phase1, status) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << "message should name '" << keyword << "': " << run.message;
}

// ---- Slice ----------------------------------------------------------------------------------------

const std::vector<aclDataType> kSliceDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_INT32,
                                               ACL_INT64, ACL_INT8,    ACL_UINT8, ACL_BOOL};

struct SliceCase {
  std::string name;
  aclDataType dtype = ACL_FLOAT;
  Shape shape = {5, 6};
  int64_t dim = 0, start = 1, end = 4, step = 1;
  View selfView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const SliceCase& x, std::ostream* os) { *os << x.name; }

// The documented clamping of start and end, then ceil((end - start) / step) elements.
int64_t SliceLength(int64_t n, int64_t start, int64_t end, int64_t step, int64_t* first) {
  int64_t s = start < -n ? 0 : start >= n ? n : (start + n) % n;
  int64_t e = end < -n ? s : end >= n ? n : std::max(s, (end + n) % n);
  *first = s;
  return e == s ? 0 : (e - s - 1) / step + 1;  // ceil((e - s) / step) without overflow
}

std::vector<SliceCase> SliceCases() {
  std::vector<SliceCase> cases;
  for (aclDataType dtype : kSliceDtypes) cases.push_back({std::string("dtype_") + Name(dtype), dtype});
  cases.push_back({"dim1_step2", ACL_FLOAT, {5, 7}, 1, 0, 7, 2});
  cases.push_back({"negative_dim_and_start", ACL_INT32, {3, 4, 5}, -1, -4, 5, 1});
  cases.push_back({"start_below_minus_n_end_past_n", ACL_FLOAT16, {6, 3}, 0, -100, 100, 2});
  cases.push_back({"end_below_minus_n_is_empty", ACL_FLOAT, {6, 3}, 0, 2, -100, 1});
  cases.push_back({"start_past_n_is_empty", ACL_INT64, {6, 3}, 0, 9, 12, 1});
  cases.push_back({"end_before_start_is_empty", ACL_INT8, {6, 3}, 0, 4, 2, 1});
  cases.push_back({"step_beyond_extent", ACL_BF16, {6, 3}, 0, 1, 6, 100});
  cases.push_back({"huge_step_no_overflow", ACL_FLOAT, {6, 3}, 0, 0, 6, std::numeric_limits<int64_t>::max()});
  cases.push_back({"transposed_self", ACL_FLOAT, {6, 5}, 1, 1, 5, 2, View::kTransposed});
  cases.push_back({"stepped_self_and_out", ACL_UINT8, {4, 5, 3}, 1, 0, 5, 2, View::kStepped, View::kStepped});
  cases.push_back({"reversed_self_offset_out", ACL_BOOL, {4, 5, 3}, 2, 1, 3, 1, View::kReversed, View::kOffset});
  cases.push_back({"transposed_out", ACL_INT32, {6, 5}, 0, 1, 6, 1, kContiguous, View::kTransposed});
  cases.push_back({"empty_self", ACL_FLOAT, {0, 4}, 1, 1, 3, 1});
  cases.push_back({"rank1", ACL_FLOAT, {10}, 0, -3, 10, 1});
  cases.push_back({"rank8", ACL_FLOAT16, {2, 1, 2, 3, 1, 2, 1, 4}, 3, 1, 3, 1, View::kStepped});
  return cases;
}

class SliceTest : public ::testing::TestWithParam<SliceCase> {};

TEST_P(SliceTest, MatchesReference) {
  const SliceCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(x.dtype, x.shape, x.selfView);
  const Values values = self.FillRandom(rng, Range{});
  const int64_t dim = x.dim < 0 ? x.dim + static_cast<int64_t>(x.shape.size()) : x.dim;
  int64_t first = 0;
  const int64_t length = SliceLength(x.shape[dim], x.start, x.end, x.step, &first);
  Shape outShape = x.shape;
  outShape[dim] = length;
  DeviceTensor out(x.dtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnSliceGetWorkspaceSize(args.Tensor(self), x.dim, x.start, x.end, x.step, args.Tensor(out),
                                          workspaceSize, executor);
      },
      aclnnSlice);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want(static_cast<size_t>(NumElements(outShape)));
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape index = Unravel(i, outShape);
    index[dim] = first + index[dim] * x.step;
    want[i] = values[Ravel(index, x.shape)];
  }
  ExpectExact(out.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, SliceTest, ::testing::ValuesIn(SliceCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun RunSlice(aclDataType selfDtype, const Shape& selfShape, int64_t dim, int64_t start, int64_t end, int64_t step,
               aclDataType outDtype, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnSliceGetWorkspaceSize(args.NewTensor(selfDtype, selfShape), dim, start, end, step,
                                          args.NewTensor(outDtype, outShape), workspaceSize, executor);
      },
      aclnnSlice);
}

TEST(SliceRejects, EachInvalidArgument) {
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  ExpectRejected(RunSlice(ACL_DOUBLE, {4, 4}, 0, 0, 2, 1, ACL_DOUBLE, {2, 4}), invalid, "'self'");
  ExpectRejected(RunSlice(ACL_COMPLEX64, {4, 4}, 0, 0, 2, 1, ACL_COMPLEX64, {2, 4}), invalid, "'self'");
  ExpectRejected(RunSlice(ACL_FLOAT, {4, 4}, 0, 0, 2, 1, ACL_INT32, {2, 4}), invalid, "'out'");
  ExpectRejected(RunSlice(ACL_FLOAT, {}, 0, 0, 1, 1, ACL_FLOAT, {}), invalid, "'self'");
  ExpectRejected(RunSlice(ACL_FLOAT, {4, 4}, 2, 0, 2, 1, ACL_FLOAT, {4, 2}), invalid, "'dim'");
  ExpectRejected(RunSlice(ACL_FLOAT, {4, 4}, -3, 0, 2, 1, ACL_FLOAT, {4, 2}), invalid, "'dim'");
  ExpectRejected(RunSlice(ACL_FLOAT, {4, 4}, 0, 0, 2, 0, ACL_FLOAT, {2, 4}), invalid, "'step'");
  ExpectRejected(RunSlice(ACL_FLOAT, {4, 4}, 0, 2, 0, -1, ACL_FLOAT, {2, 4}), invalid, "'step'");
  ExpectRejected(RunSlice(ACL_FLOAT, {4, 4}, 0, 0, 2, 1, ACL_FLOAT, {3, 4}), invalid, "'out'");
  EXPECT_TRUE(RunSlice(ACL_FLOAT, {4, 4}, 0, 0, 2, 1, ACL_FLOAT, {2, 4}).ok());
}

// ---- SliceV2 --------------------------------------------------------------------------------------

struct SliceV2Case {
  std::string name;
  Shape shape;
  std::vector<int64_t> starts, ends, axes, steps;
  View selfView = kContiguous;
  View outView = kContiguous;
};

OpRun RunSliceV2(aclTensor* self, aclIntArray* starts, aclIntArray* ends, aclIntArray* axes, aclIntArray* steps,
                 aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnSliceV2GetWorkspaceSize(self, starts, ends, axes, steps, out, ws, ex);
      },
      aclnnSliceV2);
}

void CheckSliceV2(aclDataType dtype, const SliceV2Case& x) {
  Rng rng = Rng::ForCurrentTest();
  const auto rank = static_cast<int64_t>(x.shape.size());
  Shape outShape = x.shape;
  std::vector<int64_t> firsts(static_cast<size_t>(rank), 0), steps(static_cast<size_t>(rank), 1);
  for (size_t i = 0; i < x.axes.size(); ++i) {
    const int64_t d = x.axes[i] < 0 ? x.axes[i] + rank : x.axes[i];
    outShape[d] = SliceLength(x.shape[d], x.starts[i], x.ends[i], x.steps[i], &firsts[d]);
    steps[d] = x.steps[i];
  }
  for (int round = 0; round < 2; ++round) {
    DeviceTensor self(dtype, x.shape, x.selfView);
    const Values values = self.FillRandom(rng, Range{});
    DeviceTensor out(dtype, outShape, x.outView);
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    OpArgs args;
    const OpRun run = RunSliceV2(args.Tensor(self), args.IntArray(x.starts), args.IntArray(x.ends),
                                 args.IntArray(x.axes), args.IntArray(x.steps), args.Tensor(out));
    ASSERT_TRUE(run.ok()) << Describe(run);
    Values want(static_cast<size_t>(NumElements(outShape)));
    for (int64_t i = 0; i < NumElements(outShape); ++i) {
      Shape index = Unravel(i, outShape);
      for (int64_t d = 0; d < rank; ++d) index[d] = firsts[d] + index[d] * steps[d];
      want[i] = values[Ravel(index, x.shape)];
    }
    ExpectExact(out.ReadView(), want, x.name);
    ExpectOutsideViewUnchanged(out, before, "out storage");
  }
}

TEST(SliceV2, MatchesReferenceTwice) {
  const std::vector<SliceV2Case> cases = {
      {"two_axes", {5, 6}, {1, -4}, {4, 100}, {0, 1}, {1, 2}},
      {"negative_axes_transposed", {4, 5, 6}, {0, 1}, {-1, 5}, {-1, -3}, {2, 3}, View::kTransposed, View::kStepped},
      {"clamped_bounds", {6, 3}, {-100}, {2}, {0}, {1}, View::kReversed, View::kTransposed},
      {"end_before_start_empty", {6, 3}, {4}, {2}, {0}, {1}, View::kStepped, View::kOffset},
      {"no_axes_copies", {3, 2}, {}, {}, {}, {}, View::kOffset, View::kReversed},
      {"empty_self", {0, 4}, {0, 1}, {2, 3}, {0, 1}, {1, 1}},
      {"rank8_all_axes",
       {2, 1, 2, 3, 1, 2, 1, 4},
       {1, 0, 0, 1, 0, 0, 0, -3},
       {2, 1, 2, 3, 1, 2, 1, 4},
       {0, 1, 2, 3, 4, 5, 6, 7},
       {1, 1, 2, 1, 1, 1, 1, 2},
       View::kStepped},
  };
  for (const SliceV2Case& x : cases) {
    SCOPED_TRACE(x.name);
    CheckSliceV2(ACL_FLOAT, x);
  }
  size_t c = 0;
  for (aclDataType dtype : kSliceDtypes) {
    SCOPED_TRACE(Name(dtype));
    CheckSliceV2(dtype, cases[c++ % 3]);
  }
}

TEST(SliceV2, Rejections) {
  auto call = [](aclDataType dtype, const Shape& self, const std::vector<int64_t>& starts,
                 const std::vector<int64_t>& ends, const std::vector<int64_t>& axes, const std::vector<int64_t>& steps,
                 aclDataType outDtype, const Shape& out) {
    OpArgs a;
    return RunSliceV2(a.NewTensor(dtype, self), a.IntArray(starts), a.IntArray(ends), a.IntArray(axes),
                      a.IntArray(steps), a.NewTensor(outDtype, out));
  };
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  const aclDataType f = ACL_FLOAT;
  ExpectRejected(call(ACL_DOUBLE, {4, 4}, {0}, {2}, {0}, {1}, ACL_DOUBLE, {2, 4}), invalid, "'self'");
  ExpectRejected(call(f, {4, 4}, {0}, {2}, {0}, {1}, ACL_INT32, {2, 4}), invalid, "'out'");
  ExpectRejected(call(f, {}, {}, {}, {}, {}, f, {}), invalid, "'self'");
  ExpectRejected(call(f, {4, 4}, {0}, {2}, {2}, {1}, f, {2, 4}), invalid, "'axes'");
  ExpectRejected(call(f, {4, 4}, {0, 0}, {2, 2}, {1, -1}, {1, 1}, f, {4, 2}), invalid, "twice");
  ExpectRejected(call(f, {4, 4}, {0}, {2}, {0}, {0}, f, {2, 4}), invalid, "'steps'");
  ExpectRejected(call(f, {4, 4}, {0, 0}, {2}, {0}, {1}, f, {2, 4}), invalid, "as many");
  ExpectRejected(call(f, {4, 4}, {0}, {2}, {0}, {1}, f, {3, 4}), invalid, "'out'");
}

// The CANN document's example: self 4x2 f32 0..7, starts [1, 1], ends [3, 2], axes [0, 1], steps [1, 1].
TEST(SliceV2, DocExample) {
  DeviceTensor self(ACL_FLOAT, {4, 2});
  self.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  DeviceTensor out(ACL_FLOAT, {2, 1});
  OpArgs args;
  ASSERT_TRUE(RunSliceV2(args.Tensor(self), args.IntArray({1, 1}), args.IntArray({3, 2}), args.IntArray({0, 1}),
                         args.IntArray({1, 1}), args.Tensor(out))
                  .ok());
  ExpectExact(out.ReadView(), {3, 5}, "out");
}

// ---- Tril / Triu ----------------------------------------------------------------------------------

const std::vector<aclDataType> kTriangleDtypes = {ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_INT16,  ACL_INT32,
                                                  ACL_INT64,  ACL_INT8,  ACL_UINT16,  ACL_UINT32, ACL_UINT64,
                                                  ACL_UINT8,  ACL_BOOL,  ACL_BF16};

enum class Form { kTril, kTriu, kInplaceTril, kInplaceTriu };
bool IsUpper(Form f) { return f == Form::kTriu || f == Form::kInplaceTriu; }
bool IsInplace(Form f) { return f == Form::kInplaceTril || f == Form::kInplaceTriu; }
const char* FormName(Form f) {
  switch (f) {
    case Form::kTril:
      return "tril";
    case Form::kTriu:
      return "triu";
    case Form::kInplaceTril:
      return "inplace_tril";
    case Form::kInplaceTriu:
      return "inplace_triu";
  }
  return "?";
}

OpRun RunTriangle(Form form, aclTensor* self, int64_t diagonal, aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* workspaceSize, aclOpExecutor** executor) {
        switch (form) {
          case Form::kTril:
            return aclnnTrilGetWorkspaceSize(self, diagonal, out, workspaceSize, executor);
          case Form::kTriu:
            return aclnnTriuGetWorkspaceSize(self, diagonal, out, workspaceSize, executor);
          case Form::kInplaceTril:
            return aclnnInplaceTrilGetWorkspaceSize(self, diagonal, workspaceSize, executor);
          case Form::kInplaceTriu:
            return aclnnInplaceTriuGetWorkspaceSize(self, diagonal, workspaceSize, executor);
        }
        return ACLNN_ERR_INNER;
      },
      form == Form::kTril          ? aclnnTril
      : form == Form::kTriu        ? aclnnTriu
      : form == Form::kInplaceTril ? aclnnInplaceTril
                                   : aclnnInplaceTriu);
}

struct TriangleCase {
  std::string name;
  Form form;
  aclDataType dtype = ACL_FLOAT;
  Shape shape = {4, 5};
  int64_t diagonal = 0;
  View selfView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const TriangleCase& x, std::ostream* os) { *os << x.name; }

std::vector<TriangleCase> TriangleCases() {
  std::vector<TriangleCase> cases;
  for (Form form : {Form::kTril, Form::kTriu, Form::kInplaceTril, Form::kInplaceTriu}) {
    const std::string f = FormName(form);
    for (aclDataType dtype : kTriangleDtypes) cases.push_back({f + "_" + Name(dtype), form, dtype});
    for (int64_t d : std::vector<int64_t>{-2, -1, 1, 3, 100, -100, std::numeric_limits<int64_t>::max(),
                                          std::numeric_limits<int64_t>::min()}) {
      cases.push_back({f + "_diagonal_" + std::to_string(d), form, ACL_FLOAT, {5, 4}, d});
    }
    cases.push_back({f + "_batched_transposed", form, ACL_FLOAT16, {3, 5, 6}, 1, View::kTransposed});
    cases.push_back({f + "_stepped", form, ACL_INT32, {2, 4, 4}, -1, View::kStepped, View::kStepped});
    cases.push_back({f + "_rank8", form, ACL_BF16, {2, 1, 1, 2, 1, 1, 3, 3}, 0, View::kReversed});
    cases.push_back({f + "_empty", form, ACL_FLOAT, {0, 3, 3}});
    if (!IsInplace(form))
      cases.push_back({f + "_transposed_out", form, ACL_FLOAT, {6, 4}, 1, kContiguous, View::kTransposed});
  }
  cases.push_back({"triu_rank1_empty", Form::kTriu, ACL_FLOAT, {0}});
  cases.push_back({"inplace_triu_rank1_empty", Form::kInplaceTriu, ACL_FLOAT, {0}});
  return cases;
}

class TriangleTest : public ::testing::TestWithParam<TriangleCase> {};

TEST_P(TriangleTest, MatchesReference) {
  const TriangleCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(x.dtype, x.shape, x.selfView);
  const Values values = self.FillRandom(rng, Range{1, 3});  // non-zero: a kept element is never 0
  DeviceTensor out(x.dtype, x.shape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = (IsInplace(x.form) ? self : out).DownloadBytes();
  OpArgs args;
  const OpRun run = RunTriangle(x.form, args.Tensor(self), x.diagonal, IsInplace(x.form) ? nullptr : args.Tensor(out));
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want = values;
  const size_t rank = x.shape.size();
  for (int64_t i = 0; i < NumElements(x.shape) && rank >= 2; ++i) {
    const Shape index = Unravel(i, x.shape);
    const long double offset = static_cast<long double>(index[rank - 1]) - index[rank - 2];  // j - i, exact
    const bool keep = IsUpper(x.form) ? offset >= x.diagonal : offset <= x.diagonal;
    if (!keep) want[i] = 0;
  }
  const DeviceTensor& result = IsInplace(x.form) ? self : out;
  ExpectExact(result.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(result, before, "result storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, TriangleTest, ::testing::ValuesIn(TriangleCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// The same view in and out stays in place: no staging is booked.
TEST(TriangleInPlace, BooksNoWorkspace) {
  DeviceTensor self(ACL_FLOAT, {64, 64}, View::kStepped);
  Rng rng = Rng::ForCurrentTest();
  self.FillRandom(rng, Range{});
  OpArgs args;
  const OpRun run = RunTriangle(Form::kInplaceTriu, args.Tensor(self), 0, nullptr);
  ASSERT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0u);
}

// An out that overlaps self as another view is computed from self's values before the op.
TEST(TriangleInPlace, ShiftedOutputIsStaged) {
  DeviceTensor storage(ACL_FLOAT, {5, 4});
  Rng rng = Rng::ForCurrentTest();
  const Values values = storage.FillRandom(rng, Range{1, 3});
  OpArgs args;
  const Shape shape = {4, 4};
  const Shape strides = {4, 1};
  aclTensor* self = aclCreateTensor(shape.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                    storage.layout().storageShape.data(), 2, storage.data());
  aclTensor* out = aclCreateTensor(shape.data(), 2, ACL_FLOAT, strides.data(), 4, ACL_FORMAT_ND,
                                   storage.layout().storageShape.data(), 2, storage.data());
  const OpRun run = RunTriangle(Form::kTril, self, 0, out);
  aclDestroyTensor(self);
  aclDestroyTensor(out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values got = storage.ReadView();
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      EXPECT_EQ(got[(i + 1) * 4 + j], j <= i ? values[i * 4 + j] : Value(0)) << i << "," << j;
    }
  }
}

TEST(TriangleRejects, EachInvalidArgument) {
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  for (Form form : {Form::kTril, Form::kTriu}) {
    SCOPED_TRACE(FormName(form));
    OpArgs a;
    ExpectRejected(RunTriangle(form, a.NewTensor(ACL_COMPLEX64, {3, 3}), 0, a.NewTensor(ACL_COMPLEX64, {3, 3})),
                   invalid, "'self'");
    ExpectRejected(RunTriangle(form, a.NewTensor(ACL_FLOAT, {3, 3}), 0, a.NewTensor(ACL_FLOAT16, {3, 3})), invalid,
                   "'out'");
    ExpectRejected(RunTriangle(form, a.NewTensor(ACL_FLOAT, {3, 3}), 0, a.NewTensor(ACL_FLOAT, {3, 4})), invalid,
                   "'out'");
    ExpectRejected(RunTriangle(form, a.NewTensor(ACL_FLOAT, {3}), 0, a.NewTensor(ACL_FLOAT, {3})), invalid, "'self'");
    ExpectRejected(RunTriangle(form, a.NewTensor(ACL_FLOAT, {}), 0, a.NewTensor(ACL_FLOAT, {})), invalid, "'self'");
    ExpectRejected(RunTriangle(form, a.NewTensor(ACL_FLOAT, {3, 3}, kContiguous, ACL_FORMAT_NCHW), 0,
                               a.NewTensor(ACL_FLOAT, {3, 3})),
                   invalid, "format");
  }
  OpArgs a;
  ExpectRejected(RunTriangle(Form::kTril, a.NewTensor(ACL_FLOAT, {0}), 0, a.NewTensor(ACL_FLOAT, {0})), invalid,
                 "'self'");  // Tril takes no rank below 2, even empty
  ExpectRejected(RunTriangle(Form::kInplaceTril, a.NewTensor(ACL_FLOAT, {4}), 0, nullptr), invalid, "'selfRef'");
  ExpectRejected(RunTriangle(Form::kInplaceTriu, a.NewTensor(ACL_COMPLEX128, {2, 2}), 0, nullptr), invalid,
                 "'selfRef'");
}

// ---- Arange ---------------------------------------------------------------------------------------

const std::vector<aclDataType> kArangeOutDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_BF16};

struct ArangeCase {
  std::string name;
  aclDataType out;
  aclDataType scalars;
  double start, end, step;
  View view = kContiguous;
};
void PrintTo(const ArangeCase& x, std::ostream* os) { *os << x.name; }

bool IsIntegerOut(aclDataType dtype) { return dtype == ACL_INT32 || dtype == ACL_INT64; }

// PyTorch's count and values: integer outputs on int64-truncated bounds, floating
// ones in f32 (f32, fp16 and bf16 outputs) or f64.
std::vector<double> ArangeValues(const ArangeCase& x) {
  std::vector<double> values;
  if (IsIntegerOut(x.out)) {
    const auto a = static_cast<int64_t>(x.start), b = static_cast<int64_t>(x.end), s = static_cast<int64_t>(x.step);
    const int64_t sign = s > 0 ? 1 : -1;
    const int64_t count = (b - a + s - sign) / s;
    for (int64_t i = 0; i < count; ++i) values.push_back(static_cast<double>(a + i * s));
  } else {
    const double count =
        x.out == ACL_DOUBLE
            ? std::ceil((x.end - x.start) / x.step)
            : std::ceil((static_cast<float>(x.end) - static_cast<float>(x.start)) / static_cast<float>(x.step));
    for (int64_t i = 0; i < static_cast<int64_t>(count); ++i)
      values.push_back(x.start + static_cast<double>(i) * x.step);
  }
  return values;
}

std::vector<ArangeCase> ArangeCases() {
  std::vector<ArangeCase> cases;
  for (aclDataType out : kArangeOutDtypes) {
    const std::string n = Name(out);
    cases.push_back({n + "_0_to_7", out, ACL_INT64, 0, 7, 1});
    cases.push_back({n + "_down_by_3", out, ACL_INT32, 10, -4, -3});
    cases.push_back({n + "_empty", out, ACL_FLOAT, 3, 3, 1});
    cases.push_back({n + "_f64_bounds", out, ACL_DOUBLE, -2.5, 4.25, 1.75});
    cases.push_back({n + "_stepped_out", out, ACL_INT16, 1, 40, 3, View::kStepped});
  }
  for (aclDataType scalars : {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT16}) {
    cases.push_back({std::string("scalars_") + Name(scalars), ACL_FLOAT, scalars, 2, 9, 2});
  }
  cases.push_back({"large_f32", ACL_FLOAT, ACL_FLOAT, 0, 5000, 1});
  cases.push_back({"float_count_in_f32", ACL_FLOAT, ACL_DOUBLE, 0, 1, 0.1});
  return cases;
}

class ArangeTest : public ::testing::TestWithParam<ArangeCase> {};

TEST_P(ArangeTest, MatchesPyTorch) {
  const ArangeCase& x = GetParam();
  const std::vector<double> values = ArangeValues(x);
  DeviceTensor out(x.out, {static_cast<int64_t>(values.size())}, x.view);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnArangeGetWorkspaceSize(args.Scalar(x.scalars, x.start), args.Scalar(x.scalars, x.end),
                                           args.Scalar(x.scalars, x.step), args.Tensor(out), workspaceSize, executor);
      },
      aclnnArange);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected want;
  for (double v : values) {
    want.values.push_back(ConvertValue(v, x.out));
    want.tolerance.push_back(0);
  }
  ExpectNear(out.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, ArangeTest, ::testing::ValuesIn(ArangeCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// CANN's kernel fills out as one flat sequence: an out of another shape but the right count gets it row-major.
TEST(ArangeShape, TwoDimensionalOutIsFilledRowMajor) {
  DeviceTensor out(ACL_INT64, {2, 3}, View::kTransposed);
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnArangeGetWorkspaceSize(args.Scalar(ACL_INT64, 0), args.Scalar(ACL_INT64, 6),
                                           args.Scalar(ACL_INT64, 1), args.Tensor(out), workspaceSize, executor);
      },
      aclnnArange);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), {0, 1, 2, 3, 4, 5}, "arange into [2,3]");
}

// int64 sequences across the whole range: start + i * step fits where i * step
// alone does not (an adversarial pass: UBSan's signed overflow).
TEST(ArangeShape, Int64AcrossTheWholeRange) {
  const int64_t lowest = std::numeric_limits<int64_t>::min(), highest = std::numeric_limits<int64_t>::max();
  const int64_t step = int64_t{1} << 62;
  DeviceTensor out(ACL_INT64, {4});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        int64_t values[3] = {lowest, highest, step};
        aclScalar* start = aclCreateScalar(&values[0], ACL_INT64);
        aclScalar* end = aclCreateScalar(&values[1], ACL_INT64);
        aclScalar* by = aclCreateScalar(&values[2], ACL_INT64);
        const aclnnStatus status =
            aclnnArangeGetWorkspaceSize(start, end, by, args.Tensor(out), workspaceSize, executor);
        aclDestroyScalar(start);
        aclDestroyScalar(end);
        aclDestroyScalar(by);
        return status;
      },
      aclnnArange);
  ASSERT_TRUE(run.ok()) << Describe(run);
  // Powers of two: exact as the doubles ReadView gives.
  ExpectExact(out.ReadView(), {-0x1p63, -0x1p62, 0, 0x1p62}, "arange by 2^62 from INT64_MIN");
}

// Range: the closed interval, floor((end - start) / step) + 1 values (torch.range), end included where it falls on a
// step.
TEST(Range, ClosedIntervalInEveryOutDtype) {
  struct Case {
    double start, end, step;
    std::vector<double> values;
  };
  const std::vector<Case> cases = {
      {0, 4, 1, {0, 1, 2, 3, 4}}, {10, -4, -3, {10, 7, 4, 1, -2}}, {1, 2.5, 0.5, {1, 1.5, 2, 2.5}}, {3, 3, 1, {3}}};
  for (aclDataType out : kArangeOutDtypes) {
    for (const Case& c : cases) {
      if (IsIntegerOut(out) && c.step != std::trunc(c.step)) continue;
      DeviceTensor t(out, {static_cast<int64_t>(c.values.size())});
      const OpRun run = RunOp(
          [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            return aclnnRangeGetWorkspaceSize(args.Scalar(ACL_DOUBLE, c.start), args.Scalar(ACL_DOUBLE, c.end),
                                              args.Scalar(ACL_DOUBLE, c.step), args.Tensor(t), workspaceSize, executor);
          },
          aclnnRange);
      ASSERT_TRUE(run.ok()) << Describe(run);
      Values want;
      for (double v : c.values) want.push_back(ConvertValue(v, out));
      ExpectExact(t.ReadView(), want, std::string("range into ") + Name(out));
    }
  }
  // Rejected: a zero step, bounds against the step's sign, the wrong count, a rank-0 out.
  auto range = [](double start, double end, double step, const Shape& shape) {
    return RunOp(
        [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
          return aclnnRangeGetWorkspaceSize(args.Scalar(ACL_FLOAT, start), args.Scalar(ACL_FLOAT, end),
                                            args.Scalar(ACL_FLOAT, step), args.NewTensor(ACL_FLOAT, shape),
                                            workspaceSize, executor);
        },
        aclnnRange);
  };
  ExpectRejected(range(0, 4, 0, {5}), ACLNN_ERR_PARAM_INVALID, "'step'");
  ExpectRejected(range(4, 0, 1, {5}), ACLNN_ERR_PARAM_INVALID, "sign");
  ExpectRejected(range(0, 4, 1, {4}), ACLNN_ERR_PARAM_INVALID, "'out'");
  ExpectRejected(range(0, 0, 1, {}), ACLNN_ERR_PARAM_INVALID, "'out'");
}

OpRun RunArange(aclDataType scalars, double start, double end, double step, aclDataType outDtype, const Shape& shape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnArangeGetWorkspaceSize(args.Scalar(scalars, start), args.Scalar(scalars, end),
                                           args.Scalar(scalars, step), args.NewTensor(outDtype, shape), workspaceSize,
                                           executor);
      },
      aclnnArange);
}

TEST(ArangeRejects, EachInvalidArgument) {
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  ExpectRejected(RunArange(ACL_FLOAT, 0, 4, 0, ACL_FLOAT, {4}), invalid, "'step'");
  ExpectRejected(RunArange(ACL_INT64, 0, 4, 0, ACL_INT64, {4}), invalid, "'step'");
  ExpectRejected(RunArange(ACL_FLOAT, 0, 4, -1, ACL_FLOAT, {4}), invalid, "sign");
  ExpectRejected(RunArange(ACL_INT32, 5, 1, 1, ACL_INT32, {4}), invalid, "sign");
  ExpectRejected(RunArange(ACL_FLOAT, 0, 4, 1, ACL_FLOAT, {5}), invalid, "'out'");
  ExpectRejected(RunArange(ACL_FLOAT, 0, 4, 1, ACL_INT8, {4}), invalid, "'out'");
  ExpectRejected(RunArange(ACL_COMPLEX64, 0, 4, 1, ACL_FLOAT, {4}), invalid, "'start'");
  ExpectRejected(RunArange(ACL_UINT32, 0, 4, 1, ACL_FLOAT, {4}), invalid, "'start'");
  ExpectRejected(RunArange(ACL_DOUBLE, 0, std::numeric_limits<double>::infinity(), 1, ACL_DOUBLE, {4}), invalid,
                 "finite");
  ExpectRejected(RunArange(ACL_DOUBLE, 0, 1e300, 1e-300, ACL_DOUBLE, {4}), invalid, "too many");
  ExpectRejected(RunArange(ACL_DOUBLE, -9e18, 9e18, 1, ACL_INT64, {4}), invalid, "too many");
  EXPECT_TRUE(RunArange(ACL_FLOAT, 0, 4, 1, ACL_FLOAT, {4}).ok());
}

// ---- RepeatInterleave -----------------------------------------------------------------------------

const std::vector<aclDataType> kRepeatDtypes = {ACL_UINT8, ACL_INT8,    ACL_INT16, ACL_INT32, ACL_INT64,
                                                ACL_BOOL,  ACL_FLOAT16, ACL_BF16,  ACL_FLOAT};

enum class RepeatForm { kTensor, kTensorWithDim, kInt, kIntWithDim };
bool HasDim(RepeatForm f) { return f == RepeatForm::kTensorWithDim || f == RepeatForm::kIntWithDim; }
bool IsTensorForm(RepeatForm f) { return f == RepeatForm::kTensor || f == RepeatForm::kTensorWithDim; }
const char* RepeatFormName(RepeatForm f) {
  switch (f) {
    case RepeatForm::kTensor:
      return "tensor";
    case RepeatForm::kTensorWithDim:
      return "tensor_dim";
    case RepeatForm::kInt:
      return "int";
    case RepeatForm::kIntWithDim:
      return "int_dim";
  }
  return "?";
}

OpRun RunRepeat(RepeatForm form, aclTensor* self, aclTensor* repeats, int64_t count, int64_t dim, int64_t outputSize,
                aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* workspaceSize, aclOpExecutor** executor) {
        switch (form) {
          case RepeatForm::kTensor:
            return aclnnRepeatInterleaveGetWorkspaceSize(self, repeats, outputSize, out, workspaceSize, executor);
          case RepeatForm::kTensorWithDim:
            return aclnnRepeatInterleaveWithDimGetWorkspaceSize(self, repeats, dim, outputSize, out, workspaceSize,
                                                                executor);
          case RepeatForm::kInt:
            return aclnnRepeatInterleaveIntGetWorkspaceSize(self, count, outputSize, out, workspaceSize, executor);
          case RepeatForm::kIntWithDim:
            return aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(self, count, dim, outputSize, out, workspaceSize,
                                                                   executor);
        }
        return ACLNN_ERR_INNER;
      },
      form == RepeatForm::kTensor          ? aclnnRepeatInterleave
      : form == RepeatForm::kTensorWithDim ? aclnnRepeatInterleaveWithDim
      : form == RepeatForm::kInt           ? aclnnRepeatInterleaveInt
                                           : aclnnRepeatInterleaveIntWithDim);
}

struct RepeatCase {
  std::string name;
  RepeatForm form;
  aclDataType dtype = ACL_FLOAT;
  Shape self = {3, 4};
  int64_t dim = 0;
  std::vector<int64_t> counts = {2};  // one count, or one per slice (tensor forms)
  Shape countsShape = {1};
  View selfView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const RepeatCase& x, std::ostream* os) { *os << x.name; }

std::vector<RepeatCase> RepeatCases() {
  std::vector<RepeatCase> cases;
  for (RepeatForm form : {RepeatForm::kTensor, RepeatForm::kTensorWithDim, RepeatForm::kInt, RepeatForm::kIntWithDim}) {
    const std::string f = RepeatFormName(form);
    for (aclDataType dtype : kRepeatDtypes) cases.push_back({f + "_" + Name(dtype), form, dtype});
    cases.push_back(
        {f + "_transposed_self_stepped_out", form, ACL_FLOAT, {4, 3}, 1, {3}, {1}, View::kTransposed, View::kStepped});
    cases.push_back({f + "_zero_repeats", form, ACL_INT32, {3, 2}, 0, {0}});
    cases.push_back({f + "_empty_self", form, ACL_FLOAT, {0, 2}, 1, {2}});
    if (HasDim(form)) {
      cases.push_back({f + "_negative_dim_rank3", form, ACL_FLOAT16, {2, 3, 4}, -2, {3}});
    } else {
      cases.push_back({f + "_rank0_self", form, ACL_FLOAT, {}, 0, {3}});
    }
  }
  // Long ones, copied whole output rows at a time and split between threads
  // mid-row (ggml's RoPE tables: [n] -> [n, 2]).
  cases.push_back({"int_dim_long_f32", RepeatForm::kIntWithDim, ACL_FLOAT, {100003}, 0, {3}});
  cases.push_back({"int_dim_long_f16", RepeatForm::kIntWithDim, ACL_FLOAT16, {65537}, 0, {2}});
  cases.push_back({"tensor_per_element", RepeatForm::kTensor, ACL_INT64, {2, 3}, 0, {1, 0, 2, 3, 1, 2}, {6}});
  cases.push_back({"tensor_rank0_count", RepeatForm::kTensor, ACL_FLOAT, {2, 3}, 0, {2}, {}});
  cases.push_back({"tensor_dim_per_slice", RepeatForm::kTensorWithDim, ACL_BF16, {3, 4}, 0, {1, 2, 3}, {3}});
  cases.push_back({"tensor_dim_per_slice_dim1",
                   RepeatForm::kTensorWithDim,
                   ACL_INT8,
                   {3, 4},
                   1,
                   {0, 3, 1, 2},
                   {4},
                   View::kReversed,
                   View::kTransposed});
  return cases;
}

class RepeatTest : public ::testing::TestWithParam<RepeatCase> {};

TEST_P(RepeatTest, MatchesReference) {
  const RepeatCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(x.dtype, x.self, x.selfView);
  const Values values = self.FillRandom(rng, Range{});
  // The reference works on slices along dim (the flattened self without a dim).
  const Shape shape = HasDim(x.form) ? x.self : Shape{NumElements(x.self)};
  const int64_t dim = HasDim(x.form) ? (x.dim < 0 ? x.dim + static_cast<int64_t>(x.self.size()) : x.dim) : 0;
  std::vector<int64_t> source;  // out slice j comes from slice source[j]
  for (int64_t i = 0; i < shape[dim]; ++i) {
    const int64_t r = x.counts.size() == 1 ? x.counts[0] : x.counts[i];
    for (int64_t t = 0; t < r; ++t) source.push_back(i);
  }
  const auto total = static_cast<int64_t>(source.size());
  Shape outShape = shape;
  outShape[dim] = total;
  Values want(static_cast<size_t>(NumElements(outShape)));
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape at = Unravel(i, outShape);
    at[dim] = source[at[dim]];
    want[i] = values[Ravel(at, shape)];
  }
  DeviceTensor counts(ACL_INT64, x.countsShape);
  Values encoded;
  for (int64_t c : x.counts) encoded.push_back(static_cast<double>(c));
  counts.WriteView(encoded);
  DeviceTensor out(x.dtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  OpArgs args;
  const OpRun run = RunRepeat(x.form, args.Tensor(self), IsTensorForm(x.form) ? args.Tensor(counts) : nullptr,
                              x.counts[0], x.dim, total, args.Tensor(out));
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, RepeatTest, ::testing::ValuesIn(RepeatCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// Counts read at run time that do not give outputSize fail the stream task; out stays untouched.
TEST(RepeatRunTime, BadCountsFailTheStream) {
  struct Bad {
    std::vector<int64_t> counts;
    int64_t outputSize;
    const char* words;
  };
  for (const Bad& bad :
       {Bad{{1, -1, 2}, 2, "negative"}, Bad{{1, 2, 2}, 4, "more than outputSize"}, Bad{{1, 1, 1}, 4, "sum to 3"}}) {
    for (RepeatForm form : {RepeatForm::kTensor, RepeatForm::kTensorWithDim}) {
      SCOPED_TRACE(std::string(RepeatFormName(form)) + " " + bad.words);
      DeviceTensor self(ACL_FLOAT, {3});
      Rng rng = Rng::ForCurrentTest();
      self.FillRandom(rng, Range{});
      DeviceTensor counts(ACL_INT32, {3});
      counts.WriteView(
          {static_cast<double>(bad.counts[0]), static_cast<double>(bad.counts[1]), static_cast<double>(bad.counts[2])});
      DeviceTensor out(ACL_FLOAT, {bad.outputSize});
      out.Poison();
      const std::vector<uint8_t> before = out.DownloadBytes();
      OpArgs args;
      const OpRun run = RunRepeat(form, args.Tensor(self), args.Tensor(counts), 0, 0, bad.outputSize, args.Tensor(out));
      EXPECT_EQ(run.sync, 507015) << Describe(run);  // ACL_ERROR_RT_AICORE_EXCEPTION
      EXPECT_NE(run.message.find(bad.words), std::string::npos) << run.message;
      EXPECT_EQ(out.DownloadBytes(), before);
    }
  }
}

OpRun CallRepeat(RepeatForm form, aclDataType dtype, const Shape& self, aclDataType countsDtype,
                 const Shape& countsShape, int64_t count, int64_t dim, int64_t outputSize, aclDataType outDtype,
                 const Shape& out) {
  OpArgs a;
  return RunRepeat(form, a.NewTensor(dtype, self), a.NewTensorIn(Range{1, 1, 0, 0, false}, countsDtype, countsShape),
                   count, dim, outputSize, a.NewTensor(outDtype, out));
}

TEST(RepeatRejects, EachInvalidArgument) {
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  const aclDataType f = ACL_FLOAT;
  const aclDataType i = ACL_INT64;
  for (RepeatForm form : {RepeatForm::kTensor, RepeatForm::kTensorWithDim, RepeatForm::kInt, RepeatForm::kIntWithDim}) {
    SCOPED_TRACE(RepeatFormName(form));
    ExpectRejected(CallRepeat(form, ACL_DOUBLE, {3}, i, {1}, 1, 0, 3, ACL_DOUBLE, {3}), invalid, "'self'");
    ExpectRejected(CallRepeat(form, f, {3}, i, {1}, 1, 0, 3, ACL_FLOAT16, {3}), invalid, "'out'");
    ExpectRejected(CallRepeat(form, f, {3}, i, {1}, 1, 0, 3, f, {4}), invalid, "'out'");
    EXPECT_TRUE(CallRepeat(form, f, {3}, i, {1}, 1, 0, 3, f, {3}).ok());
  }
  for (RepeatForm form : {RepeatForm::kInt, RepeatForm::kIntWithDim}) {
    ExpectRejected(CallRepeat(form, f, {3}, i, {1}, -1, 0, 0, f, {0}), invalid, "'repeats'");
    ExpectRejected(CallRepeat(form, f, {3}, i, {1}, 2, 0, 5, f, {6}), invalid, "'outputSize'");
  }
  for (RepeatForm form : {RepeatForm::kTensor, RepeatForm::kTensorWithDim}) {
    ExpectRejected(CallRepeat(form, f, {3}, ACL_FLOAT, {1}, 1, 0, 3, f, {3}), invalid, "'repeats'");
    ExpectRejected(CallRepeat(form, f, {3}, i, {1, 1}, 1, 0, 3, f, {3}), invalid, "'repeats'");
    ExpectRejected(CallRepeat(form, f, {3}, i, {2}, 1, 0, 3, f, {3}), invalid, "'repeats'");
  }
  for (RepeatForm form : {RepeatForm::kTensorWithDim, RepeatForm::kIntWithDim}) {
    ExpectRejected(CallRepeat(form, f, {3, 2}, i, {1}, 1, 2, 3, f, {3, 2}), invalid, "'dim'");
    ExpectRejected(CallRepeat(form, f, {}, i, {1}, 1, 0, 1, f, {1}), invalid, "'self'");
  }
}

// RepeatInterleaveTensor: the indices i repeated repeats[i] times, in repeats' dtype, into any out view.
TEST(RepeatInterleaveTensor, MatchesReference) {
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType dtype : {ACL_INT32, ACL_INT64}) {
    for (View outView : {View::kContiguous, View::kStepped, View::kReversed}) {
      SCOPED_TRACE(std::string(Name(dtype)) + " " + std::to_string(static_cast<int>(outView)));
      const int64_t n = 40;
      Values counts;
      Values want;
      for (int64_t i = 0; i < n; ++i) {
        const int64_t r = static_cast<int64_t>(rng.Uniform(0, 4));  // zeros too
        counts.push_back(static_cast<double>(r));
        for (int64_t t = 0; t < r; ++t) want.push_back(static_cast<double>(i));
      }
      DeviceTensor repeats(dtype, {n}, View::kStepped);
      repeats.WriteView(counts);
      const auto total = static_cast<int64_t>(want.size());
      DeviceTensor out(dtype, {total}, outView);
      out.Poison();
      const std::vector<uint8_t> before = out.DownloadBytes();
      const OpRun run = RunOp(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnRepeatInterleaveTensorGetWorkspaceSize(a.Tensor(repeats), total, a.Tensor(out), w, e);
          },
          aclnnRepeatInterleaveTensor);
      ASSERT_TRUE(run.ok()) << Describe(run);
      ExpectExact(out.ReadView(), want, "out");
      ExpectOutsideViewUnchanged(out, before, "out storage");
    }
  }
}

// CANN's example, its checks (161002), its no-ops, and counts that do not give outputSize (a stream error).
TEST(RepeatInterleaveTensor, ExampleRejectionsAndRunTimeChecks) {
  const auto run = [](const DeviceTensor& repeats, int64_t outputSize, const DeviceTensor& out) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnRepeatInterleaveTensorGetWorkspaceSize(a.Tensor(repeats), outputSize, a.Tensor(out), w, e);
        },
        aclnnRepeatInterleaveTensor);
  };
  DeviceTensor repeats(ACL_INT64, {3}), out(ACL_INT64, {6});
  repeats.WriteView({1, 2, 3});
  ASSERT_TRUE(run(repeats, 6, out).ok());
  ExpectExact(out.ReadView(), {0, 1, 1, 2, 2, 2}, "CANN's example");
  DeviceTensor float_repeats(ACL_FLOAT, {3}), int32_out(ACL_INT32, {6}), rank0(ACL_INT64, Shape{}),
      rank2(ACL_INT64, {1, 3});
  EXPECT_EQ(run(float_repeats, 6, out).phase1, ACLNN_ERR_PARAM_INVALID) << "repeats dtype";
  EXPECT_EQ(run(repeats, 6, int32_out).phase1, ACLNN_ERR_PARAM_INVALID) << "out dtype differs from repeats'";
  EXPECT_EQ(run(rank0, 6, out).phase1, ACLNN_ERR_PARAM_INVALID) << "0-d repeats";
  EXPECT_EQ(run(rank2, 6, out).phase1, ACLNN_ERR_PARAM_INVALID) << "2-d repeats";
  EXPECT_EQ(run(repeats, 5, out).phase1, ACLNN_ERR_PARAM_INVALID) << "out is not [outputSize]";
  DeviceTensor empty(ACL_INT64, {0});
  EXPECT_TRUE(run(empty, 6, out).ok()) << "empty repeats: nothing done";
  repeats.WriteView({1, 2, 2});
  const OpRun short_sum = run(repeats, 6, out);
  EXPECT_EQ(short_sum.phase1, ACLNN_SUCCESS);
  EXPECT_NE(short_sum.sync, ACL_SUCCESS) << "counts summing to 5, not outputSize 6";
}

// ---- Permute and Repeat ---------------------------------------------------------------------------

struct ViewCopyCase {
  std::string name;
  bool repeat;  // Repeat, else Permute
  aclDataType dtype = ACL_FLOAT;
  Shape self = {2, 3, 4};
  std::vector<int64_t> values = {2, 0, 1};  // dims (Permute) or repeats (Repeat)
  View selfView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const ViewCopyCase& x, std::ostream* os) { *os << x.name; }

std::vector<ViewCopyCase> ViewCopyCases() {
  std::vector<ViewCopyCase> cases;
  for (aclDataType dtype : AllDtypes()) {
    cases.push_back({std::string("permute_") + Name(dtype), false, dtype});
    cases.push_back({std::string("repeat_") + Name(dtype), true, dtype, {2, 3}, {2, 1}});
  }
  cases.push_back({"permute_negative_dims", false, ACL_FLOAT16, {2, 3, 4}, {-1, -3, 1}});
  cases.push_back(
      {"permute_transposed_stepped", false, ACL_INT32, {3, 4, 5}, {1, 2, 0}, View::kTransposed, View::kStepped});
  cases.push_back({"permute_rank0", false, ACL_FLOAT, {}, {}});
  cases.push_back({"permute_empty", false, ACL_FLOAT, {0, 3}, {1, 0}});
  cases.push_back(
      {"permute_rank8", false, ACL_BF16, {2, 1, 2, 3, 1, 2, 1, 2}, {7, 6, 5, 4, 3, 2, 1, 0}, View::kReversed});
  cases.push_back({"repeat_leading_dims", true, ACL_FLOAT, {2, 3}, {2, 1, 3}});
  cases.push_back({"repeat_rank0_self", true, ACL_INT64, {}, {3, 2}});
  cases.push_back({"repeat_zero", true, ACL_FLOAT, {2, 3}, {0, 2}});
  cases.push_back({"repeat_stepped_reversed", true, ACL_UINT8, {2, 3, 2}, {1, 2, 3}, View::kStepped, View::kReversed});
  return cases;
}

class ViewCopyTest : public ::testing::TestWithParam<ViewCopyCase> {};

TEST_P(ViewCopyTest, MatchesReference) {
  const ViewCopyCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(x.dtype, x.self, x.selfView);
  const Values values = self.FillRandom(rng, Range{});
  const auto rank = static_cast<int64_t>(x.self.size());
  Shape outShape;
  Shape padded = x.self;  // Repeat: self with leading 1s up to repeats' length
  if (x.repeat) {
    padded.insert(padded.begin(), x.values.size() - x.self.size(), 1);
    for (size_t d = 0; d < x.values.size(); ++d) outShape.push_back(x.values[d] * padded[d]);
  } else {
    for (int64_t d : x.values) outShape.push_back(x.self[d < 0 ? d + rank : d]);
  }
  Values want(static_cast<size_t>(NumElements(outShape)));
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    const Shape at = Unravel(i, outShape);
    Shape from(x.repeat ? padded.size() : x.self.size());
    for (size_t d = 0; d < from.size(); ++d) {
      if (x.repeat) {
        from[d] = at[d] % padded[d];
      } else {
        const int64_t source = x.values[d] < 0 ? x.values[d] + rank : x.values[d];
        from[source] = at[d];
      }
    }
    want[i] = values[Ravel(from, x.repeat ? padded : x.self)];
  }
  DeviceTensor out(x.dtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return x.repeat ? aclnnRepeatGetWorkspaceSize(args.Tensor(self), args.IntArray(x.values), args.Tensor(out),
                                                      workspaceSize, executor)
                        : aclnnPermuteGetWorkspaceSize(args.Tensor(self), args.IntArray(x.values), args.Tensor(out),
                                                       workspaceSize, executor);
      },
      x.repeat ? aclnnRepeat : aclnnPermute);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, ViewCopyTest, ::testing::ValuesIn(ViewCopyCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun RunViewCopy(bool repeat, aclDataType dtype, const Shape& self, const std::vector<int64_t>& values,
                  aclDataType outDtype, const Shape& out) {
  return RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* s = args.NewTensor(dtype, self);
        aclTensor* o = args.NewTensor(outDtype, out);
        return repeat ? aclnnRepeatGetWorkspaceSize(s, args.IntArray(values), o, workspaceSize, executor)
                      : aclnnPermuteGetWorkspaceSize(s, args.IntArray(values), o, workspaceSize, executor);
      },
      repeat ? aclnnRepeat : aclnnPermute);
}

TEST(ViewCopyRejects, EachInvalidArgument) {
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  const aclDataType f = ACL_FLOAT;
  ExpectRejected(RunViewCopy(false, f, {2, 3}, {1, 0}, ACL_INT32, {3, 2}), invalid, "'out'");
  ExpectRejected(RunViewCopy(false, f, {2, 3}, {1}, f, {3}), invalid, "'dims'");
  ExpectRejected(RunViewCopy(false, f, {2, 3}, {1, 1}, f, {3, 3}), invalid, "'dims'");
  ExpectRejected(RunViewCopy(false, f, {2, 3}, {2, 0}, f, {3, 2}), invalid, "'dims'");
  ExpectRejected(RunViewCopy(false, f, {2, 3}, {-3, 0}, f, {3, 2}), invalid, "'dims'");
  ExpectRejected(RunViewCopy(false, f, {2, 3}, {1, 0}, f, {2, 3}), invalid, "'out'");
  ExpectRejected(RunViewCopy(true, f, {2, 3}, {2, 2}, ACL_FLOAT16, {4, 6}), invalid, "'out'");
  ExpectRejected(RunViewCopy(true, f, {2, 3}, {2}, f, {4, 3}), invalid, "'repeats'");
  ExpectRejected(RunViewCopy(true, f, {2, 3}, {2, -1}, f, {4, 3}), invalid, "'repeats'");
  ExpectRejected(RunViewCopy(true, f, {2}, {1, 1, 1, 1, 1, 1, 1, 1, 2}, f, {1, 1, 1, 1, 1, 1, 1, 1, 4}), invalid, "");
  ExpectRejected(RunViewCopy(true, f, {2, 3}, {2, 2}, f, {4, 5}), invalid, "'out'");
  // A repeated extent past int64 (an adversarial pass: (2^62 + 1) * 4 wrapped
  // to 4, so out of self's shape was accepted and given self).
  const int64_t huge = (int64_t{1} << 62) + 1;
  ExpectRejected(RunViewCopy(true, f, {3, 4}, {1, huge}, f, {3, 4}), invalid, "'repeats'");
  ExpectRejected(RunViewCopy(true, f, {4, 4}, {huge, 1}, f, {4, 4}), invalid, "'repeats'");
  EXPECT_TRUE(RunViewCopy(true, f, {2, 3}, {2, 2}, f, {4, 6}).ok());
  EXPECT_TRUE(RunViewCopy(false, f, {2, 3}, {-1, 0}, f, {3, 2}).ok());
}

}  // namespace
}  // namespace canopy_test
