// Adversarial calls of the pointwise, special-function, gated and loss ops
// added with the pointwise engine's binary table (Atan2 ... Logit): integer
// extremes (INT64_MIN, shift counts at and past the width), values past 2^53,
// outputs overlapping inputs (transposed, shifted, the threshold inside out),
// plan-cache reuse with a different overlap, rank 0 and rank 8, empty tensors,
// special values, and calls from two streams at once. Everything goes through
// the public C API and is compared with a reference computed here (exact
// integers in __int128, floats in double).
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_relu.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_angle_v2.h"
#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_chunk_cat.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_digamma.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_erfinv.h"
#include "aclnnop/aclnn_fatrelu_mul.h"
#include "aclnnop/aclnn_fill_diagonal.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_foreach_add_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_mul_scalar_list.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_gelu_mul.h"
#include "aclnnop/aclnn_glu.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_heaviside.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_isclose.h"
#include "aclnnop/aclnn_kl_div.h"
#include "aclnnop/aclnn_kthvalue.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_left_shift.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_lgamma.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_median.h"
#include "aclnnop/aclnn_moe_token_permute.h"
#include "aclnnop/aclnn_moe_token_unpermute.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_nonzero.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_replication_pad1d.h"
#include "aclnnop/aclnn_right_shift.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_shrink.h"
#include "aclnnop/aclnn_signbit.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclnnop/aclnn_upsample_linear_1d.h"
#include "aclnnop/aclnn_upsample_nearest_2d_v2.h"
#include "aclnnop/aclnn_upsample_nearest_exact2d.h"
#include "aclnnop/aclnn_upsample_trilinear_3d.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"
#include "canopy/canopy_runtime.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Device storage of host type T; views into it are made on demand.
template <typename T>
class Buf {
 public:
  explicit Buf(std::vector<T> host) : host_(std::move(host)), buffer_(std::max<size_t>(host_.size(), 1) * sizeof(T)) {
    if (!host_.empty()) {
      EXPECT_EQ(aclrtMemcpy(buffer_.get(), host_.size() * sizeof(T), host_.data(), host_.size() * sizeof(T),
                            ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
    }
  }
  aclTensor* View(aclDataType dtype, const Shape& shape, const Shape& strides, int64_t offset = 0,
                  aclFormat format = ACL_FORMAT_ND) const {
    const int64_t storage[1] = {static_cast<int64_t>(host_.size())};
    return aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), offset, format, storage, 1,
                           buffer_.get());
  }
  aclTensor* Contiguous(aclDataType dtype, const Shape& shape, int64_t offset = 0,
                        aclFormat format = ACL_FORMAT_ND) const {
    return View(dtype, shape, ContiguousStrides(shape), offset, format);
  }
  std::vector<T> Read() const {
    std::vector<T> values(host_.size());
    if (!values.empty()) {
      EXPECT_EQ(aclrtMemcpy(values.data(), values.size() * sizeof(T), buffer_.get(), values.size() * sizeof(T),
                            ACL_MEMCPY_DEVICE_TO_HOST),
                ACL_SUCCESS);
    }
    return values;
  }
  const std::vector<T>& host() const { return host_; }

 private:
  std::vector<T> host_;
  DeviceBuffer buffer_;
};

using Call = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;

// Phase 1, descriptors destroyed at once (as clients do), phase 2 on `stream`, synchronise.
aclnnStatus RunCall(const Call& phase1, Phase2 phase2, const std::vector<aclTensor*>& descriptors,
                    aclrtStream stream = nullptr) {
  if (stream == nullptr) stream = TestStream();
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = phase1(&workspaceSize, &executor);
  for (aclTensor* t : descriptors) aclDestroyTensor(t);
  if (status != ACLNN_SUCCESS) return status;
  DeviceBuffer workspace(workspaceSize > 0 ? workspaceSize : 1);
  const aclnnStatus run = phase2(workspace.get(), workspaceSize, executor, stream);
  if (run != ACLNN_SUCCESS) return run;
  return aclrtSynchronizeStream(stream);
}

std::vector<float> RandomFloats(int64_t n, uint32_t seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(lo, hi);
  std::vector<float> values(static_cast<size_t>(n));
  for (float& v : values) v = uniform(rng);
  return values;
}

// got[i] against want[i]: NaN only matches NaN, infinities themselves, else within tol * (1 + |want|).
void ExpectValues(const std::vector<double>& got, const std::vector<double>& want, double tol,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int mismatches = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], w = want[i];
    const bool ok = std::isnan(w)   ? std::isnan(g)
                    : std::isinf(w) ? g == w
                                    : std::fabs(g - w) <= tol * (1 + std::fabs(w));
    if (!ok && ++mismatches <= 5) ADD_FAILURE() << what << ": element " << i << " is " << g << ", expected " << w;
  }
  EXPECT_EQ(mismatches, 0) << what;
}

template <typename T>
std::vector<double> AsDoubles(const std::vector<T>& values) {
  return std::vector<double>(values.begin(), values.end());
}

// One call of a (self, other, out) op on 1-D tensors: `a` and `b` of dtype `in`, out of dtype `outDtype`.
using BinaryPhase1 = aclnnStatus (*)(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
template <typename In, typename Out>
std::vector<Out> Binary(BinaryPhase1 phase1, Phase2 phase2, aclDataType in, const std::vector<In>& a,
                        const std::vector<In>& b, aclDataType outDtype) {
  Buf<In> x(a), y(b);
  Buf<Out> out(std::vector<Out>(a.size(), Out(9)));
  aclTensor *s = x.Contiguous(in, {static_cast<int64_t>(a.size())}),
            *o = y.Contiguous(in, {static_cast<int64_t>(b.size())}),
            *d = out.Contiguous(outDtype, {static_cast<int64_t>(a.size())});
  EXPECT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return phase1(s, o, d, w, e); }, phase2, {s, o, d}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  return out.Read();
}

double Sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// ---- Integer extremes ---------------------------------------------------------------------------

// Python's floor division and modulo, exact (CANN's documented integer rules:
// a zero divisor gives 0 for FloorDivide and self for Remainder, MIN // -1 wraps).
int64_t FloorDivRef(int64_t a, int64_t b) {
  if (b == 0) return 0;
  const __int128 q = static_cast<__int128>(a) / b, r = static_cast<__int128>(a) % b;
  const __int128 floored = (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
  return static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(floored)));
}
int64_t RemainderRef(int64_t a, int64_t b) {
  if (b == 0) return a;
  __int128 r = static_cast<__int128>(a) % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return static_cast<int64_t>(r);
}

TEST(AdversarialNewOps, RemainderAndFloorDivideAtInt64Extremes) {
  const std::vector<int64_t> a = {kMin64, kMin64, 7, -7, 7, -7, kMax64, 5, kMin64, -1, kMax64, kMin64 + 1};
  const std::vector<int64_t> b = {-1, 0, 2, 2, -2, -2, kMin64, 0, kMax64, kMin64, -1, kMin64};
  std::vector<int64_t> wantRem, wantDiv;
  for (size_t i = 0; i < a.size(); ++i) {
    wantRem.push_back(RemainderRef(a[i], b[i]));
    wantDiv.push_back(FloorDivRef(a[i], b[i]));
  }
  EXPECT_EQ((Binary<int64_t, int64_t>(aclnnRemainderTensorTensorGetWorkspaceSize, aclnnRemainderTensorTensor, ACL_INT64,
                                      a, b, ACL_INT64)),
            wantRem);
  EXPECT_EQ((Binary<int64_t, int64_t>(aclnnFloorDivideGetWorkspaceSize, aclnnFloorDivide, ACL_INT64, a, b, ACL_INT64)),
            wantDiv);
  // INT32: MIN // -1 wraps in INT32, not in the int64 the engine computes in.
  EXPECT_EQ((Binary<int32_t, int32_t>(aclnnFloorDivideGetWorkspaceSize, aclnnFloorDivide, ACL_INT32,
                                      {INT32_MIN, INT32_MIN, -7, 9}, {-1, 0, 2, -4}, ACL_INT32)),
            (std::vector<int32_t>{INT32_MIN, 0, -4, -3}));
}

// Left: a count outside [0, width) gives 0; right: the count clamps into [0, width - 1] (docs/ops.md).
TEST(AdversarialNewOps, ShiftCountsAtAndPastTheWidthOnS64AndU64) {
  EXPECT_EQ((Binary<int64_t, int64_t>(aclnnLeftShiftGetWorkspaceSize, aclnnLeftShift, ACL_INT64,
                                      {1, 1, 1, -1, 5, kMin64, 3}, {63, 64, -1, 62, 0, 1, 65}, ACL_INT64)),
            (std::vector<int64_t>{kMin64, 0, 0, -(int64_t{1} << 62), 5, 0, 0}));
  EXPECT_EQ((Binary<int64_t, int64_t>(aclnnRightShiftGetWorkspaceSize, aclnnRightShift, ACL_INT64,
                                      {kMin64, kMin64, kMin64, 8, kMax64, -9}, {63, 64, -1, 1, 1000, 2}, ACL_INT64)),
            (std::vector<int64_t>{-1, -1, kMin64, 4, 0, -3}));
  const uint64_t top = uint64_t{1} << 63, all = ~uint64_t{0};
  EXPECT_EQ((Binary<uint64_t, uint64_t>(aclnnRightShiftGetWorkspaceSize, aclnnRightShift, ACL_UINT64,
                                        {top, all, top, all}, {63, 64, 1000, all}, ACL_UINT64)),
            (std::vector<uint64_t>{1, 1, 1, 1}));
  EXPECT_EQ((Binary<uint64_t, uint64_t>(aclnnLeftShiftGetWorkspaceSize, aclnnLeftShift, ACL_UINT64, {1, 1, 3, all},
                                        {63, 64, 0, all}, ACL_UINT64)),
            (std::vector<uint64_t>{top, 0, 3, 0}));
}

// x rounded half to even to a multiple of m, exact.
int64_t RoundToMultipleRef(int64_t x, int64_t m) {
  __int128 q = static_cast<__int128>(x) / m, r = static_cast<__int128>(x) % m;
  if (r < 0) r += m, q -= 1;  // floor division
  if (2 * r > m || (2 * r == m && (q % 2) != 0)) q += 1;
  return static_cast<int64_t>(q * m);
}

// Regression (fixed): RoundDecimals on INT64 with negative decimals computed in
// double (x / 10^-d, nearbyint, * 10^-d), so values past 2^53 came back wrong, not
// even multiples of 10^-d: round(2^62 + 1, -1) gives 4611686018427387904, not
// 4611686018427387900; round(INT64_MAX - 1000, -1) gives 9223372036854774784,
// not 9223372036854774810. docs/ops.md: "negative decimals round integers too, to a
// multiple of 10^-d" (integer arithmetic is exact there).
TEST(AdversarialNewOps, RoundDecimalsRoundsInt64PastTwoTo53Exactly) {
  const std::vector<int64_t> x = {
      (int64_t{1} << 62) + 1, 123456789012345675, 9007199254740993, -9007199254740995, 15, 25, -25, 5,
      kMax64 - 1000,          1234567890123456789};
  const int64_t n = static_cast<int64_t>(x.size());
  for (int64_t decimals : {-1, -3}) {
    SCOPED_TRACE(decimals);
    int64_t m = 1;
    for (int64_t k = 0; k < -decimals; ++k) m *= 10;
    std::vector<int64_t> want;
    for (int64_t v : x) want.push_back(RoundToMultipleRef(v, m));
    Buf<int64_t> self(x), out(std::vector<int64_t>(x.size(), 0));
    aclTensor *s = self.Contiguous(ACL_INT64, {n}), *o = out.Contiguous(ACL_INT64, {n});
    ASSERT_EQ(RunCall([&](uint64_t* w,
                          aclOpExecutor** e) { return aclnnRoundDecimalsGetWorkspaceSize(s, decimals, o, w, e); },
                      aclnnRoundDecimals, {s, o}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(out.Read(), want);
  }
}

// Regression (fixed): RoundDecimals on FLOAT converted decimals = INT64_MAX (2^63 once
// a float) to int64 (undefined behaviour, UBSan: float-cast-overflow), and negated
// INT64_MIN. Any |decimals| past 400 gives 10^d = inf in double: NaN for every
// element (x * inf / inf, or x / inf * inf), as torch.round's float power does.
TEST(AdversarialNewOps, RoundDecimalsTakesTheEndsOfInt64) {
  const std::vector<float> x = {1.5f, -2.25f, 0.0f, 1e30f};
  for (int64_t decimals : {kMax64, std::numeric_limits<int64_t>::min(), int64_t{401}, int64_t{-401}}) {
    SCOPED_TRACE(decimals);
    Buf<float> self(x), out(std::vector<float>(x.size(), 7.0f));
    aclTensor *s = self.Contiguous(ACL_FLOAT, {4}), *o = out.Contiguous(ACL_FLOAT, {4});
    ASSERT_EQ(RunCall([&](uint64_t* w,
                          aclOpExecutor** e) { return aclnnRoundDecimalsGetWorkspaceSize(s, decimals, o, w, e); },
                      aclnnRoundDecimals, {s, o}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    for (float v : out.Read()) EXPECT_TRUE(std::isnan(v)) << v;
  }
}

// Regression (fixed): IsClose compared INT64 operands in double, so two integers that differ
// by 1 past 2^53 were "equal": isclose(2^60, 2^60 + 1, rtol = 0, atol = 0) was
// true. docs/ops.md's rule `abs(self - other) <= atol + rtol * abs(other) or
// equal` gives false (as torch.isclose does on int64).
TEST(AdversarialNewOps, IsCloseTellsApartInt64NeighboursPastTwoTo53) {
  const int64_t big = int64_t{1} << 60;
  Buf<int64_t> self({big, 5, 5, kMax64}), other({big + 1, 6, 7, kMax64 - 1});
  Buf<uint8_t> out(std::vector<uint8_t>(4, 7));
  for (double atol : {0.0, 1.0}) {
    SCOPED_TRACE(atol);
    aclTensor *s = self.Contiguous(ACL_INT64, {4}), *o = other.Contiguous(ACL_INT64, {4}),
              *d = out.Contiguous(ACL_BOOL, {4});
    ASSERT_EQ(RunCall([&](uint64_t* w,
                          aclOpExecutor** e) { return aclnnIsCloseGetWorkspaceSize(s, o, 0.0, atol, false, d, w, e); },
                      aclnnIsClose, {s, o, d}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const uint8_t one = atol > 0 ? 1 : 0;
    EXPECT_EQ(out.Read(), (std::vector<uint8_t>{one, one, 0, one}));
  }
}

// 1 where self < 0: never for unsigned values (2^63 included), -0.0 and NaN give 0 (docs/ops.md).
template <typename T>
std::vector<uint8_t> Signbit(aclDataType dtype, const std::vector<T>& x) {
  const int64_t n = static_cast<int64_t>(x.size());
  Buf<T> self(x);
  Buf<uint8_t> out(std::vector<uint8_t>(x.size(), 7));
  aclTensor *s = self.Contiguous(dtype, {n}), *o = out.Contiguous(ACL_BOOL, {n});
  EXPECT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnSignbitGetWorkspaceSize(s, o, w, e); },
                    aclnnSignbit, {s, o}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  return out.Read();
}

TEST(AdversarialNewOps, SignbitOfU64TopBitS64MinAndNegativeZero) {
  EXPECT_EQ(Signbit<uint64_t>(ACL_UINT64, {uint64_t{1} << 63, ~uint64_t{0}, 0, 1}), (std::vector<uint8_t>{0, 0, 0, 0}));
  EXPECT_EQ(Signbit<int64_t>(ACL_INT64, {kMin64, -1, 0, kMax64}), (std::vector<uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ(Signbit<float>(ACL_FLOAT, {-0.0f, std::nanf(""), -INFINITY, -1e-45f}), (std::vector<uint8_t>{0, 0, 1, 1}));
}

// relu after the sum wraps in the promoted dtype (an unsigned one skips the relu).
TEST(AdversarialNewOps, AddReluWrapsBeforeTheRelu) {
  Buf<int8_t> a({100, -100, 50, 127}), b({100, -100, -60, 1}), out(std::vector<int8_t>(4, 9));
  int64_t one = 1;
  aclScalar* alpha = aclCreateScalar(&one, ACL_INT64);
  aclTensor *s = a.Contiguous(ACL_INT8, {4}), *o = b.Contiguous(ACL_INT8, {4}), *d = out.Contiguous(ACL_INT8, {4});
  ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddReluGetWorkspaceSize(s, o, alpha, d, w, e); },
                    aclnnAddRelu, {s, o, d}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<int8_t>{0, 56, 0, 0}));
  Buf<uint8_t> ua({200, 10}), ub({100, 5}), uout(std::vector<uint8_t>(2, 9));
  s = ua.Contiguous(ACL_UINT8, {2}), o = ub.Contiguous(ACL_UINT8, {2}), d = uout.Contiguous(ACL_UINT8, {2});
  ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddReluGetWorkspaceSize(s, o, alpha, d, w, e); },
                    aclnnAddRelu, {s, o, d}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(uout.Read(), (std::vector<uint8_t>{44, 15}));
  aclDestroyScalar(alpha);
}

// ---- Overlapping outputs ------------------------------------------------------------------------

// out is the transpose of self's own storage: elements are overwritten before other threads read them
// unless the result is staged.
TEST(AdversarialNewOps, Atan2IntoTheTransposeOfSelf) {
  const int64_t n = 300;
  Buf<float> a(RandomFloats(n * n, 1, -2, 2)), b(RandomFloats(n * n, 2, -2, 2));
  aclTensor *s = a.Contiguous(ACL_FLOAT, {n, n}), *o = b.Contiguous(ACL_FLOAT, {n, n}),
            *d = a.View(ACL_FLOAT, {n, n}, {1, n});
  ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnAtan2GetWorkspaceSize(s, o, d, w, e); },
                    aclnnAtan2, {s, o, d}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<double> want(n * n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) want[j * n + i] = std::atan2(a.host()[i * n + j], b.host()[i * n + j]);
  }
  ExpectValues(AsDoubles(a.Read()), want, 1e-6, "self^T = atan2(self, other)");
}

// In-place lerp with end = selfRef shifted by one element and weight = selfRef itself.
TEST(AdversarialNewOps, InplaceLerpWithEndShiftedIntoSelfAndWeightSelf) {
  const int64_t n = (1 << 17) + 1;
  Buf<float> x(RandomFloats(n + 1, 3, 0.05f, 0.95f));
  aclTensor *s = x.Contiguous(ACL_FLOAT, {n}), *end = x.Contiguous(ACL_FLOAT, {n}, 1),
            *weight = x.Contiguous(ACL_FLOAT, {n});
  ASSERT_EQ(
      RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceLerpGetWorkspaceSize(s, end, weight, w, e); },
              aclnnInplaceLerp, {s, end, weight}),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const std::vector<float>& h = x.host();
  std::vector<double> want(h.begin(), h.end());
  for (int64_t i = 0; i < n; ++i) want[i] = h[i] + static_cast<double>(h[i]) * (h[i + 1] - h[i]);
  ExpectValues(AsDoubles(x.Read()), want, 1e-6, "x[:-1] = lerp(x[:-1], x[1:], x[:-1])");
}

// Glu over a transposed self, split along dim 1, written into self's own first or second half.
TEST(AdversarialNewOps, GluOnTransposedSelfWritesIntoEitherHalfOfIt) {
  const int64_t rows = 64, cols = 1000, half = rows / 2;  // storage M[rows, cols]; self = M^T [cols, rows]
  for (int64_t into : {0, 1}) {
    SCOPED_TRACE(into);
    Buf<float> m(RandomFloats(rows * cols, 4 + into, -3, 3));
    aclTensor* self = m.View(ACL_FLOAT, {cols, rows}, {1, cols});
    aclTensor* out = m.View(ACL_FLOAT, {cols, half}, {1, cols}, into * half * cols);
    ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnGluGetWorkspaceSize(self, 1, out, w, e); },
                      aclnnGlu, {self, out}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const std::vector<float>& h = m.host();
    std::vector<double> want(h.begin(), h.end());
    for (int64_t r = 0; r < half; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        want[(r + into * half) * cols + c] = h[r * cols + c] * Sigmoid(h[(r + half) * cols + c]);
      }
    }
    ExpectValues(AsDoubles(m.Read()), want, 1e-6, "Glu into its own half");
  }
}

// FatreluMul whose threshold is out's first element: every element must use the threshold's value from
// before the op. Run after a call of the same shapes without the overlap, so that a plan cached for
// separate buffers would be reused if the cache ignored the overlap.
TEST(AdversarialNewOps, FatreluMulThresholdInsideOutAfterASeparateCall) {
  const int64_t rows = 512, half = 128;
  Buf<float> input(RandomFloats(rows * 2 * half, 6, -1, 1));
  const std::vector<float>& x = input.host();
  for (bool overlap : {false, true}) {
    SCOPED_TRACE(overlap);
    std::vector<float> init(rows * half, 5.0f);
    init[0] = 0.25f;
    Buf<float> out(init), separate({0.25f});
    aclTensor* in = input.Contiguous(ACL_FLOAT, {rows, 2 * half});
    aclTensor* th = overlap ? out.Contiguous(ACL_FLOAT, {1}) : separate.Contiguous(ACL_FLOAT, {1});
    aclTensor* dst = out.Contiguous(ACL_FLOAT, {rows, half});
    ASSERT_EQ(
        RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnFatreluMulGetWorkspaceSize(in, th, dst, w, e); },
                aclnnFatreluMul, {in, th, dst}),
        ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<double> want(rows * half);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < half; ++c) {
        const double a = x[r * 2 * half + c], b = x[r * 2 * half + half + c];
        want[r * half + c] = (a > 0.25 ? a : 0.0) * b;
      }
    }
    ExpectValues(AsDoubles(out.Read()), want, 1e-6, "FatreluMul");
  }
}

// GeluMul splits the last dim of a transposed input (the halves are strided).
TEST(AdversarialNewOps, GeluMulOnTransposedInput) {
  const int64_t rows = 300, width = 64;  // storage [width, rows]; input = its transpose [rows, width]
  Buf<float> storage(RandomFloats(rows * width, 7, -3, 3));
  Buf<float> out(std::vector<float>(rows * width / 2, 0));
  for (const char* mode : {"none", "tanh"}) {
    SCOPED_TRACE(mode);
    std::string approximate = mode;
    aclTensor* in = storage.View(ACL_FLOAT, {rows, width}, {1, rows});
    aclTensor* dst = out.Contiguous(ACL_FLOAT, {rows, width / 2});
    ASSERT_EQ(
        RunCall([&](uint64_t* w,
                    aclOpExecutor** e) { return aclnnGeluMulGetWorkspaceSize(in, approximate.data(), dst, w, e); },
                aclnnGeluMul, {in, dst}),
        ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<double> want(rows * width / 2);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < width / 2; ++c) {
        const double a = storage.host()[c * rows + r], b = storage.host()[(c + width / 2) * rows + r];
        const double gelu = approximate == "tanh"
                                ? 0.5 * a * (1 + std::tanh(std::sqrt(2 / M_PI) * (a + 0.044715 * a * a * a)))
                                : 0.5 * a * (1 + std::erf(a / std::sqrt(2.0)));
        want[r * (width / 2) + c] = gelu * b;
      }
    }
    ExpectValues(AsDoubles(out.Read()), want, 2e-6, "GeluMul");
  }
}

// ---- Ranks, odd weights, empty tensors ----------------------------------------------------------

// Rank-8 self, a per-channel weight given as a non-contiguous 2-D [1, C] view (every other element).
TEST(AdversarialNewOps, PreluRank8WithStridedTwoDimensionalWeight) {
  const Shape shape = {2, 3, 2, 1, 2, 1, 2, 3};
  const int64_t n = NumElements(shape);
  Buf<float> self(RandomFloats(n, 8, -2, 2)), weights({9, 0.5f, 9, -1.5f, 9, 0.25f}), out(std::vector<float>(n, 0));
  aclTensor *s = self.Contiguous(ACL_FLOAT, shape), *wt = weights.View(ACL_FLOAT, {1, 3}, {1, 2}, 1),
            *d = out.Contiguous(ACL_FLOAT, shape);
  ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnPreluGetWorkspaceSize(s, wt, d, w, e); },
                    aclnnPrelu, {s, wt, d}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const double slope[3] = {0.5, -1.5, 0.25};
  std::vector<double> want(n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t channel = Unravel(i, shape)[1];
    const double x = self.host()[i];
    want[i] = x > 0 ? x : slope[channel] * x;
  }
  ExpectValues(AsDoubles(out.Read()), want, 1e-7, "Prelu");
}

// A rank-0 self broadcast against two rank-8 tensors, in double.
TEST(AdversarialNewOps, AddcmulRank0SelfWithRank8Factors) {
  const Shape s1 = {2, 1, 2, 1, 2, 1, 2, 1}, s2 = {1, 2, 1, 2, 1, 2, 1, 2}, so(8, 2);
  Buf<double> self({1.25}), t1({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}),
      t2({-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16}), out(std::vector<double>(256, 0));
  double half = 0.5;
  aclScalar* value = aclCreateScalar(&half, ACL_DOUBLE);
  aclTensor *s = self.Contiguous(ACL_DOUBLE, {}), *a = t1.Contiguous(ACL_DOUBLE, s1),
            *b = t2.Contiguous(ACL_DOUBLE, s2), *d = out.Contiguous(ACL_DOUBLE, so);
  ASSERT_EQ(
      RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddcmulGetWorkspaceSize(s, a, b, value, d, w, e); },
              aclnnAddcmul, {s, a, b, d}),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  aclDestroyScalar(value);
  std::vector<double> want(256);
  for (int64_t i = 0; i < 256; ++i) {
    const Shape index = Unravel(i, so);
    Shape i1 = index, i2 = index;
    for (int d = 0; d < 8; ++d) (d % 2 == 0 ? i2 : i1)[d] = 0;
    want[i] = 1.25 + 0.5 * t1.host()[Ravel(i1, s1)] * t2.host()[Ravel(i2, s2)];
  }
  ExpectValues(out.Read(), want, 0, "Addcmul");
}

// Empty tensors of odd shapes succeed and write nothing; a mean over nothing is NaN, a sum 0.
TEST(AdversarialNewOps, EmptyOperandsOfOddShapes) {
  Buf<float> any(std::vector<float>(8, 3.0f)), out(std::vector<float>(8, 7.0f));
  aclTensor *s = any.Contiguous(ACL_FLOAT, {2, 0, 3}), *o = any.Contiguous(ACL_FLOAT, {1, 1, 3}),
            *d = out.Contiguous(ACL_FLOAT, {2, 0, 3});
  EXPECT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnAtan2GetWorkspaceSize(s, o, d, w, e); },
                    aclnnAtan2, {s, o, d}),
            ACLNN_SUCCESS);
  s = any.Contiguous(ACL_FLOAT, {0, 4}), d = out.Contiguous(ACL_FLOAT, {0, 2});
  EXPECT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnGluGetWorkspaceSize(s, -1, d, w, e); }, aclnnGlu,
                    {s, d}),
            ACLNN_SUCCESS);
  s = any.Contiguous(ACL_FLOAT, {3, 0, 4}), o = any.Contiguous(ACL_FLOAT, {1}),
  d = out.Contiguous(ACL_FLOAT, {3, 0, 2});
  EXPECT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnFatreluMulGetWorkspaceSize(s, o, d, w, e); },
                    aclnnFatreluMul, {s, o, d}),
            ACLNN_SUCCESS);
  EXPECT_EQ(out.Read(), std::vector<float>(8, 7.0f));
  s = any.Contiguous(ACL_FLOAT, {0, 5}), o = any.Contiguous(ACL_FLOAT, {0, 5}), d = out.Contiguous(ACL_FLOAT, {});
  ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnMseLossGetWorkspaceSize(s, o, 1, d, w, e); },
                    aclnnMseLoss, {s, o, d}),
            ACLNN_SUCCESS);
  EXPECT_TRUE(std::isnan(out.Read()[0]));
  s = any.Contiguous(ACL_FLOAT, {0, 5}), o = any.Contiguous(ACL_FLOAT, {5}), d = out.Contiguous(ACL_FLOAT, {});
  ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnL1LossGetWorkspaceSize(s, o, 2, d, w, e); },
                    aclnnL1Loss, {s, o, d}),
            ACLNN_SUCCESS);
  EXPECT_EQ(out.Read()[0], 0.0f);
}

// Regression (fixed): KlDiv with a rank-0 self, an empty target and reduction 3 (batchmean)
// failed phase 1 with 561000 ("internal error: vector::_M_range_check"): the
// empty-operand branch reads self->view_shape.at(0) of a rank-0 self. Mean and
// sum of the same call succeed (NaN, 0); batchmean should too (0 or NaN).
TEST(AdversarialNewOps, KlDivRank0SelfWithEmptyTarget) {
  Buf<float> self({0.5f}), target(std::vector<float>(1, 0)), out({7.0f});
  for (int64_t reduction : {1, 2, 3}) {
    SCOPED_TRACE(reduction);
    aclTensor *s = self.Contiguous(ACL_FLOAT, {}), *t = target.Contiguous(ACL_FLOAT, {0}),
              *d = out.Contiguous(ACL_FLOAT, {});
    ASSERT_EQ(RunCall([&](uint64_t* w,
                          aclOpExecutor** e) { return aclnnKlDivGetWorkspaceSize(s, t, reduction, false, d, w, e); },
                      aclnnKlDiv, {s, t, d}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const float got = out.Read()[0];
    if (reduction == 1) {
      EXPECT_TRUE(std::isnan(got)) << got;
    } else {
      EXPECT_TRUE(got == 0.0f || (reduction == 3 && std::isnan(got))) << got;  // batchmean: 0 / batch, [0] or none
    }
  }
}

// ---- Special values -----------------------------------------------------------------------------

using UnaryPhase1 = aclnnStatus (*)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);

// One unary call on `x` as T (double or float), the result as doubles.
template <typename T>
std::vector<double> RunUnary(UnaryPhase1 phase1, Phase2 phase2, const std::vector<double>& x) {
  const int64_t n = static_cast<int64_t>(x.size());
  const aclDataType dtype = sizeof(T) == 8 ? ACL_DOUBLE : ACL_FLOAT;
  Buf<T> self(std::vector<T>(x.begin(), x.end())), out(std::vector<T>(x.size(), 123));
  aclTensor *s = self.Contiguous(dtype, {n}), *o = out.Contiguous(dtype, {n});
  EXPECT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return phase1(s, o, w, e); }, phase2, {s, o}), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  return AsDoubles(out.Read());
}

TEST(AdversarialNewOps, SpecialFunctionsAtPolesAndEdges) {
  const double euler = 0.57721566490153286061;
  ExpectValues(RunUnary<double>(aclnnDigammaGetWorkspaceSize, aclnnDigamma, {-1, -2, 1, 0.5, -0.5, 1e-300, 1e15}),
               {kNan, kNan, -euler, -euler - 2 * std::log(2.0), -euler - 2 * std::log(2.0) + 2, -1e300,
                std::log(1e15) - 0.5e-15},
               1e-13, "Digamma");
  ExpectValues(RunUnary<double>(aclnnLgammaGetWorkspaceSize, aclnnLgamma, {0, -1, -2, 1, 2, 0.5, -0.5, kInf, -kInf}),
               {kInf, kInf, kInf, 0, 0, std::log(std::sqrt(M_PI)), std::log(2 * std::sqrt(M_PI)), kInf, kInf}, 1e-14,
               "Lgamma");
  ExpectValues(RunUnary<float>(aclnnErfinvGetWorkspaceSize, aclnnErfinv, {1, -1, 1.5, -1.5, 0, 0.5, -0.75, kNan}),
               {kInf, -kInf, kNan, kNan, 0, 0.47693627620446987338, -0.8134198475976185, kNan}, 1e-6, "Erfinv");
}

TEST(AdversarialNewOps, BinaryOpsOnInfinitiesAndNaN) {
  // LogAddExp's out is f32 f16 bf16: the f64 operands are converted to it.
  ExpectValues(AsDoubles(Binary<double, float>(aclnnLogAddExpGetWorkspaceSize, aclnnLogAddExp, ACL_DOUBLE,
                                               {-kInf, kInf, kInf, kNan, 1, 0, 1000, -1000},
                                               {-kInf, kInf, -kInf, 1, kNan, 0, 1000, 1000}, ACL_FLOAT)),
               {-kInf, kInf, kInf, kNan, kNan, std::log(2.0), 1000 + std::log(2.0), 1000}, 1e-6, "LogAddExp");
  const float nan = std::nanf("");
  ExpectValues(AsDoubles(Binary<float, float>(aclnnXLogYTensorGetWorkspaceSize, aclnnXLogYTensor, ACL_FLOAT,
                                              {0, 0, 0, 1, -1, nan, 2}, {nan, 0, INFINITY, 0, -1, 0, 0.5f}, ACL_FLOAT)),
               {kNan, 0, 0, -kInf, kNan, kNan, 2 * std::log(0.5)}, 1e-6, "XLogY");
  ExpectValues(AsDoubles(Binary<float, float>(aclnnHeavisideGetWorkspaceSize, aclnnHeaviside, ACL_FLOAT,
                                              {nan, 0.0f, -0.0f, 2, -2, INFINITY, -INFINITY},
                                              {0.75f, 0.75f, 0.75f, 0.75f, 0.75f, 0.75f, 0.75f}, ACL_FLOAT)),
               {0, 0.75, 0.75, 1, 0, 1, 0}, 0, "Heaviside");
}

// torch's stable pos_weight form at logits of +-100 (no overflow to inf or NaN), pos_weight per column.
TEST(AdversarialNewOps, BceWithLogitsAtExtremeLogitsWithBroadcastPosWeight) {
  const std::vector<float> x = {100, -100, 100, -100, 0, 3};
  const std::vector<float> y = {0, 1, 1, 0, 0.5f, 0.25f};
  Buf<float> self(x), target(y), pos({2, 0.5f, 3}), out(std::vector<float>(6, 0));
  aclTensor *s = self.Contiguous(ACL_FLOAT, {2, 3}), *t = target.Contiguous(ACL_FLOAT, {2, 3}),
            *p = pos.Contiguous(ACL_FLOAT, {3}), *d = out.Contiguous(ACL_FLOAT, {2, 3});
  ASSERT_EQ(RunCall(
                [&](uint64_t* w, aclOpExecutor** e) {
                  return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(s, t, nullptr, p, 0, d, w, e);
                },
                aclnnBinaryCrossEntropyWithLogits, {s, t, p, d}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<double> want;
  for (int i = 0; i < 6; ++i) {
    const double xi = x[i], yi = y[i], pw = pos.host()[i % 3];
    want.push_back((1 - yi) * xi + (1 + (pw - 1) * yi) * (std::log1p(std::exp(-std::fabs(xi))) + std::max(-xi, 0.0)));
  }
  ExpectValues(AsDoubles(out.Read()), want, 1e-6, "BCE with logits");
}

// ---- Two streams ----------------------------------------------------------------------------------

// The same RemainderTensorTensor shapes planned and run from two threads on their own streams, with
// fresh buffers each call (plan-cache hits with other addresses).
TEST(AdversarialNewOps, RemainderFromTwoStreamsWithFreshBuffers) {
  const int64_t n = (1 << 16) + 7;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
      aclrtStream stream = nullptr;
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      for (int call = 0; call < 6; ++call) {
        Buf<float> a(RandomFloats(n, 100 * t + call, -50, 50)), b(RandomFloats(n, 100 * t + call + 7, 0.5f, 3));
        Buf<float> out(std::vector<float>(n, 0));
        aclTensor *s = a.Contiguous(ACL_FLOAT, {n}), *o = b.Contiguous(ACL_FLOAT, {n}),
                  *d = out.Contiguous(ACL_FLOAT, {n});
        const aclnnStatus status = RunCall(
            [&](uint64_t* w, aclOpExecutor** e) { return aclnnRemainderTensorTensorGetWorkspaceSize(s, o, d, w, e); },
            aclnnRemainderTensorTensor, {s, o, d}, stream);
        if (status != ACLNN_SUCCESS) {
          failures.fetch_add(1);
          continue;
        }
        const std::vector<float> got = out.Read();
        for (int64_t i = 0; i < n; ++i) {
          float r = std::fmod(a.host()[i], b.host()[i]);
          if (r != 0 && ((r < 0) != (b.host()[i] < 0))) r += b.host()[i];
          if (got[i] != r) {
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

// ---- Widths and sizes (2026-12-07, eighteenth session's pass) -------------------------------------

// A scalar of `value` and `dtype`, destroyed with the holder.
template <typename V>
struct HostScalar {
  HostScalar(V value, aclDataType dtype) : held(value), scalar(aclCreateScalar(&held, dtype)) {}
  ~HostScalar() { aclDestroyScalar(scalar); }
  HostScalar(const HostScalar&) = delete;
  HostScalar& operator=(const HostScalar&) = delete;
  V held;
  aclScalar* scalar;
};

// One call of a (self, scalar, out) op on 1-D tensors.
using ScalarPhase1 = aclnnStatus (*)(const aclTensor*, const aclScalar*, aclTensor*, uint64_t*, aclOpExecutor**);
template <typename In, typename Out>
std::vector<Out> WithScalar(ScalarPhase1 phase1, Phase2 phase2, aclDataType in, const std::vector<In>& a,
                            const aclScalar* other, aclDataType outDtype) {
  Buf<In> x(a);
  Buf<Out> out(std::vector<Out>(a.size(), Out(9)));
  const int64_t n = static_cast<int64_t>(a.size());
  aclTensor *s = x.Contiguous(in, {n}), *d = out.Contiguous(outDtype, {n});
  EXPECT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return phase1(s, other, d, w, e); }, phase2, {s, d}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  return out.Read();
}

// CANN computes Add / Sub / Mul / floor DivMod in the promoted dtype and casts
// the result to out: an INT8 result wraps at 8 bits before it widens into an
// INT16 out, and a FLOAT16 one rounds to 11 bits before a FLOAT out.
TEST(AdversarialNewOps, NarrowResultsWrapOrRoundBeforeAWiderOut) {
  const std::vector<int8_t> a = {127, -128, 100}, b = {1, 1, 100};
  HostScalar<int64_t> one(1, ACL_INT64);
  // Captureless forms for Binary's function pointer: the scalar is a static.
  static aclScalar* alpha = nullptr;
  alpha = one.scalar;
  const BinaryPhase1 addPhase1 = [](const aclTensor* x, const aclTensor* y, aclTensor* o, uint64_t* w,
                                    aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(x, y, alpha, o, w, e); };
  const BinaryPhase1 subPhase1 = [](const aclTensor* x, const aclTensor* y, aclTensor* o, uint64_t* w,
                                    aclOpExecutor** e) { return aclnnSubGetWorkspaceSize(x, y, alpha, o, w, e); };
  const BinaryPhase1 floorDivPhase1 = [](const aclTensor* x, const aclTensor* y, aclTensor* o, uint64_t* w,
                                         aclOpExecutor** e) { return aclnnDivModGetWorkspaceSize(x, y, 2, o, w, e); };
  EXPECT_EQ((Binary<int8_t, int16_t>(addPhase1, aclnnAdd, ACL_INT8, a, b, ACL_INT16)),
            (std::vector<int16_t>{-128, -127, -56}));
  EXPECT_EQ((Binary<int8_t, int16_t>(subPhase1, aclnnSub, ACL_INT8, b, a, ACL_INT16)),
            (std::vector<int16_t>{-126, -127, 0}));
  EXPECT_EQ((Binary<int8_t, int32_t>(aclnnMulGetWorkspaceSize, aclnnMul, ACL_INT8, a, b, ACL_INT32)),
            (std::vector<int32_t>{127, -128, 16}));
  EXPECT_EQ((Binary<int8_t, float>(aclnnMulGetWorkspaceSize, aclnnMul, ACL_INT8, a, b, ACL_FLOAT)),
            (std::vector<float>{127, -128, 16}));
  EXPECT_EQ((Binary<int8_t, int16_t>(floorDivPhase1, aclnnDivMod, ACL_INT8, a, {-1, -1, -1}, ACL_INT16)),
            (std::vector<int16_t>{-127, -128, -100}));
  EXPECT_EQ((Binary<int32_t, int64_t>(addPhase1, aclnnAdd, ACL_INT32, {INT32_MAX, 5}, {1, -6}, ACL_INT64)),
            (std::vector<int64_t>{INT32_MIN, -1}));
  // 1 + 2^-11 is a tie in FLOAT16 and rounds to even, 1; in FLOAT it is exact.
  const uint16_t oneHalf = 0x3c00, tiny = 0x1000;  // 1.0 and 2^-11 as FLOAT16
  EXPECT_EQ((Binary<uint16_t, float>(addPhase1, aclnnAdd, ACL_FLOAT16, {oneHalf, oneHalf}, {tiny, oneHalf}, ACL_FLOAT)),
            (std::vector<float>{1.0f, 2.0f}));
  // The scalar forms compute in self's dtype too.
  HostScalar<int64_t> hundred(100, ACL_INT64), two(2, ACL_INT64);
  static aclScalar* scalarAlpha = nullptr;
  scalarAlpha = one.scalar;
  const ScalarPhase1 addsPhase1 = [](const aclTensor* x, const aclScalar* y, aclTensor* o, uint64_t* w,
                                     aclOpExecutor** e) {
    return aclnnAddsGetWorkspaceSize(x, y, scalarAlpha, o, w, e);
  };
  EXPECT_EQ((WithScalar<int8_t, int16_t>(addsPhase1, aclnnAdds, ACL_INT8, a, hundred.scalar, ACL_INT16)),
            (std::vector<int16_t>{-29, -28, -56}));
  EXPECT_EQ((WithScalar<int8_t, int16_t>(aclnnMulsGetWorkspaceSize, aclnnMuls, ACL_INT8, a, two.scalar, ACL_INT16)),
            (std::vector<int16_t>{-2, 0, -56}));
}

// A scalar operand becomes a tensor of the compute dtype, as CANN's
// ConvertToTensor makes it: 300 in INT8 math is 44, -5 in UINT8 is 251,
// 2^32 + 3 in INT32 is 3, 2.5 in INT32 is 2.
TEST(AdversarialNewOps, ScalarOperandsTakeTheComputeDtype) {
  const std::vector<int8_t> a = {100, -100, 50};
  HostScalar<int64_t> low(-128, ACL_INT64), high(300, ACL_INT64), minusFive(-5, ACL_INT64), hundred(100, ACL_INT64),
      wide((int64_t{1} << 32) + 3, ACL_INT64);
  static const aclScalar* bounds[2] = {};
  bounds[0] = low.scalar;
  bounds[1] = high.scalar;
  const ScalarPhase1 clampHigh = [](const aclTensor* x, const aclScalar*, aclTensor* o, uint64_t* w,
                                    aclOpExecutor** e) {
    return aclnnClampGetWorkspaceSize(x, bounds[0], bounds[1], o, w, e);
  };
  EXPECT_EQ((WithScalar<int8_t, int8_t>(clampHigh, aclnnClamp, ACL_INT8, a, nullptr, ACL_INT8)),
            (std::vector<int8_t>{44, -100, 44}));
  EXPECT_EQ(
      (WithScalar<int8_t, int8_t>(aclnnClampMaxGetWorkspaceSize, aclnnClampMax, ACL_INT8, a, high.scalar, ACL_INT8)),
      (std::vector<int8_t>{44, -100, 44}));
  bounds[0] = minusFive.scalar;
  bounds[1] = hundred.scalar;
  EXPECT_EQ((WithScalar<uint8_t, uint8_t>(clampHigh, aclnnClamp, ACL_UINT8, {1, 200, 10}, nullptr, ACL_UINT8)),
            (std::vector<uint8_t>{100, 100, 100}));
  EXPECT_EQ((WithScalar<int8_t, int8_t>(aclnnFmodScalarGetWorkspaceSize, aclnnFmodScalar, ACL_INT8, a, high.scalar,
                                        ACL_INT8)),
            (std::vector<int8_t>{12, -12, 6}));
  EXPECT_EQ((WithScalar<int32_t, int32_t>(aclnnRemainderTensorScalarGetWorkspaceSize, aclnnRemainderTensorScalar,
                                          ACL_INT32, {100, -100, 7}, wide.scalar, ACL_INT32)),
            (std::vector<int32_t>{1, 2, 1}));
  EXPECT_EQ((WithScalar<int8_t, uint8_t>(aclnnEqScalarGetWorkspaceSize, aclnnEqScalar, ACL_INT8, {44, 45, -44},
                                         high.scalar, ACL_BOOL)),
            (std::vector<uint8_t>{1, 0, 0}));
  // Addcmul's value in INT32 math truncates; NaN and 1e30 convert without
  // undefined behaviour (the value CANN would take there is unspecified).
  for (const double value : {2.5, kNan, 1e30}) {
    Buf<int32_t> self({1, 2}), t1({3, 4}), t2({5, 6}), out({0, 0});
    HostScalar<double> v(value, ACL_DOUBLE);
    aclTensor *s = self.Contiguous(ACL_INT32, {2}), *x = t1.Contiguous(ACL_INT32, {2}),
              *y = t2.Contiguous(ACL_INT32, {2}), *d = out.Contiguous(ACL_INT32, {2});
    ASSERT_EQ(RunCall([&](uint64_t* w,
                          aclOpExecutor** e) { return aclnnAddcmulGetWorkspaceSize(s, x, y, v.scalar, d, w, e); },
                      aclnnAddcmul, {s, x, y, d}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    if (value == 2.5) {
      EXPECT_EQ(out.Read(), (std::vector<int32_t>{31, 50}));
    }
  }
}

// L1Loss over INT64 wraps where |self - target| does not fit (UBSan checks the arithmetic in CI).
TEST(AdversarialNewOps, L1LossOfInt64ExtremesWraps) {
  static const int64_t kNone = 0;
  const BinaryPhase1 l1 = [](const aclTensor* x, const aclTensor* y, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnL1LossGetWorkspaceSize(x, y, kNone, o, w, e);
  };
  EXPECT_EQ((Binary<int64_t, int64_t>(l1, aclnnL1Loss, ACL_INT64, {kMax64, kMin64, 5}, {-1, 1, 2}, ACL_INT64)),
            (std::vector<int64_t>{kMin64, kMax64, 3}));
}

// Kthvalue, MedianDim and NanMedianDim take a one-element out of another rank
// than the reduced shape (CheckReducedOut), which phase 1 read strides past.
TEST(AdversarialNewOps, DimSelectionsIntoOneElementOutsOfAnotherRank) {
  for (int op = 0; op < 3; ++op) {
    for (const Shape& outShape : {Shape{}, Shape{1, 1}}) {
      Buf<float> self({4, 1, 3, 2}), values({0});
      Buf<int64_t> indices({-1});
      aclTensor* s = self.Contiguous(ACL_FLOAT, {1, 4});
      aclTensor* v = values.Contiguous(ACL_FLOAT, outShape);
      aclTensor* i = indices.Contiguous(ACL_INT64, outShape);
      const aclnnStatus status = RunCall(
          [&](uint64_t* w, aclOpExecutor** e) {
            if (op == 0) return aclnnKthvalueGetWorkspaceSize(s, 2, 1, false, v, i, w, e);
            if (op == 1) return aclnnMedianDimGetWorkspaceSize(s, 1, false, v, i, w, e);
            return aclnnNanMedianDimGetWorkspaceSize(s, 1, false, v, i, w, e);
          },
          op == 0   ? aclnnKthvalue
          : op == 1 ? aclnnMedianDim
                    : aclnnNanMedianDim,
          {s, v, i});
      ASSERT_EQ(status, ACLNN_SUCCESS) << "op " << op << ": " << aclGetRecentErrMsg();
      EXPECT_EQ(values.Read()[0], 2.0f) << "op " << op;
      EXPECT_EQ(indices.Read()[0], 3) << "op " << op;
    }
  }
}

// With labelSmoothing 0 the smoothing term takes no part: a -inf logit (a
// masked class) leaves the loss finite, as PyTorch's nll_loss(log_softmax).
TEST(AdversarialNewOps, CrossEntropyOfAMinusInfinityLogitWithoutSmoothing) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const char* reduction : {"none", "mean"}) {
    Buf<float> input({-inf, 0, 2, 1, 1, 1}), loss({0, 0}), logProb(std::vector<float>(6, 0)), zloss({0, 0}),
        lse({0, 0});
    Buf<int64_t> target({1, 0});
    aclTensor* x = input.Contiguous(ACL_FLOAT, {2, 3});
    aclTensor* y = target.Contiguous(ACL_INT64, {2});
    const bool none = std::string(reduction) == "none";
    const Shape lossShape = none ? Shape{2} : Shape{1};  // zlossOut has loss's shape
    aclTensor* l = loss.Contiguous(ACL_FLOAT, lossShape);
    aclTensor* lp = logProb.Contiguous(ACL_FLOAT, {2, 3});
    aclTensor* z = zloss.Contiguous(ACL_FLOAT, lossShape);
    aclTensor* ls = lse.Contiguous(ACL_FLOAT, {2});
    std::string mode = reduction;
    ASSERT_EQ(RunCall(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return aclnnCrossEntropyLossGetWorkspaceSize(x, y, nullptr, mode.data(), -100, 0.0, 0.0, false, l,
                                                                 lp, z, ls, w, e);
                  },
                  aclnnCrossEntropyLoss, {x, y, l, lp, z, ls}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const double row0 = std::log(1 + std::exp(2.0)), row1 = std::log(3.0);  // -log_softmax at the targets
    const std::vector<double> want = none ? std::vector<double>{row0, row1} : std::vector<double>{(row0 + row1) / 2};
    std::vector<double> got = AsDoubles(loss.Read());
    got.resize(want.size());
    ExpectValues(got, want, 1e-6, reduction);
  }
}

// Extents added up past int64 are refused (a [1, 2^62] stride-0 view is a
// legal descriptor over one element); the wrapped sum used to pass.
TEST(AdversarialNewOps, ListExtentsThatAddUpPastInt64AreRefused) {
  const int64_t huge = int64_t{1} << 62;
  Buf<float> one({1}), real({1, 2}), out({0, 0});
  std::vector<aclTensor*> members;
  for (int k = 0; k < 4; ++k) members.push_back(one.View(ACL_FLOAT, {1, huge}, {0, 0}));
  members.push_back(real.Contiguous(ACL_FLOAT, {1, 2}));
  aclTensorList* list = aclCreateTensorList(members.data(), members.size());
  aclTensor* dst = out.Contiguous(ACL_FLOAT, {1, 2});
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnChunkCatGetWorkspaceSize(list, 0, 1, dst, &workspaceSize, &executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnCatGetWorkspaceSize(list, 1, dst, &workspaceSize, &executor), ACLNN_ERR_PARAM_INVALID);
  aclDestroyTensorList(list);
  aclDestroyTensor(dst);

  // SplitWithSize: sizes of 2^62 four times and 4 wrap to self's 4.
  Buf<float> self(std::vector<float>(1, 0));
  aclTensor* s = self.Contiguous(ACL_FLOAT, {4, 0});
  const int64_t sizes[] = {huge, huge, huge, huge, 4};
  aclIntArray* splitSize = aclCreateIntArray(sizes, 5);
  std::vector<aclTensor*> pieces;
  for (int k = 0; k < 4; ++k) pieces.push_back(self.Contiguous(ACL_FLOAT, {huge, 0}));
  pieces.push_back(self.Contiguous(ACL_FLOAT, {4, 0}));
  aclTensorList* outs = aclCreateTensorList(pieces.data(), pieces.size());
  EXPECT_EQ(aclnnSplitWithSizeGetWorkspaceSize(s, splitSize, 0, outs, &workspaceSize, &executor),
            ACLNN_ERR_PARAM_INVALID);
  aclDestroyTensorList(outs);
  aclDestroyIntArray(splitSize);
  aclDestroyTensor(s);
}

// Digamma of DOUBLE negatives far from 0: the reflection's tan(pi x) takes
// x's fractional part (pi x rounds by up to |x| ulps near the poles).
TEST(AdversarialNewOps, DigammaOfLargeNegativeDoubles) {
  const std::vector<double> x = {-999999999999999.75, -9999999999.5, -1.0000001, -1000.3};
  const std::vector<double> want = {31.397183741320892272, 23.02585092994045684, 10000000.41694539884,
                                    9.1910556692556580917};  // mpmath, 40 digits
  Buf<double> in(x), out(std::vector<double>(x.size(), 0));
  const int64_t n = static_cast<int64_t>(x.size());
  aclTensor *s = in.Contiguous(ACL_DOUBLE, {n}), *d = out.Contiguous(ACL_DOUBLE, {n});
  ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnDigammaGetWorkspaceSize(s, d, w, e); },
                    aclnnDigamma, {s, d}),
            ACLNN_SUCCESS);
  const std::vector<double> got = out.Read();
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-13 * std::fabs(want[i])) << x[i];
}

// Hardshrink with a NaN lambd: |x| <= NaN is false, so x passes (PyTorch and
// CANN's kernel); the vector path gave 0 for every element.
TEST(AdversarialNewOps, HardshrinkWithANanLambdPassesEveryElement) {
  const int64_t n = 37;  // vectors and a tail
  std::vector<float> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = i % 2 == 0 ? 2.0f : -1.0f;
  HostScalar<float> lambd(std::numeric_limits<float>::quiet_NaN(), ACL_FLOAT);
  EXPECT_EQ((WithScalar<float, float>(aclnnHardshrinkGetWorkspaceSize, aclnnHardshrink, ACL_FLOAT, x, lambd.scalar,
                                      ACL_FLOAT)),
            x);
}

// A contiguous tensor of `format` over `buffer` (pooling and resampling take NCHW, NCDHW, ...).
aclTensor* Formatted(const DeviceBuffer& buffer, aclDataType dtype, const Shape& shape,
                     aclFormat format = ACL_FORMAT_NCHW) {
  const Shape strides = ContiguousStrides(shape);
  int64_t elements = 1;
  for (const int64_t extent : shape) elements *= extent;
  return aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, format, &elements, 1, buffer.get());
}

// Ceil mode gives one clipped window where the kernel is longer than the
// padded input by less than a stride (PyTorch's and CANN's output shape); a
// padding near int64's limits plans at once (the first tap inside the input
// was found one dilation at a time) and 2 * padding past int64 is refused.
TEST(AdversarialNewOps, PoolingWindowsLongerThanTheInputAndPaddingsNearInt64) {
  std::vector<float> x(16);
  std::iota(x.begin(), x.end(), 0.0f);
  DeviceBuffer in(x.size() * sizeof(float)), out(sizeof(float) * 2), indices(sizeof(int32_t) * 2);
  ASSERT_EQ(aclrtMemcpy(in.get(), 64, x.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  const auto ints = [](std::vector<int64_t> values) { return aclCreateIntArray(values.data(), values.size()); };
  const auto read = [](const DeviceBuffer& b, auto first) {
    decltype(first) value{};
    EXPECT_EQ(aclrtMemcpy(&value, sizeof(value), b.get(), sizeof(value), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return value;
  };
  aclIntArray *kernel = ints({5, 5}), *stride = ints({2, 2}), *pad = ints({0, 0}), *dilation = ints({1, 1});
  {
    aclTensor *s = Formatted(in, ACL_FLOAT, {1, 1, 4, 4}), *d = Formatted(out, ACL_FLOAT, {1, 1, 1, 1});
    ASSERT_EQ(RunCall(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return aclnnAvgPool2dGetWorkspaceSize(s, kernel, stride, pad, true, true, 0, 0, d, w, e);
                  },
                  aclnnAvgPool2d, {s, d}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(read(out, 0.0f), 7.5f);  // the 4 x 4 input's mean: the window clipped to it
  }
  {
    aclTensor *s = Formatted(in, ACL_FLOAT, {1, 1, 4, 4}), *d = Formatted(out, ACL_FLOAT, {1, 1, 1, 1}),
              *i = Formatted(indices, ACL_INT32, {1, 1, 1, 1});
    ASSERT_EQ(RunCall(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return aclnnMaxPool2dWithIndicesGetWorkspaceSize(s, kernel, stride, pad, dilation, true, d, i, w,
                                                                     e);
                  },
                  aclnnMaxPool2dWithIndices, {s, d, i}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(read(out, 0.0f), 15.0f);
    EXPECT_EQ(read(indices, int32_t{0}), 15);
  }
  // kernel 2^51, stride 2^51, padding 2^50 over 2 rows: one window holding both.
  const int64_t p = int64_t{1} << 50;
  aclIntArray *hugeKernel = ints({2 * p, 1}), *hugeStride = ints({2 * p, 1}), *hugePad = ints({p, 0});
  {
    aclTensor *s = Formatted(in, ACL_FLOAT, {1, 1, 2, 2}), *d = Formatted(out, ACL_FLOAT, {1, 1, 1, 2}),
              *i = Formatted(indices, ACL_INT32, {1, 1, 1, 2});
    ASSERT_EQ(RunCall(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return aclnnMaxPool2dWithIndicesGetWorkspaceSize(s, hugeKernel, hugeStride, hugePad, dilation,
                                                                     false, d, i, w, e);
                  },
                  aclnnMaxPool2dWithIndices, {s, d, i}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<float> got(2);
    ASSERT_EQ(aclrtMemcpy(got.data(), 8, out.get(), 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(got, (std::vector<float>{2.0f, 3.0f}));
  }
  // kernel INT64_MAX with padding 2^62: 2 * padding overflowed and passed.
  aclIntArray *maxKernel = ints({kMax64, 1}), *overPad = ints({int64_t{1} << 62, 0}), *unit = ints({1, 1});
  aclTensor *s = Formatted(in, ACL_FLOAT, {1, 1, 4, 4}), *d = Formatted(out, ACL_FLOAT, {1, 1, 1, 1}),
            *i = Formatted(indices, ACL_INT32, {1, 1, 1, 1});
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(
      aclnnAvgPool2dGetWorkspaceSize(s, maxKernel, unit, overPad, false, true, 0, 0, d, &workspaceSize, &executor),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMaxPool2dWithIndicesGetWorkspaceSize(s, maxKernel, unit, overPad, dilation, false, d, i,
                                                      &workspaceSize, &executor),
            ACLNN_ERR_PARAM_INVALID);
  for (aclTensor* t : {s, d, i}) aclDestroyTensor(t);
  for (aclIntArray* a : {kernel, stride, pad, dilation, hugeKernel, hugeStride, hugePad, maxKernel, overPad, unit}) {
    aclDestroyIntArray(a);
  }
}

// Resampling keeps an axis whose size does not change, whatever the scales
// say (PyTorch's rule; CANN's AreaPixelComputeScale and computeScale), and
// UpsampleNearest2dV2 doubles a small axis by 2 (CANN's A2 computeScale).
TEST(AdversarialNewOps, ResamplingAxesOfUnchangedOrDoubledSize) {
  const auto ints = [](std::vector<int64_t> values) { return aclCreateIntArray(values.data(), values.size()); };
  {  // Trilinear3d: D 2 -> 2 with scalesD 2
    Buf<float> in({0, 10}), out(std::vector<float>(2, 0));
    aclTensor* s = in.Contiguous(ACL_FLOAT, {1, 1, 2, 1, 1}, 0, ACL_FORMAT_NCDHW);
    aclTensor* d = out.Contiguous(ACL_FLOAT, {1, 1, 2, 1, 1}, 0, ACL_FORMAT_NCDHW);
    aclIntArray* size = ints({2, 1, 1});
    ASSERT_EQ(RunCall(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return aclnnUpsampleTrilinear3dGetWorkspaceSize(s, size, false, 2.0, 1.0, 1.0, d, w, e);
                  },
                  aclnnUpsampleTrilinear3d, {s, d}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(out.Read(), (std::vector<float>{0, 10}));
    aclDestroyIntArray(size);
  }
  {  // Linear1d: L 4 -> 4 with scales 1.2 (floor(4 * 1.2) = 4 passes the conflict check)
    Buf<float> in({0, 10, 20, 30}), out(std::vector<float>(4, 0));
    aclTensor* s = in.Contiguous(ACL_FLOAT, {1, 1, 4}, 0, ACL_FORMAT_NCL);
    aclTensor* d = out.Contiguous(ACL_FLOAT, {1, 1, 4}, 0, ACL_FORMAT_NCL);
    aclIntArray* size = ints({4});
    ASSERT_EQ(
        RunCall([&](uint64_t* w,
                    aclOpExecutor** e) { return aclnnUpsampleLinear1dGetWorkspaceSize(s, size, false, 1.2, d, w, e); },
                aclnnUpsampleLinear1d, {s, d}),
        ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(out.Read(), (std::vector<float>{0, 10, 20, 30}));
    aclDestroyIntArray(size);
  }
  struct NearestCase {
    int64_t in_h, out_h;
    float scales_h;
    std::vector<float> want;
  };
  for (const NearestCase& c : {NearestCase{2, 2, 2.0f, {0, 10}}, NearestCase{3, 6, 3.0f, {0, 0, 10, 10, 20, 20}}}) {
    std::vector<float> x;
    for (int64_t i = 0; i < c.in_h; ++i) x.push_back(10.0f * static_cast<float>(i));
    Buf<float> in(x), out(std::vector<float>(static_cast<size_t>(c.out_h), 0));
    aclTensor* s = in.Contiguous(ACL_FLOAT, {1, 1, c.in_h, 1}, 0, ACL_FORMAT_NCHW);
    aclTensor* d = out.Contiguous(ACL_FLOAT, {1, 1, c.out_h, 1}, 0, ACL_FORMAT_NCHW);
    aclIntArray* size = ints({c.out_h, 1});
    ASSERT_EQ(RunCall(
                  [&](uint64_t* w, aclOpExecutor** e) {
                    return aclnnUpsampleNearest2dV2GetWorkspaceSize(s, size, c.scales_h, 1.0f, d, w, e);
                  },
                  aclnnUpsampleNearest2dV2, {s, d}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(out.Read(), c.want) << c.in_h << " -> " << c.out_h;
    aclDestroyIntArray(size);
  }
}

// Im2col's row count C x kh x kw past int64 is refused (it wrapped to 0 and
// matched an out of [1, 0, 4]).
TEST(AdversarialNewOps, Im2colRowsPastInt64AreRefused) {
  const auto ints = [](std::vector<int64_t> values) { return aclCreateIntArray(values.data(), values.size()); };
  Buf<float> in({1, 2, 3, 4}), out(std::vector<float>(1, 0));
  aclTensor* s = in.Contiguous(ACL_FLOAT, {1, 4, 1, 1}, 0, ACL_FORMAT_NCHW);
  aclTensor* d = out.Contiguous(ACL_FLOAT, {1, 0, 4}, 0, ACL_FORMAT_NCHW);
  const int64_t big = int64_t{1} << 31;
  aclIntArray *kernel = ints({big, big}), *dilation = ints({1, 1}), *padding = ints({big / 2, big / 2}),
              *stride = ints({1, 1});
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnIm2colGetWorkspaceSize(s, kernel, dilation, padding, stride, d, &workspaceSize, &executor),
            ACLNN_ERR_PARAM_INVALID);
  for (aclIntArray* a : {kernel, dilation, padding, stride}) aclDestroyIntArray(a);
  aclDestroyTensor(s);
  aclDestroyTensor(d);
}

// An INT64 beyond 2^24 rounds into FLOAT once, as static_cast and PyTorch do
// (through double, 2^60 + 2^36 + 1 landed on a tie and went down); AngleV2
// takes BFLOAT16 (CANN's A2 definition) and gives BFLOAT16.
TEST(AdversarialNewOps, Int64ToFloatRoundsOnceAndAngleTakesBf16) {
  const int64_t wide = (int64_t{1} << 60) + (int64_t{1} << 36) + 1;
  const std::vector<int64_t> values = {wide, -wide, (int64_t{1} << 24) + 1, kMax64, kMin64};
  Buf<int64_t> in(values);
  Buf<float> out(std::vector<float>(values.size(), 0));
  const int64_t n = static_cast<int64_t>(values.size());
  aclTensor *s = in.Contiguous(ACL_INT64, {n}), *d = out.Contiguous(ACL_FLOAT, {n});
  ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnCastGetWorkspaceSize(s, ACL_FLOAT, d, w, e); },
                    aclnnCast, {s, d}),
            ACLNN_SUCCESS);
  std::vector<float> want;
  for (const int64_t v : values) want.push_back(static_cast<float>(v));
  EXPECT_EQ(out.Read(), want);

  const std::vector<uint16_t> bf16 = {0xbf80, 0x3f80, 0x0000, 0x7fc0};  // -1, 1, 0, NaN
  Buf<uint16_t> x(bf16), angle(std::vector<uint16_t>(bf16.size(), 0));
  aclTensor *a = x.Contiguous(ACL_BF16, {4}), *o = angle.Contiguous(ACL_BF16, {4});
  ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnAngleV2GetWorkspaceSize(a, o, w, e); },
                    aclnnAngleV2, {a, o}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const std::vector<uint16_t> got = angle.Read();
  EXPECT_EQ(got[0], 0x4049);  // pi in bf16
  EXPECT_EQ(got[1], 0x0000);
  EXPECT_EQ(got[2], 0x0000);
  EXPECT_EQ(got[3] & 0x7f80, 0x7f80);  // NaN
  EXPECT_NE(got[3] & 0x007f, 0);
}

// The foreach ops pair the scalar's dtype with the list's as CANN's Atlas A2
// documents: FLOAT / BFLOAT16 lists FLOAT (or DOUBLE for host scalars),
// FLOAT16 lists FLOAT16 (or DOUBLE), INT32 lists INT32 (or INT64);
// MulScalarList FLOAT for floating lists and INT64 for INT32 ones.
TEST(AdversarialNewOps, ForeachScalarsPairWithTheListDtype) {
  Buf<int32_t> ints32({1, 2, 3});
  Buf<float> floats({1, 2, 3}), out(std::vector<float>(3, 0));
  aclTensor* xi = ints32.Contiguous(ACL_INT32, {3});
  aclTensor* xf = floats.Contiguous(ACL_FLOAT, {3});
  aclTensor* oi = out.Contiguous(ACL_INT32, {3});
  aclTensor* of = out.Contiguous(ACL_FLOAT, {3});
  aclTensorList *listI = aclCreateTensorList(&xi, 1), *listF = aclCreateTensorList(&xf, 1);
  aclTensorList *outI = aclCreateTensorList(&oi, 1), *outF = aclCreateTensorList(&of, 1);
  HostScalar<float> f(2.5f, ACL_FLOAT);
  HostScalar<int32_t> i(2, ACL_INT32);
  HostScalar<double> dbl(2.0, ACL_DOUBLE);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnForeachAddScalarV2GetWorkspaceSize(listI, f.scalar, outI, &workspaceSize, &executor),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnForeachMulScalarV2GetWorkspaceSize(listF, i.scalar, outF, &workspaceSize, &executor),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnForeachAddcmulScalarV2GetWorkspaceSize(listI, listI, listI, f.scalar, outI, &workspaceSize, &executor),
            ACLNN_ERR_PARAM_INVALID);
  // Scalar lists own their scalars: these two are made for them.
  const float listFloat = 2.5f;
  const double listDouble = 2.0;
  aclScalar* fl = aclCreateScalar(const_cast<float*>(&listFloat), ACL_FLOAT);
  aclScalar* db = aclCreateScalar(const_cast<double*>(&listDouble), ACL_DOUBLE);
  aclScalarList *floatList = aclCreateScalarList(&fl, 1), *doubleList = aclCreateScalarList(&db, 1);
  EXPECT_EQ(aclnnForeachMulScalarListGetWorkspaceSize(listI, floatList, outI, &workspaceSize, &executor),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnForeachMulScalarListGetWorkspaceSize(listF, doubleList, outF, &workspaceSize, &executor),
            ACLNN_ERR_PARAM_INVALID);
  // The documented pairs still run.
  EXPECT_EQ(
      RunCall([&](uint64_t* w,
                  aclOpExecutor** e) { return aclnnForeachMulScalarV2GetWorkspaceSize(listF, dbl.scalar, outF, w, e); },
              aclnnForeachMulScalarV2, {}),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(RunCall(
                [&](uint64_t* w, aclOpExecutor** e) {
                  return aclnnForeachMulScalarListGetWorkspaceSize(listF, floatList, outF, w, e);
                },
                aclnnForeachMulScalarList, {}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{2.5f, 5, 7.5f}));
  aclDestroyScalarList(floatList);
  aclDestroyScalarList(doubleList);
  for (aclTensorList* l : {listI, listF, outI, outF}) aclDestroyTensorList(l);
}

// One repeatable Nonzero executor run from several threads at once, each on
// its own stream: every run rewrites out's shape after it, which took turns
// with nothing (a double free under ASan, heap corruption without it).
TEST(AdversarialNewOps, ARepeatableNonzeroRunsOnSeveralThreadsAtOnce) {
  Buf<float> in({1, 0, 3, 0, 5, 6, 0, 8});
  Buf<int64_t> out(std::vector<int64_t>(8, 0));
  aclTensor* s = in.Contiguous(ACL_FLOAT, {8});
  aclTensor* d = out.Contiguous(ACL_INT64, {8, 1});
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnNonzeroGetWorkspaceSize(s, d, &workspaceSize, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  // The three streams write one out unordered, which checker mode rightly
  // reports as the client's race (and refuses); this test is about the
  // library's own bookkeeping of that out, so the checker is off meanwhile.
  const int checkMode = canopyCheckEnabled();
  canopySetCheckMode(0);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&] {
      EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
      aclrtStream stream = nullptr;
      EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      DeviceBuffer workspace(std::max<uint64_t>(workspaceSize, 1));
      for (int run = 0; run < 300; ++run) {
        if (aclnnNonzero(workspace.get(), workspaceSize, executor, stream) != ACLNN_SUCCESS) failures.fetch_add(1);
      }
      EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    });
  }
  for (auto& thread : threads) thread.join();
  canopySetCheckMode(checkMode);
  EXPECT_EQ(failures.load(), 0);
  int64_t* dims = nullptr;
  uint64_t rank = 0;
  ASSERT_EQ(aclGetViewShape(d, &dims, &rank), ACLNN_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(dims, dims + rank), (std::vector<int64_t>{5, 1}));
  delete[] dims;
  std::vector<int64_t> found = out.Read();
  found.resize(5);
  EXPECT_EQ(found, (std::vector<int64_t>{0, 2, 4, 5, 7}));
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  aclDestroyTensor(s);
  aclDestroyTensor(d);
}

// MoeTokenPermute with numOutTokens cuts permutedTokens short; MoeTokenUnpermute
// takes that cut tensor back (the permutation's length from sortedIndices),
// adding only the slots placed below the cut and whose prob is not 0, as
// CANN's kernel does; an index outside the permutation still fails the run.
TEST(AdversarialNewOps, UnpermuteAfterAPermuteCutShortByNumOutTokens) {
  constexpr int64_t kTokens = 4, kTopK = 2, kH = 2, kKept = 5;
  Buf<float> x({1, 2, 3, 4, 5, 6, 7, 8}), permuted(std::vector<float>(kKept * kH, 0));
  Buf<int32_t> experts({3, 1, 0, 3, 2, 2, 1, 0}), sorted(std::vector<int32_t>(kTokens * kTopK, 0));
  aclTensor *t = x.Contiguous(ACL_FLOAT, {kTokens, kH}), *e = experts.Contiguous(ACL_INT32, {kTokens, kTopK});
  aclTensor *p = permuted.Contiguous(ACL_FLOAT, {kKept, kH}), *si = sorted.Contiguous(ACL_INT32, {kTokens * kTopK});
  ASSERT_EQ(RunCall(
                [&](uint64_t* w, aclOpExecutor** ex) {
                  return aclnnMoeTokenPermuteGetWorkspaceSize(t, e, kKept, false, p, si, w, ex);
                },
                aclnnMoeTokenPermute, {t, e, p, si}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const std::vector<float> probs = {0.5f, 2, 1, 3, 0.25f, 4, 1.5f, 0.75f};
  Buf<float> prob(probs), out(std::vector<float>(kTokens * kH, -1));
  const auto unpermute = [&](Buf<int32_t>& indices) {
    aclTensor *pt = permuted.Contiguous(ACL_FLOAT, {kKept, kH}), *st = indices.Contiguous(ACL_INT32, {kTokens * kTopK});
    aclTensor *pr = prob.Contiguous(ACL_FLOAT, {kTokens, kTopK}), *o = out.Contiguous(ACL_FLOAT, {kTokens, kH});
    return RunCall(
        [&](uint64_t* w, aclOpExecutor** ex) {
          return aclnnMoeTokenUnpermuteGetWorkspaceSize(pt, st, pr, false, nullptr, o, w, ex);
        },
        aclnnMoeTokenUnpermute, {pt, st, pr, o});
  };
  ASSERT_EQ(unpermute(sorted), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<int32_t> positions = sorted.Read();
  std::vector<double> want(kTokens * kH, 0);
  for (int64_t i = 0; i < kTokens; ++i) {
    for (int64_t k = 0; k < kTopK; ++k) {
      if (positions[static_cast<size_t>(i * kTopK + k)] >= kKept) continue;  // dropped by the cut
      for (int64_t j = 0; j < kH; ++j) {
        want[static_cast<size_t>(i * kH + j)] += probs[static_cast<size_t>(i * kTopK + k)] * x.host()[i * kH + j];
      }
    }
  }
  ExpectValues(AsDoubles(out.Read()), want, 1e-6, "unpermute after numOutTokens");
  Buf<int32_t> outside({0, 1, 2, 3, 4, 5, 6, 8});  // 8 is past the permutation of 8 slots
  EXPECT_EQ(unpermute(outside), ACL_ERROR_RT_AICORE_EXCEPTION);
}

// The replication / reflection / circular pads take an empty batch and
// nothing else empty (CANN's check before its kernels): an unbatched empty
// self, or an empty non-batch dimension, is 161002; an empty batch runs.
TEST(AdversarialNewOps, ModePadsTakeOnlyAnEmptyBatch) {
  using PadPhase1 = aclnnStatus (*)(const aclTensor*, const aclIntArray*, aclTensor*, uint64_t*, aclOpExecutor**);
  struct Case {
    PadPhase1 phase1;
    Shape self, padding, out;
    aclnnStatus want;
  };
  const Case cases[] = {
      {aclnnReplicationPad1dGetWorkspaceSize, {0, 3}, {1, 1}, {0, 5}, ACLNN_ERR_PARAM_INVALID},
      {aclnnReplicationPad1dGetWorkspaceSize, {2, 0, 3}, {1, 1}, {2, 0, 5}, ACLNN_ERR_PARAM_INVALID},
      {aclnnReplicationPad1dGetWorkspaceSize, {2, 3}, {-2, -1}, {2, 0}, ACLNN_ERR_PARAM_INVALID},
      {aclnnReflectionPad2dGetWorkspaceSize, {2, 0, 3, 3}, {1, 1, 1, 1}, {2, 0, 5, 5}, ACLNN_ERR_PARAM_INVALID},
      {aclnnReplicationPad1dGetWorkspaceSize, {0, 2, 3}, {1, 1}, {0, 2, 5}, ACLNN_SUCCESS},
      {aclnnReflectionPad2dGetWorkspaceSize, {0, 2, 3, 3}, {1, 1, 1, 1}, {0, 2, 5, 5}, ACLNN_SUCCESS},
  };
  for (const Case& c : cases) {
    Buf<float> self(std::vector<float>(1, 0)), out(std::vector<float>(1, 0));
    aclTensor *s = self.View(ACL_FLOAT, c.self, ContiguousStrides(c.self)),
              *d = out.View(ACL_FLOAT, c.out, ContiguousStrides(c.out));
    aclIntArray* padding = aclCreateIntArray(c.padding.data(), c.padding.size());
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(c.phase1(s, padding, d, &workspaceSize, &executor), c.want) << ShapeString(c.self);
    if (executor != nullptr) aclDestroyAclOpExecutor(executor);
    aclDestroyIntArray(padding);
    aclDestroyTensor(s);
    aclDestroyTensor(d);
  }
}

// CalculateMatmulWeightSizeV2 of extents near INT64_MAX: refused without
// overflowing while the extents are padded to whole blocks (UBSan checks).
TEST(AdversarialNewOps, MatmulWeightSizeOfHugeExtentsIsRefused) {
  for (const std::vector<int64_t>& dims : {std::vector<int64_t>{kMax64, 2}, std::vector<int64_t>{3, kMax64}}) {
    aclIntArray* shape = aclCreateIntArray(dims.data(), dims.size());
    uint64_t size = 0;
    EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(shape, ACL_INT8, &size), ACLNN_ERR_PARAM_INVALID);
    aclDestroyIntArray(shape);
  }
}

// An integer tensor meets a FLOAT16 / BFLOAT16 one in the 16-bit dtype, as
// CANN casts both operands to the promoted dtype: INT32 2049 is FLOAT16 2048,
// 65520 is inf, 257 is BFLOAT16 256 (the kernels read it unrounded).
TEST(AdversarialNewOps, IntegerOperandsRoundToTheSixteenBitDtypeTheyMeet) {
  const auto compare = [](BinaryPhase1 phase1, Phase2 phase2, const std::vector<int32_t>& a, aclDataType half,
                          const std::vector<uint16_t>& b) {
    const int64_t n = static_cast<int64_t>(a.size());
    Buf<int32_t> x(a);
    Buf<uint16_t> y(b);
    Buf<uint8_t> out(std::vector<uint8_t>(a.size(), 9));
    aclTensor *s = x.Contiguous(ACL_INT32, {n}), *o = y.Contiguous(half, {n}), *d = out.Contiguous(ACL_BOOL, {n});
    EXPECT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return phase1(s, o, d, w, e); }, phase2, {s, o, d}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    return out.Read();
  };
  const uint16_t f16_2048 = 0x6800, f16_4096 = 0x6c00, f16_inf = 0x7c00, bf16_256 = 0x4380;
  EXPECT_EQ(compare(aclnnEqTensorGetWorkspaceSize, aclnnEqTensor, {2049, 4097, 65520, 2050}, ACL_FLOAT16,
                    {f16_2048, f16_4096, f16_inf, f16_2048}),
            (std::vector<uint8_t>{1, 1, 1, 0}));
  EXPECT_EQ(compare(aclnnGtTensorGetWorkspaceSize, aclnnGtTensor, {2049, 4097, 65520, 2050}, ACL_FLOAT16,
                    {f16_2048, f16_4096, f16_inf, f16_2048}),
            (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(compare(aclnnEqTensorGetWorkspaceSize, aclnnEqTensor, {257, 258}, ACL_BF16, {bf16_256, bf16_256}),
            (std::vector<uint8_t>{1, 0}));
  // Sub in FLOAT16: 2049 - 2048 is 0 there.
  static aclScalar* alpha = nullptr;
  HostScalar<int64_t> one(1, ACL_INT64);
  alpha = one.scalar;
  Buf<int32_t> x({2049, 4097});
  Buf<uint16_t> y({f16_2048, f16_4096}), out(std::vector<uint16_t>(2, 0x3c00));
  aclTensor *s = x.Contiguous(ACL_INT32, {2}), *o = y.Contiguous(ACL_FLOAT16, {2}),
            *d = out.Contiguous(ACL_FLOAT16, {2});
  ASSERT_EQ(RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnSubGetWorkspaceSize(s, o, alpha, d, w, e); },
                    aclnnSub, {s, o, d}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<uint16_t>{0, 0}));
}

// CANN's A2 Muls checks no castability of the result: FLOAT times 2 into an
// INT32 out truncates, and an INT32 selfRef times 2.5 computes in FLOAT and
// truncates back (both were refused with 161002).
TEST(AdversarialNewOps, MulsCastsItsResultToAnyListedOut) {
  HostScalar<float> two(2.0f, ACL_FLOAT), two_and_a_half(2.5f, ACL_FLOAT);
  EXPECT_EQ((WithScalar<float, int32_t>(aclnnMulsGetWorkspaceSize, aclnnMuls, ACL_FLOAT, {1.25f, -3.75f, 7}, two.scalar,
                                        ACL_INT32)),
            (std::vector<int32_t>{2, -7, 14}));
  Buf<int32_t> self({3, -5, 7});
  aclTensor* s = self.Contiguous(ACL_INT32, {3});
  ASSERT_EQ(RunCall([&](uint64_t* w,
                        aclOpExecutor** e) { return aclnnInplaceMulsGetWorkspaceSize(s, two_and_a_half.scalar, w, e); },
                    aclnnInplaceMuls, {s}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(self.Read(), (std::vector<int32_t>{7, -12, 17}));
}

// MoeTokenPermute of no tokens: permutedTokens is [0, hidden] as CANN infers
// it (hidden from tokens' trailing dims, not 0), and [0, 0] is refused.
TEST(AdversarialNewOps, PermuteOfNoTokensKeepsTheHiddenSize) {
  Buf<float> none(std::vector<float>{});
  Buf<int64_t> no_indices(std::vector<int64_t>{});
  Buf<int32_t> no_sorted(std::vector<int32_t>{});
  const auto permute = [&](const Shape& tokens_shape, const Shape& out_shape) {
    aclTensor *t = none.Contiguous(ACL_FLOAT, tokens_shape), *e = no_indices.Contiguous(ACL_INT64, {0, 2});
    aclTensor *p = none.Contiguous(ACL_FLOAT, out_shape), *si = no_sorted.Contiguous(ACL_INT32, {0});
    return RunCall(
        [&](uint64_t* w, aclOpExecutor** ex) {
          return aclnnMoeTokenPermuteGetWorkspaceSize(t, e, 0, false, p, si, w, ex);
        },
        aclnnMoeTokenPermute, {t, e, p, si});
  };
  EXPECT_EQ(permute({0, 4}, {0, 4}), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(permute({0, 2, 2}, {0, 4}), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(permute({0, 4}, {0, 0}), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_EQ(permute({0, 4}, {0, 7, 0}), ACLNN_ERR_INNER_TILING_ERROR);
}

// UpsampleNearestExact2d takes UINT8 on the A2 path (CANN's doc and host code):
// out[y][x] = in[min(floor((y + 0.5) * in / out), in - 1)][...].
TEST(AdversarialNewOps, NearestExactTakesUint8) {
  Buf<uint8_t> in({10, 20, 30, 40, 50, 60}), out(std::vector<uint8_t>(4 * 6, 0));
  aclTensor* s = in.Contiguous(ACL_UINT8, {1, 1, 2, 3}, 0, ACL_FORMAT_NCHW);
  aclTensor* d = out.Contiguous(ACL_UINT8, {1, 1, 4, 6}, 0, ACL_FORMAT_NCHW);
  const int64_t size[2] = {4, 6};
  aclIntArray* output_size = aclCreateIntArray(size, 2);
  ASSERT_EQ(RunCall(
                [&](uint64_t* w, aclOpExecutor** e) {
                  return aclnnUpsampleNearestExact2dGetWorkspaceSize(s, output_size, 0.0, 0.0, d, w, e);
                },
                aclnnUpsampleNearestExact2d, {s, d}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  aclDestroyIntArray(output_size);
  std::vector<uint8_t> want;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 6; ++x) want.push_back(in.host()[static_cast<size_t>(y / 2) * 3 + static_cast<size_t>(x / 2)]);
  }
  EXPECT_EQ(out.Read(), want);
}

// Broadcast views of 2^61 f32 elements (2^63 bytes) are legal views: planning
// LayerNorm / RmsNorm over them once multiplied the output's byte size past
// int64 (undefined behaviour, seen under UBSan) to choose streaming stores.
TEST(AdversarialNewOps, NormsOfAViewOfMoreThanInt64BytesPlanWithoutOverflow) {
  constexpr int64_t kLength = int64_t{1} << 61;
  Buf<float> one({1.0f}), zero({0.0f, 0.0f});
  aclTensor *x = one.View(ACL_FLOAT, {1, kLength}, {0, 0}), *y = zero.View(ACL_FLOAT, {1, kLength}, {0, 0});
  aclTensor *mean = zero.Contiguous(ACL_FLOAT, {1, 1}), *rstd = zero.Contiguous(ACL_FLOAT, {1, 1}, 1);
  aclTensor* gamma = one.View(ACL_FLOAT, {kLength}, {0});
  aclIntArray* normalized = aclCreateIntArray(&kLength, 1);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnLayerNormGetWorkspaceSize(x, normalized, nullptr, nullptr, 1e-5, y, mean, rstd, &workspace, &executor),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto discard = [](aclOpExecutor* planned) {  // never run (2^61 elements)
    EXPECT_EQ(aclSetAclOpExecutorRepeatable(planned), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyAclOpExecutor(planned), ACLNN_SUCCESS);
  };
  discard(executor);
  EXPECT_EQ(aclnnRmsNormGetWorkspaceSize(x, gamma, 1e-6, y, rstd, &workspace, &executor), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  discard(executor);
  aclDestroyIntArray(normalized);
  for (aclTensor* t : {x, y, mean, rstd, gamma}) aclDestroyTensor(t);
}

// A convolution weight whose rows repeat one value (stride 0 along kW): the
// kept-weights snapshot copied and compared oneDNN's size of the view, 2K
// elements, from a buffer of K + 1 (heap-buffer-overflow under ASan).
TEST(AdversarialNewOps, ConvolutionWeightWithAStrideZeroDimIsNotReadPastItsEnd) {
  constexpr int64_t k = 4096;
  std::vector<float> weights(k + 1, 0.0f);
  weights[0] = 2.0f;
  weights[k] = -3.0f;
  Buf<float> w(weights), x(RandomFloats(k, 7, -1, 1)), y({0.0f, 0.0f});
  double sum = 0;
  for (float v : x.host()) sum += v;
  const std::vector<int64_t> one = {1, 1}, zero = {0, 0};
  aclIntArray *stride = aclCreateIntArray(one.data(), 2), *dilation = aclCreateIntArray(one.data(), 2);
  aclIntArray *padding = aclCreateIntArray(zero.data(), 2), *output_padding = aclCreateIntArray(zero.data(), 2);
  for (int run = 0; run < 2; ++run) {  // the second run compares with the kept copy
    aclTensor* input = x.Contiguous(ACL_FLOAT, {1, 1, 1, k}, 0, ACL_FORMAT_NCHW);
    aclTensor* weight = w.View(ACL_FLOAT, {2, 1, 1, k}, {k, 1, 1, 0}, 0, ACL_FORMAT_NCHW);
    aclTensor* output = y.Contiguous(ACL_FLOAT, {1, 2, 1, 1}, 0, ACL_FORMAT_NCHW);
    ASSERT_EQ(RunCall(
                  [&](uint64_t* ws, aclOpExecutor** e) {
                    return aclnnConvolutionGetWorkspaceSize(input, weight, nullptr, stride, padding, dilation, false,
                                                            output_padding, 1, output, 0, ws, e);
                  },
                  aclnnConvolution, {input, weight, output}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ExpectValues(AsDoubles(y.Read()), {2 * sum, -3 * sum}, 1e-4, "stride-0 weight");
  }
  for (aclIntArray* a : {stride, dilation, padding, output_padding}) aclDestroyIntArray(a);
}

// Views sliced with a step over an odd extent (x[..., ::2] of width 5) have
// strides oneDNN will not describe (2 over 3 elements inside a row stride of
// 5): Convolution and AvgPool2d copy them first instead of failing (561000).
TEST(AdversarialNewOps, ConvolutionAndPoolingTakeStepSlicedViews) {
  const std::vector<float> data = RandomFloats(40, 11, -1, 1);
  Buf<float> x(data), w(RandomFloats(3 * 2 * 2 * 2, 12, -1, 1)), y(std::vector<float>(3 * 3 * 2, 0.0f));
  // x = base[1, 2, 4, 5][..., ::2] of a buffer laid out [2, 20]: [1, 2, 4, 3], strides {40, 20, 5, 2}.
  const auto at = [&](int64_t c, int64_t h, int64_t wi) { return double{data[c * 20 + h * 5 + wi * 2]}; };
  const std::vector<int64_t> one = {1, 1}, zero = {0, 0};
  aclIntArray *unit = aclCreateIntArray(one.data(), 2), *none = aclCreateIntArray(zero.data(), 2);
  aclTensor* input = x.View(ACL_FLOAT, {1, 2, 4, 3}, {40, 20, 5, 2}, 0, ACL_FORMAT_NCHW);
  aclTensor* weight = w.Contiguous(ACL_FLOAT, {3, 2, 2, 2}, 0, ACL_FORMAT_NCHW);
  aclTensor* output = y.Contiguous(ACL_FLOAT, {1, 3, 3, 2}, 0, ACL_FORMAT_NCHW);
  ASSERT_EQ(RunCall(
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnConvolutionGetWorkspaceSize(input, weight, nullptr, unit, none, unit, false, none, 1,
                                                          output, 0, ws, e);
                },
                aclnnConvolution, {input, weight, output}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<double> want;
  for (int64_t o = 0; o < 3; ++o) {
    for (int64_t h = 0; h < 3; ++h) {
      for (int64_t wi = 0; wi < 2; ++wi) {
        double sum = 0;
        for (int64_t c = 0; c < 2; ++c) {
          for (int64_t kh = 0; kh < 2; ++kh) {
            for (int64_t kw = 0; kw < 2; ++kw)
              sum += at(c, h + kh, wi + kw) * w.host()[((o * 2 + c) * 2 + kh) * 2 + kw];
          }
        }
        want.push_back(sum);
      }
    }
  }
  ExpectValues(AsDoubles(y.Read()), want, 1e-5, "step-sliced convolution input");

  Buf<float> pooled(std::vector<float>(2 * 3 * 2, 0.0f));
  aclTensor* self = x.View(ACL_FLOAT, {1, 2, 4, 3}, {40, 20, 5, 2}, 0, ACL_FORMAT_NCHW);
  aclTensor* out = pooled.Contiguous(ACL_FLOAT, {1, 2, 3, 2}, 0, ACL_FORMAT_NCHW);
  const std::vector<int64_t> two = {2, 2};
  aclIntArray* kernel = aclCreateIntArray(two.data(), 2);
  ASSERT_EQ(RunCall(
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnAvgPool2dGetWorkspaceSize(self, kernel, unit, none, false, true, 0, 0, out, ws, e);
                },
                aclnnAvgPool2d, {self, out}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  want.clear();
  for (int64_t c = 0; c < 2; ++c) {
    for (int64_t h = 0; h < 3; ++h) {
      for (int64_t wi = 0; wi < 2; ++wi) {
        want.push_back((at(c, h, wi) + at(c, h, wi + 1) + at(c, h + 1, wi) + at(c, h + 1, wi + 1)) / 4);
      }
    }
  }
  ExpectValues(AsDoubles(pooled.Read()), want, 1e-6, "step-sliced pooling input");
  for (aclIntArray* a : {unit, none, kernel}) aclDestroyIntArray(a);
}

// ReduceSum / Prod / Mean with a `dtype` narrower than self convert self to it
// first, as CANN's host code and PyTorch do: FLOAT 70000 in FLOAT16 is inf,
// 1.003 in BFLOAT16 is 1, INT32 200 in INT8 is -56 (the sums were of self's
// values, rounded once at the end).
TEST(AdversarialNewOps, ReductionsConvertSelfToTheirDtypeFirst) {
  const int64_t dim0 = 0;
  aclIntArray* dims = aclCreateIntArray(&dim0, 1);
  const auto sum = [&](aclDataType in_dtype, const auto& values, aclDataType dtype) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    Buf<T> x(values);
    Buf<uint16_t> out({0});
    aclTensor *s = x.Contiguous(in_dtype, {static_cast<int64_t>(values.size())}), *d = out.Contiguous(dtype, {});
    EXPECT_EQ(RunCall([&](uint64_t* w,
                          aclOpExecutor** e) { return aclnnReduceSumGetWorkspaceSize(s, dims, false, dtype, d, w, e); },
                      aclnnReduceSum, {s, d}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    return out.Read()[0];
  };
  EXPECT_TRUE(std::isnan(HalfToDouble(sum(ACL_FLOAT, std::vector<float>{70000, -69990}, ACL_FLOAT16))));
  EXPECT_EQ(Bf16ToDouble(sum(ACL_FLOAT, std::vector<float>(1000, 1.003f), ACL_BF16)), 1000.0);
  EXPECT_EQ(HalfToDouble(sum(ACL_INT32, std::vector<int32_t>{2049, 2049, 2049}, ACL_FLOAT16)), 6144.0);
  EXPECT_EQ(HalfToDouble(sum(ACL_FLOAT16, std::vector<uint16_t>{0x3c00, 0x4000}, ACL_FLOAT16)), 3.0);  // same dtype

  Buf<float> x({70000, 0.5f});
  Buf<uint16_t> product({0});
  aclTensor *s = x.Contiguous(ACL_FLOAT, {2}), *d = product.Contiguous(ACL_FLOAT16, {});
  ASSERT_EQ(RunCall([&](uint64_t* w,
                        aclOpExecutor** e) { return aclnnProdDimGetWorkspaceSize(s, 0, false, ACL_FLOAT16, d, w, e); },
                    aclnnProdDim, {s, d}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(HalfToDouble(product.Read()[0]), kInf);

  Buf<int32_t> ints({200, 100});
  Buf<int8_t> mean({0});
  aclTensor *m = ints.Contiguous(ACL_INT32, {2}), *o = mean.Contiguous(ACL_INT8, {});
  ASSERT_EQ(RunCall([&](uint64_t* w,
                        aclOpExecutor** e) { return aclnnMeanGetWorkspaceSize(m, dims, false, ACL_INT8, o, w, e); },
                    aclnnMean, {m, o}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(mean.Read()[0], 22);
  aclDestroyIntArray(dims);
}

// Convolution ignores outputPadding unless transposed, and CANN's null check
// asks for it only then: a plain convolution takes a null one (161001 before),
// a transposed one still refuses it.
TEST(AdversarialNewOps, PlainConvolutionTakesANullOutputPadding) {
  Buf<float> x({1, 2, 3, 4}), w({0.5f}), y({0, 0, 0, 0});
  const std::vector<int64_t> one = {1, 1}, zero = {0, 0};
  aclIntArray *unit = aclCreateIntArray(one.data(), 2), *none = aclCreateIntArray(zero.data(), 2);
  for (bool transposed : {false, true}) {
    aclTensor* input = x.Contiguous(ACL_FLOAT, {1, 1, 2, 2}, 0, ACL_FORMAT_NCHW);
    aclTensor* weight = w.Contiguous(ACL_FLOAT, {1, 1, 1, 1}, 0, ACL_FORMAT_NCHW);
    aclTensor* output = y.Contiguous(ACL_FLOAT, {1, 1, 2, 2}, 0, ACL_FORMAT_NCHW);
    const aclnnStatus status = RunCall(
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnConvolutionGetWorkspaceSize(input, weight, nullptr, unit, none, unit, transposed, nullptr, 1,
                                                  output, 0, ws, e);
        },
        aclnnConvolution, {input, weight, output});
    if (transposed) {
      EXPECT_EQ(status, ACLNN_ERR_PARAM_NULLPTR);
    } else {
      ASSERT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
      EXPECT_EQ(y.Read(), (std::vector<float>{0.5f, 1, 1.5f, 2}));
    }
  }
  aclDestroyIntArray(unit);
  aclDestroyIntArray(none);
}

// InplaceRandom into a float dtype draws only integers that stay in [from, to)
// once rounded (PyTorch's update_from / update_to, which CANN's host code
// applies): BF16 [0, 1000) gave 1000 for a draw of 999, FLOAT [2^25, 2^25 + 4)
// gave 2^25 + 4. (Their rule tests from + 1, so a `from` of -1003 still rounds
// to -1004 in BF16, there as here.) Complex selfRefs take the draws as
// real parts (the A2 list has them). A range no draw survives is refused.
TEST(AdversarialNewOps, RandomIntoFloatsStaysInsideItsRange) {
  const auto draw = [](aclDataType dtype, int64_t from, int64_t to, auto& buffer, int64_t n) {
    aclTensor* t = buffer.Contiguous(dtype, {n});
    return RunCall(
        [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceRandomGetWorkspaceSize(t, from, to, 7, 0, w, e); },
        aclnnInplaceRandom, {t});
  };
  constexpr int64_t n = 1 << 14;
  struct Case {
    aclDataType dtype;
    int64_t from, to;
  };
  for (const Case& c : {Case{ACL_BF16, 0, 1000}, Case{ACL_BF16, -1000, 0}, Case{ACL_FLOAT16, 0, 4100}}) {
    Buf<uint16_t> values(std::vector<uint16_t>(n, 0));
    ASSERT_EQ(draw(c.dtype, c.from, c.to, values, n), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    for (uint16_t bits : values.Read()) {
      const double v = c.dtype == ACL_BF16 ? Bf16ToDouble(bits) : HalfToDouble(bits);
      ASSERT_TRUE(v >= c.from && v < c.to) << Name(c.dtype) << " [" << c.from << ", " << c.to << "): " << v;
    }
  }
  Buf<float> floats(std::vector<float>(n, 0));
  constexpr int64_t kBig = int64_t{1} << 25;
  ASSERT_EQ(draw(ACL_FLOAT, kBig, kBig + 8, floats, n), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (float v : floats.Read()) ASSERT_TRUE(v >= static_cast<float>(kBig) && v < static_cast<float>(kBig + 8)) << v;
  EXPECT_EQ(draw(ACL_FLOAT, kBig, kBig + 4, floats, n), ACLNN_ERR_PARAM_INVALID);  // only 2^25 + 4 is above 2^25
  Buf<float> complex(std::vector<float>(2 * 8, -1));
  ASSERT_EQ(draw(ACL_COMPLEX64, 3, 5, complex, 8), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<float> parts = complex.Read();
  for (size_t i = 0; i < parts.size(); i += 2) {
    EXPECT_TRUE(parts[i] == 3 || parts[i] == 4) << parts[i];
    EXPECT_EQ(parts[i + 1], 0.0f);
  }
  Buf<uint16_t> none(std::vector<uint16_t>(4, 0));
  EXPECT_EQ(draw(ACL_BF16, 999, 1000, none, 4), ACLNN_ERR_PARAM_INVALID);  // 999 rounds to 1000 in BF16
}

// DropoutGenMask's element count from `shape` past int64 (or wrapping to 0
// with an empty out) is refused; it was signed overflow (UBSan) and accepted.
TEST(AdversarialNewOps, GenMaskOfAShapePastInt64IsRefused) {
  Buf<uint8_t> mask(std::vector<uint8_t>(16, 0));
  for (const std::vector<int64_t>& extents :
       {std::vector<int64_t>{kMax64}, std::vector<int64_t>{int64_t{1} << 32, int64_t{1} << 32},
        std::vector<int64_t>{int64_t{1} << 62, 4, 1}}) {
    aclIntArray* shape = aclCreateIntArray(extents.data(), extents.size());
    aclTensor* out = mask.Contiguous(ACL_UINT8, {extents.size() == 3 ? 0 : 16});
    EXPECT_EQ(
        RunCall([&](uint64_t* w,
                    aclOpExecutor** e) { return aclnnDropoutGenMaskGetWorkspaceSize(shape, 0.5, 1, 0, out, w, e); },
                aclnnDropoutGenMask, {out}),
        ACLNN_ERR_PARAM_INVALID);
    aclDestroyIntArray(shape);
  }
}

// A UINT64 scalar past INT64_MAX is its unsigned value in float math (it was
// read as a negative int64: 1.0 > 2^64 - 1 was true, 1.0 x 2^63 was -2^63),
// and a COMPLEX32 scalar is its two FLOAT16 parts (it was read as 0).
TEST(AdversarialNewOps, UnsignedAndComplex32ScalarsKeepTheirValues) {
  HostScalar<uint64_t> top(~uint64_t{0}, ACL_UINT64), half(uint64_t{1} << 63, ACL_UINT64);
  EXPECT_EQ((WithScalar<float, uint8_t>(aclnnGtScalarGetWorkspaceSize, aclnnGtScalar, ACL_FLOAT, {1.0f, -2.0f},
                                        top.scalar, ACL_BOOL)),
            (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ((WithScalar<float, float>(aclnnMulsGetWorkspaceSize, aclnnMuls, ACL_FLOAT, {1.0f, -0.5f}, half.scalar,
                                      ACL_FLOAT)),
            (std::vector<float>{9223372036854775808.0f, -4611686018427387904.0f}));
  const uint16_t parts[2] = {0x3c00, 0x4000};  // 1 + 2i in FLOAT16 halves
  aclScalar* c32 = aclCreateScalar(const_cast<uint16_t*>(parts), ACL_COMPLEX32);
  HostScalar<int32_t> one(1, ACL_INT32);
  Buf<float> x({1, 1}), out({0, 0});
  aclTensor *s = x.Contiguous(ACL_COMPLEX64, {1}), *d = out.Contiguous(ACL_COMPLEX64, {1});
  ASSERT_EQ(
      RunCall([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddsGetWorkspaceSize(s, c32, one.scalar, d, w, e); },
              aclnnAdds, {s, d}),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{2, 3}));
  aclDestroyScalar(c32);
}

// The other readers of a scalar as a double take a UINT64 past INT64_MAX as
// its value too: Shrink refused a lambd of 2^63 as negative, and FillDiagonal
// let 2^63 into an INT64 tensor as -2^63.
TEST(AdversarialNewOps, UnsignedScalarsPastInt64MaxInEveryReader) {
  HostScalar<uint64_t> lambd(uint64_t{1} << 63, ACL_UINT64);
  HostScalar<float> bias(0.0f, ACL_FLOAT);
  Buf<float> x({3.0f, -2.5f}), out({7.0f, 7.0f});
  aclTensor *s = x.Contiguous(ACL_FLOAT, {2}), *d = out.Contiguous(ACL_FLOAT, {2});
  ASSERT_EQ(
      RunCall([&](uint64_t* w,
                  aclOpExecutor** e) { return aclnnShrinkGetWorkspaceSize(s, lambd.scalar, bias.scalar, d, w, e); },
              aclnnShrink, {s, d}),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{0, 0}));  // |x| <= lambd

  Buf<int64_t> m({1, 2, 3, 4});
  aclTensor* t = m.Contiguous(ACL_INT64, {2, 2});
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnInplaceFillDiagonalGetWorkspaceSize(t, lambd.scalar, false, &size, &executor),
            ACLNN_ERR_PARAM_INVALID);
  HostScalar<uint64_t> fits(uint64_t{INT64_MAX}, ACL_UINT64);
  ASSERT_EQ(
      RunCall([&](uint64_t* w,
                  aclOpExecutor** e) { return aclnnInplaceFillDiagonalGetWorkspaceSize(t, fits.scalar, false, w, e); },
              aclnnInplaceFillDiagonal, {t}),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(m.Read(), (std::vector<int64_t>{INT64_MAX, 2, 3, INT64_MAX}));
}

}  // namespace
}  // namespace canopy_test
