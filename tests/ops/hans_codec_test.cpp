// aclnnHansEncode and aclnnHansDecode through the public C API: CANN's example
// (the header and stream bytes its NPU kernel writes for 65536 zeros), round
// trips of every dtype with the histogram checked against a count made here,
// several cores, streams that spill into varOut, reshuffled streams, a pdf
// given by the caller, strided outputs; the rejections with CANN's codes, and
// streams that do not decode failing the run instead of reading past a buffer.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_hans_decode.h"
#include "aclnnop/aclnn_hans_encode.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

int32_t Word(const std::vector<uint8_t>& bytes, int64_t index) {
  int32_t v;
  std::memcpy(&v, &bytes[static_cast<size_t>(4 * index)], 4);
  return v;
}

// Element i's bytes in `storage`, as stored.
std::vector<uint8_t> ElementAt(const std::vector<uint8_t>& storage, int64_t bytes, int64_t i) {
  return std::vector<uint8_t>(storage.begin() + i * bytes, storage.begin() + (i + 1) * bytes);
}

struct Streams {
  aclDataType dtype;
  int64_t n;
  DeviceTensor input, pdf, mantissa, fixed, var;
  Streams(aclDataType dt, int64_t count, int64_t fixedElements, int64_t varElements, View outView = View::kContiguous)
      : dtype(dt),
        n(count),
        input(dt, {1, count}),
        pdf(ACL_INT32, {1, 256}),
        mantissa(dt, {1, count * (static_cast<int64_t>(ElementBytes(dt)) - 1) / static_cast<int64_t>(ElementBytes(dt))},
                 outView),
        fixed(dt, {1, fixedElements}, outView),
        var(dt, {1, varElements}, outView) {}
  int64_t Bytes() const { return static_cast<int64_t>(ElementBytes(dtype)); }
};

OpRun Encode(Streams& s, bool statistic, bool reshuff) {
  return RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnHansEncodeGetWorkspaceSize(args.Tensor(s.input), args.Tensor(s.pdf), statistic, reshuff,
                                               args.Tensor(s.mantissa), args.Tensor(s.fixed), args.Tensor(s.var),
                                               workspaceSize, executor);
      },
      aclnnHansEncode);
}

OpRun Decode(Streams& s, bool reshuff, DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnHansDecodeGetWorkspaceSize(args.Tensor(s.mantissa), args.Tensor(s.fixed), args.Tensor(s.var),
                                               args.Tensor(s.pdf), reshuff, args.Tensor(out), workspaceSize, executor);
      },
      aclnnHansDecode);
}

// CANN's example: 65536 f32 zeros, fixed and var of 65536 bytes each. On two
// cores every exponent byte (0, rank 0) takes one bit: eight tiles of 128-byte
// width records, then the 8448-byte tail, per core.
TEST(HansEncode, DocumentedExampleBytes) {
  Streams s(ACL_FLOAT, 65536, 16384, 16384);
  s.input.UploadBytes(std::vector<uint8_t>(65536 * 4, 0));
  s.pdf.UploadBytes(std::vector<uint8_t>(256 * 4, 0));
  s.fixed.UploadBytes(std::vector<uint8_t>(65536, 0xA5));
  s.var.UploadBytes(std::vector<uint8_t>(65536, 0x5A));
  const OpRun run = Encode(s, true, false);
  ASSERT_TRUE(run.ok()) << Describe(run);

  const std::vector<uint8_t> pdf = s.pdf.DownloadBytes();
  EXPECT_EQ(Word(pdf, 0), 65536);
  for (int64_t b = 1; b < 256; ++b) EXPECT_EQ(Word(pdf, b), 0) << "bin " << b;
  const std::vector<uint8_t> fixed = s.fixed.DownloadBytes();
  std::vector<int32_t> header(128, 0);
  header[0] = 24276;  // 12138 per core
  header[1] = 2;
  header[2] = 1024;  // blocks of 64
  header[3] = 1024;  // encoded
  header[8] = header[9] = 9472;
  for (int64_t i = 0; i < 128; ++i) EXPECT_EQ(Word(fixed, i), header[static_cast<size_t>(i)]) << "header word " << i;
  for (const int64_t base : {int64_t{512}, int64_t{512 + 32512}}) {
    for (int64_t i = 0; i < 1024; ++i) ASSERT_EQ(fixed[static_cast<size_t>(base + i)], i % 2 == 0 ? 1 : 0) << i;
    for (int64_t i = 1024; i < 1024 + 8192; ++i) ASSERT_EQ(fixed[static_cast<size_t>(base + i)], 0) << i;
    for (int64_t r = 0; r < 64; ++r) EXPECT_EQ(Word(fixed, (base + 9216) / 4 + r), 8) << "bits of row " << r;
    for (int64_t i = base + 9472; i < base + 32512 && i < 65536; ++i) {
      ASSERT_EQ(fixed[static_cast<size_t>(i)], 0xA5) << "byte " << i << " past the stream changed";
    }
  }
  EXPECT_EQ(s.var.DownloadBytes(), std::vector<uint8_t>(65536, 0x5A)) << "var is not written";
  EXPECT_EQ(s.mantissa.DownloadBytes(), std::vector<uint8_t>(49152 * 4, 0));

  DeviceTensor out(ACL_FLOAT, {1, 65536});
  out.Poison();
  const OpRun decoded = Decode(s, false, out);
  ASSERT_TRUE(decoded.ok()) << Describe(decoded);
  EXPECT_EQ(out.DownloadBytes(), std::vector<uint8_t>(65536 * 4, 0));
}

struct RoundTrip {
  std::string name;
  aclDataType dtype;
  int64_t n;
  int64_t fixedBytes, varBytes;
  bool reshuff = false;
  bool randomBits = false;  // incompressible: every exponent byte equally likely
  bool callerPdf = false;   // statistic false, a pdf of the caller's
  View outView = View::kContiguous;
  bool spills = false;  // expect exponents in var
};
void PrintTo(const RoundTrip& c, std::ostream* os) { *os << c.name; }

class HansRoundTrip : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(HansRoundTrip, DecodesBitForBit) {
  const RoundTrip& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const int64_t d = static_cast<int64_t>(ElementBytes(c.dtype));
  Streams s(c.dtype, c.n, c.fixedBytes / d, c.varBytes / d, c.outView);
  std::vector<uint8_t> input(static_cast<size_t>(c.n * d));
  if (c.randomBits) {
    for (uint8_t& b : input) b = static_cast<uint8_t>(rng.Uniform(0, 256));
    s.input.UploadBytes(input);
  } else {
    s.input.FillRandom(rng, Range{-3, 3});
    input = s.input.DownloadBytes();
  }
  std::vector<int32_t> counts(256, 0);
  for (int64_t i = 0; i < c.n; ++i) ++counts[input[static_cast<size_t>(i * d + d - 1)]];
  std::vector<uint8_t> pdf(256 * 4);
  std::vector<int32_t> given(256);
  for (int b = 0; b < 256; ++b) given[static_cast<size_t>(b)] = c.callerPdf ? (b * 37) % 256 : -1;
  std::memcpy(pdf.data(), given.data(), pdf.size());
  s.pdf.UploadBytes(pdf);
  const OpRun run = Encode(s, !c.callerPdf, c.reshuff);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const std::vector<uint8_t> pdfAfter = s.pdf.DownloadBytes();
  for (int b = 0; b < 256; ++b) {
    EXPECT_EQ(Word(pdfAfter, b), c.callerPdf ? given[static_cast<size_t>(b)] : counts[static_cast<size_t>(b)])
        << "pdf bin " << b;
  }
  const Values fixedView = s.fixed.ReadView();
  std::vector<uint8_t> fixed(fixedView.size() * static_cast<size_t>(d));
  for (size_t i = 0; i < fixedView.size(); ++i) EncodeValue(fixedView[i], c.dtype, &fixed[i * static_cast<size_t>(d)]);
  const int32_t cores = Word(fixed, 1);
  EXPECT_EQ(Word(fixed, 0), 12138 * cores);
  EXPECT_EQ(Word(fixed, 2), c.n / 64);
  EXPECT_EQ(Word(fixed, 3) + Word(fixed, 4), c.n / 64) << "every block encoded or in var";
  EXPECT_EQ(Word(fixed, 4) > 0, c.spills);
  EXPECT_EQ(cores, std::min<int64_t>(c.n / 32768, 40));

  DeviceTensor out(c.dtype, {1, c.n});
  out.Poison();
  const OpRun decoded = Decode(s, c.reshuff, out);
  ASSERT_TRUE(decoded.ok()) << Describe(decoded);
  const std::vector<uint8_t> got = out.DownloadBytes();
  for (int64_t i = 0; i < c.n; ++i) {
    ASSERT_EQ(ElementAt(got, d, i), ElementAt(input, d, i)) << "element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Streams, HansRoundTrip,
    ::testing::Values(
        RoundTrip{.name = "f32_one_core", .dtype = ACL_FLOAT, .n = 32768, .fixedBytes = 65536, .varBytes = 4096},
        RoundTrip{.name = "f16_three_cores",
                  .dtype = ACL_FLOAT16,
                  .n = 3 * 32768 + 5 * 64,
                  .fixedBytes = 200000,
                  .varBytes = 4096},
        RoundTrip{.name = "bf16_random_bits_spill",
                  .dtype = ACL_BF16,
                  .n = 4 * 32768,
                  .fixedBytes = 4 * 9000 + 512,
                  .varBytes = 200000,
                  .randomBits = true,
                  .spills = true},
        RoundTrip{.name = "f32_tail_only_shares",
                  .dtype = ACL_FLOAT,
                  .n = 3 * 32768,
                  .fixedBytes = 512 + 3 * 8448 + 300,
                  .varBytes = 200000,
                  .spills = true},
        RoundTrip{.name = "f32_reshuffled",
                  .dtype = ACL_FLOAT,
                  .n = 2 * 32768 + 64,
                  .fixedBytes = 100000,
                  .varBytes = 0,
                  .reshuff = true},
        RoundTrip{.name = "bf16_caller_pdf",
                  .dtype = ACL_BF16,
                  .n = 32768,
                  .fixedBytes = 60000,
                  .varBytes = 4096,
                  .callerPdf = true},
        RoundTrip{.name = "f16_strided_outputs",
                  .dtype = ACL_FLOAT16,
                  .n = 32768,
                  .fixedBytes = 60000,
                  .varBytes = 4096,
                  .outView = View::kStepped}),
    [](const ::testing::TestParamInfo<RoundTrip>& info) { return info.param.name; });

// Incompressible data: fixed + var hold the bound, but a fixedOut that takes
// six of eight tiles at eight bits an exponent (and their records) leaves more
// exponent bytes than varOut holds. The NPU would write past varOut; the run
// fails and var keeps its bytes.
TEST(HansEncode, VarTooSmallForTheDataFailsTheRun) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = 32768;
  std::vector<uint8_t> input(static_cast<size_t>(n * 2));
  for (uint8_t& b : input) b = static_cast<uint8_t>(rng.Uniform(0, 256));
  Streams s(ACL_FLOAT16, n, (512 + 34000) / 2, 7728 / 2);  // 42240 bytes: the bound
  s.input.UploadBytes(input);
  s.var.UploadBytes(std::vector<uint8_t>(7728, 0x5A));
  const OpRun run = Encode(s, true, false);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("varOut"), std::string::npos) << run.message;
  EXPECT_EQ(s.var.DownloadBytes(), std::vector<uint8_t>(7728, 0x5A));

  Streams t(ACL_FLOAT16, n, (512 + 9000) / 2, 40000 / 2);  // two tiles fit: var takes the rest
  t.input.UploadBytes(input);
  ASSERT_TRUE(Encode(t, true, false).ok());
  DeviceTensor out(ACL_FLOAT16, {1, n});
  ASSERT_TRUE(Decode(t, false, out).ok());
  EXPECT_EQ(out.DownloadBytes(), input);
}

// A header or record that does not describe out's elements fails the run.
TEST(HansDecode, BrokenStreamsFailTheRun) {
  Rng rng = Rng::ForCurrentTest();
  Streams s(ACL_FLOAT, 32768, 16384, 1024);
  s.input.FillRandom(rng, Range{-2, 2});
  ASSERT_TRUE(Encode(s, true, false).ok());
  const std::vector<uint8_t> good = s.fixed.DownloadBytes();
  struct Broken {
    const char* name;
    int64_t word;
    int32_t value;
  };
  for (const Broken& b : {Broken{"no cores", 1, 0}, Broken{"too many cores", 1, 1000}, Broken{"wrong count", 2, 7},
                          Broken{"stream past its share", 8, 1 << 20}, Broken{"var past its end", 64, 32768},
                          Broken{"short stream", 8, 8448}}) {
    SCOPED_TRACE(b.name);
    std::vector<uint8_t> bytes = good;
    std::memcpy(&bytes[static_cast<size_t>(4 * b.word)], &b.value, 4);
    s.fixed.UploadBytes(bytes);
    DeviceTensor out(ACL_FLOAT, {1, 32768});
    const OpRun run = Decode(s, false, out);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
    EXPECT_NE(run.message.find("aclnnHansDecode"), std::string::npos) << run.message;
  }
  // With one core a reshuffled stream and a plain one start at the same byte: either flag decodes it.
  s.fixed.UploadBytes(good);
  DeviceTensor out(ACL_FLOAT, {1, 32768});
  const OpRun reshuffled = Decode(s, true, out);
  EXPECT_EQ(reshuffled.sync, ACL_SUCCESS) << "one core: the shares start at the same byte";
}

// ---- rejections --------------------------------------------------------------------------------

struct Bad {
  std::string name;
  std::string keyword;
  aclDataType dtype = ACL_FLOAT16, pdfDtype = ACL_INT32, fixedDtype = ACL_FLOAT16;
  int64_t n = 32768, mantissa = 16384, pdf = 256, fixed = 30000, var = 30000;
  bool reshuff = false;
};
void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }

class HansEncodeRejects : public ::testing::TestWithParam<Bad> {};

TEST_P(HansEncodeRejects, WithCannsCode) {
  const Bad& b = GetParam();
  DeviceTensor input(b.dtype, {b.n}), pdf(b.pdfDtype, {b.pdf}), mantissa(b.dtype, {b.mantissa}),
      fixed(b.fixedDtype, {b.fixed}), var(b.dtype, {b.var});
  ExpectRejection(RejectionCase{b.name,
                                [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                                  return aclnnHansEncodeGetWorkspaceSize(
                                      args.Tensor(input), args.Tensor(pdf), true, b.reshuff, args.Tensor(mantissa),
                                      args.Tensor(fixed), args.Tensor(var), workspaceSize, executor);
                                },
                                aclnnHansEncode, b.keyword, ACLNN_ERR_PARAM_INVALID});
}

INSTANTIATE_TEST_SUITE_P(
    Cases, HansEncodeRejects,
    ::testing::Values(
        Bad{.name = "input_int32", .keyword = "dtype", .dtype = ACL_INT32, .fixedDtype = ACL_INT32},
        Bad{.name = "pdf_float", .keyword = "dtype", .pdfDtype = ACL_FLOAT},
        Bad{.name = "fixed_other_dtype", .keyword = "fixedOut", .fixedDtype = ACL_BF16},
        Bad{.name = "pdf_255", .keyword = "256", .pdf = 255},
        Bad{.name = "n_not_multiple_of_64", .keyword = "multiple of 64", .n = 32800, .mantissa = 16400},
        Bad{.name = "n_below_32768", .keyword = "32768", .n = 32704, .mantissa = 16352},
        Bad{.name = "mantissa_size", .keyword = "mantissaOut", .mantissa = 16385},
        Bad{.name = "reshuff_fixed_below_bound", .keyword = "reshuffled", .fixed = 21000, .reshuff = true},
        Bad{.name = "fixed_below_header", .keyword = "512", .fixed = 255, .var = 60000},
        Bad{.name = "fixed_and_var_below_bound", .keyword = "may need", .fixed = 10000, .var = 11000}),
    [](const ::testing::TestParamInfo<Bad>& info) { return info.param.name; });

// With statistic false pdfRef is only read: two streams encoding with one pdf
// at once is no race (checker mode, CANOPY_CHECK=1, reported one while the
// op staged and wrote pdfRef back either way).
TEST(HansEncode, CallerPdfIsOnlyRead) {
  Rng rng = Rng::ForCurrentTest();
  Streams a(ACL_FLOAT16, 32768, 30000, 4096), b(ACL_FLOAT16, 32768, 30000, 4096);
  a.input.FillRandom(rng, Range{-2, 2});
  b.input.FillRandom(rng, Range{-2, 2});
  std::vector<uint8_t> pdf(256 * 4, 0);
  for (size_t i = 0; i < 256; ++i) pdf[4 * i] = static_cast<uint8_t>(i);
  a.pdf.UploadBytes(pdf);
  aclrtStream second = nullptr;
  ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS);
  std::vector<aclTensor*> descriptors;
  const auto encode = [&](Streams& s, aclrtStream stream) {
    aclTensor* t[5] = {s.input.CreateDescriptor(), a.pdf.CreateDescriptor(), s.mantissa.CreateDescriptor(),
                       s.fixed.CreateDescriptor(), s.var.CreateDescriptor()};
    descriptors.insert(descriptors.end(), t, t + 5);
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnHansEncodeGetWorkspaceSize(t[0], t[1], false, false, t[2], t[3], t[4], &workspaceSize, &executor),
              ACLNN_SUCCESS);
    EXPECT_EQ(workspaceSize, 0U) << "nothing is staged";
    EXPECT_EQ(aclnnHansEncode(nullptr, 0, executor, stream), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  };
  encode(a, TestStream());
  encode(b, second);
  EXPECT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
  for (aclTensor* t : descriptors) aclDestroyTensor(t);
  EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
  EXPECT_EQ(a.pdf.DownloadBytes(), pdf);
}

// Byte counts of views of any size do not wrap: a broadcast fixedOut of 2^61
// elements is simply past every bound, and the message says how many bytes.
TEST(HansEncode, HugeBroadcastOutputsDoNotWrap) {
  DeviceTensor input(ACL_FLOAT, {32768}), pdf(ACL_INT32, {256}), mantissa(ACL_FLOAT, {24576}), var(ACL_FLOAT, {16});
  DeviceTensor small(ACL_FLOAT, {16});
  const int64_t huge = int64_t{1} << 61, zero = 0;
  aclTensor* fixed = aclCreateTensor(&huge, 1, ACL_FLOAT, &zero, 0, ACL_FORMAT_ND, &huge, 1, small.data());
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnHansEncodeGetWorkspaceSize(args.Tensor(input), args.Tensor(pdf), true, true, args.Tensor(mantissa),
                                               fixed, args.Tensor(var), workspaceSize, executor);
      },
      aclnnHansEncode);
  aclDestroyTensor(fixed);
  EXPECT_NE(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.message.find("holds -"), std::string::npos) << run.message;
}

TEST(HansDecode, Rejects) {
  for (const Bad& b : {Bad{.name = "out_int8", .keyword = "dtype", .dtype = ACL_INT8, .fixedDtype = ACL_INT8},
                       Bad{.name = "fixed_other_dtype", .keyword = "fixed", .fixedDtype = ACL_FLOAT},
                       Bad{.name = "pdf_int64", .keyword = "dtype", .pdfDtype = ACL_INT64},
                       Bad{.name = "pdf_512", .keyword = "256", .pdf = 512},
                       Bad{.name = "mantissa_size", .keyword = "mantissa", .mantissa = 100}}) {
    DeviceTensor mantissa(b.dtype, {b.mantissa}), fixed(b.fixedDtype, {b.fixed}), var(b.dtype, {b.var}),
        pdf(b.pdfDtype, {b.pdf}), out(b.dtype, {b.n});
    ExpectRejection(RejectionCase{b.name,
                                  [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                                    return aclnnHansDecodeGetWorkspaceSize(args.Tensor(mantissa), args.Tensor(fixed),
                                                                           args.Tensor(var), args.Tensor(pdf), false,
                                                                           args.Tensor(out), workspaceSize, executor);
                                  },
                                  aclnnHansDecode, b.keyword, ACLNN_ERR_PARAM_INVALID});
  }
}

}  // namespace
}  // namespace canopy_test
