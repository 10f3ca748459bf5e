// Ops whose output shape the run decides (Nonzero, NonzeroV2, Unique, Unique2,
// UniqueConsecutive, UniqueDim), called as CANN's
// examples call them: out allocated with room, phase 2, then aclGetViewShape.
// Phase 2 waits for the run, so the shape is there without a synchronisation
// of the caller's own; values against a plain reference on random data with
// zeros (and -0.0, NaN) in every dtype and strided views; a result larger than
// out fails the run and leaves out unchanged; graph capture is refused;
// rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_nonzero.h"
#include "aclnnop/aclnn_nonzero_v2.h"
#include "aclnnop/aclnn_unique.h"
#include "aclnnop/aclnn_unique2.h"
#include "aclnnop/aclnn_unique_consecutive.h"
#include "aclnnop/aclnn_unique_dim.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct Outcome {
  aclnnStatus phase1 = -1;
  aclnnStatus phase2 = -1;
  Shape viewShape;  // out's view shape right after phase 2
  std::string message;
};

void CheckAcl(aclError error, const char* what) { EXPECT_EQ(error, ACL_SUCCESS) << what; }

using NonzeroPhase1 = aclnnStatus (*)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);

// One call as a client makes it; out's descriptor is read right after phase 2.
Outcome RunNonzero(bool columns, const DeviceTensor& self, const DeviceTensor& out) {
  const NonzeroPhase1 phase1 = columns ? aclnnNonzeroV2GetWorkspaceSize : aclnnNonzeroGetWorkspaceSize;
  const Phase2 phase2 = columns ? aclnnNonzeroV2 : aclnnNonzero;
  Outcome outcome;
  aclTensor* selfTensor = self.CreateDescriptor();
  aclTensor* outTensor = out.CreateDescriptor();
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  outcome.phase1 = phase1(selfTensor, outTensor, &workspaceSize, &executor);
  void* workspace = nullptr;
  if (outcome.phase1 == ACLNN_SUCCESS) {
    if (workspaceSize > 0) CheckAcl(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), "workspace");
    outcome.phase2 = phase2(workspace, workspaceSize, executor, TestStream());
  }
  if (outcome.phase1 != ACLNN_SUCCESS || outcome.phase2 != ACLNN_SUCCESS) {
    const char* message = aclGetRecentErrMsg();
    outcome.message = message != nullptr ? message : "";
  }
  // Before any synchronisation of the caller's: phase 2 waited for the run.
  int64_t* dims = nullptr;
  uint64_t rank = 0;
  EXPECT_EQ(aclGetViewShape(outTensor, &dims, &rank), ACLNN_SUCCESS);
  outcome.viewShape.assign(dims, dims + rank);
  delete[] dims;
  CheckAcl(aclrtSynchronizeStream(TestStream()), "sync");
  if (workspace != nullptr) CheckAcl(aclrtFree(workspace), "aclrtFree");
  aclDestroyTensor(selfTensor);
  aclDestroyTensor(outTensor);
  return outcome;
}

// The row-major coordinates of the non-zero values of `values` (row-major over `shape`).
std::vector<Shape> NonZeroCoordinates(const Values& values, const Shape& shape) {
  std::vector<Shape> found;
  Shape index(shape.size(), 0);
  for (const Value& v : values) {
    if (v != Value(0.0)) found.push_back(index);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return found;
}

struct NonzeroCase {
  std::string name;
  aclDataType dtype;
  Shape shape;
  View view = View::kContiguous;
  bool columns = false;
};
void PrintTo(const NonzeroCase& c, std::ostream* os) { *os << c.name; }

std::vector<NonzeroCase> NonzeroCases() {
  std::vector<NonzeroCase> cases;
  const std::vector<aclDataType> common = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16, ACL_INT16,
                                           ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BOOL,    ACL_BF16};
  for (bool columns : {false, true}) {
    std::vector<aclDataType> dtypes = common;
    if (columns) dtypes.insert(dtypes.end(), {ACL_UINT16, ACL_UINT32, ACL_UINT64});
    const std::string op = columns ? "NonzeroV2_" : "Nonzero_";
    for (aclDataType dtype : dtypes) cases.push_back({op + Name(dtype), dtype, {6, 7}, View::kContiguous, columns});
    cases.push_back({op + "transposed", ACL_FLOAT, {5, 9}, View::kTransposed, columns});
    cases.push_back({op + "stepped_rank3", ACL_INT32, {3, 4, 5}, View::kStepped, columns});
    cases.push_back({op + "rank1", ACL_FLOAT, {50}, View::kContiguous, columns});
    cases.push_back({op + "rank0", ACL_FLOAT, {}, View::kContiguous, columns});
    cases.push_back({op + "large", ACL_FLOAT16, {64, 300}, View::kContiguous, columns});
  }
  return cases;
}

class NonzeroTest : public ::testing::TestWithParam<NonzeroCase> {};

TEST_P(NonzeroTest, MatchesReference) {
  const NonzeroCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(c.dtype, c.shape, c.view);
  // About a third zeros; the float dtypes also hold -0.0 (zero) and NaN (not zero).
  Values values = self.FillRandom(rng, Range{-3, 3, 0, 3});
  if (IsRealFloat(c.dtype) && values.size() > 2) {
    values[0] = -0.0;
    values[1] = std::nan("");
    self.WriteView(values);
    values = self.ReadView();
  }
  const int64_t rank = static_cast<int64_t>(c.shape.size());
  const int64_t room = NumElements(c.shape) * std::max<int64_t>(rank, 1) + 3;
  DeviceTensor out(ACL_INT64, {room});
  out.Poison();
  const Outcome outcome = RunNonzero(c.columns, self, out);
  ASSERT_EQ(outcome.phase1, ACLNN_SUCCESS) << outcome.message;
  ASSERT_EQ(outcome.phase2, ACLNN_SUCCESS) << outcome.message;
  std::vector<Shape> want = NonZeroCoordinates(values, c.shape);
  if (IsRealFloat(c.dtype) && values.size() > 2) {  // -0.0 is zero, NaN is not: the reference compares values
    ASSERT_TRUE(want.empty() || want.front() != Shape(c.shape.size(), 0)) << "-0.0 counted";
  }
  const auto count = static_cast<int64_t>(want.size());
  const Shape expectedShape = c.columns ? Shape{rank, count} : Shape{count, rank};
  ASSERT_EQ(outcome.viewShape, expectedShape);
  const Values storage = out.DownloadStorage();
  for (int64_t k = 0; k < count; ++k) {
    for (int64_t j = 0; j < rank; ++j) {
      const int64_t at = c.columns ? j * count + k : k * rank + j;
      ASSERT_EQ(storage[static_cast<size_t>(at)].real(), static_cast<double>(want[static_cast<size_t>(k)][j]))
          << "element " << k << " coordinate " << j;
    }
  }
  // Past the result, out is as it was.
  const std::vector<uint8_t> poison = PoisonElement(ACL_INT64);
  const std::vector<uint8_t> bytes = out.DownloadBytes();
  for (auto at = static_cast<size_t>(count * rank * 8); at < bytes.size(); ++at) {
    ASSERT_EQ(bytes[at], poison[at % 8]) << "byte " << at << " past the result was written";
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, NonzeroTest, ::testing::ValuesIn(NonzeroCases()),
                         [](const ::testing::TestParamInfo<NonzeroCase>& info) { return info.param.name; });

TEST(Nonzero, ResultLargerThanOutFailsTheRunAndLeavesOutAsItWas) {
  for (bool columns : {false, true}) {
    DeviceTensor self(ACL_FLOAT, {4, 2});
    self.WriteView(Values{0, 1, 2, 3, 4, 5, 6, 7});  // 7 non-zero: a [7, 2] result
    DeviceTensor out(ACL_INT64, {6, 2});
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    const Outcome outcome = RunNonzero(columns, self, out);
    EXPECT_EQ(outcome.phase1, ACLNN_SUCCESS);
    EXPECT_EQ(outcome.phase2, ACLNN_ERR_RUNTIME_ERROR);
    EXPECT_NE(outcome.message.find("non-zero"), std::string::npos) << outcome.message;
    EXPECT_EQ(outcome.viewShape, (Shape{6, 2})) << "the shape changes only after a run that succeeded";
    EXPECT_EQ(out.DownloadBytes(), before);
    EXPECT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << "the stream goes on after the failed run";
  }
}

// CANN's example: a [4, 2] float 0..7 into an [8, 2] out becomes [7, 2].
TEST(Nonzero, CannExample) {
  DeviceTensor self(ACL_FLOAT, {4, 2});
  self.WriteView(Values{0, 1, 2, 3, 4, 5, 6, 7});
  DeviceTensor out(ACL_INT64, {8, 2});
  const Outcome outcome = RunNonzero(false, self, out);
  ASSERT_EQ(outcome.phase2, ACLNN_SUCCESS) << outcome.message;
  EXPECT_EQ(outcome.viewShape, (Shape{7, 2}));
  const Values storage = out.DownloadStorage();
  const std::vector<double> want = {0, 1, 1, 0, 1, 1, 2, 0, 2, 1, 3, 0, 3, 1};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(storage[i].real(), want[i]) << i;
}

TEST(Nonzero, EmptySelfDoesNothing) {
  DeviceTensor self(ACL_FLOAT, {0, 3});
  DeviceTensor out(ACL_INT64, {4, 2});
  const Outcome outcome = RunNonzero(false, self, out);
  EXPECT_EQ(outcome.phase2, ACLNN_SUCCESS) << outcome.message;
  EXPECT_EQ(outcome.viewShape, (Shape{4, 2})) << "CANN leaves out's shape";
}

TEST(Nonzero, Rejections) {
  struct Case {
    std::string name;
    aclDataType self, out;
    Shape outShape;
    View outView;
    bool columns;
  };
  const std::vector<Case> cases = {
      {"uint16_self", ACL_UINT16, ACL_INT64, {8, 2}, View::kContiguous, false},
      {"complex_self_v2", ACL_COMPLEX64, ACL_INT64, {2, 8}, View::kContiguous, true},
      {"int32_out", ACL_FLOAT, ACL_INT32, {8, 2}, View::kContiguous, false},
      {"transposed_out", ACL_FLOAT, ACL_INT64, {8, 2}, View::kTransposed, false},
  };
  for (const Case& c : cases) {
    DeviceTensor self(c.self, {4, 2});
    DeviceTensor out(c.out, c.outShape, c.outView);
    const Outcome outcome = RunNonzero(c.columns, self, out);
    EXPECT_EQ(outcome.phase1, ACLNN_ERR_PARAM_INVALID) << c.name;
  }
}

// Its outputs' shapes exist only after the run: phase 2 refuses a capturing stream.
TEST(Nonzero, GraphCaptureIsRefused) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  DeviceTensor self(ACL_FLOAT, {4, 2});
  DeviceTensor out(ACL_INT64, {8, 2});
  aclTensor* selfTensor = self.CreateDescriptor();
  aclTensor* outTensor = out.CreateDescriptor();
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnNonzeroGetWorkspaceSize(selfTensor, outTensor, &workspaceSize, &executor), ACLNN_SUCCESS);
  void* workspace = nullptr;
  if (workspaceSize > 0) CheckAcl(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), "workspace");
  EXPECT_EQ(aclnnNonzero(workspace, workspaceSize, executor, stream), ACLNN_ERR_RUNTIME_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("captured"), std::string::npos);
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(stream, &model), ACL_SUCCESS);
  if (model != nullptr) {
    EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  }
  if (workspace != nullptr) CheckAcl(aclrtFree(workspace), "aclrtFree");
  aclDestroyTensor(selfTensor);
  aclDestroyTensor(outTensor);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// ---- The Unique family ---------------------------------------------------------------------------

// self as [outer, n, inner]: n slices along the dim (a flattened self: [1, numel, 1]).
struct SliceLayout {
  int64_t outer = 1, n = 1, inner = 1;
};

SliceLayout LayoutAlong(const Shape& shape, int64_t dim) {
  SliceLayout layout;
  if (dim < 0) {  // flattened
    layout.n = NumElements(shape);
    return layout;
  }
  for (int64_t d = 0; d < dim; ++d) layout.outer *= shape[static_cast<size_t>(d)];
  layout.n = shape[static_cast<size_t>(dim)];
  for (auto d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) layout.inner *= shape[d];
  return layout;
}

// The reference grouping: sorted (NaN last, each NaN its own group) or runs of equal neighbours.
struct Groups {
  std::vector<int64_t> first;  // the slice standing for each group
  std::vector<int64_t> sizes;
  std::vector<int64_t> group;  // per slice
};

Groups ReferenceGroups(const Values& values, const SliceLayout& l, bool consecutive) {
  const auto slice = [&](int64_t i) {
    std::vector<Value> out;
    for (int64_t o = 0; o < l.outer; ++o) {
      for (int64_t k = 0; k < l.inner; ++k) out.push_back(values[static_cast<size_t>((o * l.n + i) * l.inner + k)]);
    }
    return out;
  };
  const auto less = [](const Value& a, const Value& b) {
    const bool a_nan = std::isnan(a.real()) || std::isnan(a.imag());
    const bool b_nan = std::isnan(b.real()) || std::isnan(b.imag());
    if (a_nan || b_nan) return !a_nan && b_nan;
    return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  };
  std::vector<int64_t> order(static_cast<size_t>(l.n));
  for (int64_t i = 0; i < l.n; ++i) order[static_cast<size_t>(i)] = i;
  if (!consecutive) {
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      const std::vector<Value> x = slice(a), y = slice(b);
      return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(), less);
    });
  }
  Groups g;
  g.group.assign(static_cast<size_t>(l.n), 0);
  for (int64_t i : order) {
    if (g.first.empty() || slice(g.first.back()) != slice(i)) {  // NaN != NaN
      g.first.push_back(i);
      g.sizes.push_back(0);
    }
    g.group[static_cast<size_t>(i)] = static_cast<int64_t>(g.first.size()) - 1;
    ++g.sizes.back();
  }
  return g;
}

enum class UniqueOp { kUnique, kUnique2, kConsecutive, kDim };

struct UniqueCase {
  std::string name;
  UniqueOp op;
  aclDataType dtype;
  Shape shape;
  int64_t dim = -1;  // -1: flattened (UniqueConsecutive passes 1000)
  View view = View::kContiguous;
};
void PrintTo(const UniqueCase& c, std::ostream* os) { *os << c.name; }

struct UniqueOutcome {
  aclnnStatus phase1 = -1, phase2 = -1;
  std::vector<Shape> shapes;  // valueOut, inverseOut, countsOut right after phase 2
  std::string message;
};

// One call of `op` with every output requested; the outputs' views are read right after phase 2.
UniqueOutcome RunUnique(UniqueOp op, int64_t dim, const DeviceTensor& self, const DeviceTensor& values,
                        const DeviceTensor& inverse, const DeviceTensor& counts) {
  UniqueOutcome outcome;
  aclTensor* t[4] = {self.CreateDescriptor(), values.CreateDescriptor(), inverse.CreateDescriptor(),
                     counts.CreateDescriptor()};
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  Phase2 phase2 = nullptr;
  switch (op) {
    case UniqueOp::kUnique:
      outcome.phase1 = aclnnUniqueGetWorkspaceSize(t[0], true, true, t[1], t[2], &workspaceSize, &executor);
      phase2 = aclnnUnique;
      break;
    case UniqueOp::kUnique2:
      outcome.phase1 =
          aclnnUnique2GetWorkspaceSize(t[0], true, true, true, t[1], t[2], t[3], &workspaceSize, &executor);
      phase2 = aclnnUnique2;
      break;
    case UniqueOp::kConsecutive:
      outcome.phase1 = aclnnUniqueConsecutiveGetWorkspaceSize(t[0], true, true, dim < 0 ? 1000 : dim, t[1], t[2], t[3],
                                                              &workspaceSize, &executor);
      phase2 = aclnnUniqueConsecutive;
      break;
    case UniqueOp::kDim:
      outcome.phase1 =
          aclnnUniqueDimGetWorkspaceSize(t[0], true, true, dim, t[1], t[2], t[3], &workspaceSize, &executor);
      phase2 = aclnnUniqueDim;
      break;
  }
  void* workspace = nullptr;
  if (outcome.phase1 == ACLNN_SUCCESS) {
    if (workspaceSize > 0) CheckAcl(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), "workspace");
    outcome.phase2 = phase2(workspace, workspaceSize, executor, TestStream());
  }
  if (outcome.phase1 != ACLNN_SUCCESS || outcome.phase2 != ACLNN_SUCCESS) {
    const char* message = aclGetRecentErrMsg();
    outcome.message = message != nullptr ? message : "";
  }
  for (int i = 1; i < 4; ++i) {
    int64_t* dims = nullptr;
    uint64_t rank = 0;
    EXPECT_EQ(aclGetViewShape(t[i], &dims, &rank), ACLNN_SUCCESS);
    outcome.shapes.emplace_back(dims, dims + rank);
    delete[] dims;
  }
  CheckAcl(aclrtSynchronizeStream(TestStream()), "sync");
  if (workspace != nullptr) CheckAcl(aclrtFree(workspace), "aclrtFree");
  for (aclTensor* tensor : t) aclDestroyTensor(tensor);
  return outcome;
}

std::vector<UniqueCase> UniqueCases() {
  std::vector<UniqueCase> cases;
  const std::vector<aclDataType> dtypes = {ACL_BOOL,   ACL_UINT8,   ACL_INT8,   ACL_UINT16, ACL_INT16,
                                           ACL_UINT32, ACL_INT32,   ACL_UINT64, ACL_INT64,  ACL_DOUBLE,
                                           ACL_FLOAT,  ACL_FLOAT16, ACL_BF16};
  for (aclDataType dtype : dtypes) {
    cases.push_back({std::string("Unique2_") + Name(dtype), UniqueOp::kUnique2, dtype, {5, 6}});
    cases.push_back({std::string("UniqueConsecutive_") + Name(dtype), UniqueOp::kConsecutive, dtype, {30}});
    cases.push_back({std::string("UniqueDim_") + Name(dtype), UniqueOp::kDim, dtype, {9, 2}, 0});
  }
  for (aclDataType dtype : {ACL_COMPLEX64, ACL_COMPLEX128}) {
    cases.push_back({std::string("UniqueConsecutive_") + Name(dtype), UniqueOp::kConsecutive, dtype, {30}});
  }
  cases.push_back({"Unique_f32", UniqueOp::kUnique, ACL_FLOAT, {40}});
  cases.push_back({"Unique_transposed", UniqueOp::kUnique, ACL_INT32, {6, 7}, -1, View::kTransposed});
  cases.push_back({"Unique2_large", UniqueOp::kUnique2, ACL_FLOAT16, {100, 70}});
  cases.push_back({"Unique2_rank0", UniqueOp::kUnique2, ACL_FLOAT, {}});
  cases.push_back({"UniqueConsecutive_dim0", UniqueOp::kConsecutive, ACL_FLOAT, {12, 2}, 0});
  cases.push_back({"UniqueConsecutive_dim1_rank3", UniqueOp::kConsecutive, ACL_INT32, {2, 10, 2}, 1});
  cases.push_back({"UniqueConsecutive_stepped", UniqueOp::kConsecutive, ACL_INT64, {5, 6}, -1, View::kStepped});
  cases.push_back({"UniqueDim_dim1_rank3", UniqueOp::kDim, ACL_INT8, {2, 12, 1}, 1});
  cases.push_back({"UniqueDim_last", UniqueOp::kDim, ACL_FLOAT, {2, 9}, -1});
  return cases;
}

class UniqueTest : public ::testing::TestWithParam<UniqueCase> {};

TEST_P(UniqueTest, MatchesReference) {
  const UniqueCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(c.dtype, c.shape, c.view);
  // Few distinct values (and, for consecutive runs, repeats of the previous one), NaN in floats.
  Values values = self.FillRandom(rng, Range{0, 3});
  for (size_t i = 0; i < values.size(); ++i) {
    const double lo = IsBool(c.dtype) ? 0 : (IsUnsigned(c.dtype) ? 0 : -2);
    const double hi = IsBool(c.dtype) ? 1 : 2;
    values[i] = std::floor(rng.Uniform(lo, hi + 1));
    if (c.op == UniqueOp::kConsecutive && i > 0 && rng.Uniform(0, 1) < 0.5) values[i] = values[i - 1];
  }
  if (IsRealFloat(c.dtype) && values.size() > 3) values[3] = std::nan("");
  self.WriteView(values);
  values = self.ReadView();
  const int64_t dim = c.dim < 0 && c.op == UniqueOp::kDim ? static_cast<int64_t>(c.shape.size()) - 1 : c.dim;
  const SliceLayout layout = LayoutAlong(c.shape, dim);
  const Groups want = ReferenceGroups(values, layout, c.op == UniqueOp::kConsecutive);
  const int64_t n = std::max<int64_t>(NumElements(c.shape), 1);
  DeviceTensor valueOut(c.dtype, {n + 2}),
      inverse(ACL_INT64, c.op == UniqueOp::kDim || dim >= 0 ? Shape{layout.n} : c.shape), counts(ACL_INT64, {n + 2});
  const UniqueOutcome outcome = RunUnique(c.op, dim, self, valueOut, inverse, counts);
  ASSERT_EQ(outcome.phase1, ACLNN_SUCCESS) << outcome.message;
  ASSERT_EQ(outcome.phase2, ACLNN_SUCCESS) << outcome.message;
  const auto groups = static_cast<int64_t>(want.first.size());
  Shape valueShape = {groups};
  if (dim >= 0) {
    valueShape = c.shape;
    valueShape[static_cast<size_t>(dim)] = groups;
  }
  EXPECT_EQ(outcome.shapes[0], valueShape) << "valueOut";
  if (c.op != UniqueOp::kUnique) {
    EXPECT_EQ(outcome.shapes[2], (Shape{groups})) << "countsOut";
  }
  if (c.op == UniqueOp::kConsecutive || c.op == UniqueOp::kDim) {
    EXPECT_EQ(outcome.shapes[1], dim >= 0 ? Shape{layout.n} : c.shape) << "inverseOut";
  }
  const Values got = valueOut.DownloadStorage();
  for (int64_t o = 0; o < layout.outer; ++o) {
    for (int64_t g = 0; g < groups; ++g) {
      for (int64_t k = 0; k < layout.inner; ++k) {
        const Value& w =
            values[static_cast<size_t>((o * layout.n + want.first[static_cast<size_t>(g)]) * layout.inner + k)];
        const Value& v = got[static_cast<size_t>((o * groups + g) * layout.inner + k)];
        const bool both_nan = std::isnan(w.real()) && std::isnan(v.real());
        ASSERT_TRUE(both_nan || v == w) << "value of group " << g << ": got " << v << " want " << w;
      }
    }
  }
  const Values inverseValues = inverse.DownloadStorage();
  for (int64_t i = 0; i < layout.n; ++i) {
    ASSERT_EQ(inverseValues[static_cast<size_t>(i)].real(), static_cast<double>(want.group[static_cast<size_t>(i)]))
        << "inverse of " << i;
  }
  if (c.op != UniqueOp::kUnique) {
    const Values countValues = counts.DownloadStorage();
    for (int64_t g = 0; g < groups; ++g) {
      ASSERT_EQ(countValues[static_cast<size_t>(g)].real(), static_cast<double>(want.sizes[static_cast<size_t>(g)]))
          << "count of group " << g;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, UniqueTest, ::testing::ValuesIn(UniqueCases()),
                         [](const ::testing::TestParamInfo<UniqueCase>& info) { return info.param.name; });

TEST(Unique, ResultLargerThanValueOutFailsTheRun) {
  DeviceTensor self(ACL_FLOAT, {8});
  self.WriteView(Values{1, 2, 3, 4, 5, 6, 7, 8});
  DeviceTensor values(ACL_FLOAT, {5}), inverse(ACL_INT64, {8}), counts(ACL_INT64, {5});
  values.Poison();
  const std::vector<uint8_t> before = values.DownloadBytes();
  const UniqueOutcome outcome = RunUnique(UniqueOp::kUnique2, -1, self, values, inverse, counts);
  EXPECT_EQ(outcome.phase1, ACLNN_SUCCESS);
  EXPECT_EQ(outcome.phase2, ACLNN_ERR_RUNTIME_ERROR);
  EXPECT_NE(outcome.message.find("valueOut"), std::string::npos) << outcome.message;
  EXPECT_EQ(outcome.shapes[0], (Shape{5}));
  EXPECT_EQ(values.DownloadBytes(), before);
}

TEST(Unique, Rejections) {
  struct Case {
    std::string name;
    UniqueOp op;
    aclDataType self, values, inverse, counts;
    Shape inverseShape, countsShape;
    int64_t dim;
  };
  const std::vector<Case> cases = {
      {"complex_self", UniqueOp::kUnique2, ACL_COMPLEX64, ACL_COMPLEX64, ACL_INT64, ACL_INT64, {8}, {8}, -1},
      {"int32_inverse", UniqueOp::kUnique, ACL_FLOAT, ACL_FLOAT, ACL_INT32, ACL_INT64, {8}, {8}, -1},
      {"int32_counts", UniqueOp::kUnique2, ACL_FLOAT, ACL_FLOAT, ACL_INT64, ACL_INT32, {8}, {8}, -1},
      {"value_dtype", UniqueOp::kUnique2, ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_INT64, {8}, {8}, -1},
      {"inverse_shape", UniqueOp::kUnique2, ACL_FLOAT, ACL_FLOAT, ACL_INT64, ACL_INT64, {7}, {8}, -1},
      {"counts_shape", UniqueOp::kUnique2, ACL_FLOAT, ACL_FLOAT, ACL_INT64, ACL_INT64, {8}, {7}, -1},
      {"dim_out_of_range", UniqueOp::kDim, ACL_FLOAT, ACL_FLOAT, ACL_INT64, ACL_INT64, {8}, {8}, 1},
      {"consecutive_dim", UniqueOp::kConsecutive, ACL_FLOAT, ACL_FLOAT, ACL_INT64, ACL_INT64, {8}, {8}, 1},
  };
  for (const Case& c : cases) {
    DeviceTensor self(c.self, {8}), values(c.values, {8}), inverse(c.inverse, c.inverseShape),
        counts(c.counts, c.countsShape);
    const UniqueOutcome outcome = RunUnique(c.op, c.dim, self, values, inverse, counts);
    EXPECT_EQ(outcome.phase1, ACLNN_ERR_PARAM_INVALID) << c.name;
  }
}

}  // namespace
}  // namespace canopy_test
