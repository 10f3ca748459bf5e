// The registry behind canopy/canopy_ops.h: every op file's CANOPY_ACLNN_OP adds
// its op here while libopapi loads, so no list of ops is kept anywhere by hand.
#pragma once

#include <cstddef>

#include "canopy/canopy_ops.h"
#include "common/dtype.h"

namespace canopy::ops {

struct OpTraits;

// The registry row of an op, from its declaration.
canopyOpInfo MakeOpInfo(const char* name, const OpTraits& traits, const canopyOpArg* args, size_t arg_count,
                        void (*get_workspace_size)(), canopyOpPhase1Call call, canopyOpPhase2 run);

// Adds `info` (which must outlive the library, a namespace-scope object) to the
// registry. Runs during static initialisation, single-threaded.
class OpRegistrar {
 public:
  explicit OpRegistrar(const canopyOpInfo& info);
};

}  // namespace canopy::ops
