// Scatter, ScatterValue, their in-place forms, and IndexFillTensor /
// InplaceIndexFillTensor through the public C API against plain references:
// every documented dtype, replace / add / multiply with duplicate indices (in
// index order, deterministic), int32 and int64 indices, negative dims and
// fill positions, strided and transposed operands, rank 0, empty tensors,
// ggml's RoPE sign pattern, index values out of range at run time (a stream
// error with a message, nothing written) and each rejection with its code.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_scatter.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const View kContiguous = View::kContiguous;

void ExpectRejected(const OpRun& run, const std::string& keyword) {
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << "message should name '" << keyword << "': " << run.message;
}

// ---- Scatter ----------------------------------------------------------------------------------------

const std::vector<aclDataType> kScatterDtypes = {ACL_UINT8,  ACL_INT8,      ACL_INT16,      ACL_INT32,
                                                 ACL_INT64,  ACL_BOOL,      ACL_FLOAT16,    ACL_FLOAT,
                                                 ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

enum class Form { kOut, kInplace, kValue, kInplaceValue };
bool IsValueForm(Form f) { return f == Form::kValue || f == Form::kInplaceValue; }
bool IsInplace(Form f) { return f == Form::kInplace || f == Form::kInplaceValue; }
const char* FormName(Form f) {
  static const char* const kNames[] = {"out", "inplace", "value", "inplace_value"};
  return kNames[static_cast<int>(f)];
}

OpRun RunScatter(Form form, aclTensor* self, int64_t dim, aclTensor* index, aclTensor* src, aclScalar* value,
                 int64_t reduce, aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* w, aclOpExecutor** e) {
        switch (form) {
          case Form::kOut:
            return aclnnScatterGetWorkspaceSize(self, dim, index, src, reduce, out, w, e);
          case Form::kInplace:
            return aclnnInplaceScatterGetWorkspaceSize(self, dim, index, src, reduce, w, e);
          case Form::kValue:
            return aclnnScatterValueGetWorkspaceSize(self, dim, index, value, reduce, out, w, e);
          case Form::kInplaceValue:
            return aclnnInplaceScatterValueGetWorkspaceSize(self, dim, index, value, reduce, w, e);
        }
        return ACLNN_ERR_INNER;
      },
      form == Form::kOut       ? aclnnScatter
      : form == Form::kInplace ? aclnnInplaceScatter
      : form == Form::kValue   ? aclnnScatterValue
                               : aclnnInplaceScatterValue);
}

struct ScatterCase {
  std::string name;
  Form form = Form::kOut;
  aclDataType dtype = ACL_FLOAT;
  int64_t reduce = 0;
  Shape self = {4, 5};
  int64_t dim = 0;
  Shape index = {6, 3};  // more rows than self: duplicates along dim 0
  Shape src = {6, 4};    // larger than index: only index's corner is read
  aclDataType indexDtype = ACL_INT64;
  View selfView = kContiguous;
  View indexView = kContiguous;
  View srcView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const ScatterCase& x, std::ostream* os) { *os << x.name; }

std::vector<ScatterCase> ScatterCases() {
  std::vector<ScatterCase> cases;
  for (Form form : {Form::kOut, Form::kInplace, Form::kValue, Form::kInplaceValue}) {
    const std::string f = std::string(FormName(form)) + "_";
    for (aclDataType dtype : kScatterDtypes) {
      for (int64_t reduce : {0, 1, 2}) {
        cases.push_back({f + Name(dtype) + "_reduce" + std::to_string(reduce), form, dtype, reduce});
      }
    }
    cases.push_back({f + "dim1_s32_index", form, ACL_FLOAT, 1, {3, 4}, 1, {3, 6}, {3, 7}, ACL_INT32});
    cases.push_back({f + "negative_dim", form, ACL_INT32, 2, {2, 3, 4}, -1, {2, 2, 5}, {2, 3, 5}});
    cases.push_back({f + "rank0", form, ACL_DOUBLE, 1, {}, 0, {}, {}});
    cases.push_back({f + "rank0_negative_dim", form, ACL_FLOAT, 0, {}, -1, {}, {}});
    cases.push_back({f + "strided",
                     form,
                     ACL_FLOAT16,
                     1,
                     {5, 4},
                     1,
                     {3, 4},
                     {4, 6},
                     ACL_INT32,
                     View::kTransposed,
                     View::kStepped,
                     View::kTransposed,
                     View::kStepped});
    cases.push_back({f + "reversed_offset",
                     form,
                     ACL_INT64,
                     0,
                     {3, 4, 2},
                     1,
                     {2, 5, 2},
                     {3, 5, 2},
                     ACL_INT64,
                     View::kReversed,
                     View::kReversed,
                     View::kOffset,
                     View::kOffset});
    cases.push_back({f + "empty_index", form, ACL_FLOAT, 1, {3, 4}, 0, {0, 4}, {2, 4}});
    cases.push_back({f + "rank8",
                     form,
                     ACL_BF16,
                     1,
                     {2, 1, 2, 3, 1, 2, 1, 2},
                     3,
                     {2, 1, 2, 4, 1, 2, 1, 1},
                     {2, 1, 2, 4, 1, 2, 1, 2}});
  }
  return cases;
}

// Small values so that sums and products of duplicates stay exact in every dtype.
Range ScatterRange(aclDataType dtype, int64_t reduce) {
  if (reduce == 2) return Range{-1.5, 1.5, 0, 0, true};  // integers in [-1, 1]: no overflow
  return IsUnsigned(dtype) ? Range{0, 20, 0, 0, true} : Range{-8, 8, 0, 0, true};
}

class ScatterTest : public ::testing::TestWithParam<ScatterCase> {};

// Twice on new tensors: the second call is a plan-cache hit bound to new addresses.
TEST_P(ScatterTest, MatchesReferenceTwice) {
  const ScatterCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const bool value = IsValueForm(x.form);
  const bool inPlace = IsInplace(x.form);
  const auto rank = static_cast<int64_t>(x.self.size());
  const int64_t dim = x.dim < 0 ? x.dim + std::max<int64_t>(rank, 1) : x.dim;
  const Shape self1 = x.self.empty() ? Shape{1} : x.self;
  const Shape index1 = x.index.empty() ? Shape{1} : x.index;
  const Shape src1 = x.src.empty() ? Shape{1} : x.src;
  const Value scalar = ConvertValue(IsUnsigned(x.dtype) ? 3.0 : -3.0, x.dtype);
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    DeviceTensor self(x.dtype, x.self, x.selfView);
    const Values original = self.FillRandom(rng, ScatterRange(x.dtype, x.reduce));
    DeviceTensor src(x.dtype, value ? Shape{1} : x.src, x.srcView);
    const Values updates = src.FillRandom(rng, ScatterRange(x.dtype, x.reduce));
    DeviceTensor index(x.indexDtype, x.index, x.indexView);
    std::vector<int64_t> picks;
    Values encoded;
    for (int64_t k = 0; k < NumElements(x.index); ++k) {
      picks.push_back(
          std::min<int64_t>(self1[dim] - 1, static_cast<int64_t>(rng.Uniform(0, static_cast<double>(self1[dim])))));
      encoded.push_back(static_cast<double>(picks.back()));
    }
    index.WriteView(encoded);
    DeviceTensor out(x.dtype, x.self, x.outView);
    out.Poison();
    const std::vector<uint8_t> before = (inPlace ? self : out).DownloadBytes();
    OpArgs args;
    const OpRun run =
        RunScatter(x.form, args.Tensor(self), x.dim, args.Tensor(index), value ? nullptr : args.Tensor(src),
                   value ? args.Scalar(ACL_DOUBLE, scalar) : nullptr, x.reduce, inPlace ? nullptr : args.Tensor(out));
    ASSERT_TRUE(run.ok()) << Describe(run);
    Values want = original;
    for (int64_t k = 0; k < NumElements(x.index); ++k) {
      const Shape p = Unravel(k, index1);
      Shape at = p;
      at[dim] = picks[k];
      Value& target = want[Ravel(at, self1)];
      const Value u = value ? scalar : updates[Ravel(p, src1)];
      target = ConvertValue(x.reduce == 0 ? u : x.reduce == 1 ? target + u : target * u, x.dtype);
    }
    const DeviceTensor& result = inPlace ? self : out;
    ExpectExact(result.ReadView(), want, x.name);
    ExpectOutsideViewUnchanged(result, before, "result storage");
    if (!value) ExpectExact(src.ReadView(), updates, "src must not change");
    if (!inPlace) ExpectExact(self.ReadView(), original, "self must not change");
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, ScatterTest, ::testing::ValuesIn(ScatterCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// PyTorch's example: src rows scattered by index along dim 0 (no duplicates).
TEST(Scatter, DocumentedExample) {
  DeviceTensor self(ACL_INT64, {3, 5});
  self.WriteView(Values(15, 0.0));
  DeviceTensor src(ACL_INT64, {2, 5});
  src.WriteView({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  DeviceTensor index(ACL_INT64, {1, 4});
  index.WriteView({0, 1, 2, 0});
  OpArgs args;
  const OpRun run =
      RunScatter(Form::kInplace, args.Tensor(self), 0, args.Tensor(index), args.Tensor(src), nullptr, 0, nullptr);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(self.ReadView(), {1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0}, "selfRef");
}

TEST(Scatter, OutOfRangeIndexFailsTheStreamAndWritesNothing) {
  for (Form form : {Form::kOut, Form::kInplace, Form::kValue, Form::kInplaceValue}) {
    for (aclDataType indexDtype : {ACL_INT32, ACL_INT64}) {
      for (int64_t bad : {int64_t{4}, int64_t{-1}, int64_t{-2147483647}}) {
        SCOPED_TRACE(std::string(FormName(form)) + " " + Name(indexDtype) + " " + std::to_string(bad));
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor self(ACL_FLOAT, {4, 3});
        self.FillRandom(rng, Range{});
        DeviceTensor src(ACL_FLOAT, {2, 3});
        src.FillRandom(rng, Range{});
        DeviceTensor index(indexDtype, {2, 3});
        index.WriteView({0, 1, 2, 3, static_cast<double>(bad), 1});
        DeviceTensor out(ACL_FLOAT, {4, 3});
        out.Poison();
        const std::vector<uint8_t> before = (IsInplace(form) ? self : out).DownloadBytes();
        OpArgs args;
        const OpRun run = RunScatter(
            form, args.Tensor(self), 0, args.Tensor(index), IsValueForm(form) ? nullptr : args.Tensor(src),
            IsValueForm(form) ? args.Scalar(ACL_FLOAT, 2) : nullptr, 1, IsInplace(form) ? nullptr : args.Tensor(out));
        EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);  // phase 1 cannot see the values
        EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
        EXPECT_NE(run.message.find("out of range"), std::string::npos) << run.message;
        EXPECT_NE(run.message.find("'index'"), std::string::npos) << run.message;
        EXPECT_NE(run.message.find(std::to_string(bad)), std::string::npos) << run.message;
        EXPECT_EQ((IsInplace(form) ? self : out).DownloadBytes(), before) << "nothing may be written";
      }
    }
  }
}

OpRun CallScatter(Form form, aclDataType selfDtype, const Shape& self, int64_t dim, aclDataType indexDtype,
                  const Shape& index, aclDataType srcDtype, const Shape& src, int64_t reduce, aclDataType outDtype,
                  const Shape& out, aclDataType valueDtype = ACL_FLOAT) {
  OpArgs a;
  return RunScatter(form, a.NewTensor(selfDtype, self), dim, a.NewTensorIn(Range{0, 0, 0, 0, true}, indexDtype, index),
                    IsValueForm(form) ? nullptr : a.NewTensor(srcDtype, src),
                    IsValueForm(form) ? a.Scalar(valueDtype, 1) : nullptr, reduce,
                    IsInplace(form) ? nullptr : a.NewTensor(outDtype, out));
}

TEST(ScatterRejects, EachInvalidArgument) {
  const aclDataType f = ACL_FLOAT, i = ACL_INT64;
  for (Form form : {Form::kOut, Form::kInplace, Form::kValue, Form::kInplaceValue}) {
    SCOPED_TRACE(FormName(form));
    const bool value = IsValueForm(form), inPlace = IsInplace(form);
    const char* self = inPlace ? "'selfRef'" : "'self'";
    ExpectRejected(CallScatter(form, ACL_UINT16, {4, 3}, 0, i, {2, 3}, ACL_UINT16, {2, 3}, 0, ACL_UINT16, {4, 3}),
                   self);
    ExpectRejected(CallScatter(form, f, {4, 3}, 0, ACL_INT16, {2, 3}, f, {2, 3}, 0, f, {4, 3}), "'index'");
    ExpectRejected(CallScatter(form, f, {4, 3}, 0, i, {2, 3}, f, {2, 3}, 3, f, {4, 3}), "'reduce'");
    ExpectRejected(CallScatter(form, f, {4, 3}, 0, i, {2, 3}, f, {2, 3}, -1, f, {4, 3}), "'reduce'");
    ExpectRejected(CallScatter(form, f, {4, 3}, 2, i, {2, 3}, f, {2, 3}, 0, f, {4, 3}), "'dim'");
    ExpectRejected(CallScatter(form, f, {4, 3}, -3, i, {2, 3}, f, {2, 3}, 0, f, {4, 3}), "'dim'");
    ExpectRejected(CallScatter(form, f, {4, 3}, 0, i, {2}, f, {2, 3}, 0, f, {4, 3}), "rank");
    ExpectRejected(CallScatter(form, f, {4, 3}, 0, i, {2, 4}, f, {2, 4}, 0, f, {4, 3}), "'index'");
    ExpectRejected(CallScatter(form, f, {}, 1, i, {}, f, {}, 0, f, {}), "'dim'");
    if (!value) {
      ExpectRejected(CallScatter(form, f, {4, 3}, 0, i, {2, 3}, ACL_FLOAT16, {2, 3}, 0, f, {4, 3}), "'src'");
      ExpectRejected(CallScatter(form, f, {4, 3}, 0, i, {2, 3}, f, {2, 3, 1}, 0, f, {4, 3}), "rank");
      ExpectRejected(CallScatter(form, f, {4, 3}, 0, i, {3, 3}, f, {2, 3}, 0, f, {4, 3}), "'src'");
    } else {
      ExpectRejected(CallScatter(form, f, {4, 3}, 0, i, {2, 3}, f, {2, 3}, 0, f, {4, 3}, ACL_COMPLEX64), "'value'");
      EXPECT_TRUE(
          CallScatter(form, ACL_COMPLEX64, {4, 3}, 0, i, {2, 3}, f, {2, 3}, 0, ACL_COMPLEX64, {4, 3}, ACL_COMPLEX64)
              .ok());
    }
    if (!inPlace) {
      ExpectRejected(CallScatter(form, f, {4, 3}, 0, i, {2, 3}, f, {2, 3}, 0, ACL_INT32, {4, 3}), "'out'");
      ExpectRejected(CallScatter(form, f, {4, 3}, 0, i, {2, 3}, f, {2, 3}, 0, f, {4, 4}), "'out'");
    }
    // An empty index is a copy: its dtype and the shape rules go unchecked, as in CANN.
    EXPECT_TRUE(CallScatter(form, f, {4, 3}, 5, ACL_FLOAT, {0}, f, {2, 3}, 0, f, {4, 3}).ok());
    EXPECT_TRUE(CallScatter(form, f, {4, 3}, -2, ACL_INT32, {9, 2}, f, {9, 3}, 2, f, {4, 3}).ok());
  }
}

// ---- IndexFillTensor / InplaceIndexFillTensor -------------------------------------------------------

const std::vector<aclDataType> kIndexFillDtypes = {ACL_INT32, ACL_FLOAT16, ACL_FLOAT, ACL_INT64, ACL_BOOL, ACL_BF16};

OpRun RunIndexFill(bool inPlace, aclTensor* self, int64_t dim, aclIntArray* index, aclScalar* value, aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* w, aclOpExecutor** e) {
        return inPlace ? aclnnInplaceIndexFillTensorGetWorkspaceSize(self, dim, index, value, w, e)
                       : aclnnIndexFillTensorGetWorkspaceSize(self, dim, index, value, out, w, e);
      },
      inPlace ? aclnnInplaceIndexFillTensor : aclnnIndexFillTensor);
}

struct IndexFillCase {
  std::string name;
  bool inPlace = false;
  aclDataType dtype = ACL_FLOAT;
  Shape self = {5, 4};
  int64_t dim = 0;
  std::vector<int64_t> index = {0, 2, -1, 2};  // a negative position and a duplicate
  double value = -2.5;
  View selfView = kContiguous;
  View outView = kContiguous;
};
void PrintTo(const IndexFillCase& x, std::ostream* os) { *os << x.name; }

std::vector<IndexFillCase> IndexFillCases() {
  std::vector<IndexFillCase> cases;
  for (bool inPlace : {false, true}) {
    const std::string f = inPlace ? "inplace_" : "out_";
    for (aclDataType dtype : kIndexFillDtypes) cases.push_back({f + Name(dtype), inPlace, dtype});
    cases.push_back({f + "dim1_runs", inPlace, ACL_FLOAT, {3, 7, 2}, 1, {1, 2, 3, 5, 6, -7}, 4});
    cases.push_back({f + "negative_dim", inPlace, ACL_INT32, {3, 4, 5}, -1, {-5, 4}, 9});
    cases.push_back({f + "rank0", inPlace, ACL_FLOAT, {}, 0, {0}, 7});
    cases.push_back({f + "rank0_negative", inPlace, ACL_INT64, {}, -1, {-1, 0}, 7});
    cases.push_back({f + "empty_index", inPlace, ACL_FLOAT16, {3, 4}, 1, {}, 7});
    cases.push_back({f + "empty_self", inPlace, ACL_FLOAT, {0, 4}, 1, {3}, 7});
    cases.push_back({f + "strided", inPlace, ACL_BF16, {4, 5}, 1, {0, 4}, 3, View::kTransposed, View::kStepped});
    cases.push_back({f + "reversed_offset", inPlace, ACL_BOOL, {3, 2, 4}, 2, {1}, 0, View::kReversed, View::kOffset});
    // ggml's RoPE sign pattern: a [ne0, 1, 1, 1] f32 tensor, positions i / 2 * 2 along dim 3 set to -1.
    cases.push_back({f + "ggml_rope_signs", inPlace, ACL_FLOAT, {1, 1, 1, 8}, 3, {0, 0, 2, 2, 4, 4, 6, 6}, -1});
  }
  return cases;
}

class IndexFillTensorTest : public ::testing::TestWithParam<IndexFillCase> {};

TEST_P(IndexFillTensorTest, MatchesReference) {
  const IndexFillCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const auto rank = static_cast<int64_t>(x.self.size());
  const Shape self1 = x.self.empty() ? Shape{1} : x.self;
  const int64_t dim = x.dim < 0 ? x.dim + std::max<int64_t>(rank, 1) : x.dim;
  DeviceTensor self(x.dtype, x.self, x.selfView);
  const Values original = self.FillRandom(rng, Range{});
  DeviceTensor out(x.dtype, x.self, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = (x.inPlace ? self : out).DownloadBytes();
  OpArgs args;
  const OpRun run = RunIndexFill(x.inPlace, args.Tensor(self), x.dim, args.IntArray(x.index),
                                 args.Scalar(ACL_FLOAT, x.value), x.inPlace ? nullptr : args.Tensor(out));
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want = original;
  for (int64_t i = 0; i < NumElements(x.self); ++i) {
    const int64_t at = Unravel(i, self1)[dim];
    for (int64_t p : x.index) {
      if ((p < 0 ? p + self1[dim] : p) == at) want[i] = ConvertValue(x.value, x.dtype);
    }
  }
  const DeviceTensor& result = x.inPlace ? self : out;
  ExpectExact(result.ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(result, before, "result storage");
  if (!x.inPlace) ExpectExact(self.ReadView(), original, "self must not change");
}

INSTANTIATE_TEST_SUITE_P(Cases, IndexFillTensorTest, ::testing::ValuesIn(IndexFillCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun CallIndexFill(bool inPlace, aclDataType dtype, const Shape& self, int64_t dim, const std::vector<int64_t>& index,
                    aclDataType outDtype, const Shape& out, aclDataType valueDtype = ACL_FLOAT) {
  OpArgs a;
  return RunIndexFill(inPlace, a.NewTensor(dtype, self), dim, a.IntArray(index), a.Scalar(valueDtype, 1),
                      inPlace ? nullptr : a.NewTensor(outDtype, out));
}

TEST(IndexFillTensorRejects, EachInvalidArgument) {
  const aclDataType f = ACL_FLOAT;
  for (bool inPlace : {false, true}) {
    SCOPED_TRACE(inPlace ? "inplace" : "out");
    ExpectRejected(CallIndexFill(inPlace, ACL_DOUBLE, {4, 3}, 0, {1}, ACL_DOUBLE, {4, 3}),
                   inPlace ? "'selfRef'" : "'self'");
    ExpectRejected(CallIndexFill(inPlace, ACL_INT8, {4, 3}, 0, {1}, ACL_INT8, {4, 3}),
                   inPlace ? "'selfRef'" : "'self'");
    ExpectRejected(CallIndexFill(inPlace, f, {4, 3}, 2, {1}, f, {4, 3}), "'dim'");
    ExpectRejected(CallIndexFill(inPlace, f, {4, 3}, -3, {1}, f, {4, 3}), "'dim'");
    ExpectRejected(CallIndexFill(inPlace, f, {}, 1, {0}, f, {}), "'dim'");
    ExpectRejected(CallIndexFill(inPlace, f, {4, 3}, 0, {1, 4}, f, {4, 3}), "'index'");
    ExpectRejected(CallIndexFill(inPlace, f, {4, 3}, 1, {-4}, f, {4, 3}), "'index'");
    ExpectRejected(CallIndexFill(inPlace, f, {}, 0, {1}, f, {}), "'index'");
    ExpectRejected(CallIndexFill(inPlace, f, {4, 3}, 0, {1}, f, {4, 3}, ACL_COMPLEX64), "'value'");
    EXPECT_TRUE(CallIndexFill(inPlace, f, {4, 3}, -1, {-3, 2}, f, {4, 3}, ACL_INT32).ok());
  }
  ExpectRejected(CallIndexFill(false, f, {4, 3}, 0, {1}, ACL_FLOAT16, {4, 3}), "'out'");
  ExpectRejected(CallIndexFill(false, f, {4, 3}, 0, {1}, f, {3, 4}), "'out'");
}

}  // namespace
}  // namespace canopy_test
