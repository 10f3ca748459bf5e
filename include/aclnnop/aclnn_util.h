/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_util.h: export-attribute macro used by operator headers.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_UTIL_H_
#define CANOPY_ACLNNOP_ACLNN_UTIL_H_

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_UTIL_H_ */
