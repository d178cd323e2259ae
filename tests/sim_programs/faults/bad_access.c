/* Loads from an address far outside the simulated address space. */
int main(void) {
    volatile unsigned long* p = (volatile unsigned long*)0x7000000000000000UL;
    return (int)*p;
}
