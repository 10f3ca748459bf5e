// CANN's logging conventions (its "slog"): ASCEND_GLOBAL_LOG_LEVEL picks the
// lowest level written (0 debug, 1 info, 2 warning, 3 error, the default, 4
// none); ASCEND_SLOG_PRINT_TO_STDOUT=1 prints each record to stdout, and
// ASCEND_PROCESS_LOG_PATH=<dir> appends them to <dir>/plog/plog-<pid>_<time>.log
// as CANN's plog files. Without either Canopy writes nothing (CANN would write
// plog files under $HOME/ascend/log; Canopy does not create files unasked).
// Every error message (aclGetRecentErrMsg's text) is an ERROR record; ops
// write their phase-1 plans as INFO records.
#pragma once

#include <string_view>

namespace canopy::runtime {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

// Whether a record of `level` would be written anywhere (cheap; settings are read once).
bool LogEnabled(LogLevel level) noexcept;

// Writes one record. Never allocates and never throws (an out-of-memory
// handler at the C boundary logs through it); long records are truncated.
void Log(LogLevel level, std::string_view module, std::string_view text) noexcept;

}  // namespace canopy::runtime
