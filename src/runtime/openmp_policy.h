#ifndef CANOPY_RUNTIME_OPENMP_POLICY_H_
#define CANOPY_RUNTIME_OPENMP_POLICY_H_

namespace canopy::runtime {

// ThreadSanitizer cannot see libgomp's fork and join (libgomp is not built
// with it), so every hand-over between an OpenMP team and its forking thread
// would look like a race and suppressing those would hide the runtime's own.
// Under TSan the runtime therefore opens no OpenMP team.
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kOpenMpAllowed = false;
#else
inline constexpr bool kOpenMpAllowed = true;
#endif

}  // namespace canopy::runtime

#endif  // CANOPY_RUNTIME_OPENMP_POLICY_H_
