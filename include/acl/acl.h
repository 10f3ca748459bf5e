/*
 * Canopy - CPU implementation of the Ascend CANN runtime API.
 *
 * acl/acl.h: top-level header. Including it gives the complete runtime API:
 * aclInit / aclFinalize, devices, contexts, streams, events, memory, model run
 * instances (capture) and the version macros ACL_MAJOR_VERSION,
 * ACL_MINOR_VERSION and ACL_PATCH_VERSION (all declared in acl_rt.h).
 */
#ifndef CANOPY_ACL_ACL_H_
#define CANOPY_ACL_ACL_H_

#include "acl_mdl.h"
#include "acl_op.h"
#include "acl_rt.h"

#endif /* CANOPY_ACL_ACL_H_ */
