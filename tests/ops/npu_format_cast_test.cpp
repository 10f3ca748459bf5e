// NpuFormatCast through the public API: CalculateSizeAndFormat's shapes and
// formats for each A2 pair (CANN's example among them), every A2 dtype cast to
// each convolution layout and back against an independent reference of the
// blocked storage (padding zero), ND <-> FRACTAL_NZ keeping Canopy's NZ (the
// view row-major), empty tensors and the rejections with their codes.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_npu_format_cast.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

constexpr auto kDhwcn = static_cast<aclFormat>(31);  // GE's DHWCN
const std::vector<aclDataType> kDtypes = {ACL_INT8, ACL_UINT8, ACL_INT32, ACL_UINT32, ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

struct SizeResult {
  aclnnStatus status = -1;
  Shape shape;
  int format = -1;
};

SizeResult CalculateSize(aclDataType dtype, const Shape& shape, aclFormat format, int dstFormat,
                         int additionalDtype = -1) {
  DeviceTensor src(dtype, shape);
  aclTensor* descriptor = src.CreateDescriptor(format);
  int64_t* dims = nullptr;
  uint64_t count = 0;
  SizeResult result;
  result.status =
      aclnnNpuFormatCastCalculateSizeAndFormat(descriptor, dstFormat, additionalDtype, &dims, &count, &result.format);
  if (result.status == ACLNN_SUCCESS) result.shape.assign(dims, dims + count);
  delete[] dims;
  aclDestroyTensor(descriptor);
  return result;
}

TEST(NpuFormatCastSize, GivesEachPairsStorageShape) {
  struct Case {
    aclDataType dtype;
    Shape shape;
    aclFormat src;
    int dst, additional;
    Shape want;
    int wantFormat;
  };
  const std::vector<Case> cases = {
      {ACL_FLOAT16, {3, 40}, ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ, -1, {3, 1, 16, 16}, ACL_FORMAT_FRACTAL_NZ},
      {ACL_INT8, {2, 5, 33, 70}, ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ, -1, {2, 5, 3, 3, 16, 32}, ACL_FORMAT_FRACTAL_NZ},
      {ACL_FLOAT, {17, 9}, ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ, ACL_FLOAT16, {1, 2, 16, 16}, ACL_FORMAT_FRACTAL_NZ},
      {ACL_INT32, {4, 3, 8}, ACL_FORMAT_NCL, ACL_FORMAT_FRACTAL_NZ, -1, {4, 1, 1, 16, 8}, ACL_FORMAT_FRACTAL_NZ},
      {ACL_BF16, {2, 3, 5, 7}, ACL_FORMAT_NCHW, ACL_FORMAT_FRACTAL_NZ, -1, {2, 3, 1, 1, 16, 16}, ACL_FORMAT_FRACTAL_NZ},
      {ACL_FLOAT16, {3, 40}, ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_ND, -1, {3, 40}, ACL_FORMAT_ND},
      // CANN's example: INT32 NCDHW [1, 17, 1, 2, 2] to NDC1HWC0.
      {ACL_INT32, {1, 17, 1, 2, 2}, ACL_FORMAT_NCDHW, ACL_FORMAT_NDC1HWC0, -1, {1, 1, 3, 2, 2, 8}, ACL_FORMAT_NDC1HWC0},
      {ACL_FLOAT16,
       {2, 4, 5, 1, 33},
       ACL_FORMAT_NDHWC,
       ACL_FORMAT_NDC1HWC0,
       -1,
       {2, 4, 3, 5, 1, 16},
       ACL_FORMAT_NDC1HWC0},
      {ACL_FLOAT, {2, 9, 3, 4}, ACL_FORMAT_NCHW, ACL_FORMAT_NC1HWC0, -1, {2, 2, 3, 4, 8}, ACL_FORMAT_NC1HWC0},
      {ACL_INT8, {2, 3, 4, 40}, ACL_FORMAT_NHWC, ACL_FORMAT_NC1HWC0, -1, {2, 2, 3, 4, 32}, ACL_FORMAT_NC1HWC0},
      {ACL_FLOAT16, {20, 17, 3, 3}, ACL_FORMAT_NCHW, ACL_FORMAT_FRACTAL_Z, -1, {18, 2, 16, 16}, ACL_FORMAT_FRACTAL_Z},
      {ACL_FLOAT, {3, 3, 5, 33}, ACL_FORMAT_HWCN, ACL_FORMAT_FRACTAL_Z, -1, {9, 3, 16, 8}, ACL_FORMAT_FRACTAL_Z},
      {ACL_FLOAT16, {5, 17, 2, 3, 3}, ACL_FORMAT_NCDHW, ACL_FRACTAL_Z_3D, -1, {36, 1, 16, 16}, ACL_FRACTAL_Z_3D},
      {ACL_FLOAT16, {2, 3, 3, 17, 5}, kDhwcn, ACL_FRACTAL_Z_3D, -1, {36, 1, 16, 16}, ACL_FRACTAL_Z_3D},
      {ACL_FLOAT, {2, 9, 3, 4}, ACL_FORMAT_NC1HWC0, ACL_FORMAT_NCHW, -1, {2, 9, 3, 4}, ACL_FORMAT_NCHW},
      {ACL_FLOAT, {3, 3, 5, 33}, ACL_FORMAT_FRACTAL_Z, ACL_FORMAT_HWCN, -1, {3, 3, 5, 33}, ACL_FORMAT_HWCN},
  };
  for (const Case& c : cases) {
    const SizeResult got = CalculateSize(c.dtype, c.shape, c.src, c.dst, c.additional);
    const std::string what =
        std::string(Name(c.dtype)) + ShapeString(c.shape) + " " + std::to_string(c.src) + "->" + std::to_string(c.dst);
    ASSERT_EQ(got.status, ACLNN_SUCCESS) << what << ": " << aclGetRecentErrMsg();
    EXPECT_EQ(got.shape, c.want) << what;
    EXPECT_EQ(got.format, c.wantFormat) << what;
  }
}

TEST(NpuFormatCastSize, RejectsWithCannsCodes) {
  // CANN's code: a null srcTensor is 161002 (its doc says 161001), an empty one and an unconverted pair 361001.
  int64_t* dims = nullptr;
  uint64_t count = 0;
  int format = 0;
  EXPECT_EQ(aclnnNpuFormatCastCalculateSizeAndFormat(nullptr, ACL_FORMAT_FRACTAL_NZ, -1, &dims, &count, &format),
            ACLNN_ERR_PARAM_INVALID);
  DeviceTensor src(ACL_FLOAT16, {4, 4});
  aclTensor* descriptor = src.CreateDescriptor();
  EXPECT_EQ(aclnnNpuFormatCastCalculateSizeAndFormat(descriptor, ACL_FORMAT_FRACTAL_NZ, -1, nullptr, &count, &format),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dstShape"), std::string::npos);
  aclDestroyTensor(descriptor);
  EXPECT_EQ(CalculateSize(ACL_FLOAT16, {4, 4}, ACL_FORMAT_ND, ACL_FORMAT_NC1HWC0).status, ACLNN_ERR_RUNTIME_ERROR);
  EXPECT_EQ(CalculateSize(ACL_FLOAT16, {0, 4}, ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ).status, ACLNN_ERR_RUNTIME_ERROR);
  EXPECT_EQ(CalculateSize(ACL_FLOAT16, {2, 3, 4, 5}, ACL_FORMAT_NCHW, ACL_FORMAT_FRACTAL_NZ, ACL_INT8).status,
            ACLNN_ERR_RUNTIME_ERROR);
  EXPECT_EQ(CalculateSize(ACL_INT16, {4, 4}, ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ).status, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(CalculateSize(ACL_FLOAT16, {4, 4}, ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ, ACL_INT16).status,
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(CalculateSize(ACL_FLOAT16, {4}, ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ).status, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(CalculateSize(ACL_FLOAT16, {4, 4}, ACL_FORMAT_FRACTAL_NZ_C0_16, ACL_FORMAT_ND).status,
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(CalculateSize(ACL_FLOAT16, {2, 3, 4}, ACL_FORMAT_NCHW, ACL_FORMAT_NC1HWC0).status, ACLNN_ERR_PARAM_INVALID);
}

// ---- casts

struct ConvCase {
  aclFormat plain, blocked;
  Shape shape;  // in the plain format's axis order
};

std::string_view Letters(aclFormat format) {
  static const std::vector<std::pair<aclFormat, std::string_view>> kLetters = {
      {ACL_FORMAT_NCHW, "NCHW"},   {ACL_FORMAT_NHWC, "NHWC"},   {ACL_FORMAT_HWCN, "HWCN"},
      {ACL_FORMAT_NCDHW, "NCDHW"}, {ACL_FORMAT_NDHWC, "NDHWC"}, {kDhwcn, "DHWCN"}};
  for (const auto& [known, letters] : kLetters) {
    if (known == format) return letters;
  }
  return "";
}

// The plain tensor's value at canonical coordinates (n, c, d, h, w).
double PlainAt(const Values& plain, const ConvCase& c, int64_t n, int64_t ch, int64_t d, int64_t h, int64_t w) {
  const std::string_view letters = Letters(c.plain);
  Shape index;
  for (char letter : letters) {
    index.push_back(letter == 'N' ? n : letter == 'C' ? ch : letter == 'D' ? d : letter == 'H' ? h : w);
  }
  return plain[static_cast<size_t>(Ravel(index, c.shape))].real();
}

int64_t Extent(const ConvCase& c, char axis) {
  const std::string_view letters = Letters(c.plain);
  const size_t at = letters.find(axis);
  return at == std::string_view::npos ? 1 : c.shape[at];
}

// The blocked storage, walked in storage order, each element traced back to its
// plain coordinates (or padding: 0).
Values BlockedReference(const Values& plain, const ConvCase& c, const Shape& storage) {
  const int64_t n_count = Extent(c, 'N'), c_count = Extent(c, 'C'), d_count = Extent(c, 'D'), h_count = Extent(c, 'H'),
                w_count = Extent(c, 'W');
  const int64_t c0 = storage.back(), c1_count = (c_count + c0 - 1) / c0;
  const bool channels = c.blocked == ACL_FORMAT_NC1HWC0 || c.blocked == ACL_FORMAT_NDC1HWC0;
  Values out;
  for (int64_t flat = 0; flat < NumElements(storage); ++flat) {
    const Shape at = Unravel(flat, storage);
    int64_t n = 0, ch = 0, d = 0, h = 0, w = 0;
    if (channels && storage.size() == 5) {  // N C1 H W C0
      n = at[0], ch = at[1] * c0 + at[4], h = at[2], w = at[3];
    } else if (channels) {  // N D C1 H W C0
      n = at[0], d = at[1], ch = at[2] * c0 + at[5], h = at[3], w = at[4];
    } else {  // (D C1 H W) N1 N0 C0
      int64_t row = at[0];
      w = row % w_count, row /= w_count;
      h = row % h_count, row /= h_count;
      const int64_t c1 = row % c1_count;
      d = row / c1_count;
      n = at[1] * 16 + at[2], ch = c1 * c0 + at[3];
    }
    const bool inside = n < n_count && ch < c_count && d < d_count;
    out.emplace_back(inside ? PlainAt(plain, c, n, ch, d, h, w) : 0.0);
  }
  return out;
}

Layout BlockedLayout(const Shape& view, const Shape& storage) {
  Layout layout;
  layout.shape = view;
  layout.strides = ContiguousStrides(view);
  layout.storageShape = storage;
  return layout;
}

OpRun Cast(const DeviceTensor& src, aclFormat srcFormat, const DeviceTensor& dst, aclFormat dstFormat) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnNpuFormatCastGetWorkspaceSize(args.Tensor(src, srcFormat), args.Tensor(dst, dstFormat), ws, ex);
      },
      aclnnNpuFormatCast);
}

// Casts random `dtype` data of `c` to the blocked layout of storage shape
// `storage`, compares every storage element, and casts it back.
void ExpectRoundTrip(Rng& rng, aclDataType dtype, const ConvCase& c, const Shape& storage, const std::string& what) {
  const Values plain = RandomValues(rng, dtype, NumElements(c.shape), Range{-100, 100});
  auto src = Upload(dtype, c.shape, plain);
  DeviceTensor blocked(dtype, BlockedLayout(c.shape, storage));
  blocked.Poison();
  const OpRun to = Cast(*src, c.plain, blocked, c.blocked);
  ASSERT_TRUE(to.ok()) << what << ": " << Describe(to);
  ExpectExact(blocked.DownloadStorage(), BlockedReference(plain, c, storage), what + " blocked");
  auto back = Poisoned(dtype, c.shape);
  const OpRun from = Cast(blocked, c.blocked, *back, c.plain);
  ASSERT_TRUE(from.ok()) << what << ": " << Describe(from);
  ExpectExact(back->ReadView(), plain, what + " back");
}

TEST(NpuFormatCast, ConvolutionLayoutsRoundTripEveryDtype) {
  const std::vector<ConvCase> cases = {
      {ACL_FORMAT_NCHW, ACL_FORMAT_NC1HWC0, {2, 37, 3, 2}},
      {ACL_FORMAT_NHWC, ACL_FORMAT_NC1HWC0, {2, 3, 2, 19}},
      {ACL_FORMAT_NCDHW, ACL_FORMAT_NDC1HWC0, {1, 17, 2, 2, 3}},
      {ACL_FORMAT_NDHWC, ACL_FORMAT_NDC1HWC0, {2, 2, 3, 2, 9}},
      {ACL_FORMAT_NCHW, ACL_FORMAT_FRACTAL_Z, {18, 5, 2, 3}},
      {ACL_FORMAT_HWCN, ACL_FORMAT_FRACTAL_Z, {2, 3, 9, 17}},
      {ACL_FORMAT_NCDHW, ACL_FRACTAL_Z_3D, {3, 11, 2, 2, 2}},
      {kDhwcn, ACL_FRACTAL_Z_3D, {2, 2, 3, 7, 20}},
      {ACL_FORMAT_NCHW, ACL_FORMAT_NC1HWC0, {0, 5, 2, 2}},  // empty
  };
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType dtype : kDtypes) {
    for (const ConvCase& c : cases) {
      const std::string what = std::string(Name(dtype)) + " " + std::string(Letters(c.plain)) + ShapeString(c.shape) +
                               "->" + std::to_string(c.blocked);
      const int64_t c0 = 32 / static_cast<int64_t>(ElementBytes(dtype));
      // The storage shape comes from CalculateSizeAndFormat for non-empty tensors (checked above).
      SizeResult size;
      if (NumElements(c.shape) > 0) {
        size = CalculateSize(dtype, c.shape, c.plain, c.blocked);
        ASSERT_EQ(size.status, ACLNN_SUCCESS) << what << ": " << aclGetRecentErrMsg();
      } else {
        size.shape = {0, (c.shape[1] + c0 - 1) / c0, c.shape[2], c.shape[3], c0};
      }
      ExpectRoundTrip(rng, dtype, c, size.shape, what);
    }
  }
}

// The same view cast with two C0s (FLOAT at its own 8 and at FLOAT16's 16): the
// storage shape tells them apart, a plan-cache hit included.
TEST(NpuFormatCast, TakesC0FromTheStorageShape) {
  Rng rng = Rng::ForCurrentTest();
  const ConvCase c = {ACL_FORMAT_NCHW, ACL_FORMAT_NC1HWC0, {2, 20, 2, 3}};
  for (int additional : {-1, static_cast<int>(ACL_FLOAT16), -1}) {
    const SizeResult size = CalculateSize(ACL_FLOAT, c.shape, c.plain, c.blocked, additional);
    ASSERT_EQ(size.status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ExpectRoundTrip(rng, ACL_FLOAT, c, size.shape, "additionalDtype " + std::to_string(additional));
  }
}

TEST(NpuFormatCast, NzKeepsTheViewRowMajorAndRoundTrips) {
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType dtype : kDtypes) {
    for (const Shape& shape : {Shape{3, 40}, Shape{2, 17, 33}, Shape{2, 1, 2, 5, 7}}) {
      const std::string what = std::string(Name(dtype)) + ShapeString(shape);
      const SizeResult size = CalculateSize(dtype, shape, ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ);
      ASSERT_EQ(size.status, ACLNN_SUCCESS) << what;
      const Values values = RandomValues(rng, dtype, NumElements(shape), Range{-100, 100});
      auto src = Upload(dtype, shape, values);
      DeviceTensor nz(dtype, BlockedLayout(shape, size.shape));
      nz.Poison();
      const OpRun to = Cast(*src, ACL_FORMAT_ND, nz, ACL_FORMAT_FRACTAL_NZ);
      ASSERT_TRUE(to.ok()) << what << ": " << Describe(to);
      ExpectExact(nz.ReadView(), values, what + " nz view");
      auto back = Poisoned(dtype, shape);
      const OpRun from = Cast(nz, ACL_FORMAT_FRACTAL_NZ, *back, ACL_FORMAT_ND);
      ASSERT_TRUE(from.ok()) << what << ": " << Describe(from);
      ExpectExact(back->ReadView(), values, what + " back");
    }
  }
}

// What a client does with a weight (torch_npu's npu_format_cast, then a matmul
// taking an NZ weight): the product is the ND weight's.
TEST(NpuFormatCast, NzWeightFeedsMatmulWeightNz) {
  const int64_t m = 3, k = 40, n = 24;
  Rng rng = Rng::ForCurrentTest();
  const Values x = RandomValues(rng, ACL_FLOAT16, m * k, Range{-1, 1});
  const Values w = RandomValues(rng, ACL_FLOAT16, k * n, Range{-1, 1});
  const SizeResult size = CalculateSize(ACL_FLOAT16, {k, n}, ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ);
  ASSERT_EQ(size.status, ACLNN_SUCCESS);
  auto weight = Upload(ACL_FLOAT16, {k, n}, w);
  DeviceTensor nz(ACL_FLOAT16, BlockedLayout({k, n}, size.shape));
  const OpRun cast = Cast(*weight, ACL_FORMAT_ND, nz, ACL_FORMAT_FRACTAL_NZ);
  ASSERT_TRUE(cast.ok()) << Describe(cast);
  auto self = Upload(ACL_FLOAT16, {m, k}, x);
  auto out = Poisoned(ACL_FLOAT16, {m, n});
  ExpectRuns(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMatmulWeightNzGetWorkspaceSize(args.Tensor(*self), args.Tensor(nz, ACL_FORMAT_FRACTAL_NZ),
                                                   args.Tensor(*out), 0, ws, ex);
      },
      aclnnMatmulWeightNz);
  Shape outShape;
  const std::optional<Expected> want =
      ReferenceMatmul(x, {m, k}, w, {k, n}, MatmulPrecisionFor(ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, 0), &outShape);
  ASSERT_TRUE(want.has_value());
  ExpectNear(out->ReadView(), *want, "x @ NZ weight");
}

TEST(NpuFormatCast, SameFormatIsACopy) {
  Rng rng = Rng::ForCurrentTest();
  const Values values = RandomValues(rng, ACL_FLOAT, 6, Range{});
  auto src = Upload(ACL_FLOAT, {2, 3}, values);
  auto dst = Poisoned(ACL_FLOAT, {2, 3});
  const OpRun run = Cast(*src, ACL_FORMAT_ND, *dst, ACL_FORMAT_ND);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(dst->ReadView(), values, "copy");
}

std::vector<RejectionCase> Rejections() {
  // dstTensor has srcTensor's view shape over `dstStorage`.
  struct Spec {
    std::string name;
    aclDataType dtype;
    Shape shape;
    aclFormat srcFormat;
    Shape dstStorage;
    aclFormat dstFormat;
    std::string keyword;
    View srcView = View::kContiguous;
    aclDataType dstDtype = ACL_DT_UNDEFINED;  // srcTensor's
  };
  const Shape nz = {1, 1, 16, 16};
  const std::vector<Spec> specs = {
      {"non_contiguous_src",
       ACL_FLOAT16,
       {4, 4},
       ACL_FORMAT_ND,
       nz,
       ACL_FORMAT_FRACTAL_NZ,
       "srcTensor",
       View::kTransposed},
      {"int16", ACL_INT16, {4, 4}, ACL_FORMAT_ND, nz, ACL_FORMAT_FRACTAL_NZ, "srcTensor"},
      {"dtypes_differ",
       ACL_FLOAT16,
       {4, 4},
       ACL_FORMAT_ND,
       nz,
       ACL_FORMAT_FRACTAL_NZ,
       "dtype",
       View::kContiguous,
       ACL_BF16},
      {"unsupported_pair", ACL_FLOAT16, {2, 3, 4, 4}, ACL_FORMAT_ND, {2, 1, 4, 4, 16}, ACL_FORMAT_NC1HWC0, "format"},
      {"wrong_nz_storage", ACL_FLOAT16, {4, 40}, ACL_FORMAT_ND, {2, 1, 16, 16}, ACL_FORMAT_FRACTAL_NZ, "storage shape"},
      {"wrong_blocked_storage",
       ACL_FLOAT,
       {2, 9, 3, 4},
       ACL_FORMAT_NCHW,
       {2, 1, 3, 4, 8},
       ACL_FORMAT_NC1HWC0,
       "storage shape"},
      {"plain_rank", ACL_FLOAT, {2, 9, 3}, ACL_FORMAT_NCHW, {2, 2, 3, 1, 8}, ACL_FORMAT_NC1HWC0, "dimensions"},
  };
  std::vector<RejectionCase> cases;
  for (const Spec& s : specs) {
    cases.push_back({s.name,
                     [s](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
                       aclTensor* src = args.NewTensor(s.dtype, s.shape, s.srcView, s.srcFormat);
                       const aclDataType dstDtype = s.dstDtype == ACL_DT_UNDEFINED ? s.dtype : s.dstDtype;
                       auto dst = std::make_shared<DeviceTensor>(dstDtype, BlockedLayout(s.shape, s.dstStorage));
                       aclTensor* dstDescriptor = args.Tensor(*dst, s.dstFormat);
                       return aclnnNpuFormatCastGetWorkspaceSize(src, dstDescriptor, ws, ex);
                     },
                     aclnnNpuFormatCast, s.keyword});
  }
  return cases;
}

class NpuFormatCastRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(NpuFormatCastRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, NpuFormatCastRejects, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
