/* Tight C reference for benches/search_vs_c.rs: a breadth-first arena of
 * {first child, child count, value} nodes, uniform branching b and depth d,
 * SplitMix64 leaves left to right, root MAX. Recursive minimax and alpha-beta
 * (prune when the bounds are equal). Prints one `key value` per line.
 *
 * usage: ab B D SEED [REPS] */
#include <stdint.h>
#include <stdio.h>
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
    double mm_best = 1e30, ab_best = 1e30;
    int32_t mm = 0, ab = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        mm = minimax(0, 1);
        double t1 = now();
        leaves_read = 0;
        ab = alphabeta(0, INT32_MIN, INT32_MAX, 1);
        double t2 = now();
        if (t1 - t0 < mm_best) mm_best = t1 - t0;
        if (t2 - t1 < ab_best) ab_best = t2 - t1;
    }
    printf("nodes %llu\nleaves %llu\nminimax %d\nalphabeta %d\nleaves_read %llu\n",
           (unsigned long long)n, (unsigned long long)level, mm, ab,
           (unsigned long long)leaves_read);
    printf("minimax_s %.9f\nalphabeta_s %.9f\n", mm_best, ab_best);
    free(nodes);
    return 0;
}
