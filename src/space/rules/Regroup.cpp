// The re-rooting pass (a named heuristic over the tiled-group cost estimate). The planner merges
// producers into groups consumers first, greedily: when it meets a Func it cannot know that the
// Func would do better as the root of a group of its own, hosting producers that come later in
// the walk. A transpose between two scans is the case in point: merged into the final output's
// tile, it leaves the first scan's two passes as whole-image roots; as a root of its own it hosts
// them per block of columns (Halide's iir_blur schedule).
//
// A move takes a member M of a group out, with the members M reads (they stay computed per tile
// of M), makes M a root, then absorbs every root group all of whose consumers lie in M's group
// while that lowers the estimate. The plan's cost is the sum of its groups' costs (choose_tile:
// arithmetic, recomputation, overheads, parallel efficiency) plus the traffic of every root's
// buffer. The best move is kept when it lowers the plan's cost by kMinGain; at most kMaxMoves.
#include "space/rules/RuleContext.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace diet {

namespace {

constexpr double kMinGain = 0.02;
constexpr int kMaxMoves = 8;
constexpr double kInfeasible = std::numeric_limits<double>::infinity();

// Whether every member of every group is read only inside its group (by the root or another
// member): a Func is computed in one place, so a member read by another group's stages is an
// invalid compute_at (Halide rejects it when the pipeline is compiled). A move can break this
// where a member it carries along is also read by a member that stays (a guided filter's `a`,
// read by `b`, which moves with b's box filter, and by its own box filter, which stays).
bool members_read_inside(const RuleContext &cx, const std::vector<GroupPlan> &groups) {
    for (const GroupPlan &g : groups) {
        std::set<std::string> inside(g.members.begin(), g.members.end());
        inside.insert(g.root);
        for (const std::string &m : g.members) {
            const auto feeds = cx.feeds.find(m);
            if (feeds == cx.feeds.end()) continue;
            for (const std::string &c : feeds->second) {
                if (!inside.count(c)) return false;
            }
        }
    }
    return true;
}

class Regrouper {
public:
    explicit Regrouper(const RuleContext &cx) : cx_(cx) {
        for (const auto &[name, consumers] : cx.feeds) {
            for (const std::string &c : consumers) producers_[c].push_back(name);
        }
    }

    void run(std::vector<GroupPlan> &groups) {
        double current = plan_cost(groups);
        for (int move = 0; move < kMaxMoves && std::isfinite(current); move++) {
            std::vector<GroupPlan> best;
            double best_cost = current * (1 - kMinGain);
            for (size_t gi = 0; gi < groups.size(); gi++) {
                for (const std::string &m : groups[gi].members) {
                    std::vector<GroupPlan> cand = groups;
                    if (!reroot(cand, gi, m)) continue;
                    const double c = plan_cost(cand);
                    if (c < best_cost) {
                        best_cost = c;
                        best = cand;
                    }
                }
            }
            if (best.empty()) return;
            groups = best;
            current = best_cost;
        }
    }

private:
    const RuleContext &cx_;
    std::map<std::string, std::pair<double, TileChoice>> fitted_;  // by group key
    std::map<std::string, std::vector<std::string>> producers_;    // non-inlined, from cx.feeds

    static std::string key_of(const GroupPlan &g) {
        std::vector<std::string> m = g.members;
        std::sort(m.begin(), m.end());
        std::string k = g.root;
        for (const std::string &s : m) k += "|" + s;
        return k;
    }

    // The group's cost at its best tile (fit_group); sets the tile. Rules without tiles cost
    // nothing here (they do not change).
    double fit(GroupPlan &g) {
        if (g.rule != RuleKind::TiledGroup && g.rule != RuleKind::UpdateLoops) return 0;
        const std::string k = key_of(g);
        auto it = fitted_.find(k);
        if (it == fitted_.end()) {
            const TileChoice t = fit_group(cx_, g, g.members);
            it = fitted_.emplace(k, std::make_pair(t.feasible ? t.cost : kInfeasible, t)).first;
        }
        if (it->second.second.feasible) take_tile(g, it->second.second);
        return it->second.first;
    }

    double plan_cost(std::vector<GroupPlan> &groups) {
        double total = 0;
        for (GroupPlan &g : groups) {
            total += fit(g);
            const FuncNode &n = cx_.dag.node(g.root);
            if (!n.is_output) total += traffic_cost(cx_, n);
        }
        return total;
    }

    static int group_holding(const std::vector<GroupPlan> &groups, const std::string &f) {
        for (size_t i = 0; i < groups.size(); i++) {
            if (groups[i].root == f || std::count(groups[i].members.begin(), groups[i].members.end(), f)) return (int)i;
        }
        return -1;
    }

    // Whether the root group `h` may join the group `g` (as the planner's merge allows).
    bool may_join(const std::vector<GroupPlan> &groups, const GroupPlan &h, size_t gi) const {
        const FuncNode &n = cx_.dag.node(h.root);
        if (n.is_output || n.is_extern || (h.rule != RuleKind::TiledGroup && h.rule != RuleKind::UpdateLoops) ||
            cx_.diagonal_hosts.count(h.root)) {
            return false;
        }
        const auto feeds = cx_.feeds.find(h.root);
        if (feeds == cx_.feeds.end() || feeds->second.empty()) return false;
        for (const std::string &c : feeds->second) {
            if (group_holding(groups, c) != (int)gi) return false;
        }
        return may_host(cx_, groups[gi], h.root);
    }

    bool reroot(std::vector<GroupPlan> &groups, size_t gi, const std::string &m) {
        const FuncNode &mn = cx_.dag.node(m);
        if (exceeds_allocation_limit(cx_, mn) || cx_.diagonal_reads.count(m)) return false;
        GroupPlan ng;
        if (mn.has_updates()) {
            ng = plan_update_root(cx_, mn);
            if (ng.rule != RuleKind::UpdateLoops) return false;
        } else {
            ng.root = m;
            ng.rule = RuleKind::TiledGroup;
        }
        ng.vector_lanes = cx_.lanes_of(mn);
        ng.why = "re-rooted: hosts the producers next to it";
        const std::set<std::string> moved = member_ancestors(groups[gi], m, producers_);
        // Its ancestors come along as its members only where it may host them (a scan's update
        // has no pure loop over the scanned dimension to tile: test_fuzz seed 20264453).
        for (const std::string &x : moved) {
            if (!may_host(cx_, ng, x)) return false;
        }
        ng.members.assign(moved.begin(), moved.end());
        std::vector<std::string> keep;
        for (const std::string &x : groups[gi].members) {
            if (x != m && !moved.count(x)) keep.push_back(x);
        }
        groups[gi].members = keep;
        groups.push_back(ng);
        size_t ni = groups.size() - 1;
        if (!std::isfinite(fit(groups[gi])) || !std::isfinite(fit(groups[ni]))) return false;
        // Absorb root groups whose consumers all lie in the new group while the estimate falls.
        for (bool grew = true; grew;) {
            grew = false;
            const double before = plan_cost(groups);
            for (size_t hi = 0; hi < groups.size(); hi++) {
                if (hi == ni || !may_join(groups, groups[hi], ni)) continue;
                std::vector<GroupPlan> trial = groups;
                GroupPlan &t = trial[ni];
                t.members.push_back(trial[hi].root);
                t.members.insert(t.members.end(), trial[hi].members.begin(), trial[hi].members.end());
                trial.erase(trial.begin() + (long)hi);
                const size_t ti = hi < ni ? ni - 1 : ni;
                if (!std::isfinite(fit(trial[ti])) || plan_cost(trial) >= before) continue;
                groups = trial;
                ni = ti;
                grew = true;
                break;
            }
        }
        return members_read_inside(cx_, groups);
    }
};

}  // namespace

void regroup(const RuleContext &cx, std::vector<GroupPlan> &groups) { Regrouper(cx).run(groups); }

}  // namespace diet
