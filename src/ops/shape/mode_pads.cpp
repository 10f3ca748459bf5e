// aclnnReplicationPad1d/2d/3d, aclnnReflectionPad2d/3d and
// aclnnCircularPad2d/3d: the last 1-3 dimensions padded with self's own
// values, each op a rule (mode, padded dimensions, dtypes) on the shared
// mode-pad block (mode_pad.h).
#include "aclnnop/aclnn_circular_pad2d.h"
#include "aclnnop/aclnn_circular_pad3d.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_reflection_pad3d.h"
#include "aclnnop/aclnn_replication_pad1d.h"
#include "aclnnop/aclnn_replication_pad2d.h"
#include "aclnnop/aclnn_replication_pad3d.h"
#include "mode_pad.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The Atlas A2 lists: the documents' lists without the dtypes A2 lacks.
constexpr DtypeSet kReplicationDtypes = {ACL_INT8,  ACL_UINT8, ACL_INT16,  ACL_FLOAT16,   ACL_BF16,      ACL_INT32,
                                         ACL_FLOAT, ACL_INT64, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};
constexpr DtypeSet kReflectionDtypes = {ACL_BOOL,  ACL_INT8,  ACL_UINT8, ACL_INT16,  ACL_FLOAT16,   ACL_BF16,
                                        ACL_INT32, ACL_FLOAT, ACL_INT64, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};
constexpr DtypeSet kCircularDtypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8, ACL_INT32};

template <PadMode kMode, int64_t kSpatial>
aclnnStatus PlanPad(Plan& plan, const aclTensor* self, const aclIntArray* padding, const aclTensor* out) {
  constexpr DtypeSet dtypes = kMode == PadMode::kReplicate ? kReplicationDtypes
                              : kMode == PadMode::kReflect ? kReflectionDtypes
                                                           : kCircularDtypes;
  return PlanModePad(plan, ModePadRule{kMode, kSpatial, dtypes}, self, padding, out);
}

// One recipe per op: each is the template with its rule.
#define CANOPY_MODE_PAD_RECIPE(name, mode, spatial)                                                             \
  aclnnStatus Plan##name(Plan& plan, const aclTensor* self, const aclIntArray* padding, const aclTensor* out) { \
    return PlanPad<mode, spatial>(plan, self, padding, out);                                                    \
  }
CANOPY_MODE_PAD_RECIPE(ReplicationPad1d, PadMode::kReplicate, 1)
CANOPY_MODE_PAD_RECIPE(ReplicationPad2d, PadMode::kReplicate, 2)
CANOPY_MODE_PAD_RECIPE(ReplicationPad3d, PadMode::kReplicate, 3)
CANOPY_MODE_PAD_RECIPE(ReflectionPad2d, PadMode::kReflect, 2)
CANOPY_MODE_PAD_RECIPE(ReflectionPad3d, PadMode::kReflect, 3)
CANOPY_MODE_PAD_RECIPE(CircularPad2d, PadMode::kCircular, 2)
CANOPY_MODE_PAD_RECIPE(CircularPad3d, PadMode::kCircular, 3)
#undef CANOPY_MODE_PAD_RECIPE

}  // namespace

CANOPY_ACLNN_OP(ReplicationPad1d, PlanReplicationPad1d,
                (OpTraits{.header = "aclnnop/aclnn_replication_pad1d.h",
                          .dtypes = kReplicationDtypes,
                          .example = "f32[2,4] ints[1,2] f32[2,7]"}),
                (const aclTensor*, self), (const aclIntArray*, padding), (aclTensor*, out))
CANOPY_ACLNN_OP(ReplicationPad2d, PlanReplicationPad2d,
                (OpTraits{.header = "aclnnop/aclnn_replication_pad2d.h",
                          .dtypes = kReplicationDtypes,
                          .example = "f32[1,3,3] ints[2,2,2,2] f32[1,7,7]"}),
                (const aclTensor*, self), (const aclIntArray*, padding), (aclTensor*, out))
CANOPY_ACLNN_OP(ReplicationPad3d, PlanReplicationPad3d,
                (OpTraits{.header = "aclnnop/aclnn_replication_pad3d.h",
                          .dtypes = kReplicationDtypes,
                          .example = "f32[1,2,2,2] ints[1,1,1,1,1,1] f32[1,4,4,4]"}),
                (const aclTensor*, self), (const aclIntArray*, padding), (aclTensor*, out))
CANOPY_ACLNN_OP(ReflectionPad2d, PlanReflectionPad2d,
                (OpTraits{.header = "aclnnop/aclnn_reflection_pad2d.h",
                          .dtypes = kReflectionDtypes,
                          .example = "f32[1,3,3] ints[2,2,2,2] f32[1,7,7]"}),
                (const aclTensor*, self), (const aclIntArray*, padding), (aclTensor*, out))
CANOPY_ACLNN_OP(ReflectionPad3d, PlanReflectionPad3d,
                (OpTraits{.header = "aclnnop/aclnn_reflection_pad3d.h",
                          .dtypes = kReflectionDtypes,
                          .example = "f32[1,2,2,2] ints[1,1,1,1,1,1] f32[1,4,4,4]"}),
                (const aclTensor*, self), (const aclIntArray*, padding), (aclTensor*, out))
CANOPY_ACLNN_OP(CircularPad2d, PlanCircularPad2d,
                (OpTraits{.header = "aclnnop/aclnn_circular_pad2d.h",
                          .dtypes = kCircularDtypes,
                          .example = "f32[1,3,3] ints[2,2,2,2] f32[1,7,7]"}),
                (const aclTensor*, self), (const aclIntArray*, padding), (aclTensor*, out))
CANOPY_ACLNN_OP(CircularPad3d, PlanCircularPad3d,
                (OpTraits{.header = "aclnnop/aclnn_circular_pad3d.h",
                          .dtypes = kCircularDtypes,
                          .example = "f32[1,2,2,2] ints[1,1,1,1,1,1] f32[1,4,4,4]"}),
                (const aclTensor*, self), (const aclIntArray*, padding), (aclTensor*, out))
