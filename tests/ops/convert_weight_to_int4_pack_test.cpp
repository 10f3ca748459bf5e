// aclnnConvertWeightToINT4Pack through the public C API: INT32 weights packed
// into INT4 or INT32 (8 values a word) and FLOAT weights into FLOAT4_E2M1 or
// FLOAT, ND and FRACTAL_NZ (CANN's storage shapes), 2-D and 3-D, compared byte
// for byte with an independent packing; the doc example's flow (a transposed
// [n, k] weight packed to NZ, viewed as [k, n] and multiplied by
// WeightQuantBatchMatmulV2) against a float64 reference; then the rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_convert_weight_to_int4_pack.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "op_test_support.h"
#include "quant_weight_support.h"

namespace canopy_test {
namespace {

constexpr uint8_t kPoison = 0xA5;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A dense device tensor over raw bytes, with the storage shape the client declares.
struct RawTensor {
  aclDataType dtype;
  Shape shape;
  Shape storage;
  std::unique_ptr<DeviceBuffer> buffer;
  size_t bytes;

  aclTensor* Create(aclFormat format) const {
    const Shape strides = ContiguousStrides(shape);
    return aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, format, storage.data(), storage.size(),
                           buffer->get());
  }
  std::vector<uint8_t> Download() const {
    std::vector<uint8_t> out(bytes);
    EXPECT_EQ(aclrtMemcpy(out.data(), bytes, buffer->get(), bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return out;
  }
};

RawTensor MakeRaw(aclDataType dtype, const Shape& shape, const Shape& storage, size_t bytes) {
  RawTensor t{dtype, shape, storage, std::make_unique<DeviceBuffer>(bytes), bytes};
  const std::vector<uint8_t> poison(bytes, kPoison);
  EXPECT_EQ(aclrtMemcpy(t.buffer->get(), bytes, poison.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  return t;
}

// FLOAT4_E2M1 codes written out from the format's definition: sign bit 3,
// magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6.
const std::vector<float> kE2m1 = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};

uint8_t ExpectedFp4(float v) {
  // CANN keeps sign, exponent and the first mantissa bit; anything else is code 0.
  uint32_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  bits &= 0xFFC00000u;
  float kept = 0;
  std::memcpy(&kept, &bits, sizeof kept);
  for (size_t i = 0; i < kE2m1.size(); ++i) {
    if (std::fabs(kept) == kE2m1[i] && !(kept == 0 && i != 0)) {
      return static_cast<uint8_t>(i | (std::signbit(kept) ? 8 : 0));
    }
  }
  return 0;
}

struct PackCase {
  std::string name;
  aclDataType weightDtype;
  aclDataType packDtype;
  Shape shape;  // the weight's
  aclFormat format = ACL_FORMAT_ND;
};

void PrintTo(const PackCase& c, std::ostream* os) { *os << c.name; }

class ConvertWeightToInt4PackTest : public ::testing::TestWithParam<PackCase> {};

TEST_P(ConvertWeightToInt4PackTest, PacksLikeTheReference) {
  const PackCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const int64_t count = NumElements(c.shape);
  // The weight: INT32 values mostly in [-8, 7] and some outside (their low 4 bits
  // are packed); FLOAT values mostly E2M1's, some truncated or unrepresentable.
  std::vector<uint32_t> words(static_cast<size_t>(count));
  std::vector<uint8_t> codes(static_cast<size_t>(count));
  const std::vector<float> offGrid = {1.25f, -1.75f, 0.25f, 8.0f, -5.0f, 2.5f, 1e-30f, -0.0f};
  for (int64_t i = 0; i < count; ++i) {
    const auto at = static_cast<size_t>(i);
    if (c.weightDtype == ACL_INT32) {
      const bool outside = i % 11 == 3;
      const auto v = static_cast<int32_t>(std::floor(rng.Uniform(outside ? -40 : -8, outside ? 40 : 8)));
      std::memcpy(&words[at], &v, sizeof v);
      codes[at] = static_cast<uint8_t>(static_cast<uint32_t>(v) & 0xFu);
    } else {
      float v = 0;
      if (i % 7 == 5) {
        v = offGrid[static_cast<size_t>(rng.Uniform(0, static_cast<double>(offGrid.size()) - 1e-9))];
      } else {
        v = kE2m1[static_cast<size_t>(rng.Uniform(0, 8 - 1e-9))] * (rng.Uniform(0, 1) < 0.5 ? -1.0f : 1.0f);
      }
      std::memcpy(&words[at], &v, sizeof v);
      codes[at] = ExpectedFp4(v);
    }
  }
  const size_t weightBytes = words.size() * sizeof(uint32_t);
  RawTensor weight = MakeRaw(c.weightDtype, c.shape, c.shape, weightBytes);
  ASSERT_EQ(aclrtMemcpy(weight.buffer->get(), weightBytes, words.data(), weightBytes, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);

  const bool perValue = c.packDtype == ACL_INT4 || c.packDtype == ACL_FLOAT4_E2M1;
  Shape packShape = c.shape;
  if (!perValue) packShape.back() /= 8;
  Shape storage = packShape;
  size_t storageBytes = static_cast<size_t>(count / 2);
  if (c.format == ACL_FORMAT_FRACTAL_NZ) {
    const int64_t rows = packShape[packShape.size() - 2], columns = packShape.back();
    const int64_t block = c.packDtype == ACL_INT4 ? 64 : 8;
    storage = {CeilDiv(columns, block), CeilDiv(rows, 16), 16, block};
    if (packShape.size() == 3) storage.insert(storage.begin(), packShape[0]);
    storageBytes = static_cast<size_t>(NumElements(storage) * (perValue ? 1 : 8) / 2);
  }
  RawTensor pack = MakeRaw(c.packDtype, packShape, storage, storageBytes);
  const OpRun run = RunOp(
      [&](OpArgs&, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* w = weight.Create(ACL_FORMAT_ND);
        aclTensor* p = pack.Create(c.format);
        const aclnnStatus status = aclnnConvertWeightToINT4PackGetWorkspaceSize(w, p, workspaceSize, executor);
        aclDestroyTensor(w);
        aclDestroyTensor(p);
        return status;
      },
      aclnnConvertWeightToINT4Pack);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const std::vector<uint8_t> got = pack.Download();
  for (int64_t i = 0; i < count / 2; ++i) {
    const auto want =
        static_cast<uint8_t>(codes[static_cast<size_t>(2 * i)] | (codes[static_cast<size_t>(2 * i + 1)] << 4));
    ASSERT_EQ(got[static_cast<size_t>(i)], want) << "byte " << i;
  }
  for (size_t i = static_cast<size_t>(count / 2); i < got.size(); ++i) {
    ASSERT_EQ(got[i], kPoison) << "storage byte " << i << " past the packed values was written";
  }
  std::vector<uint32_t> after(words.size());
  ASSERT_EQ(aclrtMemcpy(after.data(), weightBytes, weight.buffer->get(), weightBytes, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(after, words) << "weight must not change";
}

std::vector<PackCase> PackCases() {
  const aclFormat nz = ACL_FORMAT_FRACTAL_NZ;
  return {
      {"s32_to_int4", ACL_INT32, ACL_INT4, {8, 16}},
      {"s32_to_int4_odd_rows", ACL_INT32, ACL_INT4, {17, 72}},
      {"s32_to_int4_3d", ACL_INT32, ACL_INT4, {3, 5, 6}},
      {"s32_to_int4_large", ACL_INT32, ACL_INT4, {512, 1024}},
      {"s32_to_s32", ACL_INT32, ACL_INT32, {7, 24}},
      {"s32_to_s32_3d", ACL_INT32, ACL_INT32, {2, 9, 16}},
      {"s32_to_int4_nz", ACL_INT32, ACL_INT4, {17, 72}, nz},
      {"s32_to_int4_nz_3d", ACL_INT32, ACL_INT4, {2, 33, 128}, nz},
      {"s32_to_s32_nz", ACL_INT32, ACL_INT32, {20, 80}, nz},
      {"f32_to_fp4", ACL_FLOAT, ACL_FLOAT4_E2M1, {6, 10}},
      {"f32_to_f32", ACL_FLOAT, ACL_FLOAT, {4, 32}},
      {"f32_to_fp4_3d", ACL_FLOAT, ACL_FLOAT4_E2M1, {2, 3, 8}},
  };
}

INSTANTIATE_TEST_SUITE_P(Cases, ConvertWeightToInt4PackTest, ::testing::ValuesIn(PackCases()),
                         [](const ::testing::TestParamInfo<PackCase>& info) { return info.param.name; });

// The doc example's flow: an INT32 weight [n, k] packed into an INT4 NZ tensor,
// the tensor re-described as the [k, n] transpose (aclInitTensor), and
// WeightQuantBatchMatmulV2 y = x @ (w * scale) with per-column f16 scales.
TEST(ConvertWeightToInt4PackFlow, TransposedNzWeightFeedsWeightQuantBatchMatmul) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const int64_t m = 16, k = 72, n = 17;
  std::vector<int32_t> q(static_cast<size_t>(n * k));  // [n][k]
  for (int32_t& v : q) v = static_cast<int32_t>(std::floor(rng.Uniform(-8, 8)));
  RawTensor weight = MakeRaw(ACL_INT32, {n, k}, {n, k}, q.size() * sizeof(int32_t));
  ASSERT_EQ(aclrtMemcpy(weight.buffer->get(), weight.bytes, q.data(), weight.bytes, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  const Shape nzStorage = {CeilDiv(k, 64), CeilDiv(n, 16), 16, 64};
  RawTensor pack = MakeRaw(ACL_INT4, {n, k}, nzStorage, static_cast<size_t>(NumElements(nzStorage) / 2));
  ExpectRuns(
      [&](OpArgs&, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* w = weight.Create(ACL_FORMAT_ND);
        aclTensor* p = pack.Create(ACL_FORMAT_FRACTAL_NZ);
        const aclnnStatus status = aclnnConvertWeightToINT4PackGetWorkspaceSize(w, p, workspaceSize, executor);
        aclDestroyTensor(w);
        aclDestroyTensor(p);
        return status;
      },
      aclnnConvertWeightToINT4Pack);

  std::unique_ptr<DeviceTensor> x = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{m, k});
  const Values xv = x->FillRandom(rng, Range{-1, 1});
  std::unique_ptr<DeviceTensor> scale = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{n});
  const Values sv = scale->FillRandom(rng, Range{0.01, 0.1});
  std::unique_ptr<DeviceTensor> y = Poisoned(ACL_FLOAT16, {m, n});
  ExpectRuns(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        const int64_t viewShape[2] = {k, n}, viewStrides[2] = {1, k};
        aclTensor* w = aclCreateTensor(viewShape, 2, ACL_INT4, viewStrides, 0, ACL_FORMAT_FRACTAL_NZ, nzStorage.data(),
                                       nzStorage.size(), pack.buffer->get());
        const aclnnStatus status = aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
            args.Tensor(*x), w, args.Tensor(*scale), nullptr, nullptr, nullptr, nullptr, 0, args.Tensor(*y),
            workspaceSize, executor);
        aclDestroyTensor(w);
        return status;
      },
      aclnnWeightQuantBatchMatmulV2);
  Expected want;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        // The NPU dequantises the weight into the activations' dtype (f16) first.
        const double w = std::real(ConvertValue(q[static_cast<size_t>(j * k + kk)] * std::real(sv[j]), ACL_FLOAT16));
        const double term = std::real(xv[static_cast<size_t>(i * k + kk)]) * w;
        sum += term;
        magnitude += std::fabs(term);
      }
      want.values.emplace_back(sum);
      want.tolerance.push_back(magnitude * 2e-3 + 1e-3);
    }
  }
  ExpectNear(y->ReadView(), want, "y");
}

// ---- rejections --------------------------------------------------------------------------------

struct BadPack {
  std::string name;
  aclDataType weightDtype;
  Shape weightShape;
  aclDataType packDtype;
  Shape packShape;
  std::string keyword;
  // Set by `with` in RejectionCases (aggregate initialisation stops at keyword).
  aclFormat packFormat = ACL_FORMAT_ND;
  Shape packStorage{};  // empty: packShape
  View weightView = View::kContiguous;
  aclFormat weightFormat = ACL_FORMAT_ND;
};

RejectionCase ToRejection(const BadPack& b) {
  return {b.name,
          [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            aclTensor* w = args.NewTensor(b.weightDtype, b.weightShape, b.weightView, b.weightFormat);
            const Shape storage = b.packStorage.empty() ? b.packShape : b.packStorage;
            const Shape strides = ContiguousStrides(b.packShape);
            // Room for any of the packs below, owned by the call like its other tensors.
            constexpr int64_t kRoomBytes = 1 << 16;
            void* room = nullptr;
            aclGetRawTensorAddr(args.NewTensor(ACL_UINT8, {kRoomBytes}), &room);
            aclTensor* p = aclCreateTensor(b.packShape.data(), b.packShape.size(), b.packDtype, strides.data(), 0,
                                           b.packFormat, storage.data(), storage.size(), room);
            const aclnnStatus status = aclnnConvertWeightToINT4PackGetWorkspaceSize(w, p, workspaceSize, executor);
            aclDestroyTensor(p);
            return status;
          },
          aclnnConvertWeightToINT4Pack, b.keyword};
}

std::vector<RejectionCase> RejectionCases() {
  const aclDataType s32 = ACL_INT32, f32 = ACL_FLOAT, i4 = ACL_INT4;
  const aclFormat nz = ACL_FORMAT_FRACTAL_NZ;
  const auto with = [](BadPack b, aclFormat packFormat, Shape packStorage, View weightView, aclFormat weightFormat) {
    b.packFormat = packFormat;
    b.packStorage = std::move(packStorage);
    b.weightView = weightView;
    b.weightFormat = weightFormat;
    return b;
  };
  const View c = View::kContiguous;
  const aclFormat nd = ACL_FORMAT_ND;
  const std::vector<BadPack> bad = {
      with({"non_contiguous_weight", s32, {8, 16}, i4, {8, 16}, "contiguous"}, nd, {}, View::kTransposed, nd),
      {"f16_weight", ACL_FLOAT16, {8, 16}, i4, {8, 16}, "weight"},
      {"int8_pack", s32, {8, 16}, ACL_INT8, {8, 16}, "weightInt4Pack"},
      {"s32_weight_fp4_pack", s32, {8, 16}, ACL_FLOAT4_E2M1, {8, 16}, "weightInt4Pack"},
      {"f32_weight_int4_pack", f32, {8, 16}, i4, {8, 16}, "weightInt4Pack"},
      with({"weight_nz", s32, {8, 16}, i4, {8, 16}, "weight"}, nd, {}, c, nz),
      with({"pack_nchw", s32, {8, 16}, i4, {8, 16}, "weightInt4Pack"}, ACL_FORMAT_NCHW, {}, c, nd),
      {"rank1", s32, {16}, i4, {16}, "weight"},
      {"odd_last_dim", s32, {8, 15}, i4, {8, 15}, "multiple of 2"},
      {"s32_pack_last_dim_not_8", s32, {8, 12}, s32, {8, 1}, "multiple of 8"},
      {"int4_shape_mismatch", s32, {8, 16}, i4, {8, 8}, "weightInt4Pack"},
      {"s32_shape_mismatch", s32, {8, 16}, s32, {8, 16}, "weightInt4Pack"},
      {"rows_mismatch", s32, {8, 16}, i4, {4, 16}, "weightInt4Pack"},
      {"leading_dim_mismatch", s32, {2, 8, 16}, i4, {3, 8, 16}, "weightInt4Pack"},
      with({"nz_storage_wrong", s32, {17, 72}, i4, {17, 72}, "storage"}, nz, {1, 2, 16, 64}, c, nd),
      with({"nz_storage_rank", s32, {17, 72}, i4, {17, 72}, "storage"}, nz, {17, 72}, c, nd),
      with({"nz_s32_storage_wrong", s32, {20, 80}, s32, {20, 10}, "storage"}, nz, {1, 2, 16, 16}, c, nd),
      {"empty", s32, {0, 16}, i4, {0, 16}, "empty"},
  };
  std::vector<RejectionCase> cases;
  for (const BadPack& b : bad) cases.push_back(ToRejection(b));
  RejectionCase null = ToRejection(bad[0]);
  null.name = "null_weight";
  null.phase1 = [](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return aclnnConvertWeightToINT4PackGetWorkspaceSize(nullptr, args.NewTensor(ACL_INT32, {2, 2}), workspaceSize,
                                                        executor);
  };
  null.keyword = "weight";
  null.expected = ACLNN_ERR_PARAM_NULLPTR;
  cases.push_back(null);
  return cases;
}

class ConvertWeightToInt4PackRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ConvertWeightToInt4PackRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ConvertWeightToInt4PackRejectionTest, ::testing::ValuesIn(RejectionCases()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
