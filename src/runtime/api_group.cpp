// Device groups (aclrtSetGroup, aclrtGetGroupInfoDetail).
#include "common/c_boundary.h"
#include "not_supported.h"

using namespace canopy::runtime;

namespace {

constexpr const char *kReason = "device groups are not supported: a Canopy device has no cores to group";

}  // namespace

extern "C" {

aclError aclrtSetGroup(int32_t /*groupId*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetGroupCount(uint32_t * /*count*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclrtGroupInfo *aclrtCreateGroupInfo(void) try {
  NotSupported(__func__, kReason);
  return nullptr;
}
CANOPY_C_BOUNDARY(nullptr)

aclError aclrtDestroyGroupInfo(aclrtGroupInfo * /*groupInfo*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetAllGroupInfo(aclrtGroupInfo * /*groupInfo*/) try { return NotSupported(__func__, kReason); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo * /*groupInfo*/, int32_t /*groupIndex*/, aclrtGroupAttr /*attr*/,
                                 void * /*attrValue*/, size_t /*valueLen*/, size_t * /*paramRetSize*/) try {
  return NotSupported(__func__, kReason);
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
