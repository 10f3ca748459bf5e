// Outputs that share memory with inputs. Whatever the overlap (the same view
// for a matrix product, a shifted, transposed, broadcast or narrower-dtype view
// for an elementwise op), the result must equal computing from the inputs'
// values before the op, as CANN's compute-then-copy does. A true in-place
// elementwise op (the exact same view) must stay in place, with no workspace.
// The checks hold under executor rebinding (aclSet*TensorAddr) and plan-cache
// reuse, where phase 1 saw different addresses.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr int64_t kMebi = int64_t{1} << 20;
// Large enough that elementwise kernels split the work across threads.
constexpr int64_t kQuarterMebi = kMebi / 4;

// One device allocation that several views look into. `original` keeps the
// values the storage held before the op, for the reference.
class Storage {
 public:
  Storage(aclDataType dtype, int64_t elements, Rng& rng, Range range = {-1, 1})
      : dtype_(dtype), elements_(elements), buffer_(static_cast<size_t>(elements) * ElementBytes(dtype)) {
    original_ = RandomValues(rng, dtype, elements, range);
    Upload(original_);
  }
  void Upload(const Values& values) {
    std::vector<uint8_t> bytes(values.size() * ElementBytes(dtype_));
    for (size_t i = 0; i < values.size(); ++i) EncodeValue(values[i], dtype_, &bytes[i * ElementBytes(dtype_)]);
    ASSERT_EQ(aclrtMemcpy(buffer_.get(), bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  std::vector<uint8_t> Bytes() const {
    std::vector<uint8_t> bytes(static_cast<size_t>(elements_) * ElementBytes(dtype_));
    EXPECT_EQ(aclrtMemcpy(bytes.data(), bytes.size(), buffer_.get(), bytes.size(), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return bytes;
  }
  // Element `index` of the storage read as `dtype` (which may differ from the storage's).
  static Value At(const std::vector<uint8_t>& bytes, aclDataType dtype, int64_t index) {
    return DecodeValue(&bytes[static_cast<size_t>(index) * ElementBytes(dtype)], dtype);
  }
  Values Read() const {
    const std::vector<uint8_t> bytes = Bytes();
    Values values(static_cast<size_t>(elements_));
    for (int64_t i = 0; i < elements_; ++i) values[i] = At(bytes, dtype_, i);
    return values;
  }
  // A descriptor of a view into this storage, reinterpreted as `dtype`.
  aclTensor* View(const Shape& shape, const Shape& strides, int64_t offset, aclDataType dtype = ACL_DT_UNDEFINED,
                  void* address = nullptr) const {
    if (dtype == ACL_DT_UNDEFINED) dtype = dtype_;
    const int64_t storage[1] = {elements_ * static_cast<int64_t>(ElementBytes(dtype_)) /
                                static_cast<int64_t>(ElementBytes(dtype))};
    return aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), offset, ACL_FORMAT_ND, storage, 1,
                           address != nullptr ? address : buffer_.get());
  }
  aclTensor* Contiguous(const Shape& shape, int64_t offset = 0) const {
    return View(shape, ContiguousStrides(shape), offset);
  }
  const Values& original() const { return original_; }
  double Original(int64_t index) const { return original_[static_cast<size_t>(index)].real(); }
  void* data() const { return buffer_.get(); }

 private:
  aclDataType dtype_;
  int64_t elements_;
  DeviceBuffer buffer_;
  Values original_;
};

using Phase1Call = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;

// Phase 1, descriptors destroyed at once (as clients do), phase 2, synchronise.
void RunOnce(const Phase1Call& phase1, Phase2 phase2, std::vector<aclTensor*> descriptors,
             uint64_t* workspaceOut = nullptr) {
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = phase1(&workspaceSize, &executor);
  for (aclTensor* t : descriptors) aclDestroyTensor(t);
  ASSERT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
  if (workspaceOut != nullptr) *workspaceOut = workspaceSize;
  void* workspace = nullptr;
  if (workspaceSize > 0) {
    ASSERT_EQ(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ASSERT_EQ(phase2(workspace, workspaceSize, executor, TestStream()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  if (workspace != nullptr) aclrtFree(workspace);
}

// Compares `got(i)` for i in [0, count) with `want(i)` within `tolerance * (1 + |want|)`.
void ExpectClose(int64_t count, const std::function<double(int64_t)>& got, const std::function<double(int64_t)>& want,
                 double tolerance, const std::string& what) {
  int mismatches = 0;
  for (int64_t i = 0; i < count; ++i) {
    const double g = got(i);
    const double w = want(i);
    if (!(std::fabs(g - w) <= tolerance * (1 + std::fabs(w)))) {
      if (++mismatches <= 5) ADD_FAILURE() << what << ": element " << i << " is " << g << ", expected " << w;
    }
  }
  EXPECT_EQ(mismatches, 0) << what;
}

// sum_k a(i, k) * b(k, j) in float64.
double Dot(const std::function<double(int64_t, int64_t)>& a, const std::function<double(int64_t, int64_t)>& b,
           int64_t i, int64_t j, int64_t k) {
  double sum = 0;
  for (int64_t p = 0; p < k; ++p) sum += a(i, p) * b(p, j);
  return sum;
}

const double kProductTolerance = 1e-5;

// alpha = 1 for Add and InplaceAdd (the argument is required), made once.
aclScalar* One() {
  static const float one = 1.0f;
  static aclScalar* scalar = aclCreateScalar(const_cast<float*>(&one), ACL_FLOAT);
  return scalar;
}

// ---- Matrix products ------------------------------------------------------------------------------

class MatmulAliasing : public ::testing::TestWithParam<int64_t> {};

// Mm with out the same memory and view as self: a separate descriptor and the very same one.
TEST_P(MatmulAliasing, MmOutIsSelf) {
  const int64_t n = GetParam();
  Rng rng = Rng::ForCurrentTest();
  for (bool sameDescriptor : {false, true}) {
    SCOPED_TRACE(sameDescriptor ? "same descriptor" : "separate descriptor");
    Storage a(ACL_FLOAT, n * n, rng), b(ACL_FLOAT, n * n, rng);
    aclTensor* self = a.Contiguous({n, n});
    aclTensor* mat2 = b.Contiguous({n, n});
    aclTensor* out = sameDescriptor ? self : a.Contiguous({n, n});
    std::vector<aclTensor*> descriptors = {self, mat2};
    if (!sameDescriptor) descriptors.push_back(out);
    RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnMmGetWorkspaceSize(self, mat2, out, 0, w, e); }, aclnnMm,
            descriptors);
    const Values got = a.Read();
    ExpectClose(
        n * n, [&](int64_t i) { return got[i].real(); },
        [&](int64_t i) {
          return Dot([&](int64_t r, int64_t c) { return a.Original(r * n + c); },
                     [&](int64_t r, int64_t c) { return b.Original(r * n + c); }, i / n, i % n, n);
        },
        kProductTolerance * static_cast<double>(n), "Mm out=self");
  }
}

// Matmul with out the same view as mat2, and with out a transposed view of mat2.
TEST_P(MatmulAliasing, MatmulOutIsMat2OrItsTranspose) {
  const int64_t n = GetParam();
  Rng rng = Rng::ForCurrentTest();
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "out = mat2^T" : "out = mat2");
    Storage a(ACL_FLOAT, n * n, rng), b(ACL_FLOAT, n * n, rng);
    aclTensor* self = a.Contiguous({n, n});
    aclTensor* mat2 = b.Contiguous({n, n});
    aclTensor* out = transposed ? b.View({n, n}, {1, n}, 0) : b.Contiguous({n, n});
    RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(self, mat2, out, 0, w, e); },
            aclnnMatmul, {self, mat2, out});
    const Values got = b.Read();
    ExpectClose(
        n * n,
        [&](int64_t i) {
          const int64_t r = i / n, c = i % n;
          return got[transposed ? c * n + r : i].real();
        },
        [&](int64_t i) {
          return Dot([&](int64_t r, int64_t c) { return a.Original(r * n + c); },
                     [&](int64_t r, int64_t c) { return b.Original(r * n + c); }, i / n, i % n, n);
        },
        kProductTolerance * static_cast<double>(n), "Matmul out=mat2");
  }
}

// BatchMatMul whose out starts one matrix row into self's memory.
TEST_P(MatmulAliasing, BatchMatMulOutShiftedIntoSelf) {
  const int64_t n = GetParam();
  const int64_t batch = 3;
  Rng rng = Rng::ForCurrentTest();
  Storage a(ACL_FLOAT, batch * n * n + n, rng), b(ACL_FLOAT, batch * n * n, rng);
  aclTensor* self = a.Contiguous({batch, n, n});
  aclTensor* mat2 = b.Contiguous({batch, n, n});
  aclTensor* out = a.Contiguous({batch, n, n}, n);
  RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnBatchMatMulGetWorkspaceSize(self, mat2, out, 0, w, e); },
          aclnnBatchMatMul, {self, mat2, out});
  const Values got = a.Read();
  ExpectClose(
      batch * n * n, [&](int64_t i) { return got[n + i].real(); },
      [&](int64_t i) {
        const int64_t m = i / (n * n), r = (i / n) % n, c = i % n;
        return Dot([&](int64_t y, int64_t x) { return a.Original(m * n * n + y * n + x); },
                   [&](int64_t y, int64_t x) { return b.Original(m * n * n + y * n + x); }, r, c, n);
      },
      kProductTolerance * static_cast<double>(n), "BatchMatMul out=self[+1 row]");
}

// Addmm with out the same view as mat1, and InplaceAddmm whose mat2 is selfRef's memory.
TEST_P(MatmulAliasing, AddmmOutIsMat1AndInplaceAddmmMat2IsSelf) {
  const int64_t n = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const double beta = 0.5, alpha = 1.5;
  const float betaValue = static_cast<float>(beta), alphaValue = static_cast<float>(alpha);
  {
    Storage s(ACL_FLOAT, n * n, rng), m1(ACL_FLOAT, n * n, rng), m2(ACL_FLOAT, n * n, rng);
    aclTensor* self = s.Contiguous({n, n});
    aclTensor* mat1 = m1.Contiguous({n, n});
    aclTensor* mat2 = m2.Contiguous({n, n});
    aclTensor* out = m1.Contiguous({n, n});
    aclScalar* betaScalar = aclCreateScalar(const_cast<float*>(&betaValue), ACL_FLOAT);
    aclScalar* alphaScalar = aclCreateScalar(const_cast<float*>(&alphaValue), ACL_FLOAT);
    RunOnce(
        [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnAddmmGetWorkspaceSize(self, mat1, mat2, betaScalar, alphaScalar, out, 0, w, e);
        },
        aclnnAddmm, {self, mat1, mat2, out});
    aclDestroyScalar(betaScalar);
    aclDestroyScalar(alphaScalar);
    const Values got = m1.Read();
    ExpectClose(
        n * n, [&](int64_t i) { return got[i].real(); },
        [&](int64_t i) {
          return beta * s.Original(i) + alpha * Dot([&](int64_t r, int64_t c) { return m1.Original(r * n + c); },
                                                    [&](int64_t r, int64_t c) { return m2.Original(r * n + c); }, i / n,
                                                    i % n, n);
        },
        kProductTolerance * static_cast<double>(n), "Addmm out=mat1");
  }
  {
    Storage s(ACL_FLOAT, n * n, rng), m1(ACL_FLOAT, n * n, rng);
    aclTensor* selfRef = s.Contiguous({n, n});
    aclTensor* mat1 = m1.Contiguous({n, n});
    aclTensor* mat2 = s.Contiguous({n, n});
    aclScalar* betaScalar = aclCreateScalar(const_cast<float*>(&betaValue), ACL_FLOAT);
    aclScalar* alphaScalar = aclCreateScalar(const_cast<float*>(&alphaValue), ACL_FLOAT);
    RunOnce(
        [&](uint64_t* w, aclOpExecutor** e) {
          return aclnnInplaceAddmmGetWorkspaceSize(selfRef, mat1, mat2, betaScalar, alphaScalar, 0, w, e);
        },
        aclnnInplaceAddmm, {selfRef, mat1, mat2});
    aclDestroyScalar(betaScalar);
    aclDestroyScalar(alphaScalar);
    const Values got = s.Read();
    ExpectClose(
        n * n, [&](int64_t i) { return got[i].real(); },
        [&](int64_t i) {
          return beta * s.Original(i) + alpha * Dot([&](int64_t r, int64_t c) { return m1.Original(r * n + c); },
                                                    [&](int64_t r, int64_t c) { return s.Original(r * n + c); }, i / n,
                                                    i % n, n);
        },
        kProductTolerance * static_cast<double>(n), "InplaceAddmm mat2=selfRef");
  }
}

// InplaceAddmm (selfRef is both the bias and the output, the same view) stays in
// place: the product step declares that it reads mat1 and mat2 and accumulates
// onto out, so only the bias copy touches selfRef and no staging is booked.
TEST_P(MatmulAliasing, InplaceAddmmSameViewBooksNoStaging) {
  const int64_t n = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const double beta = 0.5, alpha = 1.5;
  const float betaValue = static_cast<float>(beta), alphaValue = static_cast<float>(alpha);
  Storage s(ACL_FLOAT, n * n, rng), m1(ACL_FLOAT, n * n, rng), m2(ACL_FLOAT, n * n, rng);
  aclTensor* selfRef = s.Contiguous({n, n});
  aclTensor* mat1 = m1.Contiguous({n, n});
  aclTensor* mat2 = m2.Contiguous({n, n});
  aclScalar* betaScalar = aclCreateScalar(const_cast<float*>(&betaValue), ACL_FLOAT);
  aclScalar* alphaScalar = aclCreateScalar(const_cast<float*>(&alphaValue), ACL_FLOAT);
  // What the same product books without aliasing (oneDNN's or the skinny kernel's scratch).
  Storage separate(ACL_FLOAT, n * n, rng);
  aclTensor* self = s.Contiguous({n, n});
  aclTensor* out = separate.Contiguous({n, n});
  aclTensor* mat1Again = m1.Contiguous({n, n});
  aclTensor* mat2Again = m2.Contiguous({n, n});
  uint64_t unaliasedWorkspace = 0;
  RunOnce(
      [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnAddmmGetWorkspaceSize(self, mat1Again, mat2Again, betaScalar, alphaScalar, out, 0, w, e);
      },
      aclnnAddmm, {self, mat1Again, mat2Again, out}, &unaliasedWorkspace);
  uint64_t workspaceSize = 0;
  RunOnce(
      [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceAddmmGetWorkspaceSize(selfRef, mat1, mat2, betaScalar, alphaScalar, 0, w, e);
      },
      aclnnInplaceAddmm, {selfRef, mat1, mat2}, &workspaceSize);
  aclDestroyScalar(betaScalar);
  aclDestroyScalar(alphaScalar);
  EXPECT_EQ(workspaceSize, unaliasedWorkspace) << "selfRef is staged although only the bias copy reads it";
  const Values got = s.Read();
  ExpectClose(
      n * n, [&](int64_t i) { return got[i].real(); },
      [&](int64_t i) {
        return beta * s.Original(i) + alpha * Dot([&](int64_t r, int64_t c) { return m1.Original(r * n + c); },
                                                  [&](int64_t r, int64_t c) { return m2.Original(r * n + c); }, i / n,
                                                  i % n, n);
      },
      kProductTolerance * static_cast<double>(n), "InplaceAddmm in place");
}

INSTANTIATE_TEST_SUITE_P(Sizes, MatmulAliasing, ::testing::Values(int64_t{8}, int64_t{33}, int64_t{128}),
                         [](const ::testing::TestParamInfo<int64_t>& info) {
                           std::ostringstream name;
                           name << "n" << info.param;
                           return name.str();
                         });

// ---- Elementwise ops ------------------------------------------------------------------------------

// x[1:].copy_(x[:-1]) over 1 Mi elements: x becomes x[0], x[0], x[1], ...
TEST(ElementwiseAliasing, InplaceCopyShiftedByOne) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = kMebi;
  Storage x(ACL_FLOAT, n, rng);
  aclTensor* dst = x.Contiguous({n - 1}, 1);
  aclTensor* src = x.Contiguous({n - 1}, 0);
  RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceCopyGetWorkspaceSize(dst, src, w, e); },
          aclnnInplaceCopy, {dst, src});
  const Values got = x.Read();
  ExpectClose(
      n, [&](int64_t i) { return got[i].real(); }, [&](int64_t i) { return x.Original(i == 0 ? 0 : i - 1); }, 0,
      "x[1:] = x[:-1]");
}

// x.copy_(x.T) for a square x: every pair of mirrored elements swaps, none is read after its overwrite.
TEST(ElementwiseAliasing, InplaceCopyFromOwnTranspose) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = 97;
  Storage x(ACL_FLOAT, n * n, rng);
  aclTensor* dst = x.Contiguous({n, n});
  aclTensor* src = x.View({n, n}, {1, n}, 0);
  RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceCopyGetWorkspaceSize(dst, src, w, e); },
          aclnnInplaceCopy, {dst, src});
  const Values got = x.Read();
  ExpectClose(
      n * n, [&](int64_t i) { return got[i].real(); }, [&](int64_t i) { return x.Original((i % n) * n + i / n); }, 0,
      "x = x^T");
}

// Cast of 1 Mi f32 elements to f16 into the memory self occupies: from its
// start (threads race ahead of each other) and from its middle (even one
// thread overwrites elements it has yet to read).
TEST(ElementwiseAliasing, InplaceCastF32ToF16SharesSelfMemory) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = kMebi;
  for (int64_t outOffset : {int64_t{0}, n}) {  // in f16 elements
    SCOPED_TRACE("out at f16 element " + std::to_string(outOffset));
    Storage x(ACL_FLOAT, n, rng, {-100, 100});
    aclTensor* self = x.Contiguous({n});
    aclTensor* out = x.View({n}, {1}, outOffset, ACL_FLOAT16);
    RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnCastGetWorkspaceSize(self, ACL_FLOAT16, out, w, e); },
            aclnnCast, {self, out});
    const std::vector<uint8_t> bytes = x.Bytes();
    ExpectClose(
        n, [&](int64_t i) { return Storage::At(bytes, ACL_FLOAT16, outOffset + i).real(); },
        [&](int64_t i) { return HalfToDouble(DoubleToHalf(x.Original(i))); }, 0, "cast f32 -> f16 in place");
  }
}

// x[1:] += x[:-1] (InplaceAdd) and out=x[1:] of Add(x[:-1], y): no running sum. f32 and f16 (fused loop).
TEST(ElementwiseAliasing, AddIntoShiftedView) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = kQuarterMebi + 3;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    SCOPED_TRACE(Name(dtype));
    const double tolerance = dtype == ACL_FLOAT ? 1e-6 : 1e-3;
    {
      Storage x(dtype, n, rng);
      aclTensor* selfRef = x.Contiguous({n - 1}, 1);
      aclTensor* other = x.Contiguous({n - 1}, 0);
      RunOnce(
          [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceAddGetWorkspaceSize(selfRef, other, One(), w, e); },
          aclnnInplaceAdd, {selfRef, other});
      const Values got = x.Read();
      ExpectClose(
          n, [&](int64_t i) { return got[i].real(); },
          [&](int64_t i) { return i == 0 ? x.Original(0) : x.Original(i) + x.Original(i - 1); }, tolerance,
          "x[1:] += x[:-1]");
    }
    {
      Storage x(dtype, n, rng), y(dtype, n - 1, rng);
      aclTensor* self = x.Contiguous({n - 1}, 0);
      aclTensor* other = y.Contiguous({n - 1});
      aclTensor* out = x.Contiguous({n - 1}, 1);
      const float two = 2.0f;
      aclScalar* alpha = aclCreateScalar(const_cast<float*>(&two), ACL_FLOAT);
      RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(self, other, alpha, out, w, e); },
              aclnnAdd, {self, other, out});
      aclDestroyScalar(alpha);
      const Values got = x.Read();
      ExpectClose(
          n, [&](int64_t i) { return got[i].real(); },
          [&](int64_t i) { return i == 0 ? x.Original(0) : x.Original(i - 1) + 2 * y.Original(i - 1); }, tolerance,
          "x[1:] = x[:-1] + 2 y");
    }
  }
}

// out = self + other where out is self transposed, and where self is a row of out broadcast over it.
TEST(ElementwiseAliasing, AddIntoTransposedAndFromBroadcastView) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = 67;
  {
    Storage x(ACL_FLOAT, n * n, rng), y(ACL_FLOAT, n * n, rng);
    aclTensor* self = x.Contiguous({n, n});
    aclTensor* other = y.Contiguous({n, n});
    aclTensor* out = x.View({n, n}, {1, n}, 0);
    RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(self, other, One(), out, w, e); },
            aclnnAdd, {self, other, out});
    const Values got = x.Read();
    // out[r][c] lives at c * n + r.
    ExpectClose(
        n * n, [&](int64_t i) { return got[(i % n) * n + i / n].real(); },
        [&](int64_t i) { return x.Original(i) + y.Original(i); }, 1e-6, "x^T = x + y");
  }
  {
    Storage x(ACL_FLOAT, n * n, rng), y(ACL_FLOAT, n * n, rng);
    aclTensor* self = x.View({1, n}, {n, 1}, 0);  // row 0 of x, broadcast over the rows
    aclTensor* other = y.Contiguous({n, n});
    aclTensor* out = x.Contiguous({n, n});
    RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(self, other, One(), out, w, e); },
            aclnnAdd, {self, other, out});
    const Values got = x.Read();
    ExpectClose(
        n * n, [&](int64_t i) { return got[i].real(); }, [&](int64_t i) { return x.Original(i % n) + y.Original(i); },
        1e-6, "x = x[0] + y");
  }
  {
    // Stepped views: out is every second element, self every second element from the next one.
    const int64_t m = kQuarterMebi;
    Storage x(ACL_FLOAT, 2 * m + 2, rng), y(ACL_FLOAT, m, rng);
    aclTensor* self = x.View({m}, {2}, 0);
    aclTensor* other = y.Contiguous({m});
    aclTensor* out = x.View({m}, {2}, 2);
    RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(self, other, One(), out, w, e); },
            aclnnAdd, {self, other, out});
    const Values got = x.Read();
    ExpectClose(
        m, [&](int64_t i) { return got[2 * i + 2].real(); },
        [&](int64_t i) { return x.Original(2 * i) + y.Original(i); }, 1e-6, "x[2::2] = x[0:-2:2] + y");
  }
}

// The exact same view is a true in-place op: it needs no staging and books no workspace.
TEST(ElementwiseAliasing, SameViewStaysInPlace) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = 4099;
  Storage x(ACL_FLOAT, n, rng), y(ACL_FLOAT, n, rng);
  {
    aclTensor* selfRef = x.Contiguous({n});
    aclTensor* other = y.Contiguous({n});
    uint64_t workspace = 1;
    RunOnce(
        [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceAddGetWorkspaceSize(selfRef, other, One(), w, e); },
        aclnnInplaceAdd, {selfRef, other}, &workspace);
    EXPECT_EQ(workspace, 0u);
  }
  {
    aclTensor* self = x.Contiguous({n});
    aclTensor* other = y.Contiguous({n});
    aclTensor* out = x.Contiguous({n});  // another descriptor, the same view
    uint64_t workspace = 1;
    RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(self, other, One(), out, w, e); },
            aclnnAdd, {self, other, out}, &workspace);
    EXPECT_EQ(workspace, 0u);
  }
  const Values got = x.Read();
  ExpectClose(
      n, [&](int64_t i) { return got[i].real(); }, [&](int64_t i) { return x.Original(i) + 2 * y.Original(i); }, 1e-6,
      "x += y twice");
}

// ---- Rebinding and the plan cache ----------------------------------------------------------------

// A repeatable Add planned on separate buffers, then rebound so that out is x[1:] and self x[:-1].
TEST(AliasingRebinding, RepeatableExecutorReboundOntoOverlap) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = kQuarterMebi;
  Storage x(ACL_FLOAT, n + 1, rng), y(ACL_FLOAT, n, rng), elsewhere(ACL_FLOAT, n + 1, rng);
  aclTensor* self = x.Contiguous({n}, 0);
  aclTensor* other = y.Contiguous({n});
  aclTensor* out = elsewhere.Contiguous({n}, 1);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(self, other, One(), out, &workspaceSize, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  void* workspace = nullptr;
  if (workspaceSize > 0) {
    ASSERT_EQ(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  // First run as planned: no overlap.
  ASSERT_EQ(aclnnAdd(workspace, workspaceSize, executor, TestStream()), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  const Values planned = elsewhere.Read();
  ExpectClose(
      n, [&](int64_t i) { return planned[i + 1].real(); }, [&](int64_t i) { return x.Original(i) + y.Original(i); },
      1e-6, "as planned");
  // Then out rebound onto x's memory.
  ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, out, x.data()), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(workspace, workspaceSize, executor, TestStream()), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  const Values got = x.Read();
  ExpectClose(
      n + 1, [&](int64_t i) { return got[i].real(); },
      [&](int64_t i) { return i == 0 ? x.Original(0) : x.Original(i - 1) + y.Original(i - 1); }, 1e-6,
      "rebound x[1:] = x[:-1] + y");
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  for (aclTensor* t : {self, other, out}) aclDestroyTensor(t);
  if (workspace != nullptr) aclrtFree(workspace);
}

// A repeatable Add planned with out = x[1:] over self = x[:-1], run, then rebound elsewhere.
TEST(AliasingRebinding, RepeatableExecutorReboundOffOverlap) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = 4 * 1024 + 5;
  Storage x(ACL_FLOAT, n + 1, rng), y(ACL_FLOAT, n, rng), elsewhere(ACL_FLOAT, n + 1, rng);
  aclTensor* self = x.Contiguous({n}, 0);
  aclTensor* other = y.Contiguous({n});
  aclTensor* out = x.Contiguous({n}, 1);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(self, other, One(), out, &workspaceSize, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  void* workspace = nullptr;
  if (workspaceSize > 0) {
    ASSERT_EQ(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ASSERT_EQ(aclnnAdd(workspace, workspaceSize, executor, TestStream()), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  const Values first = x.Read();
  ExpectClose(
      n + 1, [&](int64_t i) { return first[i].real(); },
      [&](int64_t i) { return i == 0 ? x.Original(0) : x.Original(i - 1) + y.Original(i - 1); }, 1e-6,
      "planned x[1:] = x[:-1] + y");
  ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, out, elsewhere.data()), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(workspace, workspaceSize, executor, TestStream()), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  const Values second = elsewhere.Read();
  ExpectClose(
      n, [&](int64_t i) { return second[i + 1].real(); }, [&](int64_t i) { return first[i].real() + y.Original(i); },
      1e-6, "rebound elsewhere[1:] = x[:-1] + y");
  EXPECT_EQ(second[0].real(), elsewhere.Original(0));
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  for (aclTensor* t : {self, other, out}) aclDestroyTensor(t);
  if (workspace != nullptr) aclrtFree(workspace);
}

// Planned with no addresses at all, then bound: self = x[:-1], other = y, out = x[1:].
TEST(AliasingRebinding, PlannedUnboundThenBoundOntoOverlap) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = kQuarterMebi;
  Storage x(ACL_FLOAT, n + 1, rng), y(ACL_FLOAT, n, rng);
  const Shape shape = {n}, strides = {1}, storage = {n + 1};
  aclTensor* self =
      aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, storage.data(), 1, nullptr);
  aclTensor* other =
      aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, nullptr);
  aclTensor* out =
      aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 1, ACL_FORMAT_ND, storage.data(), 1, nullptr);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(self, other, One(), out, &workspaceSize, &executor), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(workspaceSize, 0u);  // nothing overlaps yet
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetInputTensorAddr(executor, 0, self, x.data()), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetInputTensorAddr(executor, 1, other, y.data()), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, out, x.data()), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, 0, executor, TestStream()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS) << aclGetRecentErrMsg();
  const Values got = x.Read();
  ExpectClose(
      n + 1, [&](int64_t i) { return got[i].real(); },
      [&](int64_t i) { return i == 0 ? x.Original(0) : x.Original(i - 1) + y.Original(i - 1); }, 1e-6,
      "bound x[1:] = x[:-1] + y");
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  for (aclTensor* t : {self, other, out}) aclDestroyTensor(t);
}

// A repeatable Mm rebound so that out is self's memory.
TEST(AliasingRebinding, RepeatableMmReboundOntoSelf) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = 128;
  Storage a(ACL_FLOAT, n * n, rng), b(ACL_FLOAT, n * n, rng), c(ACL_FLOAT, n * n, rng);
  aclTensor* self = a.Contiguous({n, n});
  aclTensor* mat2 = b.Contiguous({n, n});
  aclTensor* out = c.Contiguous({n, n});
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnMmGetWorkspaceSize(self, mat2, out, 0, &workspaceSize, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  void* workspace = nullptr;
  if (workspaceSize > 0) {
    ASSERT_EQ(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, out, a.data()), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnMm(workspace, workspaceSize, executor, TestStream()), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  const Values got = a.Read();
  ExpectClose(
      n * n, [&](int64_t i) { return got[i].real(); },
      [&](int64_t i) {
        return Dot([&](int64_t r, int64_t k) { return a.Original(r * n + k); },
                   [&](int64_t k, int64_t cc) { return b.Original(k * n + cc); }, i / n, i % n, n);
      },
      kProductTolerance * static_cast<double>(n), "rebound Mm out=self");
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  for (aclTensor* t : {self, mat2, out}) aclDestroyTensor(t);
  if (workspace != nullptr) aclrtFree(workspace);
}

// The same shapes, strides and offsets twice: planned without overlap, then
// called with out overlapping self (a plan-cache hit for the key without addresses).
TEST(AliasingRebinding, PlanCacheReuseWithOverlap) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = kQuarterMebi;
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round == 0 ? "separate buffers" : "overlapping");
    Storage x(ACL_FLOAT, n + 1, rng), y(ACL_FLOAT, n, rng), elsewhere(ACL_FLOAT, n + 1, rng);
    const Storage& target = round == 0 ? elsewhere : x;
    aclTensor* self = x.Contiguous({n}, 0);
    aclTensor* other = y.Contiguous({n});
    aclTensor* out = target.Contiguous({n}, 1);
    RunOnce([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(self, other, One(), out, w, e); },
            aclnnAdd, {self, other, out});
    const Values got = target.Read();
    ExpectClose(
        n, [&](int64_t i) { return got[i + 1].real(); }, [&](int64_t i) { return x.Original(i) + y.Original(i); }, 1e-6,
        "out[1:] = x[:-1] + y");
  }
}

}  // namespace
}  // namespace canopy_test
