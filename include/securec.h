/* The bounds-checked C functions of CANN's toolkit (lib64/libc_sec.so):
 * memcpy_s and friends take the destination's capacity, never write past it,
 * and report a violation as an error code instead of corrupting memory.
 *
 * Return codes: EOK on success; EINVAL / ERANGE when nothing could be
 * written (null or oversized destination); the *_AND_RESET codes when the
 * destination was valid and has been cleared (memory zeroed, a string made
 * empty) because the source was null, did not fit, or overlapped it. The
 * printf family returns the number of characters written, or -1. */
#ifndef CANOPY_SECUREC_H
#define CANOPY_SECUREC_H

#include <errno.h>
#include <stdarg.h>

#include "securectype.h"

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
/* The value of the plain code with bit 7 set: the destination was reset. */
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET 150
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version string; *verNumber (if not null) gets its number. */
const char *GetHwSecureCVersion(unsigned short *verNumber);

errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);

/* destMax counts the terminating null character. */
errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc, size_t count);

/* -1 when the output does not fit (strDest is then made empty). */
int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList)
    __attribute__((format(printf, 3, 0)));
int sprintf_s(char *strDest, size_t destMax, const char *format, ...) __attribute__((format(printf, 3, 4)));
/* Writes at most count characters. Truncation to count returns -1 and keeps
 * the truncated string; output that does not fit destMax empties strDest. */
int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList)
    __attribute__((format(printf, 4, 0)));
int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
/* Truncates to destMax - 1 characters and returns that many. */
int vsnprintf_truncated_s(char *strDest, size_t destMax, const char *format, va_list argList)
    __attribute__((format(printf, 3, 0)));
int snprintf_truncated_s(char *strDest, size_t destMax, const char *format, ...) __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_SECUREC_H */
