// Checks on the lowered statements of the generators scheduled by Diet, for the host CPU and
// for CUDA: the micro-kernels' compute loops are guard-free for every shape (the Stmt is symbolic
// in the shape, so one Stmt covers the whole family), and GPU kernels fit the hardware limits.
#include <catch2/catch.hpp>

#include "Halide.h"
#include "space/HostCpu.h"
#include "plugin/Diet.h"

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Keeps a copy of the Stmt at the point custom lowering passes run: after all scheduling
// transformations, before GPU loops are offloaded into device code.
class RecordStmt : public IRMutator {
public:
    explicit RecordStmt(std::vector<Stmt> *out) : out(out) {}
    std::vector<Stmt> *out;
    Stmt mutate(const Stmt &s) override {
        out->push_back(s);
        return s;
    }
    using IRMutator::mutate;
};

struct Built {
    Module module{"", Target()};
    std::vector<Stmt> lowered;  // the whole pipeline's Stmt, GPU loops included
};

std::vector<Stmt> *recording = nullptr;

// Diet, plus a recording pass on the pipeline it scheduled (registered as "DietRecorded").
void register_diet_once() {
    static bool done = [] {
        Pipeline::add_autoscheduler("DietRecorded", [](const Pipeline &p, const Target &t, const MachineParams &mp,
                                                       AutoSchedulerResults *r) {
            r->schedule_source = diet::autoschedule(p, t, mp.parallelism, 0, diet::Options{}).schedule_source;
            Pipeline(p).add_custom_lowering_pass(new RecordStmt(recording));
        });
        Pipeline::set_default_autoscheduler_name("DietRecorded");
        return true;
    }();
    (void)done;
}

Built build(const std::string &generator, const Target &t) {
    register_diet_once();
    Built b;
    recording = &b.lowered;
    GeneratorContext ctx(t, /*auto_schedule=*/true, MachineParams(2, 1 << 20, 40));
    auto gen = GeneratorRegistry::create(generator, ctx);
    b.module = gen->build_module(generator);
    recording = nullptr;
    return b;
}

// Anything that handles bounds inside a loop body.
class GuardFinder : public IRVisitor {
public:
    std::vector<std::string> found;
    using IRVisitor::visit;
    void visit(const IfThenElse *op) override {
        found.push_back("if");
        IRVisitor::visit(op);
    }
    void visit(const Select *op) override {
        found.push_back("select");
        IRVisitor::visit(op);
    }
    void visit(const Min *op) override {
        found.push_back("min");
        IRVisitor::visit(op);
    }
    void visit(const Max *op) override {
        found.push_back("max");
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
            op->is_intrinsic(Call::if_then_else)) {
            found.push_back(op->name);
        }
        IRVisitor::visit(op);
    }
    void visit(const Load *op) override {
        if (!is_const_one(op->predicate)) found.push_back("predicated load");
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        if (!is_const_one(op->predicate)) found.push_back("predicated store");
        IRVisitor::visit(op);
    }
};

class HasLoop : public IRVisitor {
public:
    bool found = false;
    using IRVisitor::visit;
    void visit(const For *) override { found = true; }
};

// The innermost loops of `func`'s update (the FMA body of the micro-kernel). Halide makes Func
// names unique per process, so "acc" may appear as "acc$3".
class ComputeLoops : public IRVisitor {
public:
    explicit ComputeLoops(const std::string &func) : pattern("^" + func + R"((\$[0-9]+)?\.s1\.)") {}
    std::regex pattern;
    int checked = 0;
    std::vector<std::string> violations;
    using IRVisitor::visit;
    void visit(const For *op) override {
        HasLoop inner;
        op->body.accept(&inner);
        if (!inner.found && std::regex_search(op->name, pattern)) {
            checked++;
            GuardFinder g;
            op->body.accept(&g);
            if (!g.found.empty()) violations.push_back(op->name + ": " + g.found[0]);
        }
        IRVisitor::visit(op);
    }
};

// Threads per block of every GPU kernel (product of nested constant thread-loop extents).
class GpuThreads : public IRVisitor {
public:
    int64_t max_threads = 0;
    bool non_constant = false;
    int64_t current = 1;
    using IRVisitor::visit;
    void visit(const For *op) override {
        if (op->for_type == ForType::GPUThread) {
            const int64_t *e = as_const_int(op->extent);
            if (!e) non_constant = true;
            int64_t saved = current;
            current *= e ? *e : 1;
            max_threads = std::max(max_threads, current);
            IRVisitor::visit(op);
            current = saved;
            return;
        }
        IRVisitor::visit(op);
    }
};

void visit_all(const Built &b, IRVisitor *v) {
    REQUIRE(!b.lowered.empty());
    for (const Stmt &s : b.lowered) s.accept(v);
}

// The PTX Halide produced (kept in the host module as a buffer of source text).
std::string ptx_of(const Module &m) {
    for (const Buffer<> &b : m.buffers()) {
        if (b.name().find("gpu_source_kernels") != std::string::npos) {
            const char *p = (const char *)b.data();
            return std::string(p, strnlen(p, b.size_in_bytes()));
        }
    }
    return "";
}

struct GeneratorCase {
    std::string generator;
    bool has_matmul;
};
const std::vector<GeneratorCase> all_generators = {{"dense", true},           {"batch_matmul_nt", true},
                                                   {"batch_matmul_nn", true}, {"unsharp", false},
                                                   {"layernorm", false},      {"softmax", false}};

Target cuda_target() {
    return Target("host-cuda-cuda_capability_80");
}

std::string run(const std::string &cmd) {
    std::string out;
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
    return out;
}

}  // namespace

TEST_CASE("matmul micro-kernels are guard-free for every shape (host)", "[lowered]") {
    for (const auto &g : all_generators) {
        if (!g.has_matmul) continue;
        DYNAMIC_SECTION(g.generator) {
            Built m = build(g.generator, diet::runnable_host_target());
            ComputeLoops loops("acc");
            visit_all(m, &loops);
            INFO(g.generator);
            for (const auto &v : loops.violations) UNSCOPED_INFO(v);
            CHECK(loops.checked > 0);
            CHECK(loops.violations.empty());
        }
    }
}

TEST_CASE("matmul micro-kernels are guard-free for every shape (CUDA)", "[lowered][cuda]") {
    for (const auto &g : all_generators) {
        if (!g.has_matmul) continue;
        DYNAMIC_SECTION(g.generator) {
            Built m = build(g.generator, cuda_target());
            ComputeLoops loops("acc");
            visit_all(m, &loops);
            std::string why;
            for (const auto &v : loops.violations) why += v + "\n";
            INFO(why);
            CHECK(loops.checked > 0);
            CHECK(loops.violations.empty());
        }
    }
}

TEST_CASE("the guard detector sees the guards of a naive schedule", "[lowered]") {
    // The checker must be able to fail: a GuardWithIf split of the reduction leaves an if.
    ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w");
    Var n("n"), m("m");
    RVar ko("ko"), ki("ki");
    RDom k(0, x.dim(0).extent(), "k");
    Func acc("acc"), y("y");
    acc(n, m) = 0.f;
    acc(n, m) += x(k, m) * w(k, n);
    y(n, m) = acc(n, m);
    acc.compute_root().update().split(k, ko, ki, 8, TailStrategy::GuardWithIf).vectorize(n, 8, TailStrategy::GuardWithIf);
    Pipeline p(y);
    Built b;
    p.add_custom_lowering_pass(new RecordStmt(&b.lowered));
    b.module = p.compile_to_module({x, w}, "naive", diet::runnable_host_target());
    ComputeLoops loops("acc");
    visit_all(b, &loops);
    CHECK(loops.checked > 0);
    CHECK(!loops.violations.empty());
}

TEST_CASE("GPU kernels stay within 1024 threads per block", "[lowered][cuda]") {
    for (const auto &g : all_generators) {
        DYNAMIC_SECTION(g.generator) {
            Built m = build(g.generator, cuda_target());
            GpuThreads t;
            visit_all(m, &t);
            CHECK(!t.non_constant);
            CHECK(t.max_threads >= 1);
            CHECK(t.max_threads <= 1024);
        }
    }
}

TEST_CASE("ptxas accepts the PTX of every generator for sm_90 with no spills", "[ptxas][cuda]") {
    const std::string ptxas = DIET_PTXAS;
    if (ptxas.empty() || run("'" + ptxas + "' --version 2>&1").find("ptxas") == std::string::npos) {
        WARN("SKIPPED: the CUDA toolkit's ptxas was not found at configure time (install it at /usr/local/cuda)");
        return;
    }
    for (const auto &g : all_generators) {
        DYNAMIC_SECTION(g.generator) {
            Built m = build(g.generator, cuda_target());
            const std::string ptx = "diet_ptx_" + g.generator + ".ptx";
            std::string text = ptx_of(m.module);
            REQUIRE(text.find(".entry") != std::string::npos);
            std::ofstream(ptx) << text;
            std::string log = run("'" + ptxas + "' -arch=sm_90 -v " + ptx + " -o /dev/null 2>&1; echo rc=$?");
            INFO(log);
            CHECK(log.find("rc=0") != std::string::npos);
            std::smatch mt;
            std::regex spill(R"(([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads)");
            int kernels = 0;
            for (auto it = std::sregex_iterator(log.begin(), log.end(), spill); it != std::sregex_iterator(); ++it) {
                kernels++;
                CHECK((*it)[1] == "0");
                CHECK((*it)[2] == "0");
            }
            CHECK(kernels > 0);
            std::regex smem(R"(([0-9]+) bytes smem)");
            for (auto it = std::sregex_iterator(log.begin(), log.end(), smem); it != std::sregex_iterator(); ++it) {
                CHECK(std::stoi((*it)[1]) <= 48 * 1024);
            }
            std::remove(ptx.c_str());
        }
    }
}

// Issue 16: the staged kernels (shared-memory operand tiles) for both architectures the bundle
// targets: ptxas accepts them with no spills and no local memory, within 255 registers and the
// 48 KiB static shared-memory limit; their PTX reads shared memory and synchronizes the block.
// The single-output tile variant once kept its accumulator in registers of a one-lane loop:
// Halide 14 read it with full-mask warp shuffles that only lane 0 executed, and the kernel hung
// on an H100 at every T below the warp (batch_matmul NT, T < 32). Every variant's accumulator is
// lane-local or in shared memory: the staged kernels contain no shuffle at all. (No toolkit needed.)
TEST_CASE("staged CUDA matmul kernels contain no warp shuffles", "[cuda]") {
    for (const std::string gen : {"dense", "batch_matmul_nt"}) {
        DYNAMIC_SECTION(gen) {
            Built m = build(gen, cuda_target());
            const std::string text = ptx_of(m.module);
            CHECK(text.find("bar.sync") != std::string::npos);
            CHECK(text.find("shfl.sync") == std::string::npos);
        }
    }
}

TEST_CASE("staged CUDA matmul kernels: ptxas for sm_80 and sm_90, ld.shared and bar.sync", "[ptxas][cuda]") {
    const std::string ptxas = DIET_PTXAS;
    if (ptxas.empty() || run("'" + ptxas + "' --version 2>&1").find("ptxas") == std::string::npos) {
        WARN("SKIPPED: the CUDA toolkit's ptxas was not found at configure time (install it at /usr/local/cuda)");
        return;
    }
    for (const std::string gen : {"dense", "batch_matmul_nt"}) {
        for (const std::string arch : {"sm_80", "sm_90"}) {
            DYNAMIC_SECTION(gen << " " << arch) {
                // Halide 14 knows no capability above 8.6: the sm_80 PTX is what runs on Hopper too
                // (the driver or ptxas assembles it for sm_90).
                Built m = build(gen, cuda_target());
                const std::string text = ptx_of(m.module), ptx = "diet_staged_" + gen + "_" + arch + ".ptx";
                CHECK(text.find("ld.shared") != std::string::npos);
                CHECK(text.find("bar.sync") != std::string::npos);
                std::ofstream(ptx) << text;
                std::string log = run("'" + ptxas + "' -arch=" + arch + " -v " + ptx + " -o /dev/null 2>&1; echo rc=$?");
                std::printf("%s %s:\n%s", gen.c_str(), arch.c_str(), log.c_str());
                CHECK(log.find("rc=0") != std::string::npos);
                std::regex usage(R"(([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads)");
                int kernels = 0;
                for (auto it = std::sregex_iterator(log.begin(), log.end(), usage); it != std::sregex_iterator(); ++it) {
                    kernels++;
                    CHECK((*it)[1] == "0");
                    CHECK((*it)[2] == "0");
                    CHECK((*it)[3] == "0");
                }
                CHECK(kernels > 0);
                std::regex regs(R"(Used ([0-9]+) registers)");
                for (auto it = std::sregex_iterator(log.begin(), log.end(), regs); it != std::sregex_iterator(); ++it) {
                    CHECK(std::stoi((*it)[1]) <= 255);
                }
                std::remove(ptx.c_str());
            }
        }
    }
}

namespace {

// Global-memory accesses of the named buffers inside GPU thread loops, and their stride along the
// innermost thread dimension (the thread-x / lane loop): Stmt-level proof of coalescing. Let-bound
// names are expanded before differencing, since the index usually reads them.
class ThreadStride : public IRVisitor {
public:
    explicit ThreadStride(std::set<std::string> buffers) : buffers_(std::move(buffers)) {}
    int checked = 0, uniform = 0;
    std::vector<std::string> problems;
    using IRVisitor::visit;

    void visit(const For *op) override {
        // (A thread loop of one thread, the last tile variant's, has no coalescing to check.)
        const bool tx = (op->for_type == ForType::GPUThread || op->for_type == ForType::GPULane) &&
                        ends_with(op->name, "__thread_id_x") && !is_const_one(op->extent);
        if (tx) thread_x_.push_back(op->name);
        IRVisitor::visit(op);
        if (tx) thread_x_.pop_back();
    }
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        lets_.emplace_back(op->name, op->value);
        op->body.accept(this);
        lets_.pop_back();
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        lets_.emplace_back(op->name, op->value);
        op->body.accept(this);
        lets_.pop_back();
    }
    void visit(const Load *op) override {
        check(op->name, op->index, "load of ");
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        check(op->name, op->index, "store to ");
        IRVisitor::visit(op);
    }

private:
    std::set<std::string> buffers_;
    std::vector<std::string> thread_x_;
    std::vector<std::pair<std::string, Expr>> lets_;

    void check(const std::string &name, Expr index, const std::string &what) {
        if (!buffers_.count(name) || thread_x_.empty()) return;
        for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) index = substitute(it->first, it->second, index);
        const std::string &tx = thread_x_.back();
        const Expr step = simplify(substitute(tx, Variable::make(Int(32), tx) + 1, index) - index);
        checked++;
        // Stride 0 is one address for the whole warp (one transaction): the output store of the
        // last tile variant, one output per block, where unit stride is impossible.
        if (is_const_zero(step)) {
            uniform++;
            return;
        }
        if (!is_const_one(step)) problems.push_back(what + name + ": stride " + (std::ostringstream() << step).str() + " along " + tx + " (index " + (std::ostringstream() << simplify(index)).str() + ")");
    }
};

}  // namespace

TEST_CASE("staged CUDA kernels: every operand load and the output store have unit stride along thread x", "[lowered][cuda]") {
    const std::vector<std::pair<std::string, std::set<std::string>>> gens = {{"dense", {"x", "w", "y"}},
                                                                             {"batch_matmul_nt", {"a", "bt", "out"}}};
    for (const auto &[gen, buffers] : gens) {
        DYNAMIC_SECTION(gen) {
            Built m = build(gen, cuda_target());
            ThreadStride strides(buffers);
            visit_all(m, &strides);
            INFO(gen << ": " << strides.checked << " global accesses inside thread loops checked, " << strides.uniform
                      << " of them warp-uniform");
            std::printf("%s: %d global accesses in thread loops, %d warp-uniform, the rest unit stride\n", gen.c_str(),
                        strides.checked, strides.uniform);
            CHECK(strides.checked > 0);
            for (const std::string &p : strides.problems) FAIL_CHECK(p);
        }
    }
}

TEST_CASE("the stride check sees the strided operand reads of an unstaged kernel", "[lowered][cuda]") {
    // batch_matmul_nn's reduction is symbolic (over T), so it keeps the unstaged kernels: each
    // thread reads `a` along the reduction, its own row, a whole row apart from its neighbour's.
    Built m = build("batch_matmul_nn", cuda_target());
    ThreadStride strides({"a", "bn", "out"});
    visit_all(m, &strides);
    CHECK(strides.checked > 0);
    CHECK(!strides.problems.empty());
}
