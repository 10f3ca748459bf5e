// SignBitsPack and SignBitsUnpack through the public API against a plain
// bit-by-bit reference: both float dtypes, lengths that do and do not fill
// the last byte, strided views, every row count `size` that divides, a pack
// then unpack round trip, torch_npu's documented example, empty tensors and
// the rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_sign_bits_pack.h"
#include "aclnnop/aclnn_sign_bits_unpack.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

Values PackReference(const Values& values, int64_t bytes) {
  Values packed(static_cast<size_t>(bytes), Value(0));
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].real() >= 0) packed[i / 8] += static_cast<double>(1 << (i % 8));
  }
  return packed;
}

TEST(SignBitsPack, MatchesReference) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    for (const int64_t count : {int64_t{8}, int64_t{13}, int64_t{64}, int64_t{200}}) {
      for (View view : {View::kContiguous, View::kOffset, View::kReversed, View::kStepped}) {
        const int64_t bytes = (count + 7) / 8;
        for (int64_t size = 1; size <= bytes; ++size) {
          if (bytes % size != 0) continue;
          SCOPED_TRACE(std::string(Name(dtype)) + " " + std::to_string(count) + " size " + std::to_string(size) + " " +
                       ViewName(view));
          Rng rng = Rng::ForCurrentTest();
          DeviceTensor self(dtype, {count}, view);
          Values values = self.FillRandom(rng, Range{-4, 4, 0, 7});
          if (count > 3) {  // -0 packs as non-negative
            values[3] = Value(-0.0);
            self.WriteView(values);
          }
          DeviceTensor out(ACL_UINT8, {size, bytes / size}, view == View::kReversed ? View::kTransposed : view);
          out.Poison();
          ExpectRuns(
              [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                return aclnnSignBitsPackGetWorkspaceSize(a.Tensor(self), size, a.Tensor(out), w, e);
              },
              aclnnSignBitsPack);
          ExpectExact(out.ReadView(), PackReference(values, bytes), "SignBitsPack");
        }
      }
    }
  }
}

// torch_npu's example: 14 values in two rows of one byte.
TEST(SignBitsPack, DocumentedExample) {
  const auto self = Upload(ACL_FLOAT16, {14}, {5, 4, 3, 2, 0, -1, -2, 4, 3, 2, 1, 0, -1, -2});
  DeviceTensor out(ACL_UINT8, {2, 1});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSignBitsPackGetWorkspaceSize(a.Tensor(*self), 2, a.Tensor(out), w, e);
      },
      aclnnSignBitsPack);
  ExpectExact(out.ReadView(), {159, 15}, "SignBitsPack example");
}

TEST(SignBitsUnpack, MatchesReferenceAndRoundTrips) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    for (const int64_t bytes : {int64_t{1}, int64_t{6}, int64_t{25}}) {
      for (View view : {View::kContiguous, View::kOffset, View::kReversed, View::kStepped}) {
        for (const int64_t size : {int64_t{1}, int64_t{2}, int64_t{8}}) {
          if (bytes * 8 % size != 0) continue;
          SCOPED_TRACE(std::string(Name(dtype)) + " " + std::to_string(bytes) + " size " + std::to_string(size) + " " +
                       ViewName(view));
          Rng rng = Rng::ForCurrentTest();
          DeviceTensor self(ACL_UINT8, {bytes}, view);
          const Values packed = self.FillRandom(rng, Range{0, 255});
          DeviceTensor out(dtype, {size, bytes * 8 / size}, view == View::kReversed ? View::kTransposed : view);
          out.Poison();
          ExpectRuns(
              [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                return aclnnSignBitsUnpackGetWorkspaceSize(a.Tensor(self), size, dtype, a.Tensor(out), w, e);
              },
              aclnnSignBitsUnpack);
          Values want;
          for (int64_t i = 0; i < bytes * 8; ++i) {
            const auto byte = static_cast<int>(packed[static_cast<size_t>(i / 8)].real());
            want.emplace_back(((byte >> (i % 8)) & 1) != 0 ? 1.0 : -1.0);
          }
          const Values signs = out.ReadView();
          ExpectExact(signs, want, "SignBitsUnpack");
          // Packing the signs again gives the bytes back.
          const auto flat = Upload(dtype, {bytes * 8}, signs);
          DeviceTensor repacked(ACL_UINT8, {1, bytes});
          ExpectRuns(
              [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                return aclnnSignBitsPackGetWorkspaceSize(a.Tensor(*flat), 1, a.Tensor(repacked), w, e);
              },
              aclnnSignBitsPack);
          ExpectExact(repacked.ReadView(), packed, "SignBitsPack of the unpacked signs");
        }
      }
    }
  }
}

TEST(SignBits, EmptyTensorsWriteNothing) {
  const OpRun pack = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSignBitsPackGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {0}), 3, a.NewTensor(ACL_UINT8, {3, 0}), w, e);
      },
      aclnnSignBitsPack);
  EXPECT_TRUE(pack.ok()) << Describe(pack);
  const OpRun unpack = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSignBitsUnpackGetWorkspaceSize(a.NewTensor(ACL_UINT8, {0}), 2, ACL_FLOAT,
                                                   a.NewTensor(ACL_FLOAT, {2, 0}), w, e);
      },
      aclnnSignBitsUnpack);
  EXPECT_TRUE(unpack.ok()) << Describe(unpack);
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto pack = [](aclDataType self, Shape selfShape, int64_t size, aclDataType out, Shape outShape) {
    return [=](A& a, W w, E e) {
      return aclnnSignBitsPackGetWorkspaceSize(a.NewTensor(self, selfShape), size, a.NewTensor(out, outShape), w, e);
    };
  };
  auto unpack = [](Shape selfShape, int64_t size, aclDataType dtype, aclDataType out, Shape outShape) {
    return [=](A& a, W w, E e) {
      return aclnnSignBitsUnpackGetWorkspaceSize(a.NewTensor(ACL_UINT8, selfShape), size, dtype,
                                                 a.NewTensor(out, outShape), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT, u = ACL_UINT8;
  return {
      {"Pack_double", pack(ACL_DOUBLE, {16}, 1, u, {1, 2}), aclnnSignBitsPack, "'self'"},
      {"Pack_out_int8", pack(f, {16}, 1, ACL_INT8, {1, 2}), aclnnSignBitsPack, "'out'"},
      {"Pack_self_2d", pack(f, {2, 8}, 1, u, {1, 2}), aclnnSignBitsPack, "'self'"},
      {"Pack_out_1d", pack(f, {16}, 1, u, {2}), aclnnSignBitsPack, "'out'"},
      {"Pack_size_0", pack(f, {16}, 0, u, {0, 2}), aclnnSignBitsPack, "'size'"},
      {"Pack_size_not_dividing", pack(f, {24}, 2, u, {2, 1}), aclnnSignBitsPack, "'size'"},
      {"Pack_out_rows", pack(f, {16}, 2, u, {1, 2}), aclnnSignBitsPack, "'out'"},
      {"Pack_out_columns", pack(f, {16}, 1, u, {1, 3}), aclnnSignBitsPack, "'out'"},
      {"Unpack_self_int8",
       [](A& a, W w, E e) {
         return aclnnSignBitsUnpackGetWorkspaceSize(a.NewTensor(ACL_INT8, {2}), 1, ACL_FLOAT,
                                                    a.NewTensor(ACL_FLOAT, {1, 16}), w, e);
       },
       aclnnSignBitsUnpack, "'self'"},
      {"Unpack_dtype_bf16", unpack({2}, 1, ACL_BF16, ACL_BF16, {1, 16}), aclnnSignBitsUnpack, "'dtype'"},
      {"Unpack_out_not_dtype", unpack({2}, 1, ACL_FLOAT16, f, {1, 16}), aclnnSignBitsUnpack, "'dtype'"},
      {"Unpack_self_2d", unpack({1, 2}, 1, f, f, {1, 16}), aclnnSignBitsUnpack, "'self'"},
      {"Unpack_size_negative", unpack({2}, -1, f, f, {1, 16}), aclnnSignBitsUnpack, "'size'"},
      {"Unpack_size_not_dividing", unpack({2}, 3, f, f, {3, 5}), aclnnSignBitsUnpack, "'size'"},
      {"Unpack_out_rows", unpack({2}, 2, f, f, {4, 4}), aclnnSignBitsUnpack, "'out'"},
  };
}

class SignBitsRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(SignBitsRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, SignBitsRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
