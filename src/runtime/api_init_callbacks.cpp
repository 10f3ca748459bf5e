// Reference-counted finalisation and init/finalize callbacks of CANN component libraries.
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "init/finalize callbacks of CANN component libraries and reference-counted finalisation are not supported";

}  // namespace

extern "C" {

aclError aclFinalizeReference(uint64_t * /*refCount*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclInitCallbackRegister(aclRegisterCallbackType /*type*/, aclInitCallbackFunc /*cbFunc*/,
                                 void * /*userData*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclInitCallbackUnRegister(aclRegisterCallbackType /*type*/, aclInitCallbackFunc /*cbFunc*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType /*type*/, aclFinalizeCallbackFunc /*cbFunc*/,
                                     void * /*userData*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType /*type*/, aclFinalizeCallbackFunc /*cbFunc*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
