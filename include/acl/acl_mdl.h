/*
 * Canopy - CPU implementation of the Ascend CANN runtime API.
 *
 * acl/acl_mdl.h: model run instances (aclmdlRI*): stream capture, replay and
 * the related task inspection API. Only the runtime-owned part of the model
 * interface is provided (no offline-model loading).
 */
#ifndef CANOPY_ACL_ACL_MDL_H_
#define CANOPY_ACL_ACL_MDL_H_

/* acl_rt.h includes this file at its end, so the runtime types are always complete here. */
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclmdlRIDebugJsonPrint flags */
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

/* --- Handles -------------------------------------------------------------------------------------------------------
 */

typedef void *aclmdlRI;
typedef void *aclmdlRICondHandle;

/* --- Enumerations --------------------------------------------------------------------------------------------------
 */

typedef enum {
  ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL = 1,
  ACL_MODEL_RI_CAPTURE_MODE_RELAXED = 2,
} aclmdlRICaptureMode;

typedef enum {
  ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
  ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE = 1,
  ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED = 2,
} aclmdlRICaptureStatus;

typedef enum aclmdlRITaskType {
  ACL_MODEL_RI_TASK_DEFAULT = 0,
  ACL_MODEL_RI_TASK_KERNEL = 1,
  ACL_MODEL_RI_TASK_EVENT_RECORD = 2,
  ACL_MODEL_RI_TASK_EVENT_WAIT = 3,
  ACL_MODEL_RI_TASK_EVENT_RESET = 4,
  ACL_MODEL_RI_TASK_VALUE_WRITE = 5,
  ACL_MODEL_RI_TASK_VALUE_WAIT = 6,
} aclmdlRITaskType;

typedef enum {
  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT = 1,
} aclmdlRICondHandleFlag;

typedef enum {
  ACL_MODEL_RI_COND_TYPE_IF = 0,
  ACL_MODEL_RI_COND_TYPE_WHILE = 1,
  ACL_MODEL_RI_COND_TYPE_SWITCH = 2,
} aclmdlRICondTaskType;

/* --- Task parameter structures -------------------------------------------------------------------------------------
 */

typedef struct aclmdlRIKernelTaskParams {
  aclrtFuncHandle funcHandle;
  aclrtLaunchKernelCfg *cfg;
  void *args;
  uint32_t isHostArgs;
  size_t argsSize;
  uint32_t numBlocks;
  uint32_t rsv[10];
} aclmdlRIKernelTaskParams;

typedef struct aclmdlRIEventRecordTaskParams {
  aclrtEvent event;
  uint32_t eventFlag;
  uint32_t recordFlag;
} aclmdlRIEventRecordTaskParams;

typedef struct aclmdlRIEventWaitTaskParams {
  aclrtEvent event;
  uint32_t eventFlag;
  uint32_t waitFlag;
} aclmdlRIEventWaitTaskParams;

typedef struct aclmdlRIEventResetTaskParams {
  aclrtEvent event;
  uint32_t eventFlag;
  uint32_t resetFlag;
} aclmdlRIEventResetTaskParams;

typedef struct aclmdlRIValueWriteTaskParams {
  void *devAddr;
  uint64_t value;
} aclmdlRIValueWriteTaskParams;

typedef struct aclmdlRIValueWaitTaskParams {
  void *devAddr;
  uint64_t value;
  uint32_t flag;
} aclmdlRIValueWaitTaskParams;

typedef struct aclmdlRITaskParams {
  aclmdlRITaskType type;
  uint32_t rsv0[3];
  aclrtTaskGrp taskGrp;
  void *opInfoPtr;
  size_t opInfoSize;
  uint8_t rsv1[32];
  union {
    uint8_t rsv2[128];
    struct aclmdlRIKernelTaskParams kernelTaskParams;
    struct aclmdlRIEventRecordTaskParams eventRecordTaskParams;
    struct aclmdlRIEventWaitTaskParams eventWaitTaskParams;
    struct aclmdlRIEventResetTaskParams eventResetTaskParams;
    struct aclmdlRIValueWriteTaskParams valueWriteTaskParams;
    struct aclmdlRIValueWaitTaskParams valueWaitTaskParams;
  };
} aclmdlRITaskParams;

typedef struct tagAclmdlRICondTaskParams {
  aclmdlRICondHandle handle;
  aclmdlRICondTaskType type;
  uint32_t size;
  aclmdlRI *modelRIArray;
} aclmdlRICondTaskParams;

/* --- Stream capture into a model run instance ----------------------------------------------------------------------
 */

/* Start recording work submitted to stream into a model run instance. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                                           aclmdlRICaptureMode mode);
/* Capture status and target model of a stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI);
/* Swap the calling thread's capture mode; *mode receives the old one. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode);
/* Stop recording and return the captured model run instance. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);

/* --- Execution, teardown and diagnostics ---------------------------------------------------------------------------
 */

/* Replay a model run instance on a stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);
/* Replay a model run instance and wait; timeout in ms or -1. */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclmdlRIAbort(aclmdlRI modelRI);
/* Release a model run instance. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);
/* Dump model run instance details to the log (diagnostics). */
ACL_DEPRECATED_MESSAGE("superseded by aclmdlRIDebugJsonPrint")
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugPrint(aclmdlRI modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags);
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData);
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func);

/* --- Explicit construction and inspection --------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve);
ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI, const char *name);
ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name);
ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId);
ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI);
ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams);
ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params);
ACL_FUNC_VISIBILITY aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                                            aclrtLaunchKernelAttrValue *attrValue);
ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task);

/* --- Conditional tasks ---------------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                                      aclmdlRICondHandleFlag flag, aclmdlRICondHandle *handle);
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr);
ACL_FUNC_VISIBILITY aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags);

/* --- Model dump configuration --------------------------------------------------------------------------------------
 */

ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void);
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath);
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACL_ACL_MDL_H_ */
