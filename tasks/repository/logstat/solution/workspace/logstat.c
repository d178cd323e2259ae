/* logstat: summaries of web server access logs (Common Log Format).
 * A C rewrite of the Python reference with the same commands, output bytes,
 * files and exit codes; see the reference's docstring for the interface. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct { const char *p; size_t n; } str;

typedef struct {
    str raw, ip, path, status;
    int year, month, day, hour;
    unsigned long long size;
} record;

/* ------------------------------------------------------------ output */

static char *obuf; static size_t olen, ocap;
static void out(const char *p, size_t n) {
    if (olen + n > ocap) { ocap = (olen + n) * 2 + 4096; obuf = realloc(obuf, ocap); }
    memcpy(obuf + olen, p, n); olen += n;
}
static void outs(const char *s) { out(s, strlen(s)); }
static void outstr(str s) { out(s.p, s.n); }
static void outu(unsigned long long v) { char b[32]; int k = snprintf(b, sizeof b, "%llu", v); out(b, (size_t)k); }
static void flush_out(void) {
    size_t off = 0;
    while (off < olen) { ssize_t w = write(1, obuf + off, olen - off); if (w <= 0) break; off += (size_t)w; }
    olen = 0;
}
static void fail(int code, const char *a, const char *b, const char *c) {
    flush_out();
    char msg[8192]; snprintf(msg, sizeof msg, "%s%s%s", a, b ? b : "", c ? c : "");
    ssize_t ignored = write(2, msg, strlen(msg)); (void)ignored;
    exit(code);
}

/* ------------------------------------------------------------ parsing */

/* Whitespace as Python's str regex sees it for latin-1 characters. */
static int is_ws(unsigned char c) {
    return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f) || c == 0x85 || c == 0xa0;
}
static int dg(char c) { return c >= '0' && c <= '9'; }
static int num(const char *p, int n) { int v = 0; for (int i = 0; i < n; i++) v = v * 10 + (p[i] - '0'); return v; }
static const char *MONTHS[] = {"Jan","Feb","Mar","Apr","May","Jun","Jul","Aug","Sep","Oct","Nov","Dec"};

static int parse(str line, record *r) {
    str t[10]; int k = 0; size_t start = 0;
    for (size_t i = 0; i <= line.n; i++) {
        if (i == line.n || line.p[i] == ' ') {
            if (k == 10 || i == start) return 0;
            t[k].p = line.p + start; t[k].n = i - start; k++; start = i + 1;
        } else if (is_ws((unsigned char)line.p[i])) {
            return 0;
        }
    }
    if (k != 10) return 0;
    const char *d = t[3].p;
    if (t[3].n != 21 || d[0] != '[' || !dg(d[1]) || !dg(d[2]) || d[3] != '/' || d[7] != '/' ||
        d[12] != ':' || d[15] != ':' || d[18] != ':') return 0;
    for (int i = 8; i < 12; i++) if (!dg(d[i])) return 0;
    for (int i = 13; i < 21; i++) if (i != 15 && i != 18 && !dg(d[i])) return 0;
    int month = 0;
    for (int m = 0; m < 12; m++) if (memcmp(d + 4, MONTHS[m], 3) == 0) month = m + 1;
    if (!month) return 0;
    const char *z = t[4].p;
    if (t[4].n != 6 || (z[0] != '+' && z[0] != '-') || z[5] != ']') return 0;
    for (int i = 1; i < 5; i++) if (!dg(z[i])) return 0;
    if (t[5].n < 2 || t[5].p[0] != '"') return 0;
    if (t[7].n < 2 || t[7].p[t[7].n - 1] != '"') return 0;
    if (t[8].n != 3 || !dg(t[8].p[0]) || !dg(t[8].p[1]) || !dg(t[8].p[2])) return 0;
    unsigned long long size = 0;
    if (!(t[9].n == 1 && t[9].p[0] == '-')) {
        for (size_t i = 0; i < t[9].n; i++) {
            if (!dg(t[9].p[i])) return 0;
            size = size * 10 + (unsigned long long)(t[9].p[i] - '0');
        }
    }
    r->raw = line; r->ip = t[0]; r->path = t[6]; r->status = t[8];
    r->day = num(d + 1, 2); r->month = month; r->year = num(d + 8, 4); r->hour = num(d + 13, 2);
    r->size = size;
    return 1;
}

/* ------------------------------------------------------------ counting */

typedef struct { str key; long count; uint64_t hash; } slot;
typedef struct { slot *s; size_t cap, used; } table;

static uint64_t hash(str k) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < k.n; i++) { h ^= (unsigned char)k.p[i]; h *= 1099511628211ULL; }
    return h ? h : 1;
}
static void tinit(table *t) { t->cap = 1024; t->used = 0; t->s = calloc(t->cap, sizeof(slot)); }
static void tadd(table *t, str k);
static void grow(table *t) {
    slot *old = t->s; size_t oc = t->cap;
    t->cap *= 2; t->used = 0; t->s = calloc(t->cap, sizeof(slot));
    for (size_t i = 0; i < oc; i++) if (old[i].hash) {
        size_t j = old[i].hash & (t->cap - 1);
        while (t->s[j].hash) j = (j + 1) & (t->cap - 1);
        t->s[j] = old[i]; t->used++;
    }
    free(old);
}
static void tadd(table *t, str k) {
    if (2 * (t->used + 1) > t->cap) grow(t);
    uint64_t h = hash(k); size_t j = h & (t->cap - 1);
    while (t->s[j].hash) {
        if (t->s[j].hash == h && t->s[j].key.n == k.n && memcmp(t->s[j].key.p, k.p, k.n) == 0) {
            t->s[j].count++; return;
        }
        j = (j + 1) & (t->cap - 1);
    }
    t->s[j].hash = h; t->s[j].key = k; t->s[j].count = 1; t->used++;
}
static int bytecmp(str a, str b) {
    size_t n = a.n < b.n ? a.n : b.n; int c = memcmp(a.p, b.p, n);
    if (c) return c;
    return a.n < b.n ? -1 : a.n > b.n;
}
static int by_rank(const void *x, const void *y) {
    const slot *a = x, *b = y;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    return bytecmp(a->key, b->key);
}

/* ------------------------------------------------------------ reports */

static record *recs; static size_t nrec, malformed;

static void summary(void) {
    unsigned long long total = 0; long cls[5] = {0};
    table ips; tinit(&ips);
    for (size_t i = 0; i < nrec; i++) {
        char c = recs[i].status.p[0];
        cls[(c >= '2' && c <= '5') ? c - '2' : 4]++;
        tadd(&ips, recs[i].ip); total += recs[i].size;
    }
    outs("requests: "); outu(nrec); outs("\nmalformed: "); outu(malformed);
    outs("\nunique_ips: "); outu(ips.used); outs("\nbytes: "); outu(total); outs("\n");
    if (nrec) { outs("mean_bytes: "); outu(total / nrec); outs("\n"); }
    const char *names[] = {"2xx: ", "3xx: ", "4xx: ", "5xx: ", "other: "};
    for (int i = 0; i < 5; i++) { outs(names[i]); outu((unsigned long long)cls[i]); outs("\n"); }
    free(ips.s);
}

static void top(int field, long n) {
    table t; tinit(&t);
    for (size_t i = 0; i < nrec; i++)
        tadd(&t, field == 0 ? recs[i].ip : field == 1 ? recs[i].path : recs[i].status);
    slot *v = malloc((t.used + 1) * sizeof(slot)); size_t m = 0;
    for (size_t i = 0; i < t.cap; i++) if (t.s[i].hash) v[m++] = t.s[i];
    qsort(v, m, sizeof(slot), by_rank);
    for (size_t i = 0; i < m && (long)i < n; i++) { outu((unsigned long long)v[i].count); outs("\t"); outstr(v[i].key); outs("\n"); }
    free(v); free(t.s);
}

static int by_hour(const void *x, const void *y) {
    long a = *(const long *)x, b = *(const long *)y; return (a > b) - (a < b);
}
static void hourly(void) {
    long *keys = malloc((nrec + 1) * sizeof(long));
    for (size_t i = 0; i < nrec; i++) {
        const record *r = &recs[i];
        keys[i] = ((long)r->year * 100 + r->month) * 10000 + r->day * 100 + r->hour;
    }
    qsort(keys, nrec, sizeof(long), by_hour);
    for (size_t i = 0; i < nrec;) {
        size_t j = i; while (j < nrec && keys[j] == keys[i]) j++;
        long k = keys[i]; char b[64];
        int len = snprintf(b, sizeof b, "%04ld-%02ld-%02ld %02ld:00\t%zu\n", k / 1000000,
                           (k / 10000) % 100, (k / 100) % 100, k % 100, j - i);
        out(b, (size_t)len); i = j;
    }
    free(keys);
}

static void write_file(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) { olen = 0; fail(1, "logstat: cannot write '", path, "'\n"); }
    size_t off = 0;
    while (off < olen) { ssize_t w = write(fd, obuf + off, olen - off); if (w <= 0) break; off += (size_t)w; }
    close(fd); olen = 0;
}

static int mkdirs(const char *path) {
    char buf[4096]; size_t n = strlen(path);
    if (n >= sizeof buf) return -1;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (i == n || buf[i] == '/') {
            char c = buf[i]; buf[i] = 0;
            if (mkdir(buf, 0777) != 0) {
                struct stat st;
                if (errno != EEXIST || stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) return -1;
            }
            buf[i] = c;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ input */

static void read_input(const char *name, char **data, size_t *len) {
    int fd = 0;
    if (strcmp(name, "-") != 0) {
        fd = open(name, O_RDONLY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) fail(1, "logstat: cannot open '", name, "'\n");
    }
    size_t cap = 1 << 16, n = 0; char *b = malloc(cap);
    for (;;) {
        if (n == cap) { cap *= 2; b = realloc(b, cap); }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) fail(1, "logstat: cannot open '", name, "'\n");
        if (r == 0) break;
        n += (size_t)r;
    }
    if (fd) close(fd);
    *data = b; *len = n;
}

static void load(char **files, int nfiles) {
    size_t cap = 1024; recs = malloc(cap * sizeof(record));
    char **datas = malloc(sizeof(char *) * (size_t)nfiles); size_t *lens = malloc(sizeof(size_t) * (size_t)nfiles);
    for (int f = 0; f < nfiles; f++) read_input(files[f], &datas[f], &lens[f]);
    for (int f = 0; f < nfiles; f++) {
        const char *p = datas[f], *end = p + lens[f];
        while (p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *e = nl ? nl : end;
            str line = {p, (size_t)(e - p)};
            if (nrec == cap) { cap *= 2; recs = realloc(recs, cap * sizeof(record)); }
            if (parse(line, &recs[nrec])) nrec++; else malformed++;
            p = nl ? nl + 1 : end;
        }
    }
}

/* ------------------------------------------------------------ main */

static const char *USAGE = "usage: logstat summary|top|hourly|filter|report [OPTIONS] FILE...\n";

static int allowed(const char *cmd, const char *opt) {
    if (!strcmp(cmd, "top")) return !strcmp(opt, "-n");
    if (!strcmp(cmd, "hourly")) return !strcmp(opt, "-o");
    if (!strcmp(cmd, "filter")) return !strcmp(opt, "--status") || !strcmp(opt, "--prefix") || !strcmp(opt, "-o");
    if (!strcmp(cmd, "report")) return !strcmp(opt, "-d");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) fail(2, USAGE, 0, 0);
    const char *cmd = argv[1];
    const char *cmds[] = {"summary", "top", "hourly", "filter", "report"};
    int known = 0;
    for (int i = 0; i < 5; i++) if (!strcmp(cmd, cmds[i])) known = 1;
    if (!known) fail(2, USAGE, 0, 0);
    const char *opt_n = 0, *opt_o = 0, *opt_d = 0, *opt_status = 0, *opt_prefix = 0;
    char **files = malloc(sizeof(char *) * (size_t)argc); int nfiles = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && strcmp(a, "-") != 0) {
            if (!allowed(cmd, a)) fail(2, "logstat: unknown option '", a, "'\n");
            if (i + 1 >= argc) fail(2, "logstat: option '", a, "' needs a value\n");
            const char *v = argv[++i];
            if (!strcmp(a, "-n")) opt_n = v; else if (!strcmp(a, "-o")) opt_o = v;
            else if (!strcmp(a, "-d")) opt_d = v; else if (!strcmp(a, "--status")) opt_status = v;
            else opt_prefix = v;
        } else {
            files[nfiles++] = argv[i];
        }
    }
    if (!nfiles) fail(2, "logstat: no input files\n", 0, 0);
    int field = -1; long n = 10;
    if (!strcmp(cmd, "top")) {
        const char *f = files[0];
        field = !strcmp(f, "ip") ? 0 : !strcmp(f, "path") ? 1 : !strcmp(f, "status") ? 2 : -1;
        if (field < 0) fail(2, "logstat: unknown field '", f, "'\n");
        files++; nfiles--;
        if (!nfiles) fail(2, "logstat: no input files\n", 0, 0);
        if (opt_n) {
            int okn = opt_n[0] != 0; n = 0;
            for (const char *p = opt_n; *p; p++) {
                if (!dg(*p)) { okn = 0; break; }
                if (n < 1000000000L) n = n * 10 + (*p - '0');
            }
            if (!okn || n <= 0) fail(2, "logstat: invalid count '", opt_n, "'\n");
        }
    }
    if (!strcmp(cmd, "filter")) {
        if (!opt_o) fail(2, "logstat: filter needs -o FILE\n", 0, 0);
        const char *s = opt_status;
        if (s && !(strlen(s) == 3 && s[0] >= '1' && s[0] <= '5' &&
                   ((s[1] == 'x' && s[2] == 'x') || (dg(s[1]) && dg(s[2])))))
            fail(2, "logstat: invalid status '", s, "'\n");
    }
    if (!strcmp(cmd, "report") && !opt_d) fail(2, "logstat: report needs -d DIR\n", 0, 0);

    load(files, nfiles);
    if (!strcmp(cmd, "summary")) {
        summary();
    } else if (!strcmp(cmd, "top")) {
        top(field, n);
    } else if (!strcmp(cmd, "hourly")) {
        hourly();
        if (opt_o) write_file(opt_o);
    } else if (!strcmp(cmd, "filter")) {
        size_t kept = 0, plen = opt_prefix ? strlen(opt_prefix) : 0;
        const char *s = opt_status;
        for (size_t i = 0; i < nrec; i++) {
            const record *r = &recs[i];
            if (s) {
                if (s[1] == 'x') { if (r->status.p[0] != s[0]) continue; }
                else if (memcmp(r->status.p, s, 3) != 0) continue;
            }
            if (opt_prefix && (r->path.n < plen || memcmp(r->path.p, opt_prefix, plen) != 0)) continue;
            outstr(r->raw); outs("\n"); kept++;
        }
        write_file(opt_o);
        outu(kept); outs(" lines written to "); outs(opt_o); outs("\n");
    } else {
        if (mkdirs(opt_d) != 0) fail(1, "logstat: cannot create '", opt_d, "'\n");
        char path[4200];
        snprintf(path, sizeof path, "%s/summary.txt", opt_d); summary(); write_file(path);
        snprintf(path, sizeof path, "%s/top_paths.tsv", opt_d); top(1, 10); write_file(path);
        snprintf(path, sizeof path, "%s/top_ips.tsv", opt_d); top(0, 10); write_file(path);
        snprintf(path, sizeof path, "%s/hourly.tsv", opt_d); hourly(); write_file(path);
        outs("report written to "); outs(opt_d); outs("\n");
    }
    flush_out();
    if (malformed) {
        char b[96]; int k = snprintf(b, sizeof b, "logstat: warning: %zu malformed line(s) skipped\n", malformed);
        ssize_t ignored = write(2, b, (size_t)k); (void)ignored;
    }
    return 0;
}
