// Profiling trace points.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char* kReason = "profiling trace points are not supported";

}  // namespace

extern "C" {

aclError aclrtProfTrace(void* /*userdata*/, int32_t /*length*/, aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
