// The copy kernels the data-movement ops run on, through those ops' public
// API, compared byte for byte: same-dtype copies move bits (kernels/
// strided_copy.h: rows, register-tile transposes for 2- and 4-byte elements
// with tails and streaming stores, an element loop otherwise) and the row
// gather of GatherV2 splits its rows over the engine's team. Storage is
// random bytes, so float elements include NaNs with payloads, which a copy
// must keep; inputs and outputs take strided, offset and transposed views.
// Run also with CANOPY_CPU_FEATURES=none (the portable loops).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_repeat.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

// One dtype of each element size the copy loops specialise (1, 2, 4, 8, 16 bytes), plus the other 2- and 4-byte
// floats and integers the register transposes serve.
const std::vector<aclDataType> kSizes = {ACL_INT8,  ACL_FLOAT16, ACL_BF16,      ACL_INT16,     ACL_FLOAT,
                                         ACL_INT32, ACL_INT64,   ACL_COMPLEX64, ACL_COMPLEX128};

std::vector<uint8_t> RandomBytes(Rng& rng, size_t count) {
  std::vector<uint8_t> bytes(count);
  for (auto& byte : bytes) byte = static_cast<uint8_t>(rng.Uniform(0, 256));
  return bytes;
}

// A tensor whose whole storage is random bytes; returns its elements' bytes in row-major view order.
std::vector<uint8_t> FillBytes(DeviceTensor& tensor, Rng& rng) {
  const size_t size = ElementBytes(tensor.dtype());
  const std::vector<uint8_t> storage = RandomBytes(rng, tensor.bytes());
  tensor.UploadBytes(storage);
  std::vector<uint8_t> logical;
  for (const int64_t at : tensor.layout().ElementIndices()) {
    logical.insert(logical.end(), storage.begin() + at * static_cast<int64_t>(size),
                   storage.begin() + (at + 1) * static_cast<int64_t>(size));
  }
  return logical;
}

// The bytes of a tensor's elements in row-major view order.
std::vector<uint8_t> ViewBytes(const DeviceTensor& tensor) {
  const size_t size = ElementBytes(tensor.dtype());
  const std::vector<uint8_t> storage = tensor.DownloadBytes();
  std::vector<uint8_t> logical;
  for (const int64_t at : tensor.layout().ElementIndices()) {
    logical.insert(logical.end(), storage.begin() + at * static_cast<int64_t>(size),
                   storage.begin() + (at + 1) * static_cast<int64_t>(size));
  }
  return logical;
}

// Expects equal bytes, naming the first element that differs.
void ExpectSameBytes(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, size_t element,
                     const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      ADD_FAILURE() << what << ": element " << i / element << " differs (byte " << i % element << ": got "
                    << int{got[i]} << ", want " << int{want[i]} << ")";
      return;
    }
  }
}

// ---- Permute: the transposes -----------------------------------------------------------------------

struct PermuteCase {
  std::string name;
  aclDataType dtype;
  Shape shape;
  std::vector<int64_t> dims;
  View selfView = View::kContiguous;
  View outView = View::kContiguous;
};
void PrintTo(const PermuteCase& x, std::ostream* os) { *os << x.name; }

std::vector<PermuteCase> PermuteCases() {
  std::vector<PermuteCase> cases;
  for (const aclDataType dtype : kSizes) {
    const std::string n = Name(dtype);
    // Tiles with tails on both sides (37 x 53), whole tiles of every size (64 x 96), a batch dimension.
    cases.push_back({n + "_37x53", dtype, {37, 53}, {1, 0}});
    cases.push_back({n + "_64x96", dtype, {64, 96}, {1, 0}});
    cases.push_back({n + "_batch_3x33x70", dtype, {3, 33, 70}, {0, 2, 1}});
    cases.push_back({n + "_stepped_self", dtype, {40, 70}, {1, 0}, View::kStepped});
    cases.push_back({n + "_offset_out", dtype, {64, 64}, {1, 0}, View::kContiguous, View::kOffset});
    cases.push_back({n + "_stepped_out", dtype, {33, 64}, {1, 0}, View::kContiguous, View::kStepped});
    cases.push_back({n + "_rotate_4x5x34x6", dtype, {4, 5, 34, 6}, {3, 0, 2, 1}});
    // Whole strips walked in stacks: 223 rows are an odd or even count of whole tiles (3 of 64 bytes, 6 of 32
    // 2-byte ones, 13, 27, 55) and a short tile, per batch; the team splits the batches' strips anywhere. Also
    // written from an output that starts mid-line (5 elements in).
    cases.push_back({n + "_stacks_2x223x70", dtype, {2, 223, 70}, {0, 2, 1}});
    cases.push_back({n + "_stacks_offset_out", dtype, {2, 223, 70}, {0, 2, 1}, View::kContiguous, View::kOffset});
  }
  // Outputs past 4 MiB, where the transposes stream their stores: aligned, and an offset out (not aligned).
  cases.push_back({"f32_stream_1024x1056", ACL_FLOAT, {1024, 1056}, {1, 0}});
  cases.push_back({"bf16_stream_1056x2048", ACL_BF16, {1056, 2048}, {1, 0}});
  cases.push_back({"f16_stream_batch_2x1024x1040", ACL_FLOAT16, {2, 1024, 1040}, {0, 2, 1}});
  cases.push_back({"s32_stream_offset_out", ACL_INT32, {1040, 1024}, {1, 0}, View::kContiguous, View::kOffset});
  cases.push_back({"f32_stream_transposed_self", ACL_FLOAT, {1024, 1040}, {1, 0}, View::kTransposed});
  cases.push_back({"s8_stream_2048x2112", ACL_INT8, {2048, 2112}, {1, 0}});
  cases.push_back({"c64_stream_640x1030", ACL_COMPLEX64, {640, 1030}, {1, 0}});
  cases.push_back({"c128_stream_batch_2x260x1024", ACL_COMPLEX128, {2, 260, 1024}, {0, 2, 1}});
  cases.push_back({"c128_stream_offset_out", ACL_COMPLEX128, {1030, 300}, {1, 0}, View::kContiguous, View::kOffset});
  cases.push_back({"f64_stream_transposed_self", ACL_DOUBLE, {700, 1030}, {1, 0}, View::kTransposed});
  cases.push_back({"bool_37x53", ACL_BOOL, {37, 53}, {1, 0}});
  return cases;
}

class StridedCopyPermuteTest : public ::testing::TestWithParam<PermuteCase> {};

TEST_P(StridedCopyPermuteTest, MovesEveryByte) {
  const PermuteCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(x.dtype, x.shape, x.selfView);
  std::vector<uint8_t> in = FillBytes(self, rng);
  if (x.dtype == ACL_BOOL) {
    for (auto& byte : in) byte &= 1;  // bool storage holds 0 or 1
    std::vector<uint8_t> storage = self.DownloadBytes();
    for (auto& byte : storage) byte &= 1;
    self.UploadBytes(storage);
  }
  const size_t size = ElementBytes(x.dtype);
  const size_t rank = x.shape.size();
  Shape outShape(rank);
  for (size_t k = 0; k < rank; ++k) outShape[k] = x.shape[x.dims[k]];
  std::vector<uint8_t> want(in.size());
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    const Shape at = Unravel(i, outShape);
    Shape from(rank);
    for (size_t k = 0; k < rank; ++k) from[x.dims[k]] = at[k];
    std::memcpy(want.data() + i * size, in.data() + Ravel(from, x.shape) * size, size);
  }
  DeviceTensor out(x.dtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  OpArgs args;
  aclTensor* s = args.Tensor(self);
  aclIntArray* dims = args.IntArray(x.dims);
  aclTensor* o = args.Tensor(out);
  const OpRun run =
      RunOp([&](OpArgs&, uint64_t* ws, aclOpExecutor** e) { return aclnnPermuteGetWorkspaceSize(s, dims, o, ws, e); },
            aclnnPermute);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectSameBytes(ViewBytes(out), want, size, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, StridedCopyPermuteTest, ::testing::ValuesIn(PermuteCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// ---- Cat and Repeat: rows ---------------------------------------------------------------------------

struct RowsCase {
  std::string name;
  aclDataType dtype;
  Shape shape;
  int64_t dim;  // Cat: along dim; Repeat: repeats 3 along dim, 2 along the next
  View selfView = View::kContiguous;
  View outView = View::kContiguous;
};
void PrintTo(const RowsCase& x, std::ostream* os) { *os << x.name; }

// Cat takes no COMPLEX128 (Repeat does).
std::vector<RowsCase> RowsCases(bool complex128) {
  std::vector<RowsCase> cases;
  for (const aclDataType dtype : kSizes) {
    if (dtype == ACL_COMPLEX128 && !complex128) continue;
    const std::string n = Name(dtype);
    cases.push_back({n + "_dim0", dtype, {5, 7, 9}, 0});
    cases.push_back({n + "_last_dim", dtype, {5, 7, 9}, -1});
    cases.push_back({n + "_stepped_in_offset_out", dtype, {6, 10}, 1, View::kStepped, View::kOffset});
    cases.push_back({n + "_transposed_in_out", dtype, {6, 10}, 0, View::kTransposed, View::kTransposed});
  }
  // Large enough to split over the team.
  cases.push_back({"f32_large_dim0", ACL_FLOAT, {256, 1030}, 0});
  cases.push_back({"bf16_large_last_dim", ACL_BF16, {1030, 300}, 1});
  cases.push_back({"s8_large_last_dim", ACL_INT8, {700, 513}, -1, View::kContiguous, View::kOffset});
  // Transposed members, split over the team: strips of 16 rows with a short last one per batch.
  cases.push_back({"f32_large_transposed", ACL_FLOAT, {1030, 300}, 1, View::kTransposed});
  cases.push_back({"f32_transposed_batches", ACL_FLOAT, {3, 37, 520}, 0, View::kTransposed});
  cases.push_back({"bf16_transposed_batches_last_dim", ACL_BF16, {3, 37, 1000}, -1, View::kTransposed});
  return cases;
}

class StridedCopyCatTest : public ::testing::TestWithParam<RowsCase> {};

TEST_P(StridedCopyCatTest, MovesEveryByte) {
  const RowsCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const size_t size = ElementBytes(x.dtype);
  const auto rank = static_cast<int64_t>(x.shape.size());
  const int64_t d = x.dim < 0 ? x.dim + rank : x.dim;
  // Three members, the second one twice as long along dim.
  std::vector<Shape> shapes(3, x.shape);
  shapes[1][d] *= 2;
  std::vector<std::unique_ptr<DeviceTensor>> members;
  std::vector<std::vector<uint8_t>> bytes;
  Shape outShape = x.shape;
  outShape[d] = 0;
  for (const Shape& shape : shapes) {
    members.push_back(std::make_unique<DeviceTensor>(x.dtype, shape, x.selfView));
    bytes.push_back(FillBytes(*members.back(), rng));
    outShape[d] += shape[d];
  }
  const int64_t outer = std::accumulate(x.shape.begin(), x.shape.begin() + d, int64_t{1}, std::multiplies<>());
  std::vector<uint8_t> want;
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t m = 0; m < shapes.size(); ++m) {
      const auto block = static_cast<int64_t>(size) *
                         std::accumulate(shapes[m].begin() + d, shapes[m].end(), int64_t{1}, std::multiplies<>());
      want.insert(want.end(), bytes[m].begin() + o * block, bytes[m].begin() + (o + 1) * block);
    }
  }
  DeviceTensor out(x.dtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  OpArgs args;
  std::vector<aclTensor*> list;
  for (const auto& member : members) list.push_back(args.Tensor(*member));
  aclTensorList* tensors = args.TensorList(list);
  aclTensor* o = args.Tensor(out);
  const OpRun run = RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** e) { return aclnnCatGetWorkspaceSize(tensors, x.dim, o, ws, e); },
      aclnnCat);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectSameBytes(ViewBytes(out), want, size, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, StridedCopyCatTest, ::testing::ValuesIn(RowsCases(false)),
                         [](const auto& info) { return SanitizeName(info.param.name); });

class StridedCopyRepeatTest : public ::testing::TestWithParam<RowsCase> {};

TEST_P(StridedCopyRepeatTest, MovesEveryByte) {
  const RowsCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const size_t size = ElementBytes(x.dtype);
  const auto rank = static_cast<int64_t>(x.shape.size());
  const int64_t d = x.dim < 0 ? x.dim + rank : x.dim;
  // Repeats 3 along d and 2 along the next dimension (around to 0), plus a new leading one of 2.
  std::vector<int64_t> repeats(static_cast<size_t>(rank) + 1, 1);
  repeats[0] = 2;
  repeats[d + 1] = 3;
  repeats[(d + 1) % rank + 1] = 2;
  DeviceTensor self(x.dtype, x.shape, x.selfView);
  const std::vector<uint8_t> in = FillBytes(self, rng);
  Shape selfShape = x.shape;
  selfShape.insert(selfShape.begin(), 1);
  Shape outShape(selfShape.size());
  for (size_t k = 0; k < outShape.size(); ++k) outShape[k] = selfShape[k] * repeats[k];
  std::vector<uint8_t> want(static_cast<size_t>(NumElements(outShape)) * size);
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape at = Unravel(i, outShape);
    for (size_t k = 0; k < at.size(); ++k) at[k] %= selfShape[k];
    std::memcpy(want.data() + i * size, in.data() + Ravel(at, selfShape) * size, size);
  }
  DeviceTensor out(x.dtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  OpArgs args;
  aclTensor* s = args.Tensor(self);
  aclIntArray* r = args.IntArray(repeats);
  aclTensor* o = args.Tensor(out);
  const OpRun run =
      RunOp([&](OpArgs&, uint64_t* ws, aclOpExecutor** e) { return aclnnRepeatGetWorkspaceSize(s, r, o, ws, e); },
            aclnnRepeat);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectSameBytes(ViewBytes(out), want, size, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, StridedCopyRepeatTest, ::testing::ValuesIn(RowsCases(true)),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// ---- GatherV2: rows by index, split over the team ----------------------------------------------------

struct GatherCase {
  std::string name;
  aclDataType dtype;
  Shape shape;
  int64_t dim;
  Shape indexShape;
  aclDataType indexDtype = ACL_INT64;
  View selfView = View::kContiguous;
  View outView = View::kContiguous;
};
void PrintTo(const GatherCase& x, std::ostream* os) { *os << x.name; }

std::vector<GatherCase> GatherCases() {
  return {
      // Wide rows (llama.cpp's token embeddings), many of them: the gather splits them over the team.
      {"f32_rows_4099", ACL_FLOAT, {300, 4099}, 0, {1000}},
      {"bf16_rows_4096_int32", ACL_BF16, {257, 4096}, 0, {2, 700}, ACL_INT32},
      {"f16_rows_offset_out", ACL_FLOAT16, {100, 2048}, 0, {900}, ACL_INT64, View::kContiguous, View::kOffset},
      // Dimensions before and after dim (rows of [2, 64] merged into one run), and short rows.
      {"s8_middle_dim", ACL_INT8, {3, 200, 2, 64}, 1, {5, 7}},
      {"c128_middle_dim_stepped_self", ACL_COMPLEX128, {4, 50, 6}, 1, {40}, ACL_INT32, View::kStepped},
      {"s32_last_dim", ACL_INT32, {64, 300}, 1, {2000}},
      {"f32_transposed_out", ACL_FLOAT, {40, 300}, 0, {3000}, ACL_INT64, View::kContiguous, View::kTransposed},
  };
}

class StridedCopyGatherTest : public ::testing::TestWithParam<GatherCase> {};

TEST_P(StridedCopyGatherTest, MovesEveryByte) {
  const GatherCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const size_t size = ElementBytes(x.dtype);
  const auto d = static_cast<size_t>(x.dim);
  const int64_t extent = x.shape[d];
  DeviceTensor self(x.dtype, x.shape, x.selfView);
  const std::vector<uint8_t> in = FillBytes(self, rng);
  // Values in [-extent, extent): GatherV2 counts negative ones from the end.
  Values indices(static_cast<size_t>(NumElements(x.indexShape)));
  for (auto& v : indices) v = std::floor(rng.Uniform(static_cast<double>(-extent), static_cast<double>(extent)));
  DeviceTensor index(x.indexDtype, x.indexShape);
  index.WriteView(indices);
  Shape outShape(x.shape.begin(), x.shape.begin() + x.dim);
  outShape.insert(outShape.end(), x.indexShape.begin(), x.indexShape.end());
  outShape.insert(outShape.end(), x.shape.begin() + x.dim + 1, x.shape.end());
  const int64_t outer = std::accumulate(x.shape.begin(), x.shape.begin() + x.dim, int64_t{1}, std::multiplies<>());
  const auto row = static_cast<int64_t>(size) *
                   std::accumulate(x.shape.begin() + x.dim + 1, x.shape.end(), int64_t{1}, std::multiplies<>());
  std::vector<uint8_t> want;
  for (int64_t o = 0; o < outer; ++o) {
    for (const Value& v : indices) {
      const auto r =
          static_cast<int64_t>(v.real()) < 0 ? static_cast<int64_t>(v.real()) + extent : static_cast<int64_t>(v.real());
      const auto first = in.begin() + (o * extent + r) * row;
      want.insert(want.end(), first, first + row);
    }
  }
  DeviceTensor out(x.dtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  OpArgs args;
  aclTensor* s = args.Tensor(self);
  aclTensor* i = args.Tensor(index);
  aclTensor* o = args.Tensor(out);
  const OpRun run = RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** e) { return aclnnGatherV2GetWorkspaceSize(s, x.dim, i, o, ws, e); },
      aclnnGatherV2);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectSameBytes(ViewBytes(out), want, size, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
}

INSTANTIATE_TEST_SUITE_P(Cases, StridedCopyGatherTest, ::testing::ValuesIn(GatherCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// An index past the end of a table large enough to be split over the team
// fails the stream, and nothing of out is written.
TEST(StridedCopyGather, OutOfRangeIndexFailsTheStreamAndWritesNothing) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(ACL_FLOAT, {64, 4096});
  FillBytes(self, rng);
  Values indices(2000);
  for (auto& v : indices) v = std::floor(rng.Uniform(0, 64));
  indices[1500] = 64;
  DeviceTensor index(ACL_INT64, {2000});
  index.WriteView(indices);
  DeviceTensor out(ACL_FLOAT, {2000, 4096});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  OpArgs args;
  aclTensor* s = args.Tensor(self);
  aclTensor* i = args.Tensor(index);
  aclTensor* o = args.Tensor(out);
  const OpRun run =
      RunOp([&](OpArgs&, uint64_t* ws, aclOpExecutor** e) { return aclnnGatherV2GetWorkspaceSize(s, 0, i, o, ws, e); },
            aclnnGatherV2);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("element 1500 of 'index' is 64"), std::string::npos) << run.message;
  EXPECT_EQ(out.DownloadBytes(), before) << "nothing may be written";
}

}  // namespace
}  // namespace canopy_test
