/* The lowest layer of the check-layers tests. */
int base_fn(void) { return 1; }
