// Adversarial operator calls through the public C API: outputs that overlap
// inputs in odd ways (reversed and negative-offset views, storage offsets only,
// broadcast zero-stride outputs), overlaps appearing only after rebinding, and
// executors raced across streams of two devices. Results are compared with a
// float64 reference on random non-zero data.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

// Large enough that elementwise kernels split the work across threads.
constexpr int64_t kElements = 1 << 18;

// f32 device storage with random non-zero values; `original` is what it held before the op.
class Floats {
 public:
  Floats(int64_t count, uint32_t seed) : count_(count), buffer_(static_cast<size_t>(count) * sizeof(float)) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> uniform(0.25f, 2.0f);
    original_.resize(count);
    for (float& value : original_) value = (rng() & 1) != 0 ? uniform(rng) : -uniform(rng);
    EXPECT_EQ(aclrtMemcpy(buffer_.get(), count * sizeof(float), original_.data(), count * sizeof(float),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  std::vector<float> Read() const {
    std::vector<float> values(count_);
    EXPECT_EQ(aclrtMemcpy(values.data(), count_ * sizeof(float), buffer_.get(), count_ * sizeof(float),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return values;
  }
  // A view: `address` defaults to the storage's start; offset and strides in elements.
  aclTensor* View(const Shape& shape, const Shape& strides, int64_t offset, float* address = nullptr) const {
    const int64_t storage[1] = {count_};
    return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), offset, ACL_FORMAT_ND, storage, 1,
                           address != nullptr ? address : data());
  }
  float* data() const { return static_cast<float*>(buffer_.get()); }
  double Original(int64_t index) const { return original_[static_cast<size_t>(index)]; }

 private:
  int64_t count_;
  DeviceBuffer buffer_;
  std::vector<float> original_;
};

aclScalar* Alpha(float value) { return aclCreateScalar(&value, ACL_FLOAT); }

// out = self + alpha * other, both phases, descriptors destroyed at once.
aclnnStatus Add(aclTensor* self, aclTensor* other, float alpha, aclTensor* out) {
  aclScalar* scalar = Alpha(alpha);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status = aclnnAddGetWorkspaceSize(self, other, scalar, out, &workspaceSize, &executor);
  aclDestroyTensor(self);
  aclDestroyTensor(other);
  aclDestroyTensor(out);
  aclDestroyScalar(scalar);
  if (status != ACLNN_SUCCESS) return status;
  DeviceBuffer workspace(workspaceSize > 0 ? workspaceSize : 1);
  status = aclnnAdd(workspace.get(), workspaceSize, executor, TestStream());
  if (status != ACLNN_SUCCESS) return status;
  return aclrtSynchronizeStream(TestStream());
}

// Compares got(i) with want(i) for i in [0, count), relative tolerance for f32.
void ExpectClose(int64_t count, const std::function<double(int64_t)>& got, const std::function<double(int64_t)>& want,
                 const std::string& what) {
  int mismatches = 0;
  for (int64_t i = 0; i < count; ++i) {
    const double g = got(i), w = want(i);
    if (!(std::fabs(g - w) <= 1e-6 * (1 + std::fabs(w)))) {
      if (++mismatches <= 5) ADD_FAILURE() << what << ": element " << i << " is " << g << ", expected " << w;
    }
  }
  EXPECT_EQ(mismatches, 0) << what;
}

// The overlap is only in the storage offsets: self and out have the same data
// pointer, out starts one element later.
TEST(AdversarialAliasing, OutShiftedByItsStorageOffsetOnly) {
  const int64_t n = kElements + 5;
  Floats x(n, 3), y(n, 4);
  ASSERT_EQ(Add(x.View({n - 1}, {1}, 0), y.View({n - 1}, {1}, 0), 2.0f, x.View({n - 1}, {1}, 1)), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const std::vector<float> got = x.Read();
  ExpectClose(
      n, [&](int64_t i) { return got[i]; },
      [&](int64_t i) { return i == 0 ? x.Original(0) : x.Original(i - 1) + 2 * y.Original(i - 1); },
      "x[1:] = x[:-1] + 2 y");
}

// An output that is broadcast (stride 0 on its first dimension): several
// elements of out are one memory location; each location ends up holding the
// value one of them was given, never a mixture.
TEST(AdversarialAliasing, BroadcastOutputHoldsOneOfItsValues) {
  const int64_t rows = 8, cols = kElements / 8;
  Floats x(rows * cols, 7), y(rows * cols, 8), out(cols, 9);
  ASSERT_EQ(Add(x.View({rows, cols}, {cols, 1}, 0), y.View({rows, cols}, {cols, 1}, 0), 1.0f,
                out.View({rows, cols}, {0, 1}, 0)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const std::vector<float> got = out.Read();
  int mismatches = 0;
  for (int64_t c = 0; c < cols; ++c) {
    bool some_row = false;
    for (int64_t r = 0; r < rows && !some_row; ++r) {
      some_row = got[c] == static_cast<float>(x.Original(r * cols + c) + y.Original(r * cols + c));
    }
    if (!some_row && ++mismatches <= 5) ADD_FAILURE() << "column " << c << " holds " << got[c];
  }
  EXPECT_EQ(mismatches, 0);
}

// out is the same view as self and a shifted view of other: in place for self,
// but other's elements are overwritten before they are read unless staged.
TEST(AdversarialAliasing, OutIsSelfAndOtherShiftedByOne) {
  const int64_t n = kElements + 3;
  for (const int64_t shift : {1, -1}) {
    SCOPED_TRACE(shift);
    Floats x(n, shift > 0 ? 12 : 13);
    const int64_t self_at = shift > 0 ? 0 : 1, other_at = self_at + shift;
    ASSERT_EQ(Add(x.View({n - 1}, {1}, self_at), x.View({n - 1}, {1}, other_at), 2.0f, x.View({n - 1}, {1}, self_at)),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const std::vector<float> got = x.Read();
    ExpectClose(
        n, [&](int64_t i) { return got[i]; },
        [&](int64_t i) {
          const int64_t k = i - self_at;
          return k < 0 || k >= n - 1 ? x.Original(i) : x.Original(i) + 2 * x.Original(other_at + k);
        },
        "x[a] = x[a] + 2 x[a + shift]");
  }
}

// The same Add shapes planned at once from several threads on their own
// streams, each call either with out overlapping self (shifted by one) or not:
// the plan cache hands out plans keyed by the overlap pattern, and whichever
// plan a call gets, its result is that of the inputs' values before the op.
TEST(AdversarialAliasing, OverlappingAndSeparateCallsOfOneShapeFromSeveralThreads) {
  const int64_t n = (1 << 16) + 3;
  constexpr int kThreads = 3, kCalls = 8;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
      aclrtStream stream = nullptr;
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      for (int call = 0; call < kCalls; ++call) {
        const bool overlap = ((call + t) % 2) == 0;
        Floats x(n, 100 * t + call), y(n, 100 * t + call + 50), separate(n, 7);
        aclTensor* self = x.View({n - 1}, {1}, 0);
        aclTensor* other = y.View({n - 1}, {1}, 0);
        aclTensor* out = overlap ? x.View({n - 1}, {1}, 1) : separate.View({n - 1}, {1}, 1);
        aclScalar* alpha = Alpha(2.0f);
        uint64_t workspaceSize = 0;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspaceSize, &executor), ACLNN_SUCCESS);
        aclDestroyTensor(self);
        aclDestroyTensor(other);
        aclDestroyTensor(out);
        aclDestroyScalar(alpha);
        DeviceBuffer workspace(workspaceSize > 0 ? workspaceSize : 1);
        ASSERT_EQ(aclnnAdd(workspace.get(), workspaceSize, executor, stream), ACLNN_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        const std::vector<float> got = overlap ? x.Read() : separate.Read();
        for (int64_t i = 1; i < n; ++i) {
          const double want = x.Original(i - 1) + 2 * y.Original(i - 1);
          if (!(std::fabs(got[i] - want) <= 1e-6 * (1 + std::fabs(want)))) {
            if (failures.fetch_add(1) < 5) ADD_FAILURE() << "thread " << t << " call " << call << " element " << i;
            break;
          }
        }
      }
      EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

// In-place add into a broadcast self (stride 0 over the rows): self[r, c] +=
// other[r, c] for every r writes one location `rows` times. The aliasing
// contract (src/ops/framework/overlap.h: results equal computing from the
// inputs' values before the op, as CANN computes into an intermediate) says
// each location ends up as x[c] + other[r, c] for one r. It did not: the
// guard took an output that is the same view as an input as safe in place,
// which does not hold when the view has internal overlap (several elements,
// one location), so rows raced (about a fifth of the columns held neither one
// row's sum nor the running sum of all rows). Such an output is now staged.
TEST(AdversarialAliasing, InplaceAddIntoBroadcastSelfUsesValuesFromBeforeTheOp) {
  const int64_t rows = 8, cols = kElements / 8;
  Floats x(cols, 10), y(rows * cols, 11);
  aclTensor* self = x.View({rows, cols}, {0, 1}, 0);
  aclTensor* other = y.View({rows, cols}, {cols, 1}, 0);
  aclScalar* alpha = Alpha(1.0f);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = aclnnInplaceAddGetWorkspaceSize(self, other, alpha, &workspaceSize, &executor);
  aclDestroyTensor(self);
  aclDestroyTensor(other);
  aclDestroyScalar(alpha);
  ASSERT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
  DeviceBuffer workspace(workspaceSize > 0 ? workspaceSize : 1);
  ASSERT_EQ(aclnnInplaceAdd(workspace.get(), workspaceSize, executor, TestStream()), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  const std::vector<float> got = x.Read();
  int mismatches = 0;
  for (int64_t c = 0; c < cols; ++c) {
    bool some_row = false;
    for (int64_t r = 0; r < rows && !some_row; ++r) {
      some_row = got[c] == static_cast<float>(x.Original(c) + y.Original(r * cols + c));
    }
    if (!some_row && ++mismatches <= 5) ADD_FAILURE() << "column " << c << " holds " << got[c];
  }
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace canopy_test
