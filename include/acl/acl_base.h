/*
 * Canopy - CPU implementation of the Ascend CANN runtime API.
 *
 * acl/acl_base.h: umbrella for the basic ACL definitions (types, aclError codes,
 * data types, formats) plus the runtime and graph-engine error code lists.
 */
#ifndef CANOPY_ACL_ACL_BASE_H_
#define CANOPY_ACL_ACL_BASE_H_

#include "acl_base_rt.h"
#include "error_codes/ge_error_codes.h"
#include "error_codes/rt_error_codes.h"

#endif /* CANOPY_ACL_ACL_BASE_H_ */
