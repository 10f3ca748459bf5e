// Im2col through the public C API against a plain reference (PyTorch's
// unfold, exact: it moves data): each documented dtype, an out of another
// dtype, 3-D and 4-D self, kernel / stride / padding / dilation combinations,
// strided and transposed self and out, an empty batch, the 1-D and 2-D
// patterns ggml's CANN backend uses, and each rejection with its status code.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_im2col.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const View kContiguous = View::kContiguous;

struct Im2colCase {
  std::string name;
  aclDataType dtype = ACL_FLOAT;
  Shape self = {2, 3, 5, 6};
  std::vector<int64_t> kernel = {2, 3}, dilation = {1, 1}, padding = {0, 0}, stride = {1, 1};
  aclDataType outDtype = ACL_DT_UNDEFINED;  // undefined: dtype
  View selfView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const Im2colCase& x, std::ostream* os) { *os << x.name; }

std::vector<Im2colCase> Im2colCases() {
  std::vector<Im2colCase> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})
    cases.push_back({std::string("dtype_") + Name(dtype), dtype});
  cases.push_back({"rank3", ACL_FLOAT, {3, 4, 5}, {3, 2}});
  cases.push_back({"stride_padding_dilation", ACL_FLOAT, {1, 2, 7, 8}, {3, 2}, {2, 3}, {1, 2}, {2, 3}});
  cases.push_back({"padding_wider_than_kernel", ACL_FLOAT16, {1, 1, 2, 3}, {1, 1}, {1, 1}, {2, 1}, {1, 2}});
  cases.push_back({"f16_into_f32", ACL_FLOAT16, {2, 2, 4, 4}, {2, 2}, {1, 1}, {1, 0}, {2, 1}, ACL_FLOAT});
  cases.push_back({"f32_into_bf16", ACL_FLOAT, {3, 4, 4}, {2, 2}, {1, 1}, {0, 0}, {1, 1}, ACL_BF16});
  cases.push_back({"strided",
                   ACL_FLOAT,
                   {2, 3, 5, 4},
                   {2, 2},
                   {1, 1},
                   {1, 1},
                   {1, 1},
                   ACL_DT_UNDEFINED,
                   View::kTransposed,
                   View::kStepped});
  cases.push_back({"reversed_self_offset_out",
                   ACL_BF16,
                   {2, 4, 3},
                   {2, 1},
                   {1, 1},
                   {0, 1},
                   {1, 2},
                   ACL_DT_UNDEFINED,
                   View::kReversed,
                   View::kOffset});
  cases.push_back({"empty_batch", ACL_FLOAT, {0, 2, 3, 3}, {2, 2}});
  // ggml: 2-D im2col (s, p, d per direction), and 1-D as 2-D with s1 = p1 = d1 = 1 on a height of 1
  // (three rows of windows, two of them all padding).
  cases.push_back({"ggml_2d", ACL_FLOAT16, {1, 3, 6, 6}, {3, 3}, {1, 1}, {1, 1}, {1, 1}});
  cases.push_back({"ggml_1d", ACL_FLOAT, {2, 4, 1, 9}, {1, 3}, {1, 2}, {1, 1}, {1, 2}});
  return cases;
}

class Im2colTest : public ::testing::TestWithParam<Im2colCase> {};

TEST_P(Im2colTest, MatchesReference) {
  const Im2colCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const aclDataType outDtype = x.outDtype == ACL_DT_UNDEFINED ? x.dtype : x.outDtype;
  const Shape s4 = x.self.size() == 4 ? x.self : Shape{1, x.self[0], x.self[1], x.self[2]};
  int64_t blocks[2];
  for (size_t i = 0; i < 2; ++i) {
    blocks[i] = (s4[2 + i] + 2 * x.padding[i] - x.dilation[i] * (x.kernel[i] - 1) - 1) / x.stride[i] + 1;
  }
  const Shape out4 = {s4[0], s4[1] * x.kernel[0] * x.kernel[1], blocks[0] * blocks[1]};
  const Shape outShape = x.self.size() == 4 ? out4 : Shape{out4[1], out4[2]};
  DeviceTensor self(x.dtype, x.self, x.selfView);
  const Values values = self.FillRandom(rng, Range{});
  DeviceTensor out(outDtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnIm2colGetWorkspaceSize(args.Tensor(self), args.IntArray(x.kernel), args.IntArray(x.dilation),
                                           args.IntArray(x.padding), args.IntArray(x.stride), args.Tensor(out),
                                           workspaceSize, executor);
      },
      aclnnIm2col);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  for (int64_t e = 0; e < NumElements(out4); ++e) {
    const Shape o = Unravel(e, out4);
    const int64_t c = o[1] / (x.kernel[0] * x.kernel[1]);
    const int64_t i = o[1] / x.kernel[1] % x.kernel[0], j = o[1] % x.kernel[1];
    const int64_t h = o[2] / blocks[1] * x.stride[0] - x.padding[0] + i * x.dilation[0];
    const int64_t w = o[2] % blocks[1] * x.stride[1] - x.padding[1] + j * x.dilation[1];
    const bool inside = h >= 0 && h < s4[2] && w >= 0 && w < s4[3];
    want.push_back(inside ? ConvertValue(values[Ravel({o[0], c, h, w}, s4)], outDtype) : Value(0));
  }
  ExpectExact(out.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(out, before, "out storage");
  ExpectExact(self.ReadView(), values, "self must not change");
}

INSTANTIATE_TEST_SUITE_P(Cases, Im2colTest, ::testing::ValuesIn(Im2colCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

void ExpectRejected(const OpRun& run, const std::string& keyword) {
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << "message should name '" << keyword << "': " << run.message;
}

struct Call {
  aclDataType dtype = ACL_FLOAT;
  Shape self = {1, 2, 4, 4};
  std::vector<int64_t> kernel = {2, 2}, dilation = {1, 1}, padding = {0, 0}, stride = {1, 1};
  aclDataType outDtype = ACL_FLOAT;
  Shape out = {1, 8, 9};
};

OpRun RunIm2col(const Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnIm2colGetWorkspaceSize(a.NewTensor(c.dtype, c.self), a.IntArray(c.kernel), a.IntArray(c.dilation),
                                           a.IntArray(c.padding), a.IntArray(c.stride), a.NewTensor(c.outDtype, c.out),
                                           w, e);
      },
      aclnnIm2col);
}

TEST(Im2colRejects, EachInvalidArgument) {
  Call c;
  EXPECT_TRUE(RunIm2col(c).ok());
  auto with = [](auto change) {
    Call c;
    change(c);
    return RunIm2col(c);
  };
  ExpectRejected(with([](Call& c) { c.dtype = ACL_DOUBLE; }), "'self'");
  ExpectRejected(with([](Call& c) { c.dtype = ACL_INT32; }), "'self'");
  ExpectRejected(with([](Call& c) { c.outDtype = ACL_DOUBLE; }), "'out'");
  ExpectRejected(with([](Call& c) { c.self = {4, 4}; }), "'self'");
  ExpectRejected(with([](Call& c) { c.self = {1, 1, 2, 4, 4}; }), "'self'");
  ExpectRejected(with([](Call& c) { c.self = {1, 0, 4, 4}; }), "empty");
  ExpectRejected(with([](Call& c) { c.self = {0, 4, 4}; }), "empty");
  ExpectRejected(with([](Call& c) { c.kernel = {2}; }), "'kernelSize'");
  ExpectRejected(with([](Call& c) { c.dilation = {1, 1, 1}; }), "'dilation'");
  ExpectRejected(with([](Call& c) { c.padding = {0}; }), "'padding'");
  ExpectRejected(with([](Call& c) { c.stride = {}; }), "'stride'");
  ExpectRejected(with([](Call& c) { c.kernel = {0, 2}; }), "'kernelSize'");
  ExpectRejected(with([](Call& c) { c.dilation = {1, -1}; }), "'dilation'");
  ExpectRejected(with([](Call& c) { c.stride = {0, 1}; }), "'stride'");
  ExpectRejected(with([](Call& c) { c.padding = {-1, 0}; }), "'padding'");
  ExpectRejected(with([](Call& c) { c.kernel = {5, 2}; }), "at least 1 x 1");
  ExpectRejected(with([](Call& c) { c.out = {1, 8, 8}; }), "'out'");
  ExpectRejected(with([](Call& c) { c.out = {8, 9}; }), "'out'");
  EXPECT_TRUE(with([](Call& c) {
                c.self = {2, 4, 4};
                c.out = {8, 9};
                c.outDtype = ACL_FLOAT16;
              }).ok());
}

}  // namespace
}  // namespace canopy_test
