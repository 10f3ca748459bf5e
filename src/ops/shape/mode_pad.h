// Padding the last 1-3 dimensions of a tensor with values of its own: the
// block ReplicationPad1d/2d/3d, ReflectionPad2d/3d and CircularPad2d/3d share.
// padding holds (before, after) per padded dimension, the last dimension
// first; out[..., j] = self[..., m(j - before)] per padded dimension, m the
// mode's map of an index outside [0, n) back into it (a negative padding
// crops). The maps are fixed in phase 1, so the step is one gather through a
// table of source offsets per dimension.
#pragma once

#include "ops/framework/plan.h"

namespace canopy::ops {

enum class PadMode : uint8_t {
  kReplicate,  // the edge element repeated
  kReflect,    // mirrored about the edge element, which is not repeated
  kCircular,   // wrapped around: index modulo n
};

struct ModePadRule {
  PadMode mode;
  int64_t spatial;  // padded dimensions: 1, 2 or 3
  DtypeSet dtypes;  // of self and out
};

// The checks in CANN's order (dtypes, same dtype, rank spatial + 1 or
// spatial + 2, padding of 2 * spatial values each below its dimension's
// extent, out's shape), then the step.
aclnnStatus PlanModePad(Plan& plan, const ModePadRule& rule, const aclTensor* self, const aclIntArray* padding,
                        const aclTensor* out);

}  // namespace canopy::ops
