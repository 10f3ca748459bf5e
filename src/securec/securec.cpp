// libc_sec.so: the bounds-checked memory, string and printf functions of
// securec.h. Each checks its destination first (null or an impossible size
// writes nothing), then clears a valid destination before reporting any other
// violation, so a failed call never leaves half-copied data behind.
#include "securec.h"

#include <cstdio>
#include <cstring>

namespace {

bool Overlaps(const void* a, size_t a_size, const void* b, size_t b_size) {
  const auto* pa = static_cast<const unsigned char*>(a);
  const auto* pb = static_cast<const unsigned char*>(b);
  return pa < pb + b_size && pb < pa + a_size;
}

bool BadStringCapacity(size_t dest_max) { return dest_max == 0 || dest_max > SECUREC_STRING_MAX_LEN; }

// The shared checks of memcpy_s and memmove_s; `copy` is the one that differs.
template <typename Copy>
errno_t CheckedCopy(void* dest, size_t dest_max, const void* src, size_t count, bool overlap_allowed, Copy copy) {
  if (dest_max == 0 || dest_max > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr) {
    std::memset(dest, 0, dest_max);
    return EINVAL_AND_RESET;
  }
  if (count > dest_max) {
    std::memset(dest, 0, dest_max);
    return ERANGE_AND_RESET;
  }
  if (count == 0 || dest == src) return EOK;
  if (!overlap_allowed && Overlaps(dest, count, src, count)) {
    std::memset(dest, 0, dest_max);
    return EOVERLAP_AND_RESET;
  }
  copy(dest, src, count);
  return EOK;
}

// Copies `length` characters of `src` to `dest` + `at` and terminates, after
// the checks every string function shares. `length` + `at` < `dest_max`.
errno_t PlaceString(char* dest, size_t dest_max, size_t at, const char* src, size_t length) {
  if (at + length >= dest_max) {
    dest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (Overlaps(dest, at + length + 1, src, length + 1)) {
    dest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest + at, src, length);
  dest[at + length] = '\0';
  return EOK;
}

// Null pointers and capacities of the string functions: 0 when they pass.
errno_t CheckStringArguments(char* dest, size_t dest_max, const char* src) {
  if (BadStringCapacity(dest_max)) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr) {
    dest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  return EOK;
}

// printf into dest with at most `limit` bytes (terminator included);
// returns vsnprintf's count of the characters the full output has.
int Format(char* dest, size_t limit, const char* format, va_list args) {
  return std::vsnprintf(dest, limit, format, args);  // NOLINT(clang-analyzer-valist.Uninitialized): the caller's list
}

}  // namespace

extern "C" {

const char* GetHwSecureCVersion(unsigned short* verNumber) {
  if (verNumber != nullptr) *verNumber = 0x0100;
  return "Canopy securec 1.0";
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  return CheckedCopy(dest, destMax, src, count, /*overlap_allowed=*/false,
                     [](void* d, const void* s, size_t n) { std::memcpy(d, s, n); });
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  return CheckedCopy(dest, destMax, src, count, /*overlap_allowed=*/true,
                     [](void* d, const void* s, size_t n) { std::memmove(d, s, n); });
}

errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
  if (const errno_t status = CheckStringArguments(strDest, destMax, strSrc); status != EOK) return status;
  if (strDest == strSrc) return EOK;
  return PlaceString(strDest, destMax, 0, strSrc, strnlen(strSrc, destMax));
}

errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (const errno_t status = CheckStringArguments(strDest, destMax, strSrc); status != EOK) return status;
  if (count > SECUREC_STRING_MAX_LEN) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  const size_t length = strnlen(strSrc, count < destMax ? count : destMax);
  if (strDest == strSrc && length < destMax) {
    strDest[length] = '\0';
    return EOK;
  }
  return PlaceString(strDest, destMax, 0, strSrc, length);
}

errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
  if (const errno_t status = CheckStringArguments(strDest, destMax, strSrc); status != EOK) return status;
  const size_t at = strnlen(strDest, destMax);
  if (at == destMax) {  // the destination holds no string to append to
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  return PlaceString(strDest, destMax, at, strSrc, strnlen(strSrc, destMax - at));
}

errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (const errno_t status = CheckStringArguments(strDest, destMax, strSrc); status != EOK) return status;
  if (count > SECUREC_STRING_MAX_LEN) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  const size_t at = strnlen(strDest, destMax);
  if (at == destMax) {
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const size_t room = destMax - at;
  return PlaceString(strDest, destMax, at, strSrc, strnlen(strSrc, count < room ? count : room));
}

int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  if (strDest == nullptr || BadStringCapacity(destMax)) return -1;
  if (format == nullptr) {
    strDest[0] = '\0';
    return -1;
  }
  const int written = Format(strDest, destMax, format, argList);
  if (written < 0 || static_cast<size_t>(written) >= destMax) {
    strDest[0] = '\0';
    return -1;
  }
  return written;
}

int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int written = vsprintf_s(strDest, destMax, format, args);
  va_end(args);
  return written;
}

int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
  if (strDest == nullptr || BadStringCapacity(destMax)) return -1;
  if (format == nullptr || count > SECUREC_STRING_MAX_LEN) {
    strDest[0] = '\0';
    return -1;
  }
  if (count >= destMax) return vsprintf_s(strDest, destMax, format, argList);
  // At most `count` characters: a longer output is cut there, and says so.
  const int written = Format(strDest, count + 1, format, argList);
  if (written < 0) {
    strDest[0] = '\0';
    return -1;
  }
  return static_cast<size_t>(written) > count ? -1 : written;
}

int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int written = vsnprintf_s(strDest, destMax, count, format, args);
  va_end(args);
  return written;
}

int vsnprintf_truncated_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  if (strDest == nullptr || BadStringCapacity(destMax)) return -1;
  if (format == nullptr) {
    strDest[0] = '\0';
    return -1;
  }
  const int written = Format(strDest, destMax, format, argList);
  if (written < 0) {
    strDest[0] = '\0';
    return -1;
  }
  return static_cast<size_t>(written) >= destMax ? static_cast<int>(destMax - 1) : written;
}

int snprintf_truncated_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int written = vsnprintf_truncated_s(strDest, destMax, format, args);
  va_end(args);
  return written;
}

}  // extern "C"
