/* Writes to a string constant: .rodata is mapped read-only (SIGSEGV under
   Linux), so the store must fault. */
static const char msg[] = "hello";

int main(void) {
    char* volatile p = (char*)msg;
    p[0] = 'j';
    return msg[0];
}
