// Stock pieces for harness rows: dtype rules and lists, shape rules and the
// standard shape lists, and reference builders for pointwise ops and
// reductions. A row picks from here and writes only what is its own.
#ifndef CANOPY_TESTS_OPS_HARNESS_RULES_H_
#define CANOPY_TESTS_OPS_HARNESS_RULES_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/op_row.h"

namespace canopy_test::harness {

// ---- Dtype cases and rules ------------------------------------------------------------------------

// One case per dtype, every input of that dtype.
std::vector<DtypeCase> EachDtype(const std::vector<aclDataType>& dtypes);
// Every (from, to) pair the impl's CanCast accepts (reference.h), as {{from}, to}.
std::vector<DtypeCase> CastablePairs(const std::vector<aclDataType>& from, const std::vector<aclDataType>& to);
// `cases` with pairwise = false: each appears once, not with every view and shape.
std::vector<DtypeCase> Singly(std::vector<DtypeCase> cases);
// Appends `more` to `cases`.
std::vector<DtypeCase> Concat(std::vector<DtypeCase> cases, const std::vector<DtypeCase>& more);

DtypeRule SameAsInput(size_t input);
DtypeRule FixedDtype(aclDataType dtype);  // bool out for comparisons, say
DtypeRule PromotedDtype();                // the promotion of every input (reference.h's table)
// Floating and complex inputs keep their dtype; integers and bool become f32
// (unary math: Exp, Sqrt, Sigmoid on integer tensors).
DtypeRule IntegersToFloat();

// ---- Shapes ---------------------------------------------------------------------------------------

// Typical and large shapes (each dtype meets them; large crosses the
// kernels' chunks and vector tails), a threaded one (past the threshold where
// the work is split over threads), row and rank-3 broadcasts, rank 0 (alone
// and against a matrix), rank 8, empty. The first shape of each is input 0's,
// the second the other inputs'.
const std::vector<ShapeCase>& ElementwiseShapes();
// The shapes of ElementwiseShapes() where every input has one shape (no
// broadcasting): unary ops, ops whose inputs must match.
const std::vector<ShapeCase>& SameShapes();
// Shapes for reductions: typical rank 3, large and threaded 2-D, rank 0, rank 8, empty.
const std::vector<ShapeCase>& ReductionShapes();

ShapeRule BroadcastShape();            // NumPy broadcast of every tensor input
ShapeRule ShapeOfInput(size_t input);  // out has input `input`'s shape
// A reduction of input 0 over the IntArray attribute `dims` (negative dims
// count from the end, empty = every dim), keeping reduced dims as 1 when the
// bool attribute `keepDim` is true. nullopt for a dim out of range or repeated.
ShapeRule ReducedShape(const std::string& dims = "dims", const std::string& keepDim = "keepDim");

// `dims` made non-negative for `rank` (empty = every dim); nullopt when a dim
// is out of range or repeated.
std::optional<std::vector<int64_t>> NormalizeDims(const std::vector<int64_t>& dims, size_t rank);

// ---- Reference builders ---------------------------------------------------------------------------

// An elementwise reference: inputs broadcast to the out shape, `fn` applied to
// each element's input values (in input order). The harness's Tolerance applies.
using PointwiseFn = std::function<Value(const std::vector<Value>& x, const AttrSet& attrs)>;
Reference Pointwise(PointwiseFn fn);
// The same for one input: Unary([](Value x) { return std::exp(x); }).
Reference Unary(std::function<Value(Value)> fn);

// An integer result wrapped into `dtype` as a device's integer arithmetic does
// (ConvertValue saturates, as a cast does): a narrow shift or sum.
double Wrapped(int64_t v, aclDataType dtype);

// The dtype an op computes in for its inputs' dtypes (nullopt: out's).
using ComputeRule = std::function<std::optional<aclDataType>(const std::vector<aclDataType>&)>;
// A pointwise reference whose result CANN computes in `compute` and then casts
// to out: rounded to the compute dtype first, and allowed `ulps` units of
// roundoff of the coarser of the two (a FLOAT result in a DOUBLE out carries
// FLOAT's error), relative to max(|value|, minMagnitude).
Reference ComputedIn(ComputeRule compute, PointwiseFn fn, double ulps, double minMagnitude = 0);

// A reduction of input 0 over `dims` (the attribute names of ReducedShape):
// `fn` receives the values of one output element's group (in row-major order
// of the reduced dims) and returns the result.
using ReduceFn = std::function<Value(const Values& group, const AttrSet& attrs)>;
Reference Reduction(ReduceFn fn, const std::string& dims = "dims", const std::string& keepDim = "keepDim");

// The row-major position of `index` in `shape` (index ops' references).
int64_t RowMajorIndex(const std::vector<int64_t>& index, const Shape& shape);

}  // namespace canopy_test::harness

#endif  // CANOPY_TESTS_OPS_HARNESS_RULES_H_
