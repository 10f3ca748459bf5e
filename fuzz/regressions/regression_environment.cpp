#include "regression_environment.h"

namespace canopy::fuzz_regressions {
namespace {
const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new AclEnvironment);
}  // namespace
}  // namespace canopy::fuzz_regressions
