// Hostile calls of the ops added today beside the harness rows: AddV3 /
// InplaceAddV3, BitwiseAndTensorOut / InplaceBitwiseAndTensorOut and the four
// Normal*Out forms. Outputs that overlap an input (shifted by one element,
// transposed over it: CANN computes into a result of its own and copies it
// out, so every input is read as it was), descriptors destroyed between the
// phases, and views of 2^62 elements whose temporaries must not wrap the
// workspace size round to a small number (phase 2 would overrun it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_v3.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwiseand.h"
#include "aclnnop/aclnn_normal_out.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

// A [n] view at element `offset` of `storage` (a contiguous 1-D tensor).
aclTensor* Slice(const DeviceTensor& storage, int64_t n, int64_t offset) {
  const int64_t shape[1] = {n}, strides[1] = {1}, storageShape[1] = {storage.numel()};
  return aclCreateTensor(shape, 1, storage.dtype(), strides, offset, ACL_FORMAT_ND, storageShape, 1, storage.data());
}

// An [rows, columns] view of `storage` with the given strides.
aclTensor* Matrix(const DeviceTensor& storage, int64_t rows, int64_t columns, int64_t rowStride, int64_t columnStride) {
  const int64_t shape[2] = {rows, columns}, strides[2] = {rowStride, columnStride}, storageShape[1] = {storage.numel()};
  return aclCreateTensor(shape, 2, storage.dtype(), strides, 0, ACL_FORMAT_ND, storageShape, 1, storage.data());
}

// Runs `phase1` with the descriptors it makes destroyed right after phase 1
// (before phase 2, as a client that frees them early does).
void RunDestroyingEarly(
    const std::function<aclnnStatus(std::vector<aclTensor*>&, std::vector<aclScalar*>&, W, E)>& phase1, Phase2 phase2) {
  std::vector<aclTensor*> tensors;
  std::vector<aclScalar*> scalars;
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = phase1(tensors, scalars, &workspaceSize, &executor);
  for (aclTensor* t : tensors) EXPECT_EQ(aclDestroyTensor(t), ACL_SUCCESS);
  for (aclScalar* s : scalars) EXPECT_EQ(aclDestroyScalar(s), ACL_SUCCESS);
  ASSERT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
  DeviceBuffer workspace(std::max<uint64_t>(workspaceSize, 1));
  ASSERT_EQ(phase2(workspace.get(), workspaceSize, executor, TestStream()), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
}

// ---- outputs overlapping inputs ----------------------------------------------------------------

// out = other's storage one element on: element i of out is element i + 1 of
// the storage, which other reads as its element i + 1.
TEST(AdversarialAddV3, OutShiftedOverOther) {
  constexpr int64_t n = 300;
  for (int64_t shift : {1, -1}) {
    SCOPED_TRACE("shift " + std::to_string(shift));
    DeviceTensor storage(ACL_FLOAT, {n + 1});
    Rng rng = Rng::ForCurrentTest();
    const Values before = storage.FillRandom(rng, Range{-8, 8});
    const int64_t otherAt = shift > 0 ? 0 : 1, outAt = otherAt + shift;
    float self = 1.25F, alpha = -0.5F;
    RunDestroyingEarly(
        [&](std::vector<aclTensor*>& t, std::vector<aclScalar*>& s, W w, E e) {
          s = {aclCreateScalar(&self, ACL_FLOAT), aclCreateScalar(&alpha, ACL_FLOAT)};
          t = {Slice(storage, n, otherAt), Slice(storage, n, outAt)};
          return aclnnAddV3GetWorkspaceSize(s[0], t[0], s[1], t[1], w, e);
        },
        aclnnAddV3);
    Values want = before;
    for (int64_t i = 0; i < n; ++i) {
      const double other = static_cast<float>(before[static_cast<size_t>(otherAt + i)].real());
      want[static_cast<size_t>(outAt + i)] = static_cast<double>(static_cast<float>(1.25 + -0.5 * other));
    }
    ExpectNear(storage.ReadView(), Expected{want, std::vector<double>(want.size(), 1e-6)}, "storage");
  }
}

// out the transpose of other over the same square storage.
TEST(AdversarialAddV3, OutTransposedOverOther) {
  constexpr int64_t n = 37;
  DeviceTensor storage(ACL_INT32, {n * n});
  Rng rng = Rng::ForCurrentTest();
  const Values before = storage.FillRandom(rng, Range{-100, 100});
  int32_t self = 7, alpha = 3;
  RunDestroyingEarly(
      [&](std::vector<aclTensor*>& t, std::vector<aclScalar*>& s, W w, E e) {
        s = {aclCreateScalar(&self, ACL_INT32), aclCreateScalar(&alpha, ACL_INT32)};
        t = {Matrix(storage, n, n, n, 1), Matrix(storage, n, n, 1, n)};
        return aclnnAddV3GetWorkspaceSize(s[0], t[0], s[1], t[1], w, e);
      },
      aclnnAddV3);
  Values want(before.size());
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {  // out[i, j] (storage j * n + i) = 7 + 3 * other[i, j]
      want[static_cast<size_t>(j * n + i)] = 7.0 + 3.0 * before[static_cast<size_t>(i * n + j)].real();
    }
  }
  ExpectExact(storage.ReadView(), want, "storage");
}

TEST(AdversarialBitwiseAndTensorOut, OutShiftedOverBothInputs) {
  constexpr int64_t n = 513;
  for (aclDataType dtype : {ACL_INT32, ACL_INT8, ACL_INT64, ACL_BOOL}) {
    SCOPED_TRACE(Name(dtype));
    DeviceTensor storage(dtype, {n + 2});
    Rng rng = Rng::ForCurrentTest();
    const Values before = storage.FillRandom(rng, dtype == ACL_BOOL ? Range{0, 1} : Range{-100, 100});
    RunDestroyingEarly(
        [&](std::vector<aclTensor*>& t, std::vector<aclScalar*>&, W w, E e) {
          t = {Slice(storage, n, 0), Slice(storage, n, 2), Slice(storage, n, 1)};
          return aclnnBitwiseAndTensorOutGetWorkspaceSize(t[0], t[1], t[2], w, e);
        },
        aclnnBitwiseAndTensorOut);
    Values want = before;
    for (int64_t i = 0; i < n; ++i) {
      const auto a = static_cast<int64_t>(before[static_cast<size_t>(i)].real());
      const auto b = static_cast<int64_t>(before[static_cast<size_t>(i + 2)].real());
      want[static_cast<size_t>(i + 1)] = static_cast<double>(a & b);
    }
    ExpectExact(storage.ReadView(), want, "storage");
  }
}

// CANN's host code of BitwiseAndTensor(Out) and BitwiseOrTensor checks only
// that the promoted dtype casts to out: an integer result goes into a floating
// or complex out (and a bool one into any), not into bool.
TEST(AdversarialBitwiseAndTensorOut, ResultCastIntoFloatingAndComplexOut) {
  using Phase1 = aclnnStatus (*)(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
  using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);
  struct BitwiseOp {
    const char* name;
    Phase1 phase1;
    Phase2 phase2;
    bool is_or;
  };
  const BitwiseOp ops[] = {
      {"BitwiseAndTensorOut", aclnnBitwiseAndTensorOutGetWorkspaceSize, aclnnBitwiseAndTensorOut, false},
      {"BitwiseAndTensor", aclnnBitwiseAndTensorGetWorkspaceSize, aclnnBitwiseAndTensor, false},
      {"BitwiseOrTensor", aclnnBitwiseOrTensorGetWorkspaceSize, aclnnBitwiseOrTensor, true}};
  constexpr int64_t n = 70;
  Rng rng = Rng::ForCurrentTest();
  for (const BitwiseOp& op : ops) {
    for (aclDataType in : {ACL_INT32, ACL_BOOL}) {
      for (aclDataType outDtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_COMPLEX64}) {
        SCOPED_TRACE(std::string(op.name) + " " + Name(in) + " -> " + Name(outDtype));
        DeviceTensor self(in, {n}), other(in, {n}), out(outDtype, {n});
        const Range range = in == ACL_BOOL ? Range{0, 1} : Range{-255, 255};
        const Values a = self.FillRandom(rng, range), b = other.FillRandom(rng, range);
        out.Poison();
        ExpectRuns(
            [&](A& args, W w, E e) { return op.phase1(args.Tensor(self), args.Tensor(other), args.Tensor(out), w, e); },
            op.phase2);
        Values want(static_cast<size_t>(n));
        for (size_t i = 0; i < want.size(); ++i) {  // |a & b|, |a | b| < 256: exact in every out dtype
          const auto x = static_cast<int64_t>(a[i].real()), y = static_cast<int64_t>(b[i].real());
          want[i] = static_cast<double>(op.is_or ? (x | y) : (x & y));
        }
        ExpectExact(out.ReadView(), want, "out");
      }
    }
    // int32 with int32 does not cast to bool: rejected.
    DeviceTensor self(ACL_INT32, {n}), boolOut(ACL_BOOL, {n});
    const OpRun run = RunOp(
        [&](A& args, W w, E e) { return op.phase1(args.Tensor(self), args.Tensor(self), args.Tensor(boolOut), w, e); },
        op.phase2);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << op.name << ": " << Describe(run);
  }
}

// In place: selfRef is written while other, the same storage one element back, is read.
TEST(AdversarialBitwiseAndTensorOut, InplaceWithOtherShiftedOverSelf) {
  constexpr int64_t n = 200;
  DeviceTensor storage(ACL_INT16, {n + 1});
  Rng rng = Rng::ForCurrentTest();
  const Values before = storage.FillRandom(rng, Range{-30000, 30000});
  RunDestroyingEarly(
      [&](std::vector<aclTensor*>& t, std::vector<aclScalar*>&, W w, E e) {
        t = {Slice(storage, n, 1), Slice(storage, n, 0)};
        return aclnnInplaceBitwiseAndTensorOutGetWorkspaceSize(t[0], t[1], w, e);
      },
      aclnnInplaceBitwiseAndTensorOut);
  Values want = before;
  for (int64_t i = 0; i < n; ++i) {
    want[static_cast<size_t>(i + 1)] =
        static_cast<double>(static_cast<int64_t>(before[static_cast<size_t>(i + 1)].real()) &
                            static_cast<int64_t>(before[static_cast<size_t>(i)].real()));
  }
  ExpectExact(storage.ReadView(), want, "storage");
}

// out over mean (the same view) and over std one element back: the
// values are those of a call whose out overlaps nothing (z depends only on
// the seed, the offset and the element).
TEST(AdversarialNormalOut, OutOverMeanAndStd) {
  constexpr int64_t n = 257;
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor storage(ACL_FLOAT, {n + 1});
  const Values before = storage.FillRandom(rng, Range{0.5, 3});
  DeviceTensor meanCopy(ACL_FLOAT, {n}), stdCopy(ACL_FLOAT, {n}), separate(ACL_FLOAT, {n});
  meanCopy.WriteView(Values(before.begin() + 1, before.end()));
  stdCopy.WriteView(Values(before.begin(), before.end() - 1));
  separate.Poison();
  ExpectRuns(
      [&](A& a, W w, E e) {
        return aclnnNormalTensorTensorGetWorkspaceSize(a.Tensor(meanCopy), a.Tensor(stdCopy), 5, 3, a.Tensor(separate),
                                                       w, e);
      },
      aclnnNormalTensorTensor);
  RunDestroyingEarly(
      [&](std::vector<aclTensor*>& t, std::vector<aclScalar*>&, W w, E e) {
        t = {Slice(storage, n, 1), Slice(storage, n, 0), Slice(storage, n, 1)};
        return aclnnNormalTensorTensorGetWorkspaceSize(t[0], t[1], 5, 3, t[2], w, e);
      },
      aclnnNormalTensorTensor);
  Values want = {before.front()};
  const Values drawn = separate.ReadView();
  want.insert(want.end(), drawn.begin(), drawn.end());
  ExpectExact(storage.ReadView(), want, "storage");
}

// ---- views too large for their temporaries ------------------------------------------------------

// An out of 2^62 elements with stride 0 (one element of storage) is a valid
// descriptor, but z's temporary would take 2^64 bytes and more: the call must
// be rejected, never planned with a workspace size that wrapped round.
TEST(AdversarialNormalOut, HugeBroadcastOutIsRejectedNotWrapped) {
  DeviceTensor storage(ACL_FLOAT, {1});
  DeviceTensor half(ACL_FLOAT16, {1});
  const auto huge = [](const DeviceTensor& t, int64_t rows, int64_t columns) {
    const int64_t shape[2] = {rows, columns}, strides[2] = {0, 0}, storageShape[1] = {1};
    return aclCreateTensor(shape, 2, t.dtype(), strides, 0, ACL_FORMAT_ND, storageShape, 1, t.data());
  };
  const int64_t big = int64_t{1} << 31;
  const std::vector<std::pair<int64_t, int64_t>> shapes = {{big, big}, {int64_t{1} << 62, 1}, {big * 2, big / 2}};
  for (const auto& [rows, columns] : shapes) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(columns));
    const std::vector<std::pair<std::string, std::function<aclnnStatus(aclTensor*, aclTensor*, W, E)>>> calls = {
        {"FloatFloat", [](aclTensor*, aclTensor* out, W w,
                          E e) { return aclnnNormalFloatFloatGetWorkspaceSize(0.0F, 1.0F, 1, 0, out, w, e); }},
        {"TensorFloat", [](aclTensor* in, aclTensor* out, W w,
                           E e) { return aclnnNormalTensorFloatGetWorkspaceSize(in, 1.0F, 1, 0, out, w, e); }},
        {"FloatTensor", [](aclTensor* in, aclTensor* out, W w,
                           E e) { return aclnnNormalFloatTensorGetWorkspaceSize(0.0F, in, 1, 0, out, w, e); }},
        {"TensorTensor", [](aclTensor* in, aclTensor* out, W w, E e) {
           return aclnnNormalTensorTensorGetWorkspaceSize(in, in, 1, 0, out, w, e);
         }}};
    for (const auto& [name, call] : calls) {
      for (const DeviceTensor* out : {&storage, &half}) {
        SCOPED_TRACE(name + " " + Name(out->dtype()));
        aclTensor* in = huge(storage, rows, columns);
        aclTensor* outTensor = huge(*out, rows, columns);
        ASSERT_NE(in, nullptr);
        ASSERT_NE(outTensor, nullptr);
        uint64_t workspaceSize = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus status = call(in, outTensor, &workspaceSize, &executor);
        EXPECT_EQ(status, ACLNN_ERR_PARAM_INVALID) << "workspace " << workspaceSize;
        EXPECT_NE(std::string(aclGetRecentErrMsg()).find("workspace"), std::string::npos) << aclGetRecentErrMsg();
        EXPECT_EQ(aclDestroyTensor(in), ACL_SUCCESS);
        EXPECT_EQ(aclDestroyTensor(outTensor), ACL_SUCCESS);
      }
    }
  }
}

}  // namespace
}  // namespace canopy_test
