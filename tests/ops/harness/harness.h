// The table-driven op-test harness. An op's test is an OpRow (op_row.h); from
// it the harness registers gtest cases named <row>.<dtypes>_<shape>[_<input>_<view>...]
// [_out_<view>][_inplace][_<attributes>], covering pairwise (covering.h)
// the row's dtype cases x shape cases (typical, large, broadcast, rank 0,
// rank 8, empty) x input views (contiguous, offset, transposed, reversed,
// stepped, broadcast) x out views x out / in-place form x attribute sets.
//
// Every case runs the op three times through the public C API:
//   1. on fresh buffers, out poisoned (NaN, 0xA5 bytes for exact dtypes);
//   2. the same call again with new input values and out poisoned again: the
//      second phase 1 must be a plan-cache hit, and still right;
//   3. the same shapes on new buffers: a hit again, which must read and write
//      the new addresses and leave the first buffers alone.
// Each time the out view must match the float64 reference, every storage
// element outside the out view must keep its bytes, inputs must not change
// and an empty out needs no workspace. An input with invalid values (an index
// out of range) gets cases of its own that expect a stream error.
#ifndef CANOPY_TESTS_OPS_HARNESS_HARNESS_H_
#define CANOPY_TESTS_OPS_HARNESS_HARNESS_H_

#include <string>
#include <vector>

#include "harness/op_row.h"
#include "harness/rules.h"

namespace canopy_test::harness {

// The cases of one row, in a fixed order (deterministic for a given row).
// Problems with the row itself (a dtype case of the wrong size, no valid case)
// are appended to `problems`.
std::vector<CaseInfo> GenerateCases(const OpRow& row, std::vector<std::string>* problems);

// Runs one generated case (the three calls described above) with gtest assertions.
void RunCase(const OpRow& row, const CaseInfo& info);

// Registers every case of every row as a gtest test (suite = row name). A row
// with problems registers <row>.RowIsValid, which fails naming them. Call it
// from a namespace-scope initialiser: see CANOPY_HARNESS_ROWS.
bool RegisterRows(std::vector<OpRow> rows, const char* file, int line);

}  // namespace canopy_test::harness

// In a test file: CANOPY_HARNESS_ROWS(MyRows) with `std::vector<OpRow> MyRows()`.
#define CANOPY_HARNESS_ROWS(rowsFunction)                                       \
  [[maybe_unused]] static const bool canopy_harness_registered_##rowsFunction = \
      ::canopy_test::harness::RegisterRows(rowsFunction(), __FILE__, __LINE__)

#endif  // CANOPY_TESTS_OPS_HARNESS_HARNESS_H_
