/*
 * Canopy - CPU implementation of the Ascend CANN runtime API.
 *
 * acl/acl_op.h: placeholder kept for source compatibility. The CANN runtime
 * package ships this header empty as well; the single-operator (aclop*) API is
 * not part of Canopy. Operators are provided through the aclnn interface.
 */
#ifndef CANOPY_ACL_ACL_OP_H_
#define CANOPY_ACL_ACL_OP_H_

#include "acl_base.h"

#endif /* CANOPY_ACL_ACL_OP_H_ */
