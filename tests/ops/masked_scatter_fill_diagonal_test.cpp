// InplaceMaskedScatter and InplaceFillDiagonal through the public C API
// against plain references: every documented dtype, masks of bool and uint8
// that broadcast, strided, transposed, reversed and offset views, empty
// tensors, a second call (a plan-cache hit on new addresses), a source too
// short for the mask at run time (a stream error with a message, nothing
// written), wrapping diagonals of tall matrices, each rejection with its
// status code, and the CANN documents' example calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_fill_diagonal.h"
#include "aclnnop/aclnn_masked_scatter.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const std::vector<View> kViews = {View::kContiguous, View::kTransposed, View::kStepped, View::kReversed, View::kOffset};

void ExpectRejected(const OpRun& run, const std::string& keyword) {
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << "message should name '" << keyword << "': " << run.message;
}

// ---- InplaceMaskedScatter -----------------------------------------------------------------------------

const std::vector<aclDataType> kMaskedScatterDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                                       ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BOOL, ACL_BF16};

OpRun RunMaskedScatter(aclTensor* self, aclTensor* mask, aclTensor* source) {
  return RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInplaceMaskedScatterGetWorkspaceSize(self, mask, source, ws, ex);
      },
      aclnnInplaceMaskedScatter);
}

TEST(InplaceMaskedScatter, MatchesReferenceTwice) {
  struct Case {
    Shape self;
    Shape mask;
    Shape source;
  };
  const std::vector<Case> shapes = {
      {{4, 5}, {4, 5}, {4, 5}},
      {{3, 4}, {4}, {2, 7}},      // a broadcast mask, a larger source of another shape
      {{2, 3, 4}, {3, 1}, {30}},  // broadcast along two dims
      {{5}, {}, {6}},             // a rank-0 mask
      {{3, 0}, {3, 0}, {0}},      // empty
      {{2, 3}, {2, 3}, {3, 2}},   // source transposed below
  };
  size_t c = 0;
  for (aclDataType dtype : kMaskedScatterDtypes) {
    for (size_t s = 0; s < shapes.size(); ++s) {
      if (s != 0 && s != c % shapes.size()) continue;
      const Case& x = shapes[s];
      SCOPED_TRACE(std::string(Name(dtype)) + " shape " + std::to_string(s));
      Rng rng = Rng::ForCurrentTest();
      for (int round = 0; round < 2; ++round) {
        DeviceTensor self(dtype, x.self, kViews[(c + s) % kViews.size()]);
        const Values original = self.FillRandom(rng, Range{});
        DeviceTensor mask(c % 2 ? ACL_UINT8 : ACL_BOOL, x.mask, kViews[(c + 1) % kViews.size()]);
        const Values flags = mask.FillRandom(rng, Range{0, 1, 0, 0, true});
        DeviceTensor source(dtype, x.source, kViews[(c + s + 2) % kViews.size()]);
        const Values updates = source.FillRandom(rng, Range{});
        const std::vector<uint8_t> before = self.DownloadBytes();
        OpArgs args;
        const OpRun run = RunMaskedScatter(args.Tensor(self), args.Tensor(mask), args.Tensor(source));
        ASSERT_TRUE(run.ok()) << Describe(run);
        Values want = original;
        int64_t k = 0;
        for (int64_t i = 0; i < NumElements(x.self); ++i) {
          const Shape p = Unravel(i, x.self);
          Shape q(p.end() - static_cast<int64_t>(x.mask.size()), p.end());
          for (size_t j = 0; j < x.mask.size(); ++j) {
            if (x.mask[j] == 1) q[j] = 0;
          }
          if (flags[Ravel(q, x.mask)].real() != 0) want[i] = updates[k++];
        }
        ExpectExact(self.ReadView(), want, "selfRef");
        ExpectOutsideViewUnchanged(self, before, "selfRef storage");
      }
    }
    ++c;
  }
}

TEST(InplaceMaskedScatter, ShortSourceFailsTheStreamAndWritesNothing) {
  DeviceTensor self(ACL_FLOAT, {2, 3});
  Rng rng = Rng::ForCurrentTest();
  self.FillRandom(rng, Range{});
  const std::vector<uint8_t> before = self.DownloadBytes();
  DeviceTensor mask(ACL_BOOL, {2, 3});
  mask.WriteView({1, 0, 1, 1, 0, 1});  // 4 selected
  DeviceTensor source(ACL_FLOAT, {3});
  source.FillRandom(rng, Range{});
  OpArgs args;
  const OpRun run = RunMaskedScatter(args.Tensor(self), args.Tensor(mask), args.Tensor(source));
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("selects 4 elements"), std::string::npos) << run.message;
  EXPECT_EQ(self.DownloadBytes(), before) << "nothing may be written";
}

TEST(InplaceMaskedScatter, Rejections) {
  auto call = [](aclDataType dtype, const Shape& self, aclDataType maskDtype, const Shape& mask,
                 aclDataType sourceDtype) {
    OpArgs a;
    return RunMaskedScatter(a.NewTensor(dtype, self), a.NewTensorIn(Range{0, 1, 0, 0, true}, maskDtype, mask),
                            a.NewTensor(sourceDtype, self));
  };
  ExpectRejected(call(ACL_COMPLEX64, {2, 3}, ACL_BOOL, {2, 3}, ACL_COMPLEX64), "'selfRef'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, ACL_INT8, {2, 3}, ACL_FLOAT), "'mask'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, ACL_BOOL, {4}, ACL_FLOAT), "broadcast");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, ACL_BOOL, {2, 2, 3}, ACL_FLOAT), "'mask'");
  ExpectRejected(call(ACL_FLOAT, {1, 3}, ACL_BOOL, {2, 3}, ACL_FLOAT), "'mask'");
  ExpectRejected(call(ACL_FLOAT, {2, 3}, ACL_BOOL, {2, 3}, ACL_FLOAT16), "'source'");
}

// The CANN document's example: selfRef 4x2 f32 0..7, mask bool (the last four true), source 4x2 of 10s.
TEST(InplaceMaskedScatter, DocExample) {
  DeviceTensor self(ACL_FLOAT, {4, 2});
  self.WriteView({0, 1, 2, 3, 4, 5, 6, 7});
  DeviceTensor mask(ACL_BOOL, {4, 2});
  mask.WriteView({0, 0, 0, 0, 1, 1, 1, 1});
  DeviceTensor source(ACL_FLOAT, {4, 2});
  source.WriteView(Values(8, 10.0));
  OpArgs args;
  ASSERT_TRUE(RunMaskedScatter(args.Tensor(self), args.Tensor(mask), args.Tensor(source)).ok());
  ExpectExact(self.ReadView(), {0, 1, 2, 3, 10, 10, 10, 10}, "selfRef");
}

// ---- InplaceFillDiagonal ------------------------------------------------------------------------------

const std::vector<aclDataType> kFillDiagonalDtypes = {ACL_FLOAT, ACL_FLOAT16,   ACL_DOUBLE, ACL_INT32,
                                                      ACL_INT64, ACL_INT16,     ACL_INT8,   ACL_UINT8,
                                                      ACL_BOOL,  ACL_COMPLEX64, ACL_BF16};

OpRun RunFillDiagonal(aclTensor* self, aclScalar* value, bool wrap) {
  return RunOp([&](OpArgs&, uint64_t* ws,
                   aclOpExecutor** ex) { return aclnnInplaceFillDiagonalGetWorkspaceSize(self, value, wrap, ws, ex); },
               aclnnInplaceFillDiagonal);
}

// PyTorch's rule on a contiguous tensor: flat positions 0, s, 2s, ... (s = the sum
// of the contiguous strides) below min-extent of them, or (wrap, 2-D) below numel.
std::vector<int64_t> DiagonalPositions(const Shape& shape, bool wrap) {
  const int64_t size = *std::min_element(shape.begin(), shape.end());
  int64_t step = 0;
  for (int64_t s : ContiguousStrides(shape)) step += s;
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < size; ++i) positions.push_back(i * step);
  if (wrap && shape.size() == 2 && shape[0] > shape[1] + 1) {
    for (int64_t p = size * step; p < NumElements(shape); p += step) positions.push_back(p);
  }
  return positions;
}

void CheckFillDiagonal(aclDataType dtype, const Shape& shape, bool wrap, View view) {
  Rng rng = Rng::ForCurrentTest();
  const Value fill = IsBool(dtype) ? 1.0 : 3.0;
  for (int round = 0; round < 2; ++round) {
    DeviceTensor self(dtype, shape, view);
    const Values original = self.FillRandom(rng, Range{});
    const std::vector<uint8_t> before = self.DownloadBytes();
    OpArgs args;
    const OpRun run = RunFillDiagonal(args.Tensor(self), args.Scalar(ACL_INT64, fill), wrap);
    ASSERT_TRUE(run.ok()) << Describe(run);
    Values want = original;
    for (int64_t p : DiagonalPositions(shape, wrap)) want[p] = fill;
    ExpectExact(self.ReadView(), want, "selfRef");
    ExpectOutsideViewUnchanged(self, before, "selfRef storage");
  }
}

TEST(InplaceFillDiagonal, EveryDtype) {
  size_t c = 0;
  for (aclDataType dtype : kFillDiagonalDtypes) {
    SCOPED_TRACE(Name(dtype));
    CheckFillDiagonal(dtype, {4, 5}, c % 2 == 0, kViews[c % kViews.size()]);
    CheckFillDiagonal(dtype, {9, 3}, true, kViews[(c + 1) % kViews.size()]);
    ++c;
  }
}

TEST(InplaceFillDiagonal, Shapes) {
  for (bool wrap : {false, true}) {
    SCOPED_TRACE(wrap ? "wrap" : "no wrap");
    CheckFillDiagonal(ACL_FLOAT, {10, 3}, wrap, View::kTransposed);  // full wrapped diagonals, then a partial one
    CheckFillDiagonal(ACL_FLOAT, {11, 3}, wrap, View::kStepped);
    CheckFillDiagonal(ACL_FLOAT, {8, 3}, wrap, View::kReversed);    // the last diagonal starts past the end
    CheckFillDiagonal(ACL_FLOAT, {4, 3}, wrap, View::kContiguous);  // height = width + 1: no wrap
    CheckFillDiagonal(ACL_FLOAT, {7, 1}, wrap, View::kOffset);
    CheckFillDiagonal(ACL_INT32, {3, 3, 3}, wrap, View::kStepped);
    CheckFillDiagonal(ACL_INT8, {2, 2, 2, 2, 2, 2, 2, 2}, wrap, View::kContiguous);
    CheckFillDiagonal(ACL_FLOAT, {0, 3}, wrap, View::kContiguous);
  }
}

TEST(InplaceFillDiagonal, Rejections) {
  auto call = [](aclDataType dtype, const Shape& self, aclDataType valueDtype, Value value) {
    OpArgs a;
    return RunFillDiagonal(a.NewTensor(dtype, self), a.Scalar(valueDtype, value), false);
  };
  ExpectRejected(call(ACL_UINT32, {2, 2}, ACL_INT64, 1.0), "'selfRef'");
  ExpectRejected(call(ACL_FLOAT, {3}, ACL_INT64, 1.0), "'selfRef'");
  ExpectRejected(call(ACL_FLOAT, {2, 3, 2}, ACL_INT64, 1.0), "equal");
  ExpectRejected(call(ACL_FLOAT, {2, 2}, ACL_COMPLEX64, 1.0), "'fillValue'");
  ExpectRejected(call(ACL_INT8, {2, 2}, ACL_INT64, 128.0), "overflows");
  ExpectRejected(call(ACL_UINT8, {2, 2}, ACL_INT64, -1.0), "overflows");
  ExpectRejected(call(ACL_FLOAT16, {2, 2}, ACL_DOUBLE, 70000.0), "overflows");
  ExpectRejected(call(ACL_FLOAT, {2, 2}, ACL_DOUBLE, 1e39), "overflows");
  EXPECT_TRUE(call(ACL_INT8, {2, 2}, ACL_INT64, 127.0).ok());
}

// The CANN document's example: selfRef 3x3 f32 0..8, fillValue 11.1 (f32), wrap false.
TEST(InplaceFillDiagonal, DocExample) {
  DeviceTensor self(ACL_FLOAT, {3, 3});
  self.WriteView({0, 1, 2, 3, 4, 5, 6, 7, 8});
  OpArgs args;
  ASSERT_TRUE(RunFillDiagonal(args.Tensor(self), args.Scalar(ACL_FLOAT, 11.1), false).ok());
  const Value v = ConvertValue(ConvertValue(11.1, ACL_FLOAT), ACL_FLOAT);
  ExpectExact(self.ReadView(), {v, 1, 2, 3, v, 5, 6, 7, v}, "selfRef");
}

}  // namespace
}  // namespace canopy_test
