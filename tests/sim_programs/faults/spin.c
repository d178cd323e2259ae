/* Never terminates: only the instruction or cycle budget stops it. */
int main(void) {
    volatile unsigned long n = 0;
    for (;;) n++;
}
