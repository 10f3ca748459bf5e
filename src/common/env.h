#ifndef CANOPY_COMMON_ENV_H_
#define CANOPY_COMMON_ENV_H_

#include <cstdlib>
#include <cstring>

namespace canopy {

// An on/off environment switch such as CANOPY_VERBOSE=1 or CANOPY_PLAN_CACHE=0:
// "0" turns it off, any other non-empty value on; unset or empty keeps `fallback`.
inline bool EnvSwitch(const char* name, bool fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  return std::strcmp(value, "0") != 0;
}

}  // namespace canopy

#endif  // CANOPY_COMMON_ENV_H_
