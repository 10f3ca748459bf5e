// A driver benchmarks one op family. Each lives in its own file and is listed
// once in kDrivers (driver_table.cpp); a new family adds a file and a line there.
#pragma once

#include <string>

#include "bench_common.h"

namespace canopy_bench {

struct Driver {
  const char* name;             // --driver=NAME
  const char* default_ops;      // comma list used when --op is not given
  const char* usage;            // problem syntax and ops, for --help
  const char* default_problem;  // run when the command line names no problem (null: none)
  // Runs one problem (a bare word of the command line) for every op x dtype of
  // the settings, printing a line and recording a Result for each.
  void (*run)(const Settings& settings, const std::string& problem, Session& session);
};

// Null when no driver has that name.
const Driver* FindDriver(const std::string& name);
void PrintDrivers();

// The drivers (one file each).
void RunMatmulDriver(const Settings& settings, const std::string& problem, Session& session);
void RunEltwiseDriver(const Settings& settings, const std::string& problem, Session& session);
void RunLayoutDriver(const Settings& settings, const std::string& problem, Session& session);
void RunUnaryDriver(const Settings& settings, const std::string& problem, Session& session);
void RunOverheadDriver(const Settings& settings, const std::string& problem, Session& session);
void RunReduceDriver(const Settings& settings, const std::string& problem, Session& session);
void RunConvDriver(const Settings& settings, const std::string& problem, Session& session);
void RunHcclDriver(const Settings& settings, const std::string& problem, Session& session);
void RunQmatmulDriver(const Settings& settings, const std::string& problem, Session& session);
void RunAttentionDriver(const Settings& settings, const std::string& problem, Session& session);
void RunMovementDriver(const Settings& settings, const std::string& problem, Session& session);
// One rank of the hccl driver (canopy-bench --hccl-worker ARGS...; argv: ARGS).
int RunHcclWorker(int argc, char** argv);

// The ops the settings ask for: --op, or the driver's default list.
std::vector<std::string> OpsOf(const Settings& settings, const Driver& driver);
std::vector<std::string> SplitList(const std::string& text);

}  // namespace canopy_bench
