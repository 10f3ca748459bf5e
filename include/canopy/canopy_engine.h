/* Which device's engine runs the calling thread: for libraries whose work,
 * running inside a task, depends on the device the task's stream belongs to
 * (a fused op's collective picks its communicator by device). */
#ifndef CANOPY_CANOPY_ENGINE_H_
#define CANOPY_CANOPY_ENGINE_H_

#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The device id of the engine running the calling thread's task; -1 on a
 * thread that is not a device engine. */
ACL_FUNC_VISIBILITY int32_t canopyEngineDevice(void);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_CANOPY_ENGINE_H_ */
