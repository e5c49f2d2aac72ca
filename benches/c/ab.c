/* Tight C reference for benches/search_vs_c.rs: a breadth-first arena of
 * {first child, child count, value} nodes, uniform branching b and depth d,
 * SplitMix64 leaves left to right, root MAX. Recursive minimax and alpha-beta
 * (prune when the bounds are equal). Prints one `key value` per line.
 *
 * Two more, the anchors for what treequiz keeps: minimax writing every
 * node's value as treequiz does (16 bytes, malloc), and alpha-beta recording the trace a key
 * prints (the same content as treequiz's `alpha_beta`, fail-soft, left to
 * right): each step packed in 16 bytes, the leaves read, each examined
 * node's last step by level (its bound by id), each cut with the nearest
 * ancestor whose bound caused it, and the pruned roots by id.
 *
 * usage: ab B D SEED [REPS] */
#include <stdint.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
    uint32_t first, count;
    int32_t value;
} Node;

static Node *nodes;
static uint64_t leaves_read;

static int32_t minimax(uint32_t n, int max) {
    const Node *x = &nodes[n];
    if (x->count == 0) return x->value;
    int32_t best = max ? INT32_MIN : INT32_MAX;
    for (uint32_t c = x->first; c < x->first + x->count; c++) {
        int32_t v = minimax(c, !max);
        if (max ? v > best : v < best) best = v;
    }
    return best;
}

static int32_t alphabeta(uint32_t n, int32_t alpha, int32_t beta, int max) {
    const Node *x = &nodes[n];
    if (x->count == 0) {
        leaves_read++;
        return x->value;
    }
    int32_t best = max ? INT32_MIN : INT32_MAX;
    for (uint32_t c = x->first; c < x->first + x->count; c++) {
        int32_t v = alphabeta(c, alpha, beta, !max);
        if (max) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* The value of every node above the deepest level, bottom-up a level at a
 * time (ids grow downwards), as treequiz keeps them: in 16 bytes (a kind and a
 * 64-bit number) from the same allocator, so that both pay the same for
 * memory. The deepest level's leaves are read where the tree holds them. */
typedef struct { int64_t kind, value; } Value16;
static Value16 *minimax_all(uint64_t n, uint64_t inner, uint32_t b, uint32_t d) {
    Value16 *v = malloc(inner * sizeof *v);
    if (!v) abort();
    uint64_t end = inner, width = (n - inner) / b;
    for (uint32_t depth = d; depth-- > 0; width /= b) {
        int max = depth % 2 == 0;
        for (uint64_t i = end - width; i < end; i++) {
            const Node *x = &nodes[i];
            uint32_t last = x->first + x->count;
            int64_t best;
            if (depth + 1 == d) {
                best = nodes[x->first].value;
                for (uint32_t c = x->first + 1; c < last; c++)
                    if (max ? nodes[c].value > best : nodes[c].value < best) best = nodes[c].value;
            } else {
                best = v[x->first].value;
                for (uint32_t c = x->first + 1; c < last; c++)
                    if (max ? v[c].value > best : v[c].value < best) best = v[c].value;
            }
            v[i].kind = 1, v[i].value = best;
        }
        end -= width;
    }
    return v;
}

/* A growable array, doubled as it fills (as a Rust Vec is). */
typedef struct { void *p; size_t len, cap, size; } Vec;
static void *vec_push(Vec *v) {
    if (v->len == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 4;
        v->p = realloc(v->p, v->cap * v->size);
    }
    return (char *)v->p + v->size * v->len++;
}
static void vec_free(Vec *v) { free(v->p); v->p = NULL; v->len = v->cap = 0; }

#define NEG INT64_MIN
#define POS INT64_MAX
enum { ENTER, LEAF, IMPROVE, CUT, EXIT_EXACT, EXIT_AT_MOST, EXIT_AT_LEAST };
typedef struct { int64_t payload; uint32_t node, tags; } Step;
typedef struct { uint32_t node; int is_max, bounded; int64_t own; } Frame;
typedef struct { uint32_t first, len; } Range;
typedef struct {
    uint32_t at, by; /* by: UINT32_MAX for the initial window */
    int64_t at_bound, by_bound;
    Range pruned;
    int alpha;
} Cut;
typedef struct { uint32_t node; int relation; int64_t value; } Claim;

static struct {
    Vec steps, frames, evaluated, cuts, widened, backed, pruned;
    Vec *ends, *skipped; /* one list a level */
} tr;

static void step(uint32_t node, uint32_t code, int64_t payload) {
    Step *s = vec_push(&tr.steps);
    s->payload = payload;
    s->node = node;
    s->tags = code;
}
static void end_at(size_t depth) {
    *(uint32_t *)vec_push(&tr.ends[depth]) = (uint32_t)(tr.steps.len - 1);
}
static int reaches(int is_max, int64_t own, int64_t bound) {
    return is_max ? own >= bound : own <= bound;
}

/* Returns the value backed up; *lo, *hi: the interval the children prove. */
static int64_t traced(uint32_t n, int64_t alpha, int64_t beta, int is_max,
                      int max_bounded, int min_bounded, int64_t *plo, int64_t *phi) {
    const Node *x = &nodes[n];
    if (x->count == 0) {
        leaves_read++;
        *(uint32_t *)vec_push(&tr.evaluated) = n;
        step(n, LEAF, x->value);
        end_at(tr.frames.len);
        *plo = *phi = x->value;
        return x->value;
    }
    step(n, ENTER, 0);
    Frame *f = vec_push(&tr.frames);
    f->node = n, f->is_max = is_max, f->bounded = 0, f->own = is_max ? NEG : POS;
    int64_t own = is_max ? NEG : POS, lo = own, hi = own;
    int64_t opposite = is_max ? beta : alpha;
    int bounded = is_max ? min_bounded : max_bounded;
    for (uint32_t i = 0; i < x->count; i++) {
        uint32_t c = x->first + i;
        int64_t a = alpha, b = beta;
        if (is_max) a = own > alpha ? own : alpha;
        else b = own < beta ? own : beta;
        int64_t clo, chi;
        int64_t v = traced(c, a, b, !is_max, is_max ? (max_bounded || i > 0) : max_bounded,
                           is_max ? min_bounded : (min_bounded || i > 0), &clo, &chi);
        if (is_max) {
            if (clo > lo) lo = clo;
            if (chi > hi) hi = chi;
        } else {
            if (clo < lo) lo = clo;
            if (chi < hi) hi = chi;
        }
        if (i == 0 || (is_max ? v > own : v < own)) {
            own = v;
            Frame *me = (Frame *)tr.frames.p + tr.frames.len - 1;
            me->own = own, me->bounded = 1;
            step(n, IMPROVE, own);
        }
        if (bounded && reaches(is_max, own, opposite)) {
            if (i + 1 < x->count) {
                Frame *fr = tr.frames.p;
                size_t k = tr.frames.len - 1;
                while (k-- > 0)
                    if (fr[k].is_max != is_max && fr[k].bounded && reaches(is_max, own, fr[k].own)) break;
                Cut *cut = vec_push(&tr.cuts);
                cut->at = n, cut->alpha = !is_max, cut->at_bound = own;
                cut->by = k == (size_t)-1 ? UINT32_MAX : fr[k].node;
                cut->by_bound = k == (size_t)-1 ? (is_max ? POS : NEG) : fr[k].own;
                cut->pruned.first = c + 1, cut->pruned.len = x->count - 1 - i;
                *(Range *)vec_push(&tr.skipped[tr.frames.len]) = cut->pruned;
                step(n, CUT, (int64_t)tr.cuts.len - 1);
                if (is_max) hi = POS;
                else lo = NEG;
            }
            break;
        }
    }
    /* The bound stated, and the tighter one the children give (fail-soft: never tighter). */
    uint32_t code = lo == hi ? EXIT_EXACT : hi <= own ? EXIT_AT_MOST : EXIT_AT_LEAST;
    int64_t stated = code == EXIT_EXACT ? lo : own;
    int64_t tight = code == EXIT_AT_MOST ? hi : code == EXIT_AT_LEAST ? lo : stated;
    if (tight != stated) {
        Claim *w = vec_push(&tr.widened);
        w->node = n, w->relation = code, w->value = tight;
    }
    if (code == EXIT_EXACT && stated != own) {
        Claim *w = vec_push(&tr.backed);
        w->node = n, w->relation = own > stated ? EXIT_AT_MOST : EXIT_AT_LEAST, w->value = own;
    }
    tr.frames.len--;
    step(n, code, stated);
    end_at(tr.frames.len);
    *plo = lo, *phi = hi;
    return own;
}

/* The traced search from the root, and the pruned roots listed by id. */
static int64_t alphabeta_traced(uint32_t d) {
    size_t levels = d + 2;
    Vec *lists = calloc(2 * levels, sizeof(Vec));
    tr.ends = lists, tr.skipped = lists + levels;
    tr.steps.size = sizeof(Step), tr.frames.size = sizeof(Frame);
    tr.evaluated.size = sizeof(uint32_t), tr.cuts.size = sizeof(Cut);
    tr.widened.size = tr.backed.size = sizeof(Claim), tr.pruned.size = sizeof(uint32_t);
    for (size_t i = 0; i < levels; i++) lists[i].size = sizeof(uint32_t), lists[levels + i].size = sizeof(Range);
    int64_t lo, hi;
    int64_t v = traced(0, NEG, POS, 1, 0, 0, &lo, &hi);
    size_t total = 0;
    for (size_t l = 0; l < levels; l++)
        for (size_t k = 0; k < tr.skipped[l].len; k++) total += ((Range *)tr.skipped[l].p)[k].len;
    tr.pruned.p = malloc(total * sizeof(uint32_t) + 1), tr.pruned.cap = total;
    for (size_t l = 0; l < levels; l++)
        for (size_t k = 0; k < tr.skipped[l].len; k++) {
            Range r = ((Range *)tr.skipped[l].p)[k];
            for (uint32_t j = 0; j < r.len; j++) ((uint32_t *)tr.pruned.p)[tr.pruned.len++] = r.first + j;
        }
    return v;
}

static size_t trace_bounds(uint32_t d) {
    size_t bounds = 0;
    for (size_t l = 0; l < d + 2; l++) bounds += tr.ends[l].len;
    return bounds;
}

static void trace_free(uint32_t d) {
    vec_free(&tr.steps), vec_free(&tr.frames), vec_free(&tr.evaluated), vec_free(&tr.cuts);
    vec_free(&tr.widened), vec_free(&tr.backed), vec_free(&tr.pruned);
    for (size_t l = 0; l < 2 * (d + 2); l++) vec_free(&tr.ends[l]);
    free(tr.ends);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s B D SEED [REPS]\n", argv[0]);
        return 2;
    }
    uint32_t b = (uint32_t)atoi(argv[1]), d = (uint32_t)atoi(argv[2]);
    uint64_t state = strtoull(argv[3], NULL, 10);
    int reps = argc > 4 ? atoi(argv[4]) : 5;
    /* glibc's thresholds as a process settles after freeing blocks of up to
     * 32 MB (as the Rust side's has by the second tree): a freed trace is
     * kept for the next run, not handed back and faulted in again. Left to
     * themselves they depend on what this short process freed first. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    uint64_t n = 1, level = 1;
    for (uint32_t i = 0; i < d; i++) {
        level *= b;
        n += level;
    }
    nodes = malloc(n * sizeof(Node));
    uint64_t inner = n - level;
    for (uint64_t i = 0; i < n; i++) {
        if (i < inner) {
            nodes[i].first = (uint32_t)(1 + i * b);
            nodes[i].count = b;
            nodes[i].value = 0;
        } else {
            state += 0x9E3779B97F4A7C15ull;
            uint64_t z = state;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            z ^= z >> 31;
            nodes[i].first = 0;
            nodes[i].count = 0;
            nodes[i].value = (int32_t)(z % 2001) - 1000;
        }
    }
    /* Best of `reps` runs, as the Rust side does. */
    double mm_best = 1e30, ab_best = 1e30, all_best = 1e30, tr_best = 1e30;
    int32_t mm = 0, ab = 0, all_root = 0;
    int64_t tr_value = 0;
    uint64_t tr_read = 0;
    size_t steps = 0, cuts = 0, pruned = 0, bounds = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        mm = minimax(0, 1);
        double t1 = now();
        leaves_read = 0;
        ab = alphabeta(0, INT32_MIN, INT32_MAX, 1);
        double t2 = now();
        if (t1 - t0 < mm_best) mm_best = t1 - t0;
        if (t2 - t1 < ab_best) ab_best = t2 - t1;
        uint64_t read = leaves_read;
        /* The anchors: each after a minimax pass, as the Rust side runs them. */
        minimax(0, 1);
        t0 = now();
        Value16 *all = minimax_all(n, inner, b, d);
        t1 = now();
        all_root = (int32_t)all[0].value;
        free(all);
        if (t1 - t0 < all_best) all_best = t1 - t0;
        minimax(0, 1);
        leaves_read = 0;
        t0 = now();
        tr_value = alphabeta_traced(d);
        t1 = now();
        if (t1 - t0 < tr_best) tr_best = t1 - t0;
        tr_read = leaves_read;
        steps = tr.steps.len, cuts = tr.cuts.len, pruned = tr.pruned.len, bounds = trace_bounds(d);
        trace_free(d);
        leaves_read = read;
    }
    printf("nodes %llu\nleaves %llu\nminimax %d\nalphabeta %d\nleaves_read %llu\n",
           (unsigned long long)n, (unsigned long long)level, mm, ab,
           (unsigned long long)leaves_read);
    printf("minimax_s %.9f\nalphabeta_s %.9f\n", mm_best, ab_best);
    printf("all_values_root %d\nall_values_s %.9f\n", all_root, all_best);
    printf("traced_value %lld\ntraced_leaves_read %llu\ntraced_steps %zu\ntraced_cuts %zu\n"
           "traced_pruned %zu\ntraced_bounds %zu\ntraced_s %.9f\n",
           (long long)tr_value, (unsigned long long)tr_read, steps, cuts, pruned, bounds, tr_best);
    free(nodes);
    return 0;
}
