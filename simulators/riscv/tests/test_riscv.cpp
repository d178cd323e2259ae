// C++ tests of the simulator that need no Python and no cross compiler:
// hand-encoded programs run in user and machine mode.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "cache.hpp"
#include "predictor.hpp"
#include "simulator.hpp"

using namespace fm::rv;

namespace {

int failures = 0;
#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond)) {                                                        \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            ++failures;                                                       \
        }                                                                     \
    } while (0)

std::uint32_t i_type(std::uint32_t opc, std::uint32_t rd, std::uint32_t f3, std::uint32_t rs1, std::int32_t imm) {
    return (static_cast<std::uint32_t>(imm & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
std::uint32_t r_type(std::uint32_t opc, std::uint32_t rd, std::uint32_t f3, std::uint32_t rs1, std::uint32_t rs2, std::uint32_t f7) {
    return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
std::uint32_t b_type(std::uint32_t f3, std::uint32_t rs1, std::uint32_t rs2, std::int32_t imm) {
    const std::uint32_t u = static_cast<std::uint32_t>(imm);
    return (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
           (((u >> 1) & 0xf) << 8) | (((u >> 11) & 1) << 7) | 0x63;
}
constexpr std::uint32_t kEcall = 0x73;
std::uint32_t addi(std::uint32_t rd, std::uint32_t rs1, std::int32_t imm) { return i_type(0x13, rd, 0, rs1, imm); }

constexpr std::uint64_t kBase = 0x10000, kSize = 1 << 20;

std::unique_ptr<Simulator> make(const std::vector<std::uint32_t>& code, Env env = Env::User) {
    auto owned = std::make_unique<Simulator>(env, kBase, kSize, MachineConfig());
    Simulator& sim = *owned;
    for (std::size_t i = 0; i < code.size(); ++i)
        sim.memory().store<std::uint32_t>(kBase + 4 * i, code[i], 0);
    sim.set_code_range(kBase, kBase + 4 * code.size());
    sim.hart().pc = kBase;
    sim.hart().x[2] = kBase + kSize - 16;
    return owned;
}

// sum = 0; for (i = 100; i != 0; --i) sum += i; exit(sum & 0xff)
std::vector<std::uint32_t> sum_program() {
    return {
        addi(10, 0, 0),                   // a0 = 0
        addi(11, 0, 100),                 // a1 = 100
        r_type(0x33, 10, 0, 10, 11, 0),   // loop: a0 += a1
        addi(11, 11, -1),                 // a1 -= 1
        b_type(1, 11, 0, -8),             // bne a1, x0, loop
        addi(17, 0, 93),                  // a7 = exit
        kEcall,
    };
}

void test_user_exit() {
    for (bool timing : {false, true}) {
        auto sim_ = make(sum_program());
        Simulator& sim = *sim_;
        sim.set_timing(timing);
        CHECK(sim.run(~0ull, ~0ull));
        CHECK(sim.exit_code() == (5050 & 0xff));
        CHECK(sim.instret() == 2 + 3 * 100 + 2);
        if (!timing) CHECK(sim.cycles() == sim.instret());
        else CHECK(sim.cycles() > sim.instret());
    }
}

void test_cycles_deterministic() {
    std::uint64_t first = 0;
    for (int i = 0; i < 3; ++i) {
        auto sim_ = make(sum_program());
        Simulator& sim = *sim_;
        sim.run(~0ull, ~0ull);
        if (i == 0) first = sim.cycles();
        CHECK(sim.cycles() == first);
    }
}

void test_budget_and_resume() {
    auto sim_ = make(sum_program());
        Simulator& sim = *sim_;
    CHECK(!sim.run(50, ~0ull));
    CHECK(sim.instret() == 50);
    CHECK(sim.run(~0ull, ~0ull));
    auto whole_ = make(sum_program());
        Simulator& whole = *whole_;
    whole.run(~0ull, ~0ull);
    CHECK(sim.cycles() == whole.cycles());  // chunking does not change the count
}

void test_division_semantics() {
    // a0 = INT64_MIN / -1 (= INT64_MIN), a1 = 7 / 0 (= -1), a2 = 7 % 0 (= 7)
    std::vector<std::uint32_t> code = {
        addi(5, 0, 1), i_type(0x13, 5, 1, 5, 63),  // t0 = 1 << 63
        addi(6, 0, -1),                           // t1 = -1
        r_type(0x33, 10, 4, 5, 6, 1),             // div a0, t0, t1
        addi(7, 0, 7),
        r_type(0x33, 11, 4, 7, 0, 1),             // div a1, t2, x0
        r_type(0x33, 12, 6, 7, 0, 1),             // rem a2, t2, x0
        addi(17, 0, 93), kEcall,
    };
    auto sim_ = make(code);
        Simulator& sim = *sim_;
    sim.run(~0ull, ~0ull);
    CHECK(sim.hart().x[10] == 0x8000000000000000ull);
    CHECK(sim.hart().x[11] == ~0ull);
    CHECK(sim.hart().x[12] == 7);
}

void test_faults() {
    {
        auto sim_ = make({0xffffffffu});
        Simulator& sim = *sim_;
        try {
            sim.run(~0ull, ~0ull);
            CHECK(false);
        } catch (const Fault& f) {
            CHECK(f.code() == FaultCode::IllegalInstruction);
            CHECK(f.pc() == kBase);
        }
    }
    {
        auto sim_ = make({addi(5, 0, 8), i_type(0x03, 6, 3, 5, 0)});
        Simulator& sim = *sim_;  // ld t1, 0(8)
        try {
            sim.run(~0ull, ~0ull);
            CHECK(false);
        } catch (const Fault& f) {
            CHECK(f.code() == FaultCode::AccessFault);
            CHECK(f.pc() == kBase + 4);
            CHECK(f.value() == 8);
        }
    }
    {
        auto sim_ = make({addi(17, 0, 999), kEcall});
        Simulator& sim = *sim_;
        try {
            sim.run(~0ull, ~0ull);
            CHECK(false);
        } catch (const Fault& f) {
            CHECK(f.code() == FaultCode::UnknownSyscall);
            CHECK(f.value() == 999);
            CHECK(f.pc() == kBase + 4);
        }
    }
}

void test_rvc_expansion() {
    CHECK(expand_rvc(0x0001) == addi(0, 0, 0));          // c.nop
    CHECK(expand_rvc(0x4505) == addi(10, 0, 1));         // c.li a0, 1
    CHECK(expand_rvc(0x8082) == i_type(0x67, 0, 0, 1, 0));  // c.jr ra (ret)
    CHECK(expand_rvc(0x1141) == addi(2, 2, -16));        // c.addi sp, -16
    CHECK(expand_rvc(0x0000) == 0);                      // illegal
    CHECK(expand_rvc(0x9002) == 0x00100073u);            // c.ebreak
}

void test_machine_mode_tohost() {
    // Install a trap handler, ecall into it, handler writes (1 << 1) | 1 to tohost.
    const std::uint64_t tohost = kBase + 0x1000;
    std::vector<std::uint32_t> code = {
        // 0: auipc t0, 0 ; addi t0, t0, 16 ; csrw mtvec, t0 ; ecall
        0x00000297u, addi(5, 5, 16), 0x30529073u, kEcall,
        // 16: handler: csrr t1, mcause ; li t2, 11 ; bne t1, t2, +4*? ; tohost = 3
        0x34202373u, addi(7, 0, 11), b_type(1, 6, 7, 16),
        addi(28, 0, 3),                                  // t3 = (1<<1)|1
        0, 0,                                            // patched: sd t3, tohost
        0x0000006fu,                                     // j . (spin)
    };
    // lui t4, hi(tohost); sd t3, lo(tohost)(t4)
    const std::uint32_t hi = static_cast<std::uint32_t>((tohost + 0x800) & ~0xfffull);
    const std::int32_t lo = static_cast<std::int32_t>(tohost - hi);
    code[8] = hi | (29u << 7) | 0x37u;
    code[9] = ((static_cast<std::uint32_t>(lo) >> 5) << 25) | (28u << 20) | (29u << 15) | (3u << 12) |
              ((static_cast<std::uint32_t>(lo) & 31) << 7) | 0x23u;
    auto sim_ = make(code, Env::Machine);
        Simulator& sim = *sim_;
    sim.set_tohost(tohost);
    CHECK(sim.run(1000, ~0ull));
    CHECK(sim.exit_code() == 1);
    CHECK(sim.hart().mcause == 11);
    CHECK(sim.hart().mepc == kBase + 12);
}

void test_cache_lru() {
    // 2 sets x 2 ways, 64-byte lines: lines 0, 2, 4 all map to set 0.
    Cache c(CacheConfig{2, 2, 64});
    CHECK(!c.access(0 * 64));
    CHECK(!c.access(2 * 64));
    CHECK(c.access(0 * 64));   // hit; line 2 is now least recently used
    CHECK(!c.access(4 * 64));  // evicts line 2
    CHECK(c.access(0 * 64));
    CHECK(!c.access(2 * 64));  // was evicted
    CHECK(!c.access(1 * 64));  // set 1, cold
    CHECK(c.access(1 * 64 + 63));  // same line
    CHECK(c.accesses() == 8 && c.misses() == 5);
}

// The cache against a plain true-LRU model (a use stamp per way; the victim
// is the first empty way, else the oldest): the same hit or miss on every
// access of a long pseudo-random stream, for several geometries, including
// direct-mapped and fully associative.
void test_cache_matches_reference_lru() {
    const CacheConfig geometries[] = {{1, 1, 64}, {4, 1, 64}, {2, 2, 64}, {16, 4, 64},
                                      {8, 8, 32}, {1, 8, 64}, {64, 3, 64}};
    for (const CacheConfig& g : geometries) {
        Cache c(g);
        std::vector<std::uint64_t> tag(static_cast<std::size_t>(g.sets) * g.ways, 0), used(tag.size(), 0);
        std::uint64_t clock = 0, misses = 0, rng = 12345;
        std::uint32_t shift = 0;
        while ((1u << shift) < g.line) ++shift;
        for (int i = 0; i < 200000; ++i) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            // A few hot lines and a wider cold range, so sets see hits,
            // promotions from every depth and evictions.
            const std::uint64_t span = (rng >> 60) < 12 ? 3 * g.sets : 40 * g.sets * g.ways;
            const std::uint64_t addr = ((rng >> 20) % span) * g.line + ((rng >> 8) & (g.line - 1));
            const std::uint64_t line = addr >> shift;
            const std::size_t base = static_cast<std::size_t>(line % g.sets) * g.ways;
            ++clock;
            bool hit = false;
            std::size_t victim = base;
            for (std::size_t w = base; w < base + g.ways; ++w) {
                if (tag[w] == line + 1) {
                    hit = true;
                    used[w] = clock;
                    break;
                }
                if (used[w] < used[victim]) victim = w;
            }
            if (!hit) {
                ++misses;
                tag[victim] = line + 1;
                used[victim] = clock;
            }
            CHECK(c.access(addr) == hit);
        }
        CHECK(c.misses() == misses);
        CHECK(c.accesses() == 200000);
    }
}

void test_predictor() {
    // A loop branch taken 5 times then falling through (period 6), 20 trips.
    // gshare with 8 history bits sees every position of the period as a
    // distinct history and stops mispredicting; bimodal keeps missing every exit.
    auto late_misses = [](bool gshare) {
        MachineConfig m;
        m.gshare = gshare;
        Predictor p(m);
        std::uint64_t late = 0;
        for (int rep = 0; rep < 20; ++rep) {
            const std::uint64_t before = p.mispredicts();
            for (int i = 0; i < 6; ++i) p.branch(0x1000, i < 5, 0x0f00);
            if (rep >= 10) late += p.mispredicts() - before;
        }
        CHECK(p.branches() == 120);
        return late;
    };
    CHECK(late_misses(true) == 0);
    CHECK(late_misses(false) == 10);
    // Returns predicted by the RAS: call then return to the link address.
    MachineConfig m;
    Predictor q(m);
    CHECK(q.jump(0x2000, 0x3000, true, 0x2004) == m.btb_miss_penalty);  // cold BTB
    CHECK(q.jump(0x2000, 0x3000, false, 0) == 0);                      // BTB now holds it
    CHECK(q.indirect(0x3010, 0x2004, true, false, 0) == 0);             // RAS hit
    CHECK(q.indirect(0x3010, 0x2008, true, false, 0) == m.mispredict_penalty);  // RAS empty
}

void test_machine_file() {
    const MachineConfig m = parse_machine("name = t\nlatency.mul = 7 # comment\nl1d.sets = 32\n");
    CHECK(m.name == "t");
    CHECK(m.lat(TClass::Mul) == 7);
    CHECK(m.l1d.sets == 32);
    bool threw = false;
    try {
        parse_machine("latency.mul = -1\n");
    } catch (const Fault& f) {
        threw = f.code() == FaultCode::BadConfig;
    }
    CHECK(threw);
}

}  // namespace

int main() {
    test_user_exit();
    test_cycles_deterministic();
    test_budget_and_resume();
    test_division_semantics();
    test_faults();
    test_rvc_expansion();
    test_machine_mode_tohost();
    test_cache_lru();
    test_cache_matches_reference_lru();
    test_predictor();
    test_machine_file();
    if (failures) {
        std::fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    std::puts("test_riscv: all checks passed");
    return 0;
}
