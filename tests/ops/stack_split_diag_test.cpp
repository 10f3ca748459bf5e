// Stack, SplitWithSize, SplitTensor, Diag and DiagFlat through the public C
// API against plain references: every documented dtype (1-byte bool to
// complex128), negative dims and diagonals, strided, transposed, reversed,
// offset and broadcast views of inputs and outputs, empty tensors, dtype
// conversion where the op converts, a second call (a plan-cache hit on new
// addresses), each rejection with its status code, and each CANN document's
// example call.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_diag.h"
#include "aclnnop/aclnn_diag_flat.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_stack.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const std::vector<View> kInputViews = {View::kContiguous, View::kTransposed, View::kStepped,
                                       View::kReversed,   View::kOffset,     View::kBroadcast};
const std::vector<View> kOutViews = {View::kContiguous, View::kStepped, View::kTransposed, View::kReversed,
                                     View::kOffset};

void ExpectRejected(const OpRun& run, const std::string& keyword) {
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << "message should name '" << keyword << "': " << run.message;
}

// ---- Stack ----------------------------------------------------------------------------------------

const std::vector<aclDataType> kStackDtypes = {ACL_FLOAT16, ACL_FLOAT,  ACL_INT8,      ACL_INT16,      ACL_INT32,
                                               ACL_INT64,   ACL_UINT8,  ACL_UINT16,    ACL_UINT32,     ACL_UINT64,
                                               ACL_BOOL,    ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

OpRun RunStack(aclTensorList* tensors, int64_t dim, aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) { return aclnnStackGetWorkspaceSize(tensors, dim, out, ws, ex); },
      aclnnStack);
}

// Stacks `members` (each of `shape`, dtypes `dtypes`) along `dim` into an out of `outDtype`.
void CheckStack(const std::vector<aclDataType>& dtypes, const Shape& shape, int64_t dim, aclDataType outDtype,
                size_t viewSeed) {
  Rng rng = Rng::ForCurrentTest();
  const auto rank = static_cast<int64_t>(shape.size());
  const int64_t d = dim < 0 ? dim + rank + 1 : dim;
  Shape outShape = shape;
  outShape.insert(outShape.begin() + d, static_cast<int64_t>(dtypes.size()));
  for (int round = 0; round < 2; ++round) {
    std::vector<std::unique_ptr<DeviceTensor>> members;
    std::vector<Values> values;
    OpArgs args;
    std::vector<aclTensor*> list;
    for (size_t i = 0; i < dtypes.size(); ++i) {
      members.push_back(std::make_unique<DeviceTensor>(dtypes[i], shape, kInputViews[(viewSeed + i) % 6]));
      values.push_back(members.back()->FillRandom(rng, Range{}));
      list.push_back(args.Tensor(*members.back()));
    }
    DeviceTensor out(outDtype, outShape, kOutViews[viewSeed % kOutViews.size()]);
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    const OpRun run = RunStack(args.TensorList(list), dim, args.Tensor(out));
    ASSERT_TRUE(run.ok()) << Describe(run);
    Values want(static_cast<size_t>(NumElements(outShape)));
    for (int64_t i = 0; i < NumElements(outShape); ++i) {
      Shape p = Unravel(i, outShape);
      const int64_t member = p[d];
      p.erase(p.begin() + d);
      want[i] = ConvertValue(values[member][Ravel(p, shape)], outDtype);
    }
    ExpectExact(out.ReadView(), want, "out");
    ExpectOutsideViewUnchanged(out, before, "out storage");
  }
}

TEST(Stack, EveryDtype) {
  size_t c = 0;
  for (aclDataType dtype : kStackDtypes) {
    SCOPED_TRACE(Name(dtype));
    CheckStack({dtype, dtype, dtype}, {3, 4}, static_cast<int64_t>(c % 3) - 1, dtype, c);
    ++c;
  }
}

TEST(Stack, Shapes) {
  CheckStack({ACL_FLOAT, ACL_FLOAT}, {2, 3, 4}, -4, ACL_FLOAT, 1);             // new leading dim
  CheckStack({ACL_FLOAT, ACL_FLOAT}, {2, 3, 4}, 3, ACL_FLOAT, 2);              // new trailing dim
  CheckStack({ACL_INT8}, {5}, 0, ACL_INT8, 3);                                 // one member
  CheckStack({ACL_BF16, ACL_BF16}, {}, 0, ACL_BF16, 4);                        // rank-0 members
  CheckStack({ACL_FLOAT, ACL_FLOAT, ACL_FLOAT}, {2, 0}, 1, ACL_FLOAT, 0);      // empty members
  CheckStack({ACL_INT16, ACL_INT16}, {1, 2, 1, 2, 1, 2, 1}, 7, ACL_INT16, 5);  // rank 7 into rank 8
}

// Members of several dtypes promote together and convert to out's dtype.
TEST(Stack, PromotesAndConverts) {
  CheckStack({ACL_INT32, ACL_FLOAT16, ACL_UINT8}, {3, 2}, 1, ACL_FLOAT, 0);
  CheckStack({ACL_BOOL, ACL_INT8}, {4}, 0, ACL_INT64, 2);
  CheckStack({ACL_FLOAT, ACL_COMPLEX64}, {2, 2}, 0, ACL_COMPLEX128, 3);
}

TEST(Stack, Rejections) {
  auto call = [](const std::vector<std::pair<aclDataType, Shape>>& members, int64_t dim, aclDataType outDtype,
                 const Shape& out) {
    OpArgs a;
    std::vector<aclTensor*> list;
    for (const auto& [dtype, shape] : members) list.push_back(a.NewTensor(dtype, shape));
    return RunStack(a.TensorList(list), dim, a.NewTensor(outDtype, out));
  };
  const aclDataType f = ACL_FLOAT;
  ExpectRejected(call({}, 0, f, {0}), "empty");
  ExpectRejected(call({{f, {2}}, {ACL_INT4, {2}}}, 0, f, {2, 2}), "'tensors[1]'");
  ExpectRejected(call({{f, {2}}, {f, {2}}}, 0, ACL_INT4, {2, 2}), "'out'");
  ExpectRejected(call({{f, {2}}, {f, {2}}}, 0, ACL_INT32, {2, 2}), "cannot be cast");
  ExpectRejected(call({{f, {2}}, {f, {2}}}, 2, f, {2, 2}), "'dim'");
  ExpectRejected(call({{f, {2}}, {f, {2}}}, -3, f, {2, 2}), "'dim'");
  ExpectRejected(call({{f, {2, 3}}, {f, {3, 2}}}, 0, f, {2, 2, 3}), "'tensors[1]'");
  ExpectRejected(call({{f, {2}}, {f, {2, 1}}}, 0, f, {2, 2}), "'tensors[1]'");
  ExpectRejected(call({{f, {2}}, {f, {2}}}, 0, f, {2, 3}), "'out'");
  ExpectRejected(call({{f, {1, 1, 1, 1, 1, 1, 1, 1}}}, 0, f, {1, 1, 1, 1, 1, 1, 1, 1}), "at most 7");
}

// The CANN document's example: two 2x3 f32 tensors 1..6 and 7..12, dim 0, out 2x2x3.
TEST(Stack, DocExample) {
  DeviceTensor a(ACL_FLOAT, {2, 3});
  a.WriteView({1, 2, 3, 4, 5, 6});
  DeviceTensor b(ACL_FLOAT, {2, 3});
  b.WriteView({7, 8, 9, 10, 11, 12});
  DeviceTensor out(ACL_FLOAT, {2, 2, 3});
  OpArgs args;
  ASSERT_TRUE(RunStack(args.TensorList({args.Tensor(a), args.Tensor(b)}), 0, args.Tensor(out)).ok());
  ExpectExact(out.ReadView(), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, "out");
}

// ---- SplitWithSize / SplitTensor ---------------------------------------------------------------------

// CANN's A2 host code: no UINT16 / 32 / 64 (its 950 list adds them).
const std::vector<aclDataType> kSplitDtypes = {ACL_FLOAT, ACL_FLOAT16,    ACL_DOUBLE,    ACL_INT32,
                                               ACL_INT64, ACL_INT16,      ACL_INT8,      ACL_UINT8,
                                               ACL_BOOL,  ACL_COMPLEX128, ACL_COMPLEX64, ACL_BF16};

OpRun RunSplitWithSize(aclTensor* self, aclIntArray* sizes, int64_t dim, aclTensorList* out) {
  return RunOp([&](OpArgs&, uint64_t* ws,
                   aclOpExecutor** ex) { return aclnnSplitWithSizeGetWorkspaceSize(self, sizes, dim, out, ws, ex); },
               aclnnSplitWithSize);
}

OpRun RunSplitTensor(aclTensor* self, uint64_t sections, int64_t dim, aclTensorList* out) {
  return RunOp([&](OpArgs&, uint64_t* ws,
                   aclOpExecutor** ex) { return aclnnSplitTensorGetWorkspaceSize(self, sections, dim, out, ws, ex); },
               aclnnSplitTensor);
}

// Splits self (of `shape`) along dim into pieces of `sizes` with one op or the other
// (sections > 0: SplitTensor with that many per piece), each piece written in `outDtype`.
void CheckSplit(aclDataType dtype, const Shape& shape, int64_t dim, const std::vector<int64_t>& sizes,
                uint64_t sections, aclDataType outDtype, size_t viewSeed) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t d = dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim;
  for (int round = 0; round < 2; ++round) {
    DeviceTensor self(dtype, shape, kInputViews[viewSeed % kInputViews.size()]);
    const Values values = self.FillRandom(rng, Range{});
    OpArgs args;
    std::vector<std::unique_ptr<DeviceTensor>> pieces;
    std::vector<std::vector<uint8_t>> before;
    std::vector<aclTensor*> list;
    for (size_t i = 0; i < sizes.size(); ++i) {
      Shape s = shape;
      s[d] = sizes[i];
      pieces.push_back(std::make_unique<DeviceTensor>(outDtype, s, kOutViews[(viewSeed + i) % kOutViews.size()]));
      pieces.back()->Poison();
      before.push_back(pieces.back()->DownloadBytes());
      list.push_back(args.Tensor(*pieces.back()));
    }
    aclTensorList* out = args.TensorList(list);
    const OpRun run = sections > 0 || (sizes.size() == 1 && sizes[0] == 0 && viewSeed % 2)
                          ? RunSplitTensor(args.Tensor(self), sections, dim, out)
                          : RunSplitWithSize(args.Tensor(self), args.IntArray(sizes), dim, out);
    ASSERT_TRUE(run.ok()) << Describe(run);
    int64_t offset = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const Shape& s = pieces[i]->shape();
      Values want(static_cast<size_t>(NumElements(s)));
      for (int64_t k = 0; k < NumElements(s); ++k) {
        Shape p = Unravel(k, s);
        p[d] += offset;
        want[k] = ConvertValue(values[Ravel(p, shape)], outDtype);
      }
      ExpectExact(pieces[i]->ReadView(), want, "out[" + std::to_string(i) + "]");
      ExpectOutsideViewUnchanged(*pieces[i], before[i], "out storage");
      offset += sizes[i];
    }
  }
}

TEST(SplitWithSize, EveryDtype) {
  size_t c = 0;
  for (aclDataType dtype : kSplitDtypes) {
    SCOPED_TRACE(Name(dtype));
    CheckSplit(dtype, {4, 6}, c % 2 ? -1 : 1, {1, 0, 3, 2}, 0, dtype, c);
    ++c;
  }
}

TEST(SplitWithSize, ShapesAndConversion) {
  CheckSplit(ACL_FLOAT, {5, 2, 3}, 0, {5}, 0, ACL_FLOAT, 1);       // one piece
  CheckSplit(ACL_FLOAT, {5, 2, 3}, -3, {2, 3}, 0, ACL_DOUBLE, 2);  // converted to out's dtype
  CheckSplit(ACL_INT32, {3, 0}, 0, {1, 2}, 0, ACL_INT32, 3);       // empty pieces
  CheckSplit(ACL_INT8, {3, 0}, 1, {0}, 0, ACL_INT8, 0);
  CheckSplit(ACL_BF16, {2, 1, 2, 3, 1, 2, 1, 4}, 7, {1, 3}, 0, ACL_FLOAT16, 4);
}

TEST(SplitTensor, EveryDtype) {
  size_t c = 0;
  for (aclDataType dtype : kSplitDtypes) {
    SCOPED_TRACE(Name(dtype));
    CheckSplit(dtype, {7, 3}, c % 2 ? -2 : 0, {3, 3, 1}, 3, dtype, c);  // the last piece smaller
    ++c;
  }
}

TEST(SplitTensor, ShapesAndConversion) {
  CheckSplit(ACL_FLOAT, {4, 6}, 1, {2, 2, 2}, 2, ACL_FLOAT16, 1);
  CheckSplit(ACL_FLOAT, {4, 6}, 1, {6}, 6, ACL_FLOAT, 2);
  CheckSplit(ACL_FLOAT, {4, 6}, 1, {6}, 100, ACL_FLOAT, 3);  // sections past the extent: one piece
  CheckSplit(ACL_INT64, {0, 3}, 0, {0}, 0, ACL_INT64, 1);    // an empty dim: one empty piece, sections 0
}

TEST(Split, Rejections) {
  auto pieces = [](OpArgs& a, aclDataType dtype, const std::vector<Shape>& shapes) {
    std::vector<aclTensor*> list;
    for (const Shape& s : shapes) list.push_back(a.NewTensor(dtype, s));
    return a.TensorList(list);
  };
  const aclDataType f = ACL_FLOAT;
  auto withSize = [&](aclDataType dtype, const Shape& self, const std::vector<int64_t>& sizes, int64_t dim,
                      aclDataType outDtype, const std::vector<Shape>& out) {
    OpArgs a;
    return RunSplitWithSize(a.NewTensor(dtype, self), a.IntArray(sizes), dim, pieces(a, outDtype, out));
  };
  ExpectRejected(withSize(ACL_INT4, {4}, {2, 2}, 0, f, {{2}, {2}}), "'self'");
  ExpectRejected(withSize(f, {4}, {2, 2}, 0, ACL_INT4, {{2}, {2}}), "'out[0]'");
  ExpectRejected(withSize(f, {}, {1}, 0, f, {{}}), "'self'");
  ExpectRejected(withSize(f, {4, 2}, {2, 2}, 2, f, {{2, 2}, {2, 2}}), "'dim'");
  ExpectRejected(withSize(f, {4, 2}, {2, 2}, -3, f, {{2, 2}, {2, 2}}), "'dim'");
  ExpectRejected(withSize(f, {4, 2}, {2, 1}, 0, f, {{2, 2}, {1, 2}}), "adds up");
  ExpectRejected(withSize(f, {4, 2}, {5, -1}, 0, f, {{5, 2}, {1, 2}}), "negative");
  ExpectRejected(withSize(f, {4, 2}, {2, 2}, 0, f, {{2, 2}}), "pieces");
  ExpectRejected(withSize(f, {4, 2}, {2, 2}, 0, f, {{2, 2}, {2, 1}}), "'out[1]'");
  auto sections = [&](const Shape& self, uint64_t n, int64_t dim, const std::vector<Shape>& out) {
    OpArgs a;
    return RunSplitTensor(a.NewTensor(f, self), n, dim, pieces(a, f, out));
  };
  ExpectRejected(sections({4, 2}, 0, 0, {{4, 2}}), "'splitSections'");
  ExpectRejected(sections({0, 2}, 1, 0, {{0, 2}}), "'splitSections'");
  ExpectRejected(sections({4, 2}, 2, 2, {{2, 2}, {2, 2}}), "'dim'");
  ExpectRejected(sections({5, 2}, 2, 0, {{2, 2}, {2, 2}}), "pieces");
  ExpectRejected(sections({5, 2}, 2, 0, {{2, 2}, {2, 2}, {2, 2}}), "'out[2]'");
}

// The CANN documents' examples: SplitWithSize of a 5x2 f32 0..9 with splitSize [1, 4] on dim 0;
// SplitTensor of a 4x2 f32 0..7 with splitSections 2 on dim 0.
TEST(Split, DocExamples) {
  {
    DeviceTensor self(ACL_FLOAT, {5, 2});
    self.WriteView({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    DeviceTensor first(ACL_FLOAT, {1, 2});
    DeviceTensor rest(ACL_FLOAT, {4, 2});
    OpArgs args;
    ASSERT_TRUE(RunSplitWithSize(args.Tensor(self), args.IntArray({1, 4}), 0,
                                 args.TensorList({args.Tensor(first), args.Tensor(rest)}))
                    .ok());
    ExpectExact(first.ReadView(), {0, 1}, "out[0]");
    ExpectExact(rest.ReadView(), {2, 3, 4, 5, 6, 7, 8, 9}, "out[1]");
  }
  {
    DeviceTensor self(ACL_FLOAT, {4, 2});
    self.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
    DeviceTensor first(ACL_FLOAT, {2, 2});
    DeviceTensor second(ACL_FLOAT, {2, 2});
    OpArgs args;
    ASSERT_TRUE(
        RunSplitTensor(args.Tensor(self), 2, 0, args.TensorList({args.Tensor(first), args.Tensor(second)})).ok());
    ExpectExact(first.ReadView(), {0, 1, 2, 3}, "out[0]");
    ExpectExact(second.ReadView(), {4, 5, 6, 7}, "out[1]");
  }
}

// ---- Diag / DiagFlat ----------------------------------------------------------------------------------

const std::vector<aclDataType> kDiagDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32,     ACL_INT64, ACL_INT16,
                                              ACL_INT8,  ACL_UINT8,   ACL_BOOL,   ACL_COMPLEX64, ACL_BF16};

OpRun RunDiag(bool flat, aclTensor* self, int64_t diagonal, aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) {
        return flat ? aclnnDiagFlatGetWorkspaceSize(self, diagonal, out, ws, ex)
                    : aclnnDiagGetWorkspaceSize(self, diagonal, out, ws, ex);
      },
      flat ? aclnnDiagFlat : aclnnDiag);
}

// Diag (or DiagFlat) of a tensor of `shape` with diagonal k against the definition.
void CheckDiag(bool flat, aclDataType dtype, const Shape& shape, int64_t k, size_t viewSeed) {
  Rng rng = Rng::ForCurrentTest();
  const bool toMatrix = flat || shape.size() == 1;
  const int64_t n = NumElements(shape);
  const int64_t side = n + std::abs(k);
  const int64_t rows = toMatrix ? 0 : shape[0], columns = toMatrix ? 0 : shape[1];
  const int64_t length =
      toMatrix ? 0 : std::max<int64_t>(0, k >= 0 ? std::min(rows, columns - k) : std::min(rows + k, columns));
  const Shape outShape = toMatrix ? Shape{side, side} : Shape{length};
  for (int round = 0; round < 2; ++round) {
    DeviceTensor self(dtype, shape, kInputViews[viewSeed % kInputViews.size()]);
    const Values values = self.FillRandom(rng, Range{});
    DeviceTensor out(dtype, outShape, kOutViews[viewSeed % kOutViews.size()]);
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    OpArgs args;
    const OpRun run = RunDiag(flat, args.Tensor(self), k, args.Tensor(out));
    ASSERT_TRUE(run.ok()) << Describe(run);
    Values want(static_cast<size_t>(NumElements(outShape)), 0.0);
    if (toMatrix) {
      for (int64_t i = 0; i < n; ++i)
        want[(i + std::max<int64_t>(-k, 0)) * side + i + std::max<int64_t>(k, 0)] = values[i];
    } else {
      for (int64_t i = 0; i < length; ++i) {
        want[i] = values[(i + std::max<int64_t>(-k, 0)) * columns + i + std::max<int64_t>(k, 0)];
      }
    }
    ExpectExact(out.ReadView(), want, "out");
    ExpectOutsideViewUnchanged(out, before, "out storage");
  }
}

TEST(Diag, EveryDtype) {
  size_t c = 0;
  for (aclDataType dtype : kDiagDtypes) {
    SCOPED_TRACE(Name(dtype));
    CheckDiag(false, dtype, {4, 5}, static_cast<int64_t>(c % 5) - 2, c);   // matrix -> vector
    CheckDiag(false, dtype, {3}, static_cast<int64_t>(c % 3) - 1, c + 1);  // vector -> matrix
    CheckDiag(true, dtype, {2, 3}, static_cast<int64_t>(c % 3) - 1, c + 2);
    ++c;
  }
}

TEST(Diag, Shapes) {
  CheckDiag(false, ACL_FLOAT, {3, 4}, 4, 0);   // past the last column: empty
  CheckDiag(false, ACL_FLOAT, {3, 4}, -5, 1);  // below the last row: empty
  CheckDiag(false, ACL_FLOAT, {0, 4}, 1, 2);
  CheckDiag(false, ACL_FLOAT, {0}, 2, 3);  // an empty vector on diagonal 2: a 2x2 zero matrix
  CheckDiag(true, ACL_INT32, {2, 1, 2, 1, 2}, -2, 1);
  CheckDiag(true, ACL_INT8, {}, 1, 0);  // one element
  CheckDiag(true, ACL_DOUBLE, {0, 3}, 0, 0);
}

TEST(Diag, Rejections) {
  auto call = [](bool flat, aclDataType dtype, const Shape& self, int64_t k, aclDataType outDtype, const Shape& out) {
    OpArgs a;
    return RunDiag(flat, a.NewTensor(dtype, self), k, a.NewTensor(outDtype, out));
  };
  for (bool flat : {false, true}) {
    ExpectRejected(call(flat, ACL_COMPLEX128, {3}, 0, ACL_COMPLEX128, {3, 3}), "'self'");
    ExpectRejected(call(flat, ACL_FLOAT, {3}, 0, ACL_DOUBLE, {3, 3}), "'out'");
    ExpectRejected(call(flat, ACL_FLOAT, {3}, 1, ACL_FLOAT, {3, 3}), "'out'");
  }
  ExpectRejected(call(false, ACL_FLOAT, {2, 2, 2}, 0, ACL_FLOAT, {2}), "'self'");
  ExpectRejected(call(false, ACL_FLOAT, {}, 0, ACL_FLOAT, {1, 1}), "'self'");
  ExpectRejected(call(false, ACL_FLOAT, {3, 4}, 1, ACL_FLOAT, {2}), "'out'");
  ExpectRejected(call(true, ACL_FLOAT, {3}, int64_t{1} << 40, ACL_FLOAT, {3, 3}), "'diagonal'");
}

// The CANN documents' examples: Diag of a 2x2 f32 [1, 2, 3, 4] with diagonal 0; DiagFlat of a
// 1x2 f32 [2, 5] with diagonal 1 (a 3x3 matrix).
TEST(Diag, DocExamples) {
  DeviceTensor square(ACL_FLOAT, {2, 2});
  square.WriteView({1, 2, 3, 4});
  DeviceTensor diagonal(ACL_FLOAT, {2});
  OpArgs args;
  ASSERT_TRUE(RunDiag(false, args.Tensor(square), 0, args.Tensor(diagonal)).ok());
  ExpectExact(diagonal.ReadView(), {1, 4}, "Diag out");
  DeviceTensor row(ACL_FLOAT, {1, 2});
  row.WriteView({2, 5});
  DeviceTensor matrix(ACL_FLOAT, {3, 3});
  OpArgs flatArgs;
  ASSERT_TRUE(RunDiag(true, flatArgs.Tensor(row), 1, flatArgs.Tensor(matrix)).ok());
  ExpectExact(matrix.ReadView(), {0, 2, 0, 0, 0, 5, 0, 0, 0}, "DiagFlat out");
}

}  // namespace
}  // namespace canopy_test
