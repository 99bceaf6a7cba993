// The extractor of Ansor's features from a lowered Stmt (see Features.h for what and how):
// the traversal (Features.cpp) keeps the loop stack and branch weights and featurizes each
// store; the access analysis (FeatureAccesses.cpp) finds the regions a store touches, their
// strides and reuse.
#pragma once

#include "features/AccessGeometry.h"
#include "features/FeatureLayout.h"
#include "features/StoreOps.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace diet {
namespace feature_detail {

class Extractor : public IRVisitor {
public:
    Extractor(const LoweredProgram &p, const FeatureOptions &o) : prog_(p), opt_(o) {
        for (const auto &[name, extents] : p.binding.buffers) shapes_[name] = {extents};
        GridContainers g;
        p.stmt.accept(&g);
        grid_containers_ = g.containers;
    }

    ProgramFeatures finish();

private:
    struct Row {
        std::vector<double> f = std::vector<double>(kAnsorFeatureCount, 0.0);
        std::vector<double> h = std::vector<double>(kHalideFeatureCount, 0.0);
        std::vector<std::string> slots = std::vector<std::string>(kAnsorMaxBuffers);
        std::set<int> kernels;
    };

    const LoweredProgram &prog_;
    const FeatureOptions opt_;
    std::set<const For *> grid_containers_;

    std::map<std::string, Expr> lets_;  // let (and fixed loop) variables -> value in loop variables
    std::vector<Loop> stack_;           // enclosing loops that are iterated, outermost first
    Scope<Interval> loop_bounds_;
    double weight_ = 1;                 // fraction of the iterations of the loops that get here
    std::vector<Expr> path_;            // conditions of the enclosing branches weight_ accounts for
    int gpu_depth_ = 0, thread_depth_ = 0, kernel_ = -1, kernels_ = 0;
    int unbounded_ = 0;

    std::map<std::string, BufferShape> shapes_;
    std::map<std::string, int> mem_kind_;
    // Ansor's for_touch_regions_: per loop, per buffer, one entry per store under the loop.
    std::map<const void *, std::map<std::string, std::vector<TouchEntry>>> touch_;
    std::vector<std::string> row_order_;
    std::map<std::string, Row> rows_;

    Row &row(const std::string &name);

    // An expression in terms of the loop variables only, simplified.
    Expr expand(const Expr &e) const;

    int64_t upper_bound(const Expr &e);

    int64_t lower_bound(const Expr &e) const;

    // Product of the enclosing iterated loops, times the fraction of iterations that get here.
    double outer_prod() const;

    // Sets (and afterwards restores) a variable of lets_.
    class ScopedValue {
    public:
        ScopedValue(std::map<std::string, Expr> &m, const std::string &name, const Expr &v) : m_(m), name_(name) {
            auto it = m.find(name);
            if (it != m.end()) old_ = it->second;
            m[name] = v;
        }
        ~ScopedValue() {
            if (old_.defined()) {
                m_[name_] = old_;
            } else {
                m_.erase(name_);
            }
        }

    private:
        std::map<std::string, Expr> &m_;
        std::string name_;
        Expr old_;
    };

    using IRVisitor::visit;

    void visit(const LetStmt *op) override;

    void visit(const For *op) override;

    static void conjuncts(const Expr &e, std::vector<Expr> *out);

    // Fraction of the iterations of the enclosing loops that reach this point (the conditions of
    // the enclosing branches, path_, hold) for which `c` holds too; -1 when unknown. Conditions
    // are split into conjuncts, and conjuncts sharing no loop variable are counted separately
    // (a guard on x and one on y: two small enumerations instead of one over x * y).
    double fraction_true(const Expr &c) const;

    void visit(const IfThenElse *op) override;

    int memory_kind(const Allocate *op, int64_t bytes) const;

    void visit(const Allocate *op) override;

    void visit(const Store *op) override;

    // ---- one store ----------------------------------------------------------------------------

    // Fraction of the lanes a predicated store writes (a guarded vector tail), over the
    // iterations of the loops; 1 when unknown.
    double active_lanes(const Store *op, int lanes) const;

    void featurize(const Store *op, int lanes);

    // Group 1 but the op counts: vectorized, unrolled, parallel and GPU loops around the store.
    void loop_features(Row &r) const;

    // ---- accesses -------------------------------------------------------------------------------

    const BufferShape &shape_of(const std::string &name);

    // The store (written) and the loads of its value, merged per buffer as Ansor does: a buffer
    // both written and read is ReadWrite and keeps only the store's index.
    std::vector<BufferUse> accesses(const Store *op);

    Expr at_loop_points(const Expr &e, bool middle) const;

    // A flat index as a scalar expression of the loop variables, with its coefficients.
    IndexInfo analyse(const Expr &raw) const;

    // Ansor's ComputeRegion: per dimension, the union over the buffer's indices.
    std::vector<DimRange> region(const BufferUse &u, int level);

    std::vector<DimRange> index_region(const IndexInfo &idx, const BufferShape &s, int level);

    // Ansor's ComputeStride: the smallest |coefficient| of the loop's variable over the indices.
    static int64_t stride_of(const BufferUse &u, int loop);

    AccessFeature access_feature(const BufferUse &u, const std::vector<DimRange> &outer_box, double prod);

    // Ansor's ComputeReuse.
    void reuse(const BufferUse &u, AccessFeature *f);

    // Group 2: the five buffers with the most lines (then bytes); ties keep the access order.
    static void buffer_features(Row &r, std::vector<AccessFeature> feas);

    // Group 3: float ops over bytes touched, at each loop level from the innermost out, sampled
    // at 10 evenly spaced op counts and linearly interpolated (Ansor's curve).
    static void arithmetic_intensity(Row &r, double float_ops, const std::vector<double> &ops,
                                     const std::vector<double> &bytes);
};

}  // namespace feature_detail
}  // namespace diet
