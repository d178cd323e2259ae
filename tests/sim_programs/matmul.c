/* A small compute kernel for timing tests: the same product in a cache-
   friendly (ikj) and a cache-hostile (jki) loop order. argv[1] picks one. */
#include <stdio.h>
#include <stdlib.h>

#define N 96
static double A[N][N], B[N][N], C[N][N];

int main(int argc, char** argv) {
    int hostile = argc > 1 && atoi(argv[1]) == 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * 7 + j * 3) % 17) - 8.0;
            B[i][j] = (double)((i * 5 + j * 11) % 13) - 6.0;
        }
    if (hostile) {
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                for (int i = 0; i < N; i++) C[i][j] += A[i][k] * B[k][j];
    } else {
        for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++)
                for (int j = 0; j < N; j++) C[i][j] += A[i][k] * B[k][j];
    }
    double tr = 0;
    for (int i = 0; i < N; i++) tr += C[i][i] + C[i][N - 1 - i];
    printf("trace %.1f\n", tr);
    return 0;
}
