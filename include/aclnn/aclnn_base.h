/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnn/aclnn_base.h: aclnn status codes and library init / finalize.
 * Pulls in aclnn/acl_meta.h for the handle types and meta API.
 */
#ifndef CANOPY_ACLNN_ACLNN_BASE_H_
#define CANOPY_ACLNN_ACLNN_BASE_H_

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "aclnn/acl_meta.h"

/* ---- aclnnStatus values ---------------------------------------------- */

#define ACLNN_SUCCESS 0

/* Parameter validation failures (first phase). */
#define ACLNN_ERR_PARAM_NULLPTR 161001 /* a required pointer is NULL */
#define ACLNN_ERR_PARAM_INVALID 161002 /* dtype / shape / format / value rejected */

/* Runtime failure while executing. */
#define ACLNN_ERR_RUNTIME_ERROR 361001

/* Internal errors. */
#define ACLNN_ERR_INNER 561000
#define ACLNN_ERR_INNER_INFERSHAPE_ERROR 561001
#define ACLNN_ERR_INNER_TILING_ERROR 561002
#define ACLNN_ERR_INNER_FIND_KERNEL_ERROR 561003
#define ACLNN_ERR_INNER_CREATE_EXECUTOR 561101
#define ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR 561102
#define ACLNN_ERR_INNER_NULLPTR 561103
#define ACLNN_ERR_INNER_WRONG_ATTR_INFO_SIZE 561104
#define ACLNN_ERR_INNER_KEY_CONFILICT 561105 /* deprecated spelling of the next one */
#define ACLNN_ERR_INNER_KEY_CONFLICT 561105
#define ACLNN_ERR_INNER_INVALID_IMPL_MODE 561106
#define ACLNN_ERR_INNER_OPP_PATH_NOT_FOUND 561107
#define ACLNN_ERR_INNER_LOAD_JSON_FAILED 561108
#define ACLNN_ERR_INNER_JSON_VALUE_NOT_FOUND 561109
#define ACLNN_ERR_INNER_JSON_FORMAT_INVALID 561110
#define ACLNN_ERR_INNER_JSON_DTYPE_INVALID 561111
#define ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND 561112
#define ACLNN_ERR_INNER_OP_FILE_INVALID 561113
#define ACLNN_ERR_INNER_ATTR_NUM_OUT_OF_BOUND 561114
#define ACLNN_ERR_INNER_ATTR_LEN_NOT_ENOUGH 561115
#define ACLNN_ERR_INNER_INPUT_NUM_IN_JSON_TOO_LARGE 561116
#define ACLNN_ERR_INNER_INPUT_JSON_IS_NULL 561117
#define ACLNN_ERR_INNER_STATIC_WORKSPACE_INVALID 561118
#define ACLNN_ERR_INNER_STATIC_BLOCK_DIM_INVALID 561119

#ifdef __cplusplus
extern "C" {
#endif

/* Set up aclnn resources.  configPath may be NULL or name a JSON file
 * (op_debug_config.enable_debug_kernel = "on"/"off"). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);

/* Release aclnn resources. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNN_ACLNN_BASE_H_ */
