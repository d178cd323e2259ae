#include "machine_config.hpp"

#include <cstdlib>
#include <sstream>

#include "fault.hpp"

namespace fm::rv {

namespace {

struct LatKey {
    const char* key;
    TClass cls;
};

constexpr LatKey kLatKeys[] = {
    {"latency.alu", TClass::Alu},
    // latency.load sets every width; the width keys after it refine it.
    {"latency.load", TClass::LoadB},    {"latency.load", TClass::LoadH},
    {"latency.load", TClass::LoadW},    {"latency.load", TClass::LoadD},
    {"latency.load_byte", TClass::LoadB}, {"latency.load_half", TClass::LoadH},
    {"latency.load_word", TClass::LoadW}, {"latency.load_double", TClass::LoadD},
    {"latency.store", TClass::Store},   {"latency.mul", TClass::Mul},
    {"latency.div", TClass::Div},       {"latency.branch", TClass::Branch},
    {"latency.jump", TClass::Jump},     {"latency.csr", TClass::Csr},
    {"latency.system", TClass::System}, {"latency.amo", TClass::Amo},
    {"latency.fadd_s", TClass::FAddS},  {"latency.fadd_d", TClass::FAddD},
    {"latency.fmul_s", TClass::FMulS},  {"latency.fmul_d", TClass::FMulD},
    {"latency.fma_s", TClass::FmaS},    {"latency.fma_d", TClass::FmaD},
    {"latency.fdiv_s", TClass::FDivS},  {"latency.fdiv_d", TClass::FDivD},
    {"latency.fsqrt_s", TClass::FSqrtS}, {"latency.fsqrt_d", TClass::FSqrtD},
    {"latency.fmisc", TClass::FMisc},   {"latency.fcvt", TClass::FCvt},
    {"latency.fmove", TClass::FMove},   {"latency.fload", TClass::FLoad},
    {"latency.fstore", TClass::FStore},
};

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    const auto z = s.find_last_not_of(" \t\r");
    return s.substr(a, z - a + 1);
}

bool is_pow2(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

MachineConfig::MachineConfig() {
    // Fallback defaults (Rocket-like); simulators/machines/default.machine is
    // the documented, cited source of the numbers actually used.
    latency.fill(1);
    for (TClass c : {TClass::LoadB, TClass::LoadH, TClass::LoadW, TClass::LoadD})
        latency[static_cast<int>(c)] = 2;
    latency[static_cast<int>(TClass::FLoad)] = 2;
    latency[static_cast<int>(TClass::Mul)] = 4;
    latency[static_cast<int>(TClass::Div)] = 33;
}

MachineConfig parse_machine(const std::string& text) {
    MachineConfig m;
    std::istringstream in(text);
    std::string raw;
    int lineno = 0;
    while (std::getline(in, raw)) {
        ++lineno;
        const auto hash = raw.find('#');
        const std::string line = trim(hash == std::string::npos ? raw : raw.substr(0, hash));
        if (line.empty()) continue;
        const auto eq = line.find('=');
        const std::string where = "machine file line " + std::to_string(lineno);
        if (eq == std::string::npos) throw Fault(FaultCode::BadConfig, 0, where + ": expected key = value");
        const std::string key = trim(line.substr(0, eq)), val = trim(line.substr(eq + 1));
        if (key == "name") { m.name = val; continue; }
        if (key == "branch.predictor") {
            if (val == "gshare") m.gshare = true;
            else if (val == "bimodal") m.gshare = false;
            else throw Fault(FaultCode::BadConfig, 0, where + ": predictor must be gshare or bimodal");
            continue;
        }
        char* end = nullptr;
        const unsigned long long n = std::strtoull(val.c_str(), &end, 0);
        if (val.empty() || *end != '\0' || val[0] == '-')
            throw Fault(FaultCode::BadConfig, 0, where + ": '" + val + "' is not a non-negative integer");
        const auto u32 = static_cast<std::uint32_t>(n);
        bool known = true;
        if (key == "freq_hz") m.freq_hz = n;
        else if (key == "timebase_hz") m.timebase_hz = n;
        else if (key == "branch.table_bits") m.bp_table_bits = u32;
        else if (key == "branch.history_bits") m.bp_history_bits = u32;
        else if (key == "branch.btb_entries") m.btb_entries = u32;
        else if (key == "branch.ras_entries") m.ras_entries = u32;
        else if (key == "branch.mispredict_penalty") m.mispredict_penalty = u32;
        else if (key == "branch.btb_miss_penalty") m.btb_miss_penalty = u32;
        else if (key == "branch.counter_bits") m.counter_bits = u32;
        else if (key == "mul.pipelined") m.mul_pipelined = n != 0;
        else if (key == "mul.bits_per_cycle") m.mul_bits_per_cycle = u32;
        else if (key == "mul.base") m.mul_base = u32;
        else if (key == "mul.early_out") m.mul_early_out = n != 0;
        else if (key == "div.bits_per_cycle") m.div_bits_per_cycle = u32;
        else if (key == "div.base") m.div_base = u32;
        else if (key == "div.early_out") m.div_early_out = n != 0;
        else if (key == "amo.occupancy") m.amo_occupancy = u32;
        else if (key == "misaligned.penalty") m.misaligned_penalty = u32;
        else if (key == "l1i.sets") m.l1i.sets = u32;
        else if (key == "l1i.ways") m.l1i.ways = u32;
        else if (key == "l1i.line") m.l1i.line = u32;
        else if (key == "l1d.sets") m.l1d.sets = u32;
        else if (key == "l1d.ways") m.l1d.ways = u32;
        else if (key == "l1d.line") m.l1d.line = u32;
        else if (key == "l2.sets") m.l2.sets = u32;
        else if (key == "l2.ways") m.l2.ways = u32;
        else if (key == "l2.line") m.l2.line = u32;
        else if (key == "l2.latency") m.l2_latency = u32;
        else if (key == "memory.latency") m.mem_latency = u32;
        else {
            known = false;
            for (const auto& lk : kLatKeys) {
                if (key == lk.key) {
                    if (n < 1 || n > 1000)
                        throw Fault(FaultCode::BadConfig, 0, where + ": latency must be 1..1000");
                    m.latency[static_cast<int>(lk.cls)] = u32;
                    known = true;
                }
            }
        }
        if (!known) throw Fault(FaultCode::BadConfig, 0, where + ": unknown key '" + key + "'");
    }
    for (const CacheConfig* c : {&m.l1i, &m.l1d, &m.l2}) {
        if (!is_pow2(c->sets) || !is_pow2(c->line) || c->line < 8 || c->ways < 1 || c->ways > 64)
            throw Fault(FaultCode::BadConfig, 0,
                        "cache geometry: sets and line must be powers of two, ways 1..64");
    }
    if (m.l1i.line != m.l1d.line || m.l2.line < m.l1d.line)
        throw Fault(FaultCode::BadConfig, 0, "l1i.line must equal l1d.line and l2.line be >= it");
    if (m.bp_table_bits < 1 || m.bp_table_bits > 24 || m.bp_history_bits > m.bp_table_bits)
        throw Fault(FaultCode::BadConfig, 0, "branch.table_bits must be 1..24, history <= table bits");
    if (m.counter_bits < 1 || m.counter_bits > 2)
        throw Fault(FaultCode::BadConfig, 0, "branch.counter_bits must be 1 or 2");
    if (m.div_bits_per_cycle > 64 || m.div_base > 1000 || m.mul_bits_per_cycle > 64 || m.mul_base > 1000)
        throw Fault(FaultCode::BadConfig, 0, "{div,mul}.bits_per_cycle must be 0..64 and {div,mul}.base 0..1000");
    if (m.amo_occupancy < 1 || m.amo_occupancy > 1000 || m.misaligned_penalty > 100000)
        throw Fault(FaultCode::BadConfig, 0, "amo.occupancy must be 1..1000, misaligned.penalty 0..100000");
    if (!is_pow2(m.btb_entries) || m.ras_entries > 64 || m.freq_hz == 0 || m.timebase_hz == 0)
        throw Fault(FaultCode::BadConfig, 0, "btb_entries must be a power of two, ras <= 64, rates > 0");
    return m;
}

}  // namespace fm::rv
