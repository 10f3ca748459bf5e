#include "not_supported.h"

#include "error_message.h"

namespace canopy::runtime {

aclError NotSupported(const char* function, const char* reason) noexcept {
  SetRecentErrorF("%s: not supported by Canopy: %s", function, reason);
  SetLastErrorCode(kNotSupported);
  return kNotSupported;
}

}  // namespace canopy::runtime
