// --roofline=FILE.svg: the measured problems on the machine's roofline (log-log:
// arithmetic intensity in FLOP/byte against GFLOP/s), with the compute ceilings
// and the bandwidth slope measured at start; one numbered point per problem.
#pragma once

#include <string>
#include <vector>

#include "bench_common.h"

namespace canopy_bench {

void WriteRoofline(const std::string& path, const MachinePeak& machine, const std::vector<Result>& results);

}  // namespace canopy_bench
