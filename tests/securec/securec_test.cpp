// securec.h's functions: each succeeds within the destination's capacity and
// otherwise reports the documented code, writing nothing past destMax and
// clearing a valid destination.
#include "securec.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>

namespace {

constexpr size_t kCapacity = 16;

// A destination with guard bytes after it: nothing may write there.
struct Guarded {
  std::array<char, kCapacity + 8> bytes{};
  Guarded() { bytes.fill('#'); }
  char* data() { return bytes.data(); }
  bool GuardIntact() const {
    for (size_t i = kCapacity; i < bytes.size(); ++i) {
      if (bytes[i] != '#') return false;
    }
    return true;
  }
  bool ZeroFilled() const {
    for (size_t i = 0; i < kCapacity; ++i) {
      if (bytes[i] != 0) return false;
    }
    return true;
  }
};

TEST(Securec, MemcpyCopiesWithinCapacity) {
  Guarded dest;
  const char source[] = "0123456789abcdef";
  EXPECT_EQ(memcpy_s(dest.data(), kCapacity, source, kCapacity), EOK);
  EXPECT_EQ(std::memcmp(dest.data(), source, kCapacity), 0);
  EXPECT_TRUE(dest.GuardIntact());
  EXPECT_EQ(memcpy_s(dest.data(), kCapacity, source, 0), EOK);
  EXPECT_EQ(memcpy_s(dest.data(), kCapacity, dest.data(), 4), EOK);  // the same buffer: nothing to do
}

TEST(Securec, MemcpyViolations) {
  const char source[32] = "0123456789abcdefghijklmnopqrstu";
  Guarded dest;
  EXPECT_EQ(memcpy_s(dest.data(), kCapacity, source, kCapacity + 1), ERANGE_AND_RESET);
  EXPECT_TRUE(dest.ZeroFilled());
  EXPECT_TRUE(dest.GuardIntact());

  Guarded null_source;
  EXPECT_EQ(memcpy_s(null_source.data(), kCapacity, nullptr, 4), EINVAL_AND_RESET);
  EXPECT_TRUE(null_source.ZeroFilled());

  EXPECT_EQ(memcpy_s(nullptr, kCapacity, source, 4), EINVAL);
  Guarded untouched;
  EXPECT_EQ(memcpy_s(untouched.data(), 0, source, 0), ERANGE);
  EXPECT_EQ(memcpy_s(untouched.data(), SECUREC_MEM_MAX_LEN + 1, source, 4), ERANGE);
  EXPECT_EQ(untouched.data()[0], '#');

  Guarded overlap;
  std::memcpy(overlap.data(), source, kCapacity);
  EXPECT_EQ(memcpy_s(overlap.data() + 2, kCapacity - 2, overlap.data(), 8), EOVERLAP_AND_RESET);
  EXPECT_EQ(overlap.data()[2], 0);
  EXPECT_TRUE(overlap.GuardIntact());
}

TEST(Securec, MemmoveAllowsOverlap) {
  Guarded dest;
  std::memcpy(dest.data(), "0123456789abcdef", kCapacity);
  EXPECT_EQ(memmove_s(dest.data() + 2, kCapacity - 2, dest.data(), 8), EOK);
  EXPECT_EQ(std::string(dest.data(), 10), "0101234567");
  EXPECT_EQ(memmove_s(dest.data(), 4, dest.data() + 1, 5), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(dest.data(), 4), std::string(4, '\0'));
}

TEST(Securec, MemsetFillsAtMostCapacity) {
  Guarded dest;
  EXPECT_EQ(memset_s(dest.data(), kCapacity, 'x', 5), EOK);
  EXPECT_EQ(std::string(dest.data(), 6), "xxxxx#");
  EXPECT_EQ(memset_s(dest.data(), kCapacity, 'y', kCapacity + 9), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(dest.data(), kCapacity), std::string(kCapacity, 'y'));
  EXPECT_TRUE(dest.GuardIntact());
  EXPECT_EQ(memset_s(nullptr, kCapacity, 0, 1), EINVAL);
  EXPECT_EQ(memset_s(dest.data(), 0, 0, 0), ERANGE);
}

TEST(Securec, StrcpyNeedsRoomForTheTerminator) {
  Guarded dest;
  EXPECT_EQ(strcpy_s(dest.data(), kCapacity, "fifteen chars!!"), EOK);
  EXPECT_STREQ(dest.data(), "fifteen chars!!");
  EXPECT_EQ(strcpy_s(dest.data(), kCapacity, "sixteen chars!!!"), ERANGE_AND_RESET);
  EXPECT_STREQ(dest.data(), "");
  EXPECT_TRUE(dest.GuardIntact());
  EXPECT_EQ(strcpy_s(dest.data(), kCapacity, nullptr), EINVAL_AND_RESET);
  EXPECT_EQ(strcpy_s(nullptr, kCapacity, "a"), EINVAL);
  EXPECT_EQ(strcpy_s(dest.data(), 0, "a"), ERANGE);
  std::strcpy(dest.data(), "abcdef");
  EXPECT_EQ(strcpy_s(dest.data() + 1, kCapacity - 1, dest.data()), EOVERLAP_AND_RESET);
}

TEST(Securec, StrncpyCopiesAtMostCount) {
  Guarded dest;
  EXPECT_EQ(strncpy_s(dest.data(), kCapacity, "abcdefgh", 3), EOK);
  EXPECT_STREQ(dest.data(), "abc");
  EXPECT_EQ(strncpy_s(dest.data(), kCapacity, "ab", 10), EOK);
  EXPECT_STREQ(dest.data(), "ab");
  EXPECT_EQ(strncpy_s(dest.data(), kCapacity, "abcdefgh", 0), EOK);
  EXPECT_STREQ(dest.data(), "");
  EXPECT_EQ(strncpy_s(dest.data(), 4, "abcdefgh", 4), ERANGE_AND_RESET);
  EXPECT_STREQ(dest.data(), "");
  EXPECT_TRUE(dest.GuardIntact());
}

TEST(Securec, StrcatAppendsWithinCapacity) {
  Guarded dest;
  ASSERT_EQ(strcpy_s(dest.data(), kCapacity, "abc"), EOK);
  EXPECT_EQ(strcat_s(dest.data(), kCapacity, "defg"), EOK);
  EXPECT_STREQ(dest.data(), "abcdefg");
  EXPECT_EQ(strcat_s(dest.data(), kCapacity, "hijklmnop"), ERANGE_AND_RESET);
  EXPECT_STREQ(dest.data(), "");
  ASSERT_EQ(strcpy_s(dest.data(), kCapacity, "abc"), EOK);
  EXPECT_EQ(strncat_s(dest.data(), kCapacity, "defghijk", 2), EOK);
  EXPECT_STREQ(dest.data(), "abcde");
  std::memset(dest.data(), 'z', kCapacity);  // no terminator inside the capacity
  EXPECT_EQ(strcat_s(dest.data(), kCapacity, "a"), EINVAL_AND_RESET);
  EXPECT_STREQ(dest.data(), "");
  EXPECT_TRUE(dest.GuardIntact());
}

TEST(Securec, SprintfFitsOrFails) {
  Guarded dest;
  EXPECT_EQ(sprintf_s(dest.data(), kCapacity, "%d-%s", 42, "abc"), 6);
  EXPECT_STREQ(dest.data(), "42-abc");
  EXPECT_EQ(sprintf_s(dest.data(), kCapacity, "%s", "this does not fit at all"), -1);
  EXPECT_STREQ(dest.data(), "");
  EXPECT_TRUE(dest.GuardIntact());
  EXPECT_EQ(sprintf_s(nullptr, kCapacity, "x"), -1);
}

TEST(Securec, SnprintfTruncatesToCount) {
  Guarded dest;
  EXPECT_EQ(snprintf_s(dest.data(), kCapacity, 5, "%s", "abc"), 3);
  EXPECT_STREQ(dest.data(), "abc");
  EXPECT_EQ(snprintf_s(dest.data(), kCapacity, 5, "%s", "abcdefgh"), -1);
  EXPECT_STREQ(dest.data(), "abcde");  // cut at count, and reported
  EXPECT_EQ(snprintf_s(dest.data(), kCapacity, kCapacity, "%s", "0123456789abcdefXYZ"), -1);
  EXPECT_STREQ(dest.data(), "");  // count >= destMax: it had to fit destMax
  EXPECT_EQ(snprintf_truncated_s(dest.data(), kCapacity, "%s", "0123456789abcdefXYZ"), 15);
  EXPECT_STREQ(dest.data(), "0123456789abcde");
  EXPECT_TRUE(dest.GuardIntact());
}

TEST(Securec, ReportsItsVersion) {
  unsigned short number = 0;
  const char* version = GetHwSecureCVersion(&number);
  ASSERT_NE(version, nullptr);
  EXPECT_GT(std::strlen(version), 0U);
  EXPECT_NE(number, 0);
}

}  // namespace
