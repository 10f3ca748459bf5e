// Labels: branch targets inside a stream (aclrtCreateLabel, aclrtSwitchLabelByIndex).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason =
    "labels are not supported: Canopy's streams run their tasks in order and have no branches";

}  // namespace

extern "C" {

aclError aclrtCreateLabel(aclrtLabel * /*label*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetLabel(aclrtLabel /*label*/, aclrtStream /*stream*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtDestroyLabel(aclrtLabel /*label*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtCreateLabelList(aclrtLabel * /*labels*/, size_t /*num*/, aclrtLabelList * /*labelList*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDestroyLabelList(aclrtLabelList /*labelList*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSwitchLabelByIndex(void * /*ptr*/, uint32_t /*maxValue*/, aclrtLabelList /*labelList*/,
                                 aclrtStream /*stream*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
